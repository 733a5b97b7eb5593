package realm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file holds the channels table: channels, archived ones included,
// and their subscriptions, with the copy, the fixture dump and load, and
// the stream, subscription and default_streams sections.

// channelTable holds the realm's channels and subscriptions.
type channelTable struct {
	byID   map[int]*storedChannel
	byName map[string]*storedChannel // by channelKey
	nextID int
	// subs maps channel ID to the subscriptions of that channel by user ID.
	subs map[int]map[int]*storedSubscription
}

func (t *channelTable) clone() channelTable {
	c := channelTable{nextID: t.nextID, subs: make(map[int]map[int]*storedSubscription, len(t.subs))}
	c.byID, c.byName = cloneIndexed(t.byID, t.byName, (*storedChannel).clone, func(ch *storedChannel) int { return ch.ID })
	for chID, byUser := range t.subs {
		m := make(map[int]*storedSubscription, len(byUser))
		for uid, s := range byUser {
			m[uid] = s.clone()
		}
		c.subs[chID] = m
	}
	return c
}

func (c *storedChannel) clone() *storedChannel {
	cc := *c
	cc.MessageRetentionDays = cloneIntPtr(c.MessageRetentionDays)
	if c.Permissions != nil {
		cc.Permissions = make(map[string]GroupSetting, len(c.Permissions))
		for name, g := range c.Permissions {
			cc.Permissions[name] = g.Clone()
		}
	}
	return &cc
}

func (s *storedSubscription) clone() *storedSubscription {
	c := *s
	c.DesktopNotifications = cloneBoolPtr(s.DesktopNotifications)
	c.AudibleNotifications = cloneBoolPtr(s.AudibleNotifications)
	c.PushNotifications = cloneBoolPtr(s.PushNotifications)
	c.EmailNotifications = cloneBoolPtr(s.EmailNotifications)
	c.WildcardMentionsNotify = cloneBoolPtr(s.WildcardMentionsNotify)
	return &c
}

// channelKey folds a channel name for case-insensitive lookup.
func channelKey(name string) string { return strings.ToLower(name) }

func (r *Realm) addChannel(name, description string, inviteOnly, historyPublic bool, creator int) *storedChannel {
	c := &storedChannel{
		ID: r.channels.nextID, Name: name, Description: description,
		RenderedDescription:        r.renderer.Render(description),
		InviteOnly:                 inviteOnly,
		HistoryPublicToSubscribers: historyPublic,
		DateCreated:                r.clock.Now().Unix(),
		CreatorID:                  creator,
		RecipientID:                r.allocRecipient(),
		CanSendMessageGroup:        r.groups.byName[group.Everyone].ID,
	}
	r.channels.nextID++
	r.channels.byID[c.ID] = c
	r.channels.byName[channelKey(name)] = c
	r.channels.subs[c.ID] = map[int]*storedSubscription{}
	return c
}

// subscribe makes the user an active subscriber; it reports whether
// anything changed.
func (r *Realm) subscribe(channelID, userID int) bool {
	if s := r.channels.subs[channelID][userID]; s != nil {
		if s.Active {
			return false
		}
		s.Active = true
		return true
	}
	n := 0
	for _, m := range r.channels.subs {
		if m[userID] != nil {
			n++
		}
	}
	r.channels.subs[channelID][userID] = &storedSubscription{
		UserID: userID, ChannelID: channelID, Active: true,
		Color: subscriptionColors[n%len(subscriptionColors)],
	}
	return true
}

