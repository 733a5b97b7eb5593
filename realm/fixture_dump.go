package realm

import (
	"bytes"
	"encoding/json"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/realm/internal/store"
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
	f := fixture.Document{Format: fixture.Format}
	holders := r.copyHolders()
	r.messages.All().Up(0, func(m *message.Message) bool {
		f.Messages = append(f.Messages, r.fixtureMessage(m, holders))
		return true
	})
	r.dumpUserData(&f)
	r.dumpProfiles(&f)
	r.dumpScheduled(&f)
	r.dumpViews(&f)
	f.RealmDomains = []fixture.Domain{}
	for _, d := range r.domainList() {
		f.RealmDomains = append(f.RealmDomains, fixture.Domain(d))
	}
	r.dumpPresence(&f)
	r.dumpReminders(&f)
	if err := r.dumpTables(&f); err != nil {
		return f, err
	}
	err := r.dumpUploads(&f)
	return f, err
}

// copyHolders lists, for each message, the users holding a copy and
// their flags: one pass over every user's copies.
func (r *Realm) copyHolders() map[int64]map[int][]string {
	out := map[int64]map[int][]string{}
	for uid := range r.users.byID {
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
