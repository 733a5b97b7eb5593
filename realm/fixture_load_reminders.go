package realm

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
)

// This file dumps and loads message reminders.

// dumpReminders adds the reminders to f, by ID, leaving out those Load
// would refuse: of a deactivated user, or about a message their user can
// no longer read. The content is left out when it is what the message
// and note word now. The caller holds the lock.
func (r *Realm) dumpReminders(f *fixture.Document) {
	for _, id := range slices.Sorted(maps.Keys(r.scheduled)) {
		it := r.scheduled[id]
		if !it.reminder {
			continue
		}
		me := r.realmUser(it.senderID)
		if me == nil || !me.IsActive {
			continue
		}
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

// loadReminders checks each reminder as POST /reminders does (an active
// user, a message the user can read, the note's length) but for its
// delivery time, which may have passed: such a reminder is delivered as
// soon as the load is done, as a scheduled message is. Its IDs follow
// and may not repeat the scheduled messages'.
func (r *Realm) loadReminders(f *fixture.Document) error {
	ids := []int{}
	for i, fr := range f.Reminders {
		at := fmt.Sprintf("reminders[%d]", i)
		if fr.ID <= 0 || r.scheduled[fr.ID] != nil {
			return badItem(at+".id", "%s reminder ID %d (reminders and scheduled messages share IDs)", invalidOrDuplicate(fr.ID <= 0), fr.ID)
		}
		me := r.realmUser(fr.UserID)
		if me == nil || !me.IsActive {
			return badItem(at+".user_id", "no active user %d", fr.UserID)
		}
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
		if r.scheduled == nil {
			r.scheduled = map[int]*scheduledItem{}
		}
		r.scheduled[it.id] = it
		ids = append(ids, fr.ID)
	}
	r.nextScheduledID = max(r.nextScheduledID, nextAfter(1, ids...)-1)
	return nil
}