// dump adds the channels and their subscriptions to f, by ID.
func (t *channelTable) dump(r *Realm, f *fixture.Document) error {
	for _, id := range slices.Sorted(maps.Keys(r.channels.byID)) {
		c := r.channels.byID[id]
		history := c.HistoryPublicToSubscribers
		fc := fixture.Channel{ID: c.ID, Name: c.Name, Description: c.Description, InviteOnly: c.InviteOnly,
			HistoryPublicToSubscribers: &history, IsWebPublic: c.IsWebPublic, IsArchived: c.IsArchived,
			IsDefault: c.IsDefault, CreatorID: c.CreatorID, DateCreated: c.DateCreated,
			MessageRetentionDays: cloneIntPtr(c.MessageRetentionDays), TopicsPolicy: c.TopicsPolicy,
			CanSendMessageGroup: c.CanSendMessageGroup, FolderID: c.FolderID}
		if len(c.Permissions) > 0 {
			fc.Permissions = map[string]GroupSetting{}
			for name, g := range c.Permissions {
				fc.Permissions[name] = g.Clone()
			}
		}
		f.Channels = append(f.Channels, fc)
		for _, uid := range slices.Sorted(maps.Keys(r.channels.subs[id])) {
			s := r.channels.subs[id][uid]
			f.Subscriptions = append(f.Subscriptions, fixture.Subscription{UserID: uid, ChannelID: id,
				Inactive: !s.Active, Color: s.Color, IsMuted: s.IsMuted, PinToTop: s.PinToTop,
				DesktopNotifications: cloneBoolPtr(s.DesktopNotifications), AudibleNotifications: cloneBoolPtr(s.AudibleNotifications),
				PushNotifications: cloneBoolPtr(s.PushNotifications), EmailNotifications: cloneBoolPtr(s.EmailNotifications),
				WildcardMentionsNotify: cloneBoolPtr(s.WildcardMentionsNotify)})
		}
	}
	return nil
}

// load adds the document's channels, the realm's moderation request
// channel, then the subscriptions.
func (t *channelTable) load(r *Realm, f *fixture.Document) error {
	if err := t.loadChannels(r, f); err != nil {
		return err
	}
	if err := r.loadAnnouncementChannel(signupAnnouncements, f); err != nil {
		return err
	}
	if err := r.loadAnnouncementChannel(newChannelAnnouncements, f); err != nil {
		return err
	}
	if err := r.loadModerationChannel(f); err != nil {
		return err
	}
	return r.loadSubscriptions(f)
}

func (t *channelTable) loadChannels(r *Realm, f *fixture.Document) error {
	everyone := r.groups.byName[group.Everyone].ID
	ids := []int{}
	for i, fc := range f.Channels {
		at := fmt.Sprintf("channels[%d]", i)
		if fc.ID <= 0 || r.channels.byID[fc.ID] != nil {
			return badItem(at+".id", "%s channel ID %d", invalidOrDuplicate(fc.ID <= 0), fc.ID)
		}
		name := strings.TrimSpace(fc.Name)
		if err := checkChannelName(name, r.opts.Limits.MaxStreamNameLength); err != nil {
			return badItem(at+".name", "%s", reason(err))
		}
		if r.channels.byName[channelKey(name)] != nil {
			return badItem(at+".name", "duplicate channel name %q", fc.Name)
		}
		history := !fc.InviteOnly
		if fc.HistoryPublicToSubscribers != nil {
			history = *fc.HistoryPublicToSubscribers
		}
		if !fc.InviteOnly && !history {
			return badItem(at+".history_public_to_subscribers", "a public channel's history is public")
		}
		if fc.CreatorID != 0 && r.users.byID[fc.CreatorID] == nil {
			return badItem(at+".creator_id", "no user %d", fc.CreatorID)
		}
		if fc.TopicsPolicy != "" && !slices.Contains(topicsPolicies, fc.TopicsPolicy) {
			return badItem(at+".topics_policy", "unknown policy %q", fc.TopicsPolicy)
		}
		if d := fc.MessageRetentionDays; d != nil && *d != -1 && *d <= 0 {
			return badItem(at+".message_retention_days", "%d is neither -1 (unlimited) nor a positive number of days", *d)
		}
		if fc.FolderID != 0 && r.folderByID(fc.FolderID) == nil {
			return badItem(at+".folder_id", "no channel folder %d", fc.FolderID)
		}
		sendGroup := everyone
		if fc.CanSendMessageGroup != 0 {
			if r.groups.byID[fc.CanSendMessageGroup] == nil {
				return badItem(at+".can_send_message_group", "no group %d", fc.CanSendMessageGroup)
			}
			sendGroup = fc.CanSendMessageGroup
		}
		var perms map[string]GroupSetting
		for _, name := range slices.Sorted(maps.Keys(fc.Permissions)) {
			i := slices.IndexFunc(channelGroupSettings, func(rule channelSettingRule) bool { return rule.name == name })
			if i < 0 || name == "can_send_message_group" {
				return badItem(at+".permissions."+name, "unknown channel permission (can_send_message_group has its own field)")
			}
			v := fc.Permissions[name]
			if err := r.checkFixtureGroupSetting(at+".permissions."+name, v); err != nil {
				return err
			}
			if err := r.checkSettingForm("channel", name, v); err != nil {
				return badItem(at+".permissions."+name, "%s at this feature level", err.(*Error).Msg)
			}
			if err := r.checkFixtureSettingValue(at+".permissions."+name, "stream", name, v); err != nil {
				return err
			}
			if perms == nil {
				perms = map[string]GroupSetting{}
			}
			perms[name] = v.Clone()
		}
		r.channels.nextID = fc.ID
		c := r.addChannel(name, fc.Description, fc.InviteOnly, history, fc.CreatorID)
		c.IsWebPublic, c.IsArchived, c.IsDefault = fc.IsWebPublic, fc.IsArchived, fc.IsDefault
		if fc.DateCreated != 0 {
			c.DateCreated = fc.DateCreated
		}
		c.MessageRetentionDays = cloneIntPtr(fc.MessageRetentionDays)
		c.TopicsPolicy, c.CanSendMessageGroup, c.Permissions = fc.TopicsPolicy, sendGroup, perms
		c.FolderID = fc.FolderID
		ids = append(ids, fc.ID)
	}
	r.channels.nextID = nextAfter(1, ids...)
	return nil
}

