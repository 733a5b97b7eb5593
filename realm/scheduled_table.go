package realm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// scheduledTable holds the scheduled messages and reminders not yet
// delivered (failed ones included), by ID: they share one numbering, as
// in Zulip.
type scheduledTable struct {
	byID   map[int]*scheduledItem
	lastID int // the last ID given
}

func (t *scheduledTable) clone() scheduledTable {
	c := scheduledTable{lastID: t.lastID}
	if t.byID != nil {
		c.byID = make(map[int]*scheduledItem, len(t.byID))
		for id, it := range t.byID {
			c.byID[id] = it.clone()
		}
	}
	return c
}

// dump adds the scheduled messages and the reminders to f, by ID.
func (t *scheduledTable) dump(r *Realm, f *fixture.Document) error {
	t.dumpMessages(f)
	t.dumpReminders(r, f)
	return nil
}

// dumpMessages adds the scheduled messages to f, by ID.
func (t *scheduledTable) dumpMessages(f *fixture.Document) {
	for _, id := range slices.Sorted(maps.Keys(t.byID)) {
		it := t.byID[id]
		if it.reminder {
			continue
		}
		read := it.readBySender
		fs := fixture.ScheduledMessage{ID: it.id, SenderID: it.senderID, Content: it.content, DeliverAt: it.deliverAt,
			ReadBySender: &read, Client: it.client, Failed: it.failed, Failure: it.failure}
		if it.kind == message.Channel {
			fs.ChannelID, fs.Topic = it.channelID, it.topic
		} else {
			fs.To = it.audience().UserIDs
		}
		f.ScheduledMessages = append(f.ScheduledMessages, fs)
	}
}

// dumpReminders adds the reminders to f, by ID, leaving out those Load
// would refuse: about a message their user can no longer read. A
// deactivated user's reminders stay, as in Zulip (they fail when due),
// checked as if their user were active. The content is left out when it
// is what the message and note word now.
func (t *scheduledTable) dumpReminders(r *Realm, f *fixture.Document) {
	for _, id := range slices.Sorted(maps.Keys(t.byID)) {
		it := t.byID[id]
		if !it.reminder {
			continue
		}
		me := r.realmUser(it.senderID)
		if me == nil {
			continue
		}
		me = asIfActive(me)
		m := r.accessibleMessage(me, it.targetMessageID)
		if m == nil {
			continue
		}
		fr := fixture.Reminder{ID: it.id, UserID: it.senderID, MessageID: it.targetMessageID, Note: it.note,
			Content: it.content, DeliverAt: it.deliverAt, Failed: it.failed, Failure: it.failure}
		if worded, err := r.reminderContent(me, m, it.note); err == nil && worded == it.content {
			fr.Content = ""
		}
		f.Reminders = append(f.Reminders, fr)
	}
}

// load adds the document's scheduled messages, then its reminders.
func (t *scheduledTable) load(r *Realm, f *fixture.Document) error {
	if r.opts.data.exactFollow {
		return nil // the exact tables bring them (durable.go)
	}
	if err := t.loadMessages(r, f); err != nil {
		return err
	}
	return t.loadReminders(r, f)
}

// loadMessages checks each scheduled message as POST
// /scheduled_messages does (a recipient the sender may send to, content,
// topic, mentions) but for its delivery time, which may have passed: such
// a message is delivered as soon as the load is done, as after Restore.
// Absent, read_by_sender takes the API's default for the client. A
// deactivated sender's messages are checked as if the sender were active.
func (t *scheduledTable) loadMessages(r *Realm, f *fixture.Document) error {
	ids := []int{}
	for i, fs := range f.ScheduledMessages {
		at := fmt.Sprintf("scheduled_messages[%d]", i)
		if fs.ID <= 0 || slices.Contains(ids, fs.ID) {
			return badItem(at+".id", "%s scheduled message ID %d", invalidOrDuplicate(fs.ID <= 0), fs.ID)
		}
		me := r.realmUser(fs.SenderID)
		if me == nil {
			return badItem(at+".sender_id", "no user %d", fs.SenderID)
		}
		// A deactivated user's scheduled messages stay, as in Zulip
		// (they fail when due): check them as their sender had them.
		me = asIfActive(me)
		if fs.DeliverAt <= 0 {
			return badItem(at+".scheduled_delivery_timestamp", "%d is not a time", fs.DeliverAt)
		}
		var kind message.Type
		var rawTo string
		var topicName *string
		switch {
		case fs.ChannelID != 0 && len(fs.To) > 0:
			return badItem(at, "both channel_id and to: a message goes to a channel or to users")
		case fs.ChannelID != 0:
			kind, rawTo, topicName = message.Channel, strconv.Itoa(fs.ChannelID), &fs.Topic
		case len(fs.To) > 0:
			if fs.Topic != "" {
				return badItem(at+".topic", "a direct message has no topic")
			}
			b, _ := json.Marshal(fs.To)
			kind, rawTo = message.Direct, string(b)
		default:
			return badItem(at, "neither channel_id nor to: a message goes to a channel or to users")
		}
		if fs.Failure != "" && !fs.Failed {
			return badItem(at+".failure", "a failure without failed")
		}
		it, err := r.checkScheduled(me, kind, rawTo, topicName, fs.Content)
		if err != nil {
			return badItem(at, "%s", reason(err))
		}
		it.id, it.deliverAt, it.failed, it.failure = fs.ID, fs.DeliverAt, fs.Failed, fs.Failure
		it.client = message.NormalizeClientName(fs.Client)
		if fs.ReadBySender != nil {
			it.readBySender = *fs.ReadBySender
		} else {
			toSelf := kind == message.Direct && len(it.dmUserIDs) == 1
			it.readBySender = message.IsHumanClient(it.client) && !toSelf
		}
		if t.byID == nil {
			t.byID = map[int]*scheduledItem{}
		}
		t.byID[it.id] = it
		ids = append(ids, fs.ID)
	}
	t.lastID = nextAfter(1, ids...) - 1 // the last ID given
	return nil
}

