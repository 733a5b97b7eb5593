package realm

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// ScheduledMessage is a message waiting to be sent at a set time, as the
// API returns it (GET /scheduled_messages, register, events).
type ScheduledMessage struct {
	ID int `json:"scheduled_message_id"`
	// Type is "stream" or "private", as Zulip still spells them here.
	Type string      `json:"type"`
	To   ScheduledTo `json:"to"`
	// Topic is set for channel messages only.
	Topic           *string `json:"topic,omitempty"`
	Content         string  `json:"content"`
	RenderedContent string  `json:"rendered_content"`
	// ScheduledDeliveryTimestamp is in Unix seconds.
	ScheduledDeliveryTimestamp int64 `json:"scheduled_delivery_timestamp"`
	// Failed is set once a delivery was tried and refused; the message
	// stays listed until edited with a new time or deleted.
	Failed bool `json:"failed"`
}

// ScheduledTo is the audience of a scheduled message: a channel ID, or the
// IDs of a direct message's other participants (the sender's own for a
// message to oneself).
type ScheduledTo struct {
	ChannelID int
	UserIDs   []int
}

// MarshalJSON writes the channel ID as a number and user IDs as a list.
func (t ScheduledTo) MarshalJSON() ([]byte, error) {
	if t.UserIDs != nil {
		return json.Marshal(t.UserIDs)
	}
	return json.Marshal(t.ChannelID)
}

// ScheduledMessageInput is POST /scheduled_messages.
type ScheduledMessageInput struct {
	// Type is "direct", "private", "channel" or "stream".
	Type string
	// To is the API's `to`: a channel ID, or a JSON list of user IDs.
	To string
	// Topic is required for channel messages (nil means absent).
	Topic   *string
	Content string
	// DeliverAt is the delivery time in Unix seconds; it must be in the
	// future by the realm's clock.
	DeliverAt int64
	// ReadBySender overrides the default (read when sent from a human
	// client, unless the message is to oneself).
	ReadBySender *bool
	// Client is the scheduling client's name, which sends the message.
	Client string
}

// ScheduledMessageUpdate is PATCH /scheduled_messages/{id}: nil leaves a
// field as it is.
type ScheduledMessageUpdate struct {
	Type    *string
	To      *string
	Topic   *string
	Content *string
	// DeliverAt is the new delivery time in Unix seconds; required to
	// edit a message whose delivery failed.
	DeliverAt *int64
	Client    string
}

// scheduledItem is one stored scheduled message or reminder (Zulip keeps
// both in one table and numbers them together).
type scheduledItem struct {
	id       int
	senderID int
	kind     message.Type
	// channelID and topic address a channel message; dmUserIDs a direct
	// one: the conversation's users, sender included, sorted.
	channelID    int
	topic        string
	dmUserIDs    []int
	content      string
	rendered     string
	deliverAt    int64
	readBySender bool
	client       string
	failed       bool
	failure      string // why the delivery failed
	// reminder is set for message reminders, which the Notification Bot
	// delivers to the sender, about targetMessageID.
	reminder        bool
	targetMessageID int64
	note            string
}

// clone copies the item for snapshots.
func (it *scheduledItem) clone() *scheduledItem {
	c := *it
	c.dmUserIDs = slices.Clone(it.dmUserIDs)
	return &c
}

// audience is the `to` of the item as the API shows it.
func (it *scheduledItem) audience() ScheduledTo {
	if it.kind == message.Channel {
		return ScheduledTo{ChannelID: it.channelID}
	}
	others := []int{}
	for _, id := range it.dmUserIDs {
		if id != it.senderID {
			others = append(others, id)
		}
	}
	if len(others) == 0 {
		others = append(others, it.senderID)
	}
	return ScheduledTo{UserIDs: others}
}

// view is the item as a scheduled message.
func (it *scheduledItem) view() ScheduledMessage {
	v := ScheduledMessage{ID: it.id, Type: "private", To: it.audience(), Content: it.content,
		RenderedContent: it.rendered, ScheduledDeliveryTimestamp: it.deliverAt, Failed: it.failed}
	if it.kind == message.Channel {
		v.Type = "stream"
		t := it.topic
		v.Topic = &t
	}
	return v
}

// sendRequest is the send the item makes when delivered.
func (it *scheduledItem) sendRequest() SendRequest {
	req := SendRequest{Content: it.content, Client: it.client, ReadBySender: &it.readBySender}
	if it.kind == message.Channel {
		t := it.topic
		req.Type, req.To, req.Topic = "stream", message.To{ChannelID: it.channelID}, &t
	} else {
		req.Type, req.To = "direct", message.To{UserIDs: it.dmUserIDs, IsList: true}
	}
	return req
}

