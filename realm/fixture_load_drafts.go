package realm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/topic"
)

// This file dumps and loads drafts and scheduled messages (message
// reminders are not part of fixtures).

// dumpDrafts adds the users' drafts (by user, in creation order) and the
// scheduled messages (by ID) to f; the caller holds the lock.
func (r *Realm) dumpDrafts(f *fixture.Document) {
	for _, uid := range slices.Sorted(maps.Keys(r.drafts)) {
		for _, d := range r.drafts[uid] {
			ts := d.editedAt
			fd := fixture.Draft{ID: d.ID, UserID: uid, Type: d.Type, Topic: d.Topic, Content: d.Content, Timestamp: &ts}
			if len(d.To) > 0 {
				fd.To = slices.Clone(d.To)
			}
			f.Drafts = append(f.Drafts, fd)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(r.scheduled)) {
		it := r.scheduled[id]
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

// loadDrafts adds the document's drafts, then its scheduled messages.
func (r *Realm) loadDrafts(f *fixture.Document) error {
	if err := r.loadUserDrafts(f); err != nil {
		return err
	}
	return r.loadScheduled(f)
}

// loadUserDrafts checks each draft as POST /drafts does (its author
// synchronizes drafts; a known type; content; a channel the author may
// access, or known users); a draft without a timestamp was edited when
// loaded. The content, and the topic of a draft with no recipient, are
// kept as written (Zulip's own seeded drafts have both unnormalized) once
// the content passes and the topic is one a channel draft could have.
func (r *Realm) loadUserDrafts(f *fixture.Document) error {
	ids := []int{}
	for i, fd := range f.Drafts {
		at := fmt.Sprintf("drafts[%d]", i)
		if fd.ID <= 0 || slices.Contains(ids, fd.ID) {
			return badItem(at+".id", "%s draft ID %d", invalidOrDuplicate(fd.ID <= 0), fd.ID)
		}
		me := r.realmUser(fd.UserID)
		if me == nil {
			return badItem(at+".user_id", "no user %d", fd.UserID)
		}
		if err := checkDraftsSynced(me); err != nil {
			return badItem(at+".user_id", "%s", reason(err))
		}
		d, err := r.checkDraft(me, DraftInput{Type: fd.Type, To: fd.To, Topic: fd.Topic, Content: fd.Content,
			Timestamp: fd.Timestamp}, "draft")
		if err != nil {
			return badItem(at, "%s", reason(err))
		}
		if fd.Type == "" && fd.Topic != "" {
			if topic.Normalize(fd.Topic, r.opts.Limits.MaxTopicLength) != fd.Topic || strings.IndexByte(fd.Topic, 0) >= 0 {
				return badItem(at+".topic", "%q is not a topic as stored", fd.Topic)
			}
			d.Topic = fd.Topic
		}
		d.ID, d.Content = fd.ID, fd.Content
		if r.drafts == nil {
			r.drafts = map[int][]*storedDraft{}
		}
		r.drafts[fd.UserID] = append(r.drafts[fd.UserID], d)
		ids = append(ids, fd.ID)
	}
	r.nextDraftID = nextAfter(1, ids...) - 1 // the last ID given
	return nil
}

// loadScheduled checks each scheduled message as POST
// /scheduled_messages does (a recipient the sender may send to, content,
// topic, mentions) but for its delivery time, which may have passed: such
// a message is delivered as soon as the load is done, as after Restore.
// Absent, read_by_sender takes the API's default for the client. A
// deactivated sender's messages are checked as if the sender were active.
func (r *Realm) loadScheduled(f *fixture.Document) error {
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
		if !me.IsActive {
			// A deactivated user's scheduled messages stay, as in Zulip
			// (they fail when due): check them as their sender had them.
			probe := *me
			probe.IsActive = true
			me = &probe
		}
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
		if r.scheduled == nil {
			r.scheduled = map[int]*scheduledItem{}
		}
		r.scheduled[it.id] = it
		ids = append(ids, fs.ID)
	}
	r.nextScheduledID = nextAfter(1, ids...) - 1 // the last ID given
	return nil
}