// loadModerationChannel applies the moderation request channel setting
// once the channels are in: -1 (reporting off) or a private channel of
// the document, as PATCH /realm requires.
func (r *Realm) loadModerationChannel(f *fixture.Document) error {
	const at = "settings.moderation_request_channel_id"
	id := f.Settings.ModerationRequestChannelID
	if id < 0 {
		if id != -1 {
			return badItem(at, "%d is neither -1 (reporting off) nor a channel ID", id)
		}
		r.settings.ModerationRequestChannelID = 0
		return nil
	}
	ch := r.channels.byID[id]
	if ch == nil {
		return badItem(at, "no channel %d", id)
	}
	if !ch.InviteOnly {
		return badItem(at, "channel %d is not private", id)
	}
	r.settings.ModerationRequestChannelID = id
	return nil
}

func (r *Realm) loadSubscriptions(f *fixture.Document) error {
	for i, fs := range f.Subscriptions {
		at := fmt.Sprintf("subscriptions[%d]", i)
		if r.users.byID[fs.UserID] == nil {
			return badItem(at+".user_id", "no user %d", fs.UserID)
		}
		if r.channels.byID[fs.ChannelID] == nil {
			return badItem(at+".channel_id", "no channel %d", fs.ChannelID)
		}
		if r.channels.subs[fs.ChannelID][fs.UserID] != nil {
			return badItem(at, "duplicate subscription of user %d to channel %d", fs.UserID, fs.ChannelID)
		}
		if fs.Color != "" && !colorPattern.MatchString(fs.Color) {
			return badItem(at+".color", "%q is not a hex color code", fs.Color)
		}
		r.subscribe(fs.ChannelID, fs.UserID)
		s := r.channels.subs[fs.ChannelID][fs.UserID]
		if fs.Color != "" {
			s.Color = fs.Color
		}
		s.Active, s.IsMuted, s.PinToTop = !fs.Inactive, fs.IsMuted, fs.PinToTop
		s.DesktopNotifications, s.AudibleNotifications = cloneBoolPtr(fs.DesktopNotifications), cloneBoolPtr(fs.AudibleNotifications)
		s.PushNotifications, s.EmailNotifications = cloneBoolPtr(fs.PushNotifications), cloneBoolPtr(fs.EmailNotifications)
		s.WildcardMentionsNotify = cloneBoolPtr(fs.WildcardMentionsNotify)
	}
	return nil
}

func (t *channelTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("stream") {
		fillStreamState(r, me, req, out)
	}
	if req.fetches("subscription") {
		fillSubscriptionState(r, me, req, out)
	}
	if req.fetches("default_streams") {
		fillDefaultChannels(r, me, req, out)
	}
}