// loadReminders checks each reminder as POST /reminders does (a user, a
// message the user can read, the note's length) but for its delivery
// time, which may have passed: such a reminder is delivered as soon as
// the load is done, as a scheduled message is. A deactivated user's
// reminders are checked as if the user were active (they fail when due,
// as in Zulip). Its IDs follow and may not repeat the scheduled
// messages'.
func (t *scheduledTable) loadReminders(r *Realm, f *fixture.Document) error {
	ids := []int{}
	for i, fr := range f.Reminders {
		at := fmt.Sprintf("reminders[%d]", i)
		if fr.ID <= 0 || t.byID[fr.ID] != nil {
			return badItem(at+".id", "%s reminder ID %d (reminders and scheduled messages share IDs)", invalidOrDuplicate(fr.ID <= 0), fr.ID)
		}
		me := r.realmUser(fr.UserID)
		if me == nil {
			return badItem(at+".user_id", "no user %d", fr.UserID)
		}
		me = asIfActive(me)
		if fr.DeliverAt <= 0 {
			return badItem(at+".scheduled_delivery_timestamp", "%d is not a time", fr.DeliverAt)
		}
		m := r.accessibleMessage(me, fr.MessageID)
		if m == nil {
			return badItem(at+".message_id", "Invalid message(s): user %d cannot read message %d", fr.UserID, fr.MessageID)
		}
		if fr.Failure != "" && !fr.Failed {
			return badItem(at+".failure", "a failure without failed")
		}
		content, err := r.reminderContent(me, m, fr.Note)
		if err != nil {
			return badItem(at+".note", "%s", reason(err))
		}
		if fr.Content != "" {
			if strings.TrimSpace(fr.Content) == "" {
				return badItem(at+".content", "empty content")
			}
			if n := utf8.RuneCountInString(fr.Content); n > r.opts.Limits.MaxMessageLength {
				return badItem(at+".content", "%d characters, more than the limit of %d", n, r.opts.Limits.MaxMessageLength)
			}
			content = fr.Content
		}
		it := &scheduledItem{id: fr.ID, senderID: me.ID, kind: message.Direct, dmUserIDs: []int{me.ID}, content: content,
			rendered: r.renderAs(me, content).HTML, deliverAt: fr.DeliverAt, client: "Internal", reminder: true,
			targetMessageID: fr.MessageID, note: fr.Note, failed: fr.Failed, failure: fr.Failure}
		if t.byID == nil {
			t.byID = map[int]*scheduledItem{}
		}
		t.byID[it.id] = it
		ids = append(ids, fr.ID)
	}
	t.lastID = max(t.lastID, nextAfter(1, ids...)-1)
	return nil
}

// asIfActive is me, or a copy of me made active when me is deactivated:
// a deactivated user's scheduled messages and reminders are checked as
// their user had them.
func asIfActive(me *user.User) *user.User {
	if me.IsActive {
		return me
	}
	probe := *me
	probe.IsActive = true
	return &probe
}

// register fills the scheduled_messages section (feature level 179) and
// the reminders section (feature level 399).
func (t *scheduledTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("scheduled_messages") && r.has(changeScheduledMessages) {
		out.ScheduledMessagesState = &ScheduledMessagesState{ScheduledMessages: r.scheduledList(me.ID)}
	}
	if req.fetches("reminders") && r.has(changeReminders) {
		out.RemindersState = &RemindersState{Reminders: r.reminderList(me.ID)}
	}
}
