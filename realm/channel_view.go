package realm

import (
	"context"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// GroupSetting is a group-setting value (group.Setting): a named user
// group, or an anonymous group of direct members and subgroups.
type GroupSetting = group.Setting

// NamedGroupSetting is the setting value naming one user group.
func NamedGroupSetting(groupID int) GroupSetting { return group.Named(groupID) }

// channelSettingRule is one channel group setting: its default and whether
// role:everyone is allowed as its value.
type channelSettingRule struct {
	name          string
	def           string // a system group name, or channelCreator
	allowEveryone bool
}

// channelCreator is the default meaning "an anonymous group of the
// channel's creator" (role:nobody for channels without a creator).
const channelCreator = "channel_creator"

// channelGroupSettings are Zulip's channel permission settings.
var channelGroupSettings = []channelSettingRule{
	{"can_add_subscribers_group", group.Nobody, false},
	{"can_administer_channel_group", channelCreator, false},
	{"can_create_topic_group", group.Everyone, true},
	{"can_delete_any_message_group", group.Nobody, true},
	{"can_delete_own_message_group", group.Nobody, true},
	{"can_move_messages_out_of_channel_group", group.Nobody, true},
	{"can_move_messages_within_channel_group", group.Nobody, true},
	{"can_remove_subscribers_group", group.Administrators, true},
	{"can_resolve_topics_group", group.Nobody, true},
	{"can_send_message_group", group.Everyone, true},
	{"can_subscribe_group", group.Nobody, false},
}

// ChannelGroupSettingNames are the API names of the channel permission
// settings (can_send_message_group, …), in Zulip's order: the one list
// the adapter reads parameters by.
func ChannelGroupSettingNames() []string {
	names := make([]string, len(channelGroupSettings))
	for i, rule := range channelGroupSettings {
		names[i] = rule.name
	}
	return names
}

// devDefaultChannels are the dev server's default channels.
var devDefaultChannels = map[string]bool{"Verona": true, "design": true, "devel": true, "social": true, "support": true}

// channelSetting is the value of one group setting of c, defaults applied.
func (r *Realm) channelSetting(c *storedChannel, name string) GroupSetting {
	if name == "can_send_message_group" {
		return NamedGroupSetting(c.CanSendMessageGroup)
	}
	if v, ok := c.Permissions[name]; ok {
		return v
	}
	for _, rule := range channelGroupSettings {
		if rule.name == name && rule.def != channelCreator {
			return NamedGroupSetting(r.groups.byName[rule.def].ID)
		}
	}
	return NamedGroupSetting(r.groups.byName[group.Nobody].ID)
}

// settingHas reports whether the user belongs to a group-setting value.
func (r *Realm) settingHas(g GroupSetting, userID int) bool {
	if g.GroupID != 0 {
		return r.inGroup(g.GroupID, userID)
	}
	if u := r.users.byID[userID]; u != nil && u.IsActive && slices.Contains(g.DirectMembers, userID) {
		return true
	}
	return slices.ContainsFunc(g.DirectSubgroups, func(id int) bool { return r.inGroup(id, userID) })
}

// channelAllows reports whether the user is in the channel's setting.
func (r *Realm) channelAllows(c *storedChannel, setting string, userID int) bool {
	return r.settingHas(r.channelSetting(c, setting), userID)
}

// hasContentAccess reports whether u may read c's messages and join it:
// web-public channels, subscriptions, and, for non-guests, public channels
// and private ones whose can_subscribe_group or can_add_subscribers_group
// holds them (can_add_subscribers_group from changeChannelAdminAccess).
func (r *Realm) hasContentAccess(u *user.User, c *storedChannel) bool {
	if c.IsWebPublic || r.isSubscribed(c.ID, u.ID) {
		return true
	}
	if u.IsGuest() {
		return false
	}
	return !c.InviteOnly || r.canSubscribeByGroup(u, c) ||
		r.has(changeChannelAdminAccess) && r.channelAllows(c, "can_add_subscribers_group", u.ID)
}

// canSubscribeByGroup: c's can_subscribe_group holds u, from feature
// level 357, where the setting came.
func (r *Realm) canSubscribeByGroup(u *user.User, c *storedChannel) bool {
	return r.has(changeCanSubscribeGroup) && r.channelAllows(c, "can_subscribe_group", u.ID)
}

// hasMetadataAccess reports whether u may know c exists: content access,
// or for non-guests administrators and the channel's administer, add and
// subscribe groups (from changeChannelAdminAccess).
func (r *Realm) hasMetadataAccess(u *user.User, c *storedChannel) bool {
	if c.IsWebPublic || r.isSubscribed(c.ID, u.ID) {
		return true
	}
	if u.IsGuest() {
		return false
	}
	if !c.InviteOnly || u.Role.IsAdmin() {
		return true
	}
	if !r.has(changeChannelAdminAccess) {
		return false // below 349 the groups gave no sight of a private channel
	}
	return r.channelAllows(c, "can_administer_channel_group", u.ID) ||
		r.channelAllows(c, "can_add_subscribers_group", u.ID) ||
		r.canSubscribeByGroup(u, c)
}

// metadataAudience lists the active users with metadata access to c.
func (r *Realm) metadataAudience(c *storedChannel) []int {
	var out []int
	for id, u := range r.users.byID {
		if u.IsActive && !u.IsSystemBot && r.hasMetadataAccess(u, c) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// peerAudience lists who hears that c's subscribers changed (peer_add,
// peer_remove): its metadata audience, but below
// changeGuestWebPublicEvents a guest only for a private channel, as
// servers before Zulip 8.0 left guests out of public channels' peer
// events.
func (r *Realm) peerAudience(c *storedChannel) []int {
	ids := r.metadataAudience(c)
	if c.InviteOnly || r.has(changeGuestWebPublicEvents) {
		return ids
	}
	return slices.DeleteFunc(ids, func(id int) bool { return r.users.byID[id].IsGuest() })
}

// creationAudience lists who hears that c was created: its metadata
// audience, but below changeGuestWebPublicEvents no guest who is not
// subscribed to it (a web-public channel's creation missed them).
func (r *Realm) creationAudience(c *storedChannel) []int {
	ids := r.metadataAudience(c)
	if r.has(changeGuestWebPublicEvents) {
		return ids
	}
	return slices.DeleteFunc(ids, func(id int) bool { return r.users.byID[id].IsGuest() && !r.isSubscribed(c.ID, id) })
}

// Stream is a channel object as GET /streams and register return it.
type Stream struct {
	StreamID                          int          `json:"stream_id"`
	Name                              string       `json:"name"`
	Description                       string       `json:"description"`
	RenderedDescription               string       `json:"rendered_description"`
	DateCreated                       int64        `json:"date_created"`
	CreatorID                         *int         `json:"creator_id"`
	InviteOnly                        bool         `json:"invite_only"`
	IsWebPublic                       bool         `json:"is_web_public"`
	HistoryPublicToSubscribers        bool         `json:"history_public_to_subscribers"`
	FirstMessageID                    *int64       `json:"first_message_id"`
	FolderID                          *int         `json:"folder_id"`
	IsArchived                        bool         `json:"is_archived"`
	IsRecentlyActive                  bool         `json:"is_recently_active"`
	MessageRetentionDays              *int         `json:"message_retention_days"`
	StreamPostPolicy                  int          `json:"stream_post_policy"`
	IsAnnouncementOnly                bool         `json:"is_announcement_only"`
	CanAddSubscribersGroup            GroupSetting `json:"can_add_subscribers_group"`
	CanAdministerChannelGroup         GroupSetting `json:"can_administer_channel_group"`
	CanCreateTopicGroup               GroupSetting `json:"can_create_topic_group"`
	CanDeleteAnyMessageGroup          GroupSetting `json:"can_delete_any_message_group"`
	CanDeleteOwnMessageGroup          GroupSetting `json:"can_delete_own_message_group"`
	CanMoveMessagesOutOfChannelGroup  GroupSetting `json:"can_move_messages_out_of_channel_group"`
	CanMoveMessagesWithinChannelGroup GroupSetting `json:"can_move_messages_within_channel_group"`
	CanRemoveSubscribersGroup         GroupSetting `json:"can_remove_subscribers_group"`
	CanResolveTopicsGroup             GroupSetting `json:"can_resolve_topics_group"`
	CanSendMessageGroup               GroupSetting `json:"can_send_message_group"`
	CanSubscribeGroup                 GroupSetting `json:"can_subscribe_group"`
	SubscriberCount                   int          `json:"subscriber_count"`
	StreamWeeklyTraffic               *int         `json:"stream_weekly_traffic"`
	TopicsPolicy                      string       `json:"topics_policy"`
	// IsDefault is sent only when GET /streams is asked include_default.
	IsDefault *bool `json:"is_default,omitempty"`
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
	// Subscribers is sent only when asked for (include_subscribers);
	// PartialSubscribers instead of it for a large channel when asked
	// include_subscribers "partial".
	Subscribers        []int `json:"subscribers,omitzero"`
	PartialSubscribers []int `json:"partial_subscribers,omitzero"`
	// EmailAddress is the channel's email address, sent below feature
	// level 226 only (legacyEmailAddress).
	EmailAddress string `json:"email_address,omitempty"`
}

// NeverSubscribedView is a channel of register's never_subscribed list.
type NeverSubscribedView struct {
	Stream
	Subscribers        []int `json:"subscribers,omitzero"`
	PartialSubscribers []int `json:"partial_subscribers,omitzero"`
}

// streamPostPolicies maps can_send_message_group's system groups to the
// legacy stream_post_policy; any other value reads as 1 (everyone).
var streamPostPolicies = map[string]int{group.Administrators: 2, group.FullMembers: 3, group.Moderators: 4}

// streamView builds the API object of a channel; the caller holds the lock.
func (r *Realm) streamView(c *storedChannel) Stream {
	set := func(name string) GroupSetting { return r.apiGroupSetting(r.channelSetting(c, name)) }
	v := Stream{
		StreamID: c.ID, Name: c.Name, Description: c.Description, RenderedDescription: c.RenderedDescription,
		DateCreated: c.DateCreated, InviteOnly: c.InviteOnly, IsWebPublic: c.IsWebPublic,
		HistoryPublicToSubscribers: c.HistoryPublicToSubscribers, IsArchived: c.IsArchived, IsRecentlyActive: true,
		MessageRetentionDays: c.MessageRetentionDays, StreamPostPolicy: 1,
		CanAddSubscribersGroup:            set("can_add_subscribers_group"),
		CanAdministerChannelGroup:         set("can_administer_channel_group"),
		CanCreateTopicGroup:               set("can_create_topic_group"),
		CanDeleteAnyMessageGroup:          set("can_delete_any_message_group"),
		CanDeleteOwnMessageGroup:          set("can_delete_own_message_group"),
		CanMoveMessagesOutOfChannelGroup:  set("can_move_messages_out_of_channel_group"),
		CanMoveMessagesWithinChannelGroup: set("can_move_messages_within_channel_group"),
		CanRemoveSubscribersGroup:         set("can_remove_subscribers_group"),
		CanResolveTopicsGroup:             set("can_resolve_topics_group"),
		CanSendMessageGroup:               set("can_send_message_group"),
		CanSubscribeGroup:                 set("can_subscribe_group"),
		SubscriberCount:                   len(r.activeSubscriberIDs(c.ID)),
		TopicsPolicy:                      c.TopicsPolicy,
	}
	if v.TopicsPolicy == "" {
		v.TopicsPolicy = "inherit"
	}
	if g := r.groups.byID[c.CanSendMessageGroup]; g != nil && g.IsSystem {
		if p, ok := streamPostPolicies[g.Name]; ok {
			v.StreamPostPolicy = p
		}
	}
	v.IsAnnouncementOnly = v.StreamPostPolicy == 2
	if c.CreatorID != 0 {
		id := c.CreatorID
		v.CreatorID = &id
	}
	if c.FirstMessageID != 0 {
		id := c.FirstMessageID
		v.FirstMessageID = &id
	}
	if c.FolderID != 0 {
		id := c.FolderID
		v.FolderID = &id
	}
	return v
}

// apiGroupSetting is a setting value as sent (Zulip's GroupSettingValue)
// in every answer and event: from feature level 303
// (changeDeactivatedMembersHidden) deactivated users are left out of an
// anonymous group's members, below it they stay in; both lists sorted.
func (r *Realm) apiGroupSetting(g GroupSetting) GroupSetting {
	if g.GroupID != 0 {
		return g
	}
	out := GroupSetting{DirectMembers: []int{}, DirectSubgroups: slices.Sorted(slices.Values(g.DirectSubgroups))}
	for _, id := range g.DirectMembers {
		if r.shownAsGroupMember(id) {
			out.DirectMembers = append(out.DirectMembers, id)
		}
	}
	slices.Sort(out.DirectMembers)
	if out.DirectSubgroups == nil {
		out.DirectSubgroups = []int{}
	}
	return out
}

// activeSubscriberIDs lists the channel's subscribers whose accounts are
// active, sorted.
func (r *Realm) activeSubscriberIDs(channelID int) []int {
	out := []int{}
	for _, id := range r.subscriberIDs(channelID) {
		if u := r.users.byID[id]; u != nil && u.IsActive {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// subscriptionView builds a user's subscription object.
func (r *Realm) subscriptionView(s *storedSubscription, want subscribersWanted) SubscriptionView {
	c := r.channels.byID[s.ChannelID]
	v := SubscriptionView{Stream: r.streamView(c), Color: s.Color, IsMuted: s.IsMuted, InHomeView: !s.IsMuted,
		PinToTop: s.PinToTop, DesktopNotifications: s.DesktopNotifications, EmailNotifications: s.EmailNotifications,
		PushNotifications: s.PushNotifications, AudibleNotifications: s.AudibleNotifications,
		WildcardMentionsNotify: s.WildcardMentionsNotify, EmailAddress: r.legacyEmailAddress(r.users.byID[s.UserID], c)}
	v.Subscribers, v.PartialSubscribers = r.channelSubscribers(c.ID, want)
	return v
}

// userSubscriptions lists u's active subscriptions sorted by channel name,
// archived channels only when asked.
func (r *Realm) userSubscriptions(u *user.User, want subscribersWanted, withArchived bool) []SubscriptionView {
	out := []SubscriptionView{}
	for _, c := range r.channelsByNameOrder() {
		if s := r.channels.subs[c.ID][u.ID]; s != nil && s.Active && (withArchived || !c.IsArchived) {
			out = append(out, r.subscriptionView(s, want))
		}
	}
	return out
}

// fillSubscriptionState is the subscription state section: subscriptions,
// past subscriptions the user may still know about, and the other
// channels the user can see, each sorted by name.
func fillSubscriptionState(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	withArchived := req.Queue.Capabilities.ArchivedChannels
	want := wantedSubscribers(req.IncludeSubscribers, req.PartialSubscribers)
	state := &SubscriptionState{Subscriptions: r.userSubscriptions(me, want, withArchived)}
	unsubscribed, never := []SubscriptionView{}, []NeverSubscribedView{}
	for _, c := range r.channelsByNameOrder() {
		if c.IsArchived && !withArchived {
			continue
		}
		s := r.channels.subs[c.ID][me.ID]
		switch {
		case s != nil && !s.Active && r.hasMetadataAccess(me, c):
			unsubscribed = append(unsubscribed, r.subscriptionView(s, want))
		case s == nil && c.IsArchived && !r.has(changeArchivedNeverSubscribed):
			// Before 362 archived channels were never listed here.
		case s == nil && r.hasMetadataAccess(me, c):
			v := NeverSubscribedView{Stream: r.streamView(c)}
			v.Subscribers, v.PartialSubscribers = r.channelSubscribers(c.ID, want)
			never = append(never, v)
		}
	}
	state.Unsubscribed, state.NeverSubscribed = unsubscribed, never
	out.SubscriptionState = state
}

// fillStreamState is the stream state section: every channel the user
// has metadata access to, as GET /streams with include_all.
func fillStreamState(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	q := ChannelsQuery{IncludeAll: true, IncludeWebPublic: true, ExcludeArchived: !req.Queue.Capabilities.ArchivedChannels}
	if me.IsGuest() && !r.has(changeRegisterWebPublicStreams) {
		// Before 205 a guest's streams were its subscriptions only,
		// web-public channels left out.
		q = ChannelsQuery{IncludeSubscribed: true, ExcludeArchived: q.ExcludeArchived}
	}
	out.StreamState = &StreamState{Streams: r.channelViews(me, q)}
}

// channelsByNameOrder lists every channel sorted by name, as Zulip sorts
// channel lists (by code point, case-sensitive).
func (r *Realm) channelsByNameOrder() []*storedChannel {
	out := make([]*storedChannel, 0, len(r.channels.byID))
	for _, c := range r.channels.byID {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *storedChannel) int {
		if n := strings.Compare(a.Name, b.Name); n != 0 {
			return n
		}
		return a.ID - b.ID
	})
	return out
}

// ChannelsQuery is the filter of GET /streams.
type ChannelsQuery struct {
	IncludePublic, IncludeWebPublic, IncludeSubscribed bool
	// IncludeAll lists every channel the user has metadata access to
	// (include_all, formerly include_all_active).
	IncludeAll bool
	// IncludeCanAccessContent lists every channel the user can read.
	IncludeCanAccessContent bool
	// IncludeDefault adds is_default to each channel.
	IncludeDefault bool
	// IncludeOwnerSubscribed adds, for a bot, its owner's subscriptions.
	IncludeOwnerSubscribed bool
	ExcludeArchived        bool
}

// DefaultChannelsQuery is GET /streams without parameters.
func DefaultChannelsQuery() ChannelsQuery {
	return ChannelsQuery{IncludePublic: true, IncludeSubscribed: true, ExcludeArchived: true}
}

// Channels answers GET /streams: the channels q selects among those the
// caller may see, sorted by name.
func (a *Actor) Channels(ctx context.Context, q ChannelsQuery) (ans []Stream, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ans = r.channelViews(me, q)
		return nil
	})
	return ans, err
}

// channelViews selects channels for GET /streams and register.
func (r *Realm) channelViews(me *user.User, q ChannelsQuery) []Stream {
	includePublic := q.IncludePublic && !me.IsGuest()
	ownerID := 0
	if q.IncludeOwnerSubscribed && me.IsBot() {
		ownerID = me.BotOwnerID
	}
	out := []Stream{}
	for _, c := range r.channelsByNameOrder() {
		if q.ExcludeArchived && c.IsArchived {
			continue
		}
		var ok bool
		switch {
		case q.IncludeAll:
			ok = r.hasMetadataAccess(me, c)
		case q.IncludeCanAccessContent:
			ok = r.hasContentAccess(me, c)
		default:
			ok = (q.IncludeSubscribed && r.isSubscribed(c.ID, me.ID)) ||
				(includePublic && !c.InviteOnly) ||
				(q.IncludeWebPublic && c.IsWebPublic && !c.InviteOnly && !c.IsArchived)
		}
		if !ok && !q.IncludeAll && ownerID != 0 {
			ok = r.isSubscribed(c.ID, ownerID)
		}
		if !ok {
			continue
		}
		v := r.streamView(c)
		if q.IncludeDefault {
			isDefault := c.IsDefault
			v.IsDefault = &isDefault
		}
		out = append(out, v)
	}
	return out
}

// ChannelID answers GET /get_stream_id: the ID of an active channel the
// caller can read, found by name in any case.
func (a *Actor) ChannelID(ctx context.Context, name string) (ans int, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		c := r.channels.byName[channelKey(strings.TrimSpace(name))]
		if c == nil || c.IsArchived || !r.hasContentAccess(me, c) {
			return BadRequest("Invalid channel name '%s'", name)
		}
		ans = c.ID
		return nil
	})
	return ans, err
}
