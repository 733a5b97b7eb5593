package realm

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/user"
)

// Dump writes the realm as a fixture document (see fixture.Document for what it
// holds), indented, every list in ID order, so that Load then Dump gives
// the same bytes.
func (r *Realm) Dump() ([]byte, error) {
	var f fixture.Document
	err := r.view(func() (err error) {
		f, err = r.fixture()
		return err
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fixture builds the document, failing only when an uploaded file cannot
// be read; the caller holds the lock.
func (r *Realm) fixture() (fixture.Document, error) {
	f := fixture.Document{Format: fixture.Format, Settings: r.settings.fixture()}
	defaults := user.DefaultSettings()
	for _, u := range r.sortedUsers() {
		fu := fixture.User{ID: u.ID, Email: u.DeliveryEmail, FullName: u.FullName, Role: int(u.Role),
			BotType: int(u.BotType), BotOwnerID: u.BotOwnerID, IsSystemBot: u.IsSystemBot, Deactivated: !u.IsActive,
			Timezone: u.Timezone, DateJoined: u.DateJoined, APIKey: u.APIKey}
		if u.HasService() {
			s := u.Service
			fu.Service = &fixture.Service{Name: s.Name, BaseURL: s.BaseURL, Interface: s.Interface, Token: s.Token}
		}
		for _, d := range user.SettingDefs {
			if v := d.Get(&u.Settings); v != d.Get(&defaults) {
				if fu.Settings == nil {
					fu.Settings = map[string]any{}
				}
				fu.Settings[d.Name] = v
			}
		}
		f.Users = append(f.Users, fu)
	}
	for _, id := range slices.Sorted(maps.Keys(r.groups)) {
		g := r.groups[id]
		if g.IsSystem {
			continue
		}
		fg := fixture.Group{ID: g.ID, Name: g.Name, Description: g.Description, Deactivated: g.Deactivated,
			Members: slices.Sorted(maps.Keys(g.Members)), CreatorID: g.CreatorID, DateCreated: g.DateCreated,
			Settings: map[string]int{}}
		if len(g.Subgroups) > 0 {
			fg.Subgroups = slices.Sorted(maps.Keys(g.Subgroups))
		}
		if fg.Members == nil {
			fg.Members = []int{}
		}
		for _, name := range group.SettingNames {
			fg.Settings[name], _ = g.Settings.Get(name)
		}
		f.Groups = append(f.Groups, fg)
	}
	for _, fo := range slices.SortedFunc(slices.Values(r.channelFolders), func(a, b *storedFolder) int { return a.ID - b.ID }) {
		order := fo.Order
		f.ChannelFolders = append(f.ChannelFolders, fixture.ChannelFolder{ID: fo.ID, Name: fo.Name, Description: fo.Description,
			Order: &order, CreatorID: fo.CreatorID, DateCreated: fo.DateCreated, IsArchived: fo.IsArchived})
	}
	for _, id := range slices.Sorted(maps.Keys(r.channels)) {
		c := r.channels[id]
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
		for _, uid := range slices.Sorted(maps.Keys(r.subs[id])) {
			s := r.subs[id][uid]
			f.Subscriptions = append(f.Subscriptions, fixture.Subscription{UserID: uid, ChannelID: id,
				Inactive: !s.Active, Color: s.Color, IsMuted: s.IsMuted, PinToTop: s.PinToTop,
				DesktopNotifications: cloneBoolPtr(s.DesktopNotifications), AudibleNotifications: cloneBoolPtr(s.AudibleNotifications),
				PushNotifications: cloneBoolPtr(s.PushNotifications), EmailNotifications: cloneBoolPtr(s.EmailNotifications),
				WildcardMentionsNotify: cloneBoolPtr(s.WildcardMentionsNotify)})
		}
	}
	for _, l := range r.linkifiers {
		f.Linkifiers = append(f.Linkifiers, fixture.Linkifier{ID: l.ID, Pattern: l.Spec.Pattern,
			URLTemplate: l.Spec.URLTemplate, ExampleInput: l.Spec.ExampleInput, ReverseTemplate: l.Spec.ReverseTemplate,
			AlternativeURLTemplates: l.Spec.AlternativeURLTemplates})
	}
	for _, p := range r.playgrounds {
		f.Playgrounds = append(f.Playgrounds, fixture.Playground(p))
	}
	for _, e := range r.realmEmoji {
		id, _ := strconv.Atoi(e.ID)
		f.CustomEmoji = append(f.CustomEmoji, fixture.Emoji{ID: id, Name: e.Name, AuthorID: e.AuthorID,
			Deactivated: e.Deactivated, FileName: e.fileName, Image: e.image.Data})
	}
	holders := r.copyHolders()
	r.messages.All().Up(0, func(m *message.Message) bool {
		f.Messages = append(f.Messages, r.fixtureMessage(m, holders))
		return true
	})
	r.dumpUserData(&f)
	r.dumpProfiles(&f)
	r.dumpViews(&f)
	err := r.dumpTables(&f)
	return f, err
}

// copyHolders lists, for each message, the users holding a copy and
// their flags: one pass over every user's copies.
func (r *Realm) copyHolders() map[int64]map[int][]string {
	out := map[int64]map[int][]string{}
	for uid := range r.users {
		r.messages.Copies(uid, 0, func(c store.Copy) bool {
			m := out[c.Message.ID]
			if m == nil {
				m = map[int][]string{}
				out[c.Message.ID] = m
			}
			m[uid] = c.Flags.Names()
			return true
		})
	}
	return out
}

func (r *Realm) fixtureMessage(m *message.Message, holders map[int64]map[int][]string) fixture.Message {
	c := m.Changes()
	fm := fixture.Message{ID: m.ID, SenderID: m.SenderID, Content: m.Content, Timestamp: m.Timestamp,
		Client: m.Client, LastEditTimestamp: c.LastEditTS, LastMovedTimestamp: c.LastMovedTS, Flags: holders[m.ID]}
	if fm.Flags == nil {
		fm.Flags = map[int][]string{}
	}
	if m.Type == message.Channel {
		fm.ChannelID, fm.Topic = m.ChannelID, m.Topic
	} else {
		for _, id := range m.DMUserIDs {
			if id != m.SenderID {
				fm.To = append(fm.To, id)
			}
		}
		if fm.To == nil {
			fm.To = []int{m.SenderID}
		}
	}
	for _, re := range c.Reactions {
		fm.Reactions = append(fm.Reactions, fixture.Reaction{UserID: re.UserID, EmojiName: re.EmojiName,
			EmojiCode: re.EmojiCode, ReactionType: re.ReactionType})
	}
	for _, sub := range c.Submessages {
		fm.Submessages = append(fm.Submessages, fixture.Submessage{ID: sub.ID, SenderID: sub.SenderID, MsgType: sub.MsgType, Content: sub.Content})
	}
	return fm
}

// fixture gives the realm settings as a fixture holds them.
func (s Settings) fixture() fixture.Settings {
	c := s.clone()
	out := fixture.Settings{Name: c.Name, Description: c.Description, EmailAddressVisibility: int(c.EmailAddressVisibility),
		AllowMessageEditing: c.AllowMessageEditing, MessageContentEditLimitSeconds: c.MessageContentEditLimitSeconds,
		MoveMessagesWithinStreamLimitSeconds:   c.MoveMessagesWithinStreamLimitSeconds,
		MoveMessagesBetweenStreamsLimitSeconds: c.MoveMessagesBetweenStreamsLimitSeconds,
		MessageContentDeleteLimitSeconds:       c.MessageContentDeleteLimitSeconds, MandatoryTopics: c.MandatoryTopics,
		EmptyTopicDisplayName: c.EmptyTopicDisplayName, DefaultLanguage: c.DefaultLanguage,
		EnableSpectatorAccess: c.EnableSpectatorAccess, EnableReadReceipts: c.EnableReadReceipts,
		ModerationRequestChannelID: c.moderationRequestChannelValue(), GroupSettings: map[string]GroupSetting{},
		EmailsRestrictedToDomains: c.EmailsRestrictedToDomains, DisallowDisposableEmailAddresses: c.DisallowDisposableEmailAddresses,
		MaxInvites: c.MaxInvites, EmailChangesDisabled: c.EmailChangesDisabled, NameChangesDisabled: c.NameChangesDisabled,
		AvatarChangesDisabled: c.AvatarChangesDisabled}
	for _, g := range c.groupSettings() {
		out.GroupSettings[g.name] = *g.id
	}
	return out
}
