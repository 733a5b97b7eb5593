package realm

// storedChannel is a stored channel (Zulip's stream).
type storedChannel struct {
	ID                         int
	Name                       string
	Description                string
	RenderedDescription        string
	InviteOnly                 bool
	HistoryPublicToSubscribers bool
	IsWebPublic                bool
	IsArchived                 bool
	DateCreated                int64 // UNIX seconds
	CreatorID                  int   // 0 when unknown
	RecipientID                int
	// FirstMessageID is the id of the oldest message, 0 when none.
	FirstMessageID int64
	// CanSendMessageGroup is the group allowed to post (role:everyone by default).
	CanSendMessageGroup int
	// MessageRetentionDays is nil for the realm default.
	MessageRetentionDays *int
	// Permissions holds the channel's other group settings by Zulip
	// setting name (e.g. "can_remove_subscribers_group"); an absent
	// setting has Zulip's default (see channelGroupSettings).
	Permissions map[string]GroupSetting
	// IsDefault marks a default channel, joined by new users.
	IsDefault bool
	// TopicsPolicy is Zulip's topics_policy name; empty means "inherit".
	TopicsPolicy string
	// FolderID is the channel's folder, 0 when none.
	FolderID int
}

// storedSubscription is a user's subscription to a channel, with its per-user
// properties.
type storedSubscription struct {
	UserID    int
	ChannelID int
	Color     string
	IsMuted   bool
	PinToTop  bool
	Active    bool
	// Notification overrides; nil follows the user's defaults.
	DesktopNotifications   *bool
	AudibleNotifications   *bool
	PushNotifications      *bool
	EmailNotifications     *bool
	WildcardMentionsNotify *bool
}

// historyReadableBy reports whether the whole history of c may be read by a
// user: public channels for non-guests, shared-history private channels for
// subscribers.
func (r *Realm) historyReadableBy(c *storedChannel, userID int) bool {
	u := r.users.byID[userID]
	if u == nil {
		return false
	}
	subscribed := r.isSubscribed(c.ID, userID)
	if !c.InviteOnly && !u.IsGuest() {
		return true
	}
	return subscribed && c.HistoryPublicToSubscribers
}

// isSubscribed reports whether the user has an active subscription.
func (r *Realm) isSubscribed(channelID, userID int) bool {
	s := r.channels.subs[channelID][userID]
	return s != nil && s.Active
}

// subscriberIDs lists the active subscribers of a channel, in no order.
func (r *Realm) subscriberIDs(channelID int) []int {
	out := make([]int, 0, len(r.channels.subs[channelID]))
	for uid, s := range r.channels.subs[channelID] {
		if s.Active {
			out = append(out, uid)
		}
	}
	return out
}