// ScheduledMessagesEvent is a scheduled_messages event, sent to the owner
// only: op "add" with ScheduledMessages, "update" with ScheduledMessage,
// "remove" with ScheduledMessageID.
type ScheduledMessagesEvent struct {
	Op                 string             `json:"op"`
	ScheduledMessages  []ScheduledMessage `json:"scheduled_messages,omitempty"`
	ScheduledMessage   *ScheduledMessage  `json:"scheduled_message,omitempty"`
	ScheduledMessageID int                `json:"scheduled_message_id,omitempty"`
}

// errDeliveryNotInFuture is Zulip's DeliveryTimeNotInFutureError.
func errDeliveryNotInFuture() *Error {
	return BadRequest("Scheduled delivery time must be in the future.")
}

// errNoScheduledMessage is the 404 for another user's or an unknown ID.
func errNoScheduledMessage() *Error { return NotFound("Scheduled message does not exist") }

// ScheduledMessages answers GET /scheduled_messages: the caller's
// undelivered scheduled messages (failed ones included), by delivery time.
func (a *Actor) ScheduledMessages(ctx context.Context) (list []ScheduledMessage, err error) {
	err = a.read(ctx, func(me *user.User) error {
		list = a.r.scheduledList(me.ID)
		return nil
	})
	return list, err
}

// scheduledList is the user's scheduled messages, by delivery time then ID.
func (r *Realm) scheduledList(userID int) []ScheduledMessage {
	out := []ScheduledMessage{}
	for _, it := range r.itemsOf(userID, false) {
		out = append(out, it.view())
	}
	return out
}

// itemsOf lists the user's scheduled messages (or reminders), by delivery
// time then ID.
func (r *Realm) itemsOf(userID int, reminders bool) []*scheduledItem {
	var out []*scheduledItem
	for _, it := range r.scheduled.byID {
		if it.senderID == userID && it.reminder == reminders {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, compareDelivery)
	return out
}

// compareDelivery orders items by delivery time, then ID.
func compareDelivery(a, b *scheduledItem) int {
	if a.deliverAt != b.deliverAt {
		if a.deliverAt < b.deliverAt {
			return -1
		}
		return 1
	}
	return a.id - b.id
}

// CreateScheduledMessage answers POST /scheduled_messages: the message is
// checked as a send would be and stored for delivery at in.DeliverAt.
func (a *Actor) CreateScheduledMessage(ctx context.Context, in ScheduledMessageInput) (id int, err error) {
	kind, ok := a.r.messageType(in.Type)
	if !ok {
		return 0, BadRequest("Invalid type")
	}
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if in.DeliverAt <= r.clock.Now().Unix() {
			return errDeliveryNotInFuture()
		}
		it, err := r.checkScheduled(me, kind, in.To, in.Topic, in.Content)
		if err != nil {
			return err
		}
		it.deliverAt, it.client = in.DeliverAt, message.NormalizeClientName(in.Client)
		if in.ReadBySender != nil {
			it.readBySender = *in.ReadBySender
		} else {
			toSelf := kind == message.Direct && len(it.dmUserIDs) == 1
			it.readBySender = message.IsHumanClient(it.client) && !toSelf
		}
		r.addScheduled(me, it)
		r.emit("scheduled_messages", ScheduledMessagesEvent{Op: "add", ScheduledMessages: []ScheduledMessage{it.view()}}, me.ID)
		id = it.id
		return nil
	})
	return id, err
}

// checkScheduled validates a scheduled message as a send of it now would
// be validated (recipients, permission to post, topic, content, wildcard
// mentions) and returns it rendered, not yet numbered or stored.
func (r *Realm) checkScheduled(me *user.User, kind message.Type, rawTo string, topicName *string, content string) (*scheduledItem, error) {
	req := SendRequest{Topic: topicName, Content: content}
	if kind == message.Channel {
		id, err := message.ScheduledChannelID(rawTo)
		if err != nil {
			return nil, BadRequest("%s", err.Error())
		}
		req.Type, req.To = "stream", message.To{ChannelID: id}
	} else {
		ids, err := message.ScheduledUserIDs(rawTo)
		if err != nil {
			return nil, BadRequest("%s", err.Error())
		}
		req.Type, req.To = "direct", message.To{UserIDs: ids, IsList: true}
	}
	p, err := r.checkSendNow(me, kind, req)
	if err != nil {
		return nil, err
	}
	it := &scheduledItem{senderID: me.ID, kind: kind, content: p.m.Content, rendered: p.m.Rendered}
	if kind == message.Channel {
		it.channelID, it.topic = p.m.ChannelID, p.m.Topic
	} else {
		it.dmUserIDs = p.recipients
	}
	return it, nil
}

