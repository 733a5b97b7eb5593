package user

// AutoTopicPolicy is the value of the automatically_follow_topics_policy
// and automatically_unmute_topics_in_muted_streams_policy settings: when
// sending to a topic makes the sender follow (or unmute) it.
type AutoTopicPolicy int

// The automatic topic policies, with Zulip's values.
const (
	AutoOnParticipation AutoTopicPolicy = 1
	AutoOnSend          AutoTopicPolicy = 2
	AutoOnInitiation    AutoTopicPolicy = 3
	AutoNever           AutoTopicPolicy = 4
)

// Valid reports whether p is one of the four policies.
func (p AutoTopicPolicy) Valid() bool { return p >= AutoOnParticipation && p <= AutoNever }

// Settings are the personal settings the realm needs for its rules. The full
// settings surface (PATCH /settings) grows in its own issue.
type Settings struct {
	ReceivesTypingNotifications                   bool
	AutomaticallyFollowTopicsPolicy               AutoTopicPolicy
	AutomaticallyUnmuteTopicsInMutedStreamsPolicy AutoTopicPolicy
	AutomaticallyFollowTopicsWhereMentioned       bool
	EnterSends                                    bool
	// PresenceEnabled shares the user's presence with the realm; when off,
	// the user's presence is not updated and reads as offline.
	PresenceEnabled bool
}

// DefaultSettings are a new account's settings on a current Zulip server.
func DefaultSettings() Settings {
	return Settings{
		ReceivesTypingNotifications:                   true,
		AutomaticallyFollowTopicsPolicy:               AutoOnInitiation,
		AutomaticallyUnmuteTopicsInMutedStreamsPolicy: AutoOnSend,
		AutomaticallyFollowTopicsWhereMentioned:       true,
		PresenceEnabled:                               true,
	}
}

// SettingError names a personal setting whose value was refused.
type SettingError struct{ Name string }

func (e *SettingError) Error() string { return "Invalid " + e.Name }

// Validate checks every setting's value, naming the first bad one as
// Zulip's API calls it.
func (s Settings) Validate() error {
	if !s.AutomaticallyFollowTopicsPolicy.Valid() {
		return &SettingError{Name: "automatically_follow_topics_policy"}
	}
	if !s.AutomaticallyUnmuteTopicsInMutedStreamsPolicy.Valid() {
		return &SettingError{Name: "automatically_unmute_topics_in_muted_streams_policy"}
	}
	return nil
}
