package realm

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/emoji"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// This file holds the messages table, with the copy, the fixture dump and
// load, and the message, update_message_flags, starred_messages and
// recent_private_conversations sections. Messages and personal copies live
// in the store (realm/internal/store), shared copy-on-write by copies of
// the table.

// messageTable holds the realm's messages and every user's copies.
type messageTable struct {
	store  *store.Store
	nextID int64
	// lastSubmessageID is the last submessage ID given (message_submessages.go).
	lastSubmessageID int64
}

// clone shares the messages copy-on-write (store.Clone marks t's store
// shared: the caller holds t's realm's write lock or has t to itself).
func (t *messageTable) clone() messageTable {
	return messageTable{store: t.store.Clone(), nextID: t.nextID, lastSubmessageID: t.lastSubmessageID}
}

// dump adds every message to f, by ID, with each holder's flags.
func (t *messageTable) dump(r *Realm, f *fixture.Document) error {
	holders := r.copyHolders()
	r.messages.store.All().Up(0, func(m *message.Message) bool {
		f.Messages = append(f.Messages, r.fixtureMessage(m, holders))
		return true
	})
	return nil
}

// copyHolders lists, for each message, the users holding a copy and
// their flags: one pass over every user's copies.
func (r *Realm) copyHolders() map[int64]map[int][]string {
	out := map[int64]map[int][]string{}
	for uid := range r.users.byID {
		r.messages.store.Copies(uid, 0, func(c store.Copy) bool {
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

// load adds the document's messages with their reactions, submessages
// and each holder's flags, rendered as a send renders them.
func (t *messageTable) load(r *Realm, f *fixture.Document) error {
	if kept := r.opts.data.keptMessages; kept != nil { // a data directory's tables record (durable_tables.go)
		r.opts.data.keptMessages = nil
		*t = *kept
		if r.opts.data.messages == nil {
			return nil
		}
	}
	if b := r.opts.data.messages; b != nil { // a data directory's snapshot or tables record (durable_messages.go)
		r.opts.data.messages = nil
		return t.loadBinary(r, b)
	}
	var last int64
	for i, fm := range f.Messages {
		at := fmt.Sprintf("messages[%d]", i)
		if fm.ID <= last {
			return badItem(at+".id", "message IDs must be positive and ascending (%d after %d)", fm.ID, last)
		}
		last = fm.ID
		m, conv, err := r.fixtureMessageOf(at, fm)
		if err != nil {
			return err
		}
		holders := make(map[int]message.Flags, len(fm.Flags))
		for _, uid := range slices.Sorted(maps.Keys(fm.Flags)) {
			if r.users.byID[uid] == nil {
				return badItem(fmt.Sprintf("%s.flags.%d", at, uid), "no user %d", uid)
			}
			var flags message.Flags
			for _, name := range fm.Flags[uid] {
				bit := message.FlagBit(name)
				if bit == 0 {
					return badItem(fmt.Sprintf("%s.flags.%d", at, uid), "unknown flag %q", name)
				}
				flags |= bit
			}
			if slices.Contains(fm.Flags[uid], message.FlagTopicWildcardMentioned) && !slices.Contains(fm.Flags[uid], message.FlagStreamWildcardMentioned) {
				// wildcard_mentioned only repeats the topic flag.
				flags &^= message.StreamWildcardMentioned
			}
			holders[uid] = flags
		}
		r.messages.store.Insert(m, conv)
		for _, uid := range slices.Sorted(maps.Keys(holders)) {
			r.messages.store.Deliver(uid, m, holders[uid])
		}
		if ch := r.channels.byID[m.ChannelID]; m.Type == message.Channel && ch.FirstMessageID == 0 {
			ch.FirstMessageID = m.ID
		}
	}
	r.messages.nextID = last + 1
	return nil
}

// fixtureMessageOf checks a fixture message and builds it, rendered; it
// returns its conversation's ID for a direct message.
func (r *Realm) fixtureMessageOf(at string, fm fixture.Message) (*message.Message, int, error) {
	sender := r.users.byID[fm.SenderID]
	if sender == nil {
		return nil, 0, badItem(at+".sender_id", "no user %d", fm.SenderID)
	}
	if strings.TrimSpace(fm.Content) == "" {
		return nil, 0, badItem(at+".content", "empty content")
	}
	if n := utf8.RuneCountInString(fm.Content); n > r.opts.Limits.MaxMessageLength {
		return nil, 0, badItem(at+".content", "%d characters, more than the limit of %d", n, r.opts.Limits.MaxMessageLength)
	}
	ts := fm.Timestamp
	if ts == 0 {
		ts = r.clock.Now().Unix()
	}
	client := fm.Client
	if client == "" {
		client = "Internal"
	}
	m := &message.Message{ID: fm.ID, SenderID: sender.ID, Content: fm.Content, Timestamp: ts, Client: client}
	changes := message.Changes{LastEditTS: fm.LastEditTimestamp, LastMovedTS: fm.LastMovedTimestamp}
	conv := 0
	switch {
	case fm.ChannelID != 0 && len(fm.To) > 0:
		return nil, 0, badItem(at, "both channel_id and to: a message goes to a channel or to users")
	case fm.ChannelID != 0:
		ch := r.channels.byID[fm.ChannelID]
		if ch == nil {
			return nil, 0, badItem(at+".channel_id", "no channel %d", fm.ChannelID)
		}
		if n := utf8.RuneCountInString(fm.Topic); n > r.opts.Limits.MaxTopicLength {
			return nil, 0, badItem(at+".topic", "%d characters, more than the limit of %d", n, r.opts.Limits.MaxTopicLength)
		}
		if pos := topic.FirstUnprintable(fm.Topic); pos > 0 {
			return nil, 0, badItem(at+".topic", "invalid character at position %d", pos)
		}
		m.Type, m.ChannelID, m.Topic, m.RecipientID = message.Channel, ch.ID, fm.Topic, ch.RecipientID
	case len(fm.To) > 0:
		if fm.Topic != "" {
			return nil, 0, badItem(at+".topic", "a direct message has no topic")
		}
		ids := []int{sender.ID}
		for j, uid := range fm.To {
			if r.users.byID[uid] == nil {
				return nil, 0, badItem(fmt.Sprintf("%s.to[%d]", at, j), "no user %d", uid)
			}
			if !slices.Contains(ids, uid) {
				ids = append(ids, uid)
			}
		}
		slices.Sort(ids)
		c := r.conversationFor(ids)
		m.Type, m.DMUserIDs, m.RecipientID, conv = message.Direct, c.userIDs, r.dmRecipientID(c, sender.ID), c.id
	default:
		return nil, 0, badItem(at, "neither channel_id nor to: a message goes to a channel or to users")
	}
	for j, fr := range fm.Reactions {
		re, err := r.fixtureReaction(fmt.Sprintf("%s.reactions[%d]", at, j), fr)
		if err != nil {
			return nil, 0, err
		}
		if slices.ContainsFunc(changes.Reactions, func(o message.Reaction) bool {
			return o.UserID == re.UserID && o.EmojiCode == re.EmojiCode && o.ReactionType == re.ReactionType
		}) {
			return nil, 0, badItem(fmt.Sprintf("%s.reactions[%d]", at, j), "duplicate reaction")
		}
		changes.Reactions = append(changes.Reactions, re)
	}
	for j, fs := range fm.Submessages {
		sub, err := r.fixtureSubmessage(fmt.Sprintf("%s.submessages[%d]", at, j), fs)
		if err != nil {
			return nil, 0, err
		}
		changes.Submessages = append(changes.Submessages, sub)
	}
	m.SetChanges(changes)
	rendered := r.renderAs(sender, m.Content)
	m.Rendered, m.Facts = rendered.HTML, factsOf(rendered)
	return m, conv, nil
}

// fixtureSubmessage checks a submessage: a new ID above the last one, a
// known sender, JSON content. The realm numbers its next submessages
// after it.
func (r *Realm) fixtureSubmessage(at string, fs fixture.Submessage) (message.Submessage, error) {
	if fs.ID <= r.messages.lastSubmessageID {
		return message.Submessage{}, badItem(at+".id", "submessage IDs must be positive and ascending (%d after %d)", fs.ID, r.messages.lastSubmessageID)
	}
	if r.users.byID[fs.SenderID] == nil {
		return message.Submessage{}, badItem(at+".sender_id", "no user %d", fs.SenderID)
	}
	if !message.ValidJSON(fs.Content) {
		return message.Submessage{}, badItem(at+".content", "Invalid json for submessage")
	}
	r.messages.lastSubmessageID = fs.ID
	return message.Submessage{ID: fs.ID, SenderID: fs.SenderID, MsgType: fs.MsgType, Content: fs.Content}, nil
}

// fixtureReaction checks a reaction: a known user and emoji (a
// deactivated custom emoji is fine, as reactions keep theirs).
func (r *Realm) fixtureReaction(at string, fr fixture.Reaction) (message.Reaction, error) {
	if r.users.byID[fr.UserID] == nil {
		return message.Reaction{}, badItem(at+".user_id", "no user %d", fr.UserID)
	}
	typ := emoji.CanonicalType(fr.ReactionType)
	if typ == emoji.Realm {
		if e := r.realmEmojiByID(fr.EmojiCode); e == nil || e.Name != fr.EmojiName {
			return message.Reaction{}, badItem(at, "no custom emoji %q with ID %q", fr.EmojiName, fr.EmojiCode)
		}
	} else if err := r.checkEmoji(fr.EmojiName, fr.EmojiCode, typ); err != nil {
		return message.Reaction{}, badItem(at, "%s", reason(err))
	}
	return message.Reaction{UserID: fr.UserID, EmojiName: fr.EmojiName, EmojiCode: fr.EmojiCode, ReactionType: typ}, nil
}

func (t *messageTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("message") {
		out.MessageState = &MessageState{MaxMessageID: r.maxMessageIDOf(me.ID)}
	}
	if req.fetches("update_message_flags") && req.fetches("message") {
		out.UnreadState = &UnreadState{UnreadMsgs: r.unreadMessages(me, req.Queue.Capabilities.EmptyTopicName)}
	}
	if req.fetches("starred_messages") {
		fillStarredMessages(r, me, req, out)
	}
	if req.fetches("recent_private_conversations") {
		fillRecentPrivateConversations(r, me, req, out)
	}
}

// maxMessageIDOf is the newest message the user received, -1 if none.
func (r *Realm) maxMessageIDOf(userID int) int64 {
	if id, ok := r.messages.store.NewestCopyID(userID); ok {
		return id
	}
	return -1
}

func fillStarredMessages(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	ids := []int64{}
	r.messages.store.Copies(me.ID, 0, func(c store.Copy) bool {
		if c.Flags&message.Starred != 0 {
			ids = append(ids, c.Message.ID)
		}
		return true
	})
	out.StarredMessagesState = &StarredMessagesState{StarredMessages: ids}
}
