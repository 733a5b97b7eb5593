package realm

import (
	"maps"
	"slices"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// This file copies a realm's state for snapshots, restores and forks.
// Messages and personal copies are shared copy-on-write (store.Clone and
// message_cow.go); everything else is small and copied deeply, so that
// nothing one realm (or snapshot) changes in place is seen by another.
// What may be shared is what is never changed in place: strings, linkifiers
// (replaced whole on update), emoji images and uploaded bytes.

// copyStateFrom makes r's state a copy of src's: every table, counter and
// message. The caller holds r's write lock and has src to itself (src's
// store is marked shared as it is cloned). It leaves alone what is not
// state: options, clock, renderer, event queues, snapshot bookkeeping,
// the delivery timer (rearmAfterCopy sets it for the items copied).
func (r *tables) copyRest(src *tables) {
	r.settings = src.settings.clone()
	r.fakeEmailDomain = src.fakeEmailDomain

	r.users = make(map[int]*user.User, len(src.users))
	for id, u := range src.users {
		r.users[id] = cloneUser(u)
	}
	r.usersByEmail = make(map[string]*user.User, len(src.usersByEmail))
	for email, u := range src.usersByEmail {
		r.usersByEmail[email] = r.users[u.ID]
	}
	r.nextUserID = src.nextUserID

	r.channels = make(map[int]*storedChannel, len(src.channels))
	for id, c := range src.channels {
		r.channels[id] = c.clone()
	}
	r.channelsByName = make(map[string]*storedChannel, len(src.channelsByName))
	for name, c := range src.channelsByName {
		r.channelsByName[name] = r.channels[c.ID]
	}
	r.nextChannelID = src.nextChannelID
	r.subs = make(map[int]map[int]*storedSubscription, len(src.subs))
	for chID, byUser := range src.subs {
		m := make(map[int]*storedSubscription, len(byUser))
		for uid, s := range byUser {
			m[uid] = s.clone()
		}
		r.subs[chID] = m
	}

	r.groups = make(map[int]*group.Group, len(src.groups))
	for id, g := range src.groups {
		r.groups[id] = cloneGroup(g)
	}
	r.groupByName = make(map[string]*group.Group, len(src.groupByName))
	for name, g := range src.groupByName {
		r.groupByName[name] = r.groups[g.ID]
	}
	r.nextGroupID = src.nextGroupID

	r.nextRecipientID = src.nextRecipientID
	r.personalRecipient = maps.Clone(src.personalRecipient)
	r.conversations = make(map[string]*conversation, len(src.conversations))
	for key, c := range src.conversations {
		cc := *c
		cc.userIDs = slices.Clone(c.userIDs)
		r.conversations[key] = &cc
	}

	r.messages = src.messages.Clone()
	r.nextMessageID = src.nextMessageID
	r.nextSubmessageID = src.nextSubmessageID

	r.profileFields = slices.Clone(src.profileFields)
	r.nextProfileFieldID = src.nextProfileFieldID
	r.linkifiers = slices.Clone(src.linkifiers) // *Linkifier values are replaced, never changed
	r.nextLinkifierID = src.nextLinkifierID
	r.realmEmoji = make([]*storedEmoji, len(src.realmEmoji))
	for i, e := range src.realmEmoji {
		r.realmEmoji[i] = e.clone()
	}
	r.snippets = cloneNested(src.snippets, func(s *SavedSnippet) *SavedSnippet { c := *s; return &c })
	r.navigationViews = cloneNested(src.navigationViews, func(v *NavigationView) *NavigationView { c := *v; return &c })
	r.nextSnippetID = src.nextSnippetID
	r.settingsDefaults = src.settingsDefaults
	r.playgrounds = slices.Clone(src.playgrounds)
	r.nextPlaygroundID = src.nextPlaygroundID
	r.channelFolders = nil
	for _, f := range src.channelFolders {
		c := *f
		r.channelFolders = append(r.channelFolders, &c)
	}
	r.nextChannelFolderID = src.nextChannelFolderID
	r.mutedUsers = cloneNested(src.mutedUsers, func(m MutedUser) MutedUser { return m })
	r.alertWords = cloneNested(src.alertWords, func(w string) string { return w })
	r.storage = nil
	for uid, s := range src.storage {
		if r.storage == nil {
			r.storage = make(map[int]user.Storage, len(src.storage))
		}
		r.storage[uid] = maps.Clone(s)
	}
	r.userTopics = make(map[int]map[topicRef]*UserTopic, len(src.userTopics))
	for uid, byTopic := range src.userTopics {
		m := make(map[topicRef]*UserTopic, len(byTopic))
		for ref, ut := range byTopic {
			c := *ut
			m[ref] = &c
		}
		r.userTopics[uid] = m
	}

}

// clonePointerMap copies a map of pointers to plain structs, each value
// copied.
func clonePointerMap[K comparable, V any](m map[K]*V) map[K]*V {
	if m == nil {
		return nil
	}
	out := make(map[K]*V, len(m))
	for k, v := range m {
		c := *v
		out[k] = &c
	}
	return out
}

// cloneNested copies a map of slices, each element copied by cp.
func cloneNested[K comparable, V any](m map[K][]V, cp func(V) V) map[K][]V {
	if m == nil {
		return nil
	}
	out := make(map[K][]V, len(m))
	for k, list := range m {
		c := make([]V, len(list))
		for i, v := range list {
			c[i] = cp(v)
		}
		out[k] = c
	}
	return out
}

// cloneIntPtr copies an optional number.
func cloneIntPtr(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneBoolPtr copies an optional flag.
func cloneBoolPtr(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (s Settings) clone() Settings {
	s.MessageContentEditLimitSeconds = cloneIntPtr(s.MessageContentEditLimitSeconds)
	s.MoveMessagesWithinStreamLimitSeconds = cloneIntPtr(s.MoveMessagesWithinStreamLimitSeconds)
	s.MoveMessagesBetweenStreamsLimitSeconds = cloneIntPtr(s.MoveMessagesBetweenStreamsLimitSeconds)
	s.MessageContentDeleteLimitSeconds = cloneIntPtr(s.MessageContentDeleteLimitSeconds)
	for _, g := range []*GroupSetting{&s.CanMentionManyUsersGroup, &s.CanMoveMessagesBetweenTopicsGroup,
		&s.CanMoveMessagesBetweenChannelsGroup, &s.CanResolveTopicsGroup, &s.CanDeleteOwnMessageGroup,
		&s.CanDeleteAnyMessageGroup, &s.CanCreatePublicChannelGroup, &s.CanCreatePrivateChannelGroup,
		&s.CanAddSubscribersGroup, &s.CanAddCustomEmojiGroup, &s.CanCreateGroups, &s.CanManageAllGroups,
		&s.CanInviteUsersGroup, &s.CreateMultiuseInviteGroup} {
		*g = g.Clone()
	}
	return s
}

func cloneUser(u *user.User) *user.User {
	c := *u
	c.ProfileData = maps.Clone(u.ProfileData)
	c.EditedSettings = maps.Clone(u.EditedSettings)
	return &c
}

func cloneGroup(g *group.Group) *group.Group {
	c := *g
	c.Members = maps.Clone(g.Members)
	c.Subgroups = maps.Clone(g.Subgroups)
	return &c
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

// clone copies an emoji; its image bytes, never changed, are shared.
func (e *storedEmoji) clone() *storedEmoji {
	c := *e
	if e.StillURL != nil {
		u := *e.StillURL
		c.StillURL = &u
	}
	return &c
}
