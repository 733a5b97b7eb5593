package realm

import (
	"slices"
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// Stream is a channel object as GET /streams and register return it.
type Stream struct {
	StreamID                          int    `json:"stream_id"`
	Name                              string `json:"name"`
	Description                       string `json:"description"`
	RenderedDescription               string `json:"rendered_description"`
	DateCreated                       int64  `json:"date_created"`
	CreatorID                         *int   `json:"creator_id"`
	InviteOnly                        bool   `json:"invite_only"`
	IsWebPublic                       bool   `json:"is_web_public"`
	HistoryPublicToSubscribers        bool   `json:"history_public_to_subscribers"`
	FirstMessageID                    *int64 `json:"first_message_id"`
	FolderID                          *int   `json:"folder_id"`
	IsArchived                        bool   `json:"is_archived"`
	MessageRetentionDays              *int   `json:"message_retention_days"`
	StreamPostPolicy                  int    `json:"stream_post_policy"`
	IsAnnouncementOnly                bool   `json:"is_announcement_only"`
	CanAddSubscribersGroup            int    `json:"can_add_subscribers_group"`
	CanAdministerChannelGroup         int    `json:"can_administer_channel_group"`
	CanDeleteAnyMessageGroup          int    `json:"can_delete_any_message_group"`
	CanDeleteOwnMessageGroup          int    `json:"can_delete_own_message_group"`
	CanMoveMessagesOutOfChannelGroup  int    `json:"can_move_messages_out_of_channel_group"`
	CanMoveMessagesWithinChannelGroup int    `json:"can_move_messages_within_channel_group"`
	CanRemoveSubscribersGroup         int    `json:"can_remove_subscribers_group"`
	CanResolveTopicsGroup             int    `json:"can_resolve_topics_group"`
	CanSendMessageGroup               int    `json:"can_send_message_group"`
	CanSubscribeGroup                 int    `json:"can_subscribe_group"`
	SubscriberCount                   int    `json:"subscriber_count"`
	StreamWeeklyTraffic               *int   `json:"stream_weekly_traffic"`
	TopicsPolicy                      string `json:"topics_policy"`
	IsRecentlyActive                  bool   `json:"is_recently_active"`
	IsDefault                         *bool  `json:"is_default,omitempty"`
}

// SubscriptionView is a subscription object: the channel's fields plus the
// user's own properties of it.
type SubscriptionView struct {
	Stream
	Color                  string `json:"color"`
	IsMuted                bool   `json:"is_muted"`
	InHomeView             bool   `json:"in_home_view"`
	PinToTop               bool   `json:"pin_to_top"`
	DesktopNotifications   *bool  `json:"desktop_notifications"`
	EmailNotifications     *bool  `json:"email_notifications"`
	PushNotifications      *bool  `json:"push_notifications"`
	AudibleNotifications   *bool  `json:"audible_notifications"`
	WildcardMentionsNotify *bool  `json:"wildcard_mentions_notify"`
	Subscribers            []int  `json:"subscribers,omitzero"`
}

// streamView builds the API object of a channel; the caller holds the lock.
func (r *Realm) streamView(c *Channel) Stream {
	nobody := r.groupByName[group.Nobody].ID
	v := Stream{
		StreamID: c.ID, Name: c.Name, Description: c.Description, RenderedDescription: c.RenderedDescription,
		DateCreated: c.DateCreated, InviteOnly: c.InviteOnly, IsWebPublic: c.IsWebPublic,
		HistoryPublicToSubscribers: c.HistoryPublicToSubscribers, IsArchived: c.IsArchived,
		MessageRetentionDays: c.MessageRetentionDays, StreamPostPolicy: 1,
		CanAddSubscribersGroup: nobody, CanAdministerChannelGroup: nobody, CanDeleteAnyMessageGroup: nobody,
		CanDeleteOwnMessageGroup: nobody, CanMoveMessagesOutOfChannelGroup: nobody,
		CanMoveMessagesWithinChannelGroup: nobody, CanResolveTopicsGroup: nobody, CanSubscribeGroup: nobody,
		CanRemoveSubscribersGroup: r.groupByName[group.Administrators].ID,
		CanSendMessageGroup:       c.CanSendMessageGroup,
		SubscriberCount:           len(r.subscriberIDs(c.ID)),
		TopicsPolicy:              "inherit", IsRecentlyActive: true,
	}
	if c.CanSendMessageGroup == r.groupByName[group.Administrators].ID {
		v.StreamPostPolicy, v.IsAnnouncementOnly = 2, true
	}
	if c.CreatorID != 0 {
		id := c.CreatorID
		v.CreatorID = &id
	}
	if c.FirstMessageID != 0 {
		id := c.FirstMessageID
		v.FirstMessageID = &id
	}
	return v
}

// subscriptionView builds a user's subscription object.
func (r *Realm) subscriptionView(s *Subscription, withSubscribers bool) SubscriptionView {
	c := r.channels[s.ChannelID]
	v := SubscriptionView{Stream: r.streamView(c), Color: s.Color, IsMuted: s.IsMuted, InHomeView: !s.IsMuted,
		PinToTop: s.PinToTop, DesktopNotifications: s.DesktopNotifications, EmailNotifications: s.EmailNotifications,
		PushNotifications: s.PushNotifications, AudibleNotifications: s.AudibleNotifications,
		WildcardMentionsNotify: s.WildcardMentionsNotify}
	if withSubscribers {
		v.Subscribers = r.subscriberIDs(c.ID)
		slices.Sort(v.Subscribers)
	}
	return v
}

// canSeeChannel reports whether u may know the channel exists: public
// channels for non-guests, others for subscribers (and administrators).
func (r *Realm) canSeeChannel(u *user.User, c *Channel) bool {
	if r.isSubscribed(c.ID, u.ID) || u.Role.IsAdmin() {
		return true
	}
	return !c.InviteOnly && !u.IsGuest()
}

// userSubscriptions lists u's active subscriptions sorted by channel name.
func (r *Realm) userSubscriptions(u *user.User, withSubscribers bool) []SubscriptionView {
	out := []SubscriptionView{}
	for _, c := range r.channels {
		if s := r.subs[c.ID][u.ID]; s != nil && s.Active {
			out = append(out, r.subscriptionView(s, withSubscribers))
		}
	}
	slices.SortFunc(out, func(a, b SubscriptionView) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	return out
}

// fillSubscriptionState is the subscription state section.
func fillSubscriptionState(r *Realm, me *user.User, req *RegisterRequest, out RegisterResult) {
	out["subscriptions"] = r.userSubscriptions(me, req.IncludeSubscribers)
	unsubscribed, never := []SubscriptionView{}, []Stream{}
	for _, c := range r.sortedChannels() {
		s := r.subs[c.ID][me.ID]
		switch {
		case s != nil && !s.Active && r.canSeeChannel(me, c):
			unsubscribed = append(unsubscribed, r.subscriptionView(s, req.IncludeSubscribers))
		case s == nil && r.canSeeChannel(me, c):
			never = append(never, r.streamView(c))
		}
	}
	out["unsubscribed"] = unsubscribed
	out["never_subscribed"] = never
}

// fillStreamState is the stream state section: every channel the user can see.
func fillStreamState(r *Realm, me *user.User, req *RegisterRequest, out RegisterResult) {
	list := []Stream{}
	for _, c := range r.sortedChannels() {
		if r.canSeeChannel(me, c) && (!c.IsArchived || req.Queue.Capabilities.ArchivedChannels) {
			list = append(list, r.streamView(c))
		}
	}
	out["streams"] = list
}

// sortedChannels lists every channel by ID.
func (r *Realm) sortedChannels() []*Channel {
	out := make([]*Channel, 0, len(r.channels))
	for _, c := range r.channels {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *Channel) int { return a.ID - b.ID })
	return out
}
