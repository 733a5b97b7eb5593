package realm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
)

// This file dumps and loads scheduled messages (message reminders are
// not part of fixtures).

// dumpScheduled adds the scheduled messages (by ID) to f; the caller
// holds the lock.
func (r *Realm) dumpScheduled(f *fixture.Document) {
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
