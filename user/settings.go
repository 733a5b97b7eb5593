package user

// Settings are the personal settings the realm needs for its rules. The full
// settings surface (PATCH /settings) grows in its own issue.
type Settings struct {
	ReceivesTypingNotifications bool
	// AutomaticallyFollowTopicsPolicy and
	// AutomaticallyUnmuteTopicsInMutedStreamsPolicy use Zulip's values:
	// 1 on participation, 2 on send, 3 on initiation, 4 never.
	AutomaticallyFollowTopicsPolicy               int
	AutomaticallyUnmuteTopicsInMutedStreamsPolicy int
	AutomaticallyFollowTopicsWhereMentioned       bool
	EnterSends                                    bool
}

// DefaultSettings are a new account's settings on a current Zulip server.
func DefaultSettings() Settings {
	return Settings{
		ReceivesTypingNotifications:                   true,
		AutomaticallyFollowTopicsPolicy:               3,
		AutomaticallyUnmuteTopicsInMutedStreamsPolicy: 2,
		AutomaticallyFollowTopicsWhereMentioned:       true,
	}
}
