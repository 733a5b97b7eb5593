package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// This file is submessages (POST /submessage): the small messages that
// make a message a widget (message/widget.go) and carry its votes,
// options and tasks. A message's submessages are part of its Changes.

// Submessage is a submessage as the API returns it, in a message's
// submessages list.
type Submessage struct {
	MsgType   string `json:"msg_type"`
	Content   string `json:"content"`
	MessageID int64  `json:"message_id"`
	SenderID  int    `json:"sender_id"`
	ID        int64  `json:"id"`
}

// SubmessageEvent is a submessage event: a submessage added to a message.
type SubmessageEvent struct {
	MsgType      string `json:"msg_type"`
	MessageID    int64  `json:"message_id"`
	SubmessageID int64  `json:"submessage_id"`
	SenderID     int    `json:"sender_id"`
	Content      string `json:"content"`
}

// SubmessageRequest is a submessage to add (POST /submessage).
type SubmessageRequest struct {
	MessageID int64
	MsgType   string
	// Content is JSON text.
	Content string
}

// AddSubmessage adds a submessage to a message the actor may see, as
// Zulip's POST /submessage: the message's sender must add the first one;
// the content must be JSON, and for a poll or a to-do list, a change
// that widget takes (message.CheckWidgetData). The holders of a copy of
// the message hear of it, and the actor's visibility policy for the
// topic follows its participation settings, as for a reaction.
func (a *Actor) AddSubmessage(ctx context.Context, req SubmessageRequest) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		m := r.accessibleMessage(me, req.MessageID)
		if m == nil {
			return invalidMessage()
		}
		subs := m.Changes().Submessages
		if me.ID != m.SenderID && !sentBy(subs, m.SenderID) {
			return BadRequest("You cannot attach a submessage to this message.")
		}
		if !message.ValidJSON(req.Content) {
			return BadRequest("Invalid json for submessage")
		}
		if err := noNull("msg_type", req.MsgType); err != nil {
			return err
		}
		if err := message.CheckWidgetData(widgetType(subs), req.Content, me.ID == m.SenderID); err != nil {
			return BadRequest("%s", err.Error())
		}
		m = r.ownMessage(m)
		r.messages.lastSubmessageID++
		sub := message.Submessage{ID: r.messages.lastSubmessageID, SenderID: me.ID, MsgType: req.MsgType, Content: req.Content}
		c := m.Changes()
		c.Submessages = append(slices.Clip(c.Submessages), sub) // never in place: the slice may be shared
		m.SetChanges(c)
		if m.Type == message.Channel {
			if p := r.applyParticipationTopicPolicy(me, m); p != nil {
				r.emitUserTopic(me.ID, m.ChannelID, m.Topic, *p)
			}
		}
		r.emit("submessage", SubmessageEvent{MsgType: sub.MsgType, MessageID: m.ID, SubmessageID: sub.ID,
			SenderID: sub.SenderID, Content: sub.Content}, r.messageHolders(m, nil)...,
		)
		return nil
	})
}

// sentBy reports whether userID sent one of subs.
func sentBy(subs []message.Submessage, userID int) bool {
	for _, s := range subs {
		if s.SenderID == userID {
			return true
		}
	}
	return false
}

// widgetType is the widget_type of a message's first widget submessage,
// "" when it has none.
func widgetType(subs []message.Submessage) string {
	for _, s := range subs {
		if s.MsgType == message.WidgetMsgType {
			return message.ParseWidgetType(s.Content)
		}
	}
	return ""
}

// isWidget reports whether m is a widget: Zulip's test is that it has a
// submessage.
func isWidget(m *message.Message) bool { return len(m.Changes().Submessages) > 0 }

// submessageViews lists m's submessages as the API shows them, oldest
// first.
func submessageViews(m *message.Message) []Submessage {
	subs := m.Changes().Submessages
	if len(subs) == 0 {
		return noSubmessages
	}
	out := make([]Submessage, len(subs))
	for i, s := range subs {
		out[i] = Submessage{MsgType: s.MsgType, Content: s.Content, MessageID: m.ID, SenderID: s.SenderID, ID: s.ID}
	}
	return out
}