// checkSendNow prepares req as the send path would and applies its
// mention rules, storing nothing. The caller holds the write lock.
func (r *Realm) checkSendNow(sender *user.User, kind message.Type, req SendRequest) (*preparedSend, error) {
	content, err := message.NormalizeContent(req.Content, r.opts.Limits.MaxMessageLength)
	if err != nil {
		return nil, BadRequest("%s", err.Error())
	}
	p, err := r.prepareSend(sender, kind, req, content)
	if err != nil {
		return nil, err
	}
	// Zulip's check_message applies direct_message_initiator_group when
	// the message is scheduled, not only when it is sent.
	if p.mustHaveMessages && !r.conversationHasMessages(p.m.DMUserIDs) {
		p.release()
		return nil, errDirectMessageInitiation()
	}
	if _, err := r.checkMentions(p.rendered, sender.ID, p.ch, p.m.Topic, p.recipients); err != nil {
		p.release()
		return nil, err
	}
	return p, nil
}

// addScheduled numbers and stores a checked item and sets the delivery
// timer for it. The caller holds the write lock.
func (r *Realm) addScheduled(me *user.User, it *scheduledItem) {
	r.scheduled.lastID++
	it.id, it.senderID = r.scheduled.lastID, me.ID
	if r.scheduled.byID == nil {
		r.scheduled.byID = map[int]*scheduledItem{}
	}
	r.scheduled.byID[it.id] = it
	if r.delivery.timer == nil || it.deliverAt < r.delivery.at {
		r.armDelivery()
	}
}

// UpdateScheduledMessage answers PATCH /scheduled_messages/{id}. A change of
// type needs `to` (and, to a channel, a topic); a change of type, `to` or
// content checks the whole message again; a failed message needs a new
// time, and editing it clears the failure.
func (a *Actor) UpdateScheduledMessage(ctx context.Context, id int, e ScheduledMessageUpdate) error {
	if e.Type == nil && e.To == nil && e.Topic == nil && e.Content == nil && e.DeliverAt == nil {
		return BadRequest("Nothing to change")
	}
	var newKind *message.Type
	if e.Type != nil {
		kind, ok := a.r.messageType(*e.Type)
		if !ok {
			return BadRequest("Invalid type")
		}
		if e.To == nil {
			return BadRequest("Recipient required when updating type of scheduled message.")
		}
		if kind == message.Channel && e.Topic == nil {
			return BadRequest("Topic required when updating scheduled message type to stream.")
		}
		newKind = &kind
	}
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if e.DeliverAt != nil && *e.DeliverAt <= r.clock.Now().Unix() {
			return errDeliveryNotInFuture()
		}
		it := r.scheduled.byID[id]
		if it == nil || it.senderID != me.ID || it.reminder {
			return errNoScheduledMessage()
		}
		if it.failed && e.DeliverAt == nil {
			return errDeliveryNotInFuture()
		}
		next := it.clone()
		switch {
		case newKind != nil || e.To != nil || e.Content != nil:
			kind, rawTo := it.kind, ""
			if newKind != nil {
				kind = *newKind
			}
			if e.To != nil {
				rawTo = *e.To
			} else {
				rawTo = it.rawTo()
			}
			topicName := it.topic
			if e.Topic != nil {
				topicName = *e.Topic
			}
			content := it.content
			if e.Content != nil {
				content = *e.Content
			}
			checked, err := r.checkScheduled(me, kind, rawTo, &topicName, content)
			if err != nil {
				return err
			}
			next.kind, next.channelID, next.topic, next.dmUserIDs = checked.kind, checked.channelID, checked.topic, checked.dmUserIDs
			next.content, next.rendered = checked.content, checked.rendered
		case e.Topic != nil && it.kind == message.Channel:
			name, err := r.topicForSend(e.Topic)
			if err != nil {
				return err
			}
			next.topic = name
		}
		if e.DeliverAt != nil {
			next.deliverAt = *e.DeliverAt
		}
		if e.Client != "" {
			next.client = message.NormalizeClientName(e.Client)
		}
		next.failed, next.failure = false, ""
		r.scheduled.byID[id] = next
		r.armDelivery()
		v := next.view()
		r.emit("scheduled_messages", ScheduledMessagesEvent{Op: "update", ScheduledMessage: &v}, me.ID)
		return nil
	})
}

// rawTo is the item's audience as the API's `to` parameter would give it.
func (it *scheduledItem) rawTo() string {
	b, _ := json.Marshal(it.audience())
	return string(b)
}

// DeleteScheduledMessage answers DELETE /scheduled_messages/{id}.
func (a *Actor) DeleteScheduledMessage(ctx context.Context, id int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		it := r.scheduled.byID[id]
		if it == nil || it.senderID != me.ID || it.reminder {
			return errNoScheduledMessage()
		}
		delete(r.scheduled.byID, id)
		if it.deliverAt == r.delivery.at {
			r.armDelivery()
		}
		r.emit("scheduled_messages", ScheduledMessagesEvent{Op: "remove", ScheduledMessageID: id}, me.ID)
		return nil
	})
}
