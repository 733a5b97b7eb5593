package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// TypingRequest is a typing notification (POST /typing).
type TypingRequest struct {
	// Type is "direct" (the default), "stream" or "channel" (from
	// feature level 248); "private" below 215.
	Type string
	// Op is "start" or "stop".
	Op string
	// To lists the recipients of a direct message being typed.
	To []int
	// StreamID and Topic locate a channel message being typed.
	StreamID int
	Topic    *string
}

// TypingUser identifies a user in a typing event.
type TypingUser struct {
	UserID int    `json:"user_id"`
	Email  string `json:"email"`
}

// TypingEvent tells that someone started or stopped typing.
type TypingEvent struct {
	Op          string       `json:"op"`
	MessageType string       `json:"message_type"`
	Sender      TypingUser   `json:"sender"`
	Recipients  []TypingUser `json:"recipients,omitempty"`
	StreamID    int          `json:"stream_id,omitempty"`
	Topic       *string      `json:"topic,omitempty"`
}

// SetTyping sends a typing notification. Only users whose
// receives_typing_notifications setting is on get it; channel typing goes
// only to queues with the stream_typing_notifications capability.
func (a *Actor) SetTyping(ctx context.Context, req TypingRequest) error {
	if req.Op != "start" && req.Op != "stop" {
		return BadRequest("Invalid op")
	}
	r := a.r
	if req.Type == "private" && r.has(changeTypingStreamID) || req.Type == "channel" && !r.has(changeChannelMessageType) {
		// "private" went at feature level 215, "channel" came at 248.
		return BadRequest("Invalid type")
	}
	return a.writeVolatile(ctx, func(me *user.User) error {
		sender := TypingUser{UserID: me.ID, Email: r.apiEmail(me)}
		switch req.Type {
		case "", "direct", "private":
			if len(req.To) == 0 {
				return BadRequest("Missing 'to' argument")
			}
			if !me.Settings.SendPrivateTypingNotifications {
				return BadRequest("User has disabled typing notifications for direct messages")
			}
			ids := append([]int{me.ID}, req.To...)
			for _, id := range req.To {
				if u := r.users.byID[id]; u == nil || !u.IsActive {
					return BadRequest("Invalid user ID %d", id)
				}
			}
			slices.Sort(ids)
			ids = slices.Compact(ids)
			recipients := make([]TypingUser, len(ids))
			for i, id := range ids {
				recipients[i] = TypingUser{UserID: id, Email: r.apiEmail(r.users.byID[id])}
			}
			kind := "direct"
			if !r.has(changeTypingDirect) {
				kind = "private"
			}
			r.emit("typing", TypingEvent{Op: req.Op, MessageType: kind, Sender: sender, Recipients: recipients},
				r.typingAudience(ids)...)
		case "stream", "channel":
			if !r.has(changeTypingStreamID) {
				// Before stream_id, the channel was the one ID of to.
				if len(req.To) == 0 {
					return BadRequest("Missing 'to' argument")
				}
				if len(req.To) > 1 {
					return BadRequest("Cannot send to multiple streams")
				}
				req.StreamID = req.To[0]
			}
			if req.StreamID == 0 {
				return BadRequest("Missing 'stream_id' argument")
			}
			if req.Topic == nil {
				return BadRequest("Missing topic")
			}
			if !me.Settings.SendStreamTypingNotifications {
				return BadRequest("User has disabled typing notifications for channel messages")
			}
			ch := r.channels.byID[req.StreamID]
			if ch == nil || !r.canAccessChannelForSend(me, ch) {
				return BadRequest("Invalid channel ID")
			}
			rules := r.topicRules()
			// Typing took "(no topic)" for the empty topic at 372,
			// two levels after sending did.
			rules.LiteralNoTopic = !r.has(changeTypingNoTopicAlias)
			name, err := rules.Stored(*req.Topic)
			if err != nil {
				return BadRequest("%s", err.Error())
			}
			ev := TypingEvent{Op: req.Op, MessageType: "stream", Sender: sender, StreamID: ch.ID, Topic: &name}
			var legacy EventPayload
			if name == "" {
				old := ev
				old.Topic = ptr(rules.Display("", false))
				legacy = old
			}
			r.emitNamingTopic(&change{typ: "typing", payload: ev,
				filter: func(q *Queue) bool { return q.Config().opts.Capabilities.StreamTypingNotifications },
			}, legacy, r.typingAudience(r.subscriberIDs(ch.ID)))
		default:
			return BadRequest("Invalid type")
		}
		return nil
	})
}

// typingAudience keeps the users who receive typing notifications.
func (r *Realm) typingAudience(ids []int) []int {
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		if u := r.users.byID[id]; u != nil && u.IsActive && wantsTyping(u) {
			out = append(out, id)
		}
	}
	return out
}

func wantsTyping(u *user.User) bool { return u.Settings.ReceivesTypingNotifications }

// EditTypingRecipient says where a message being edited is, in a
// typing_edit_message event.
type EditTypingRecipient struct {
	Type      string  `json:"type"` // "channel" or "direct"
	ChannelID int     `json:"channel_id,omitempty"`
	Topic     *string `json:"topic,omitempty"`
	UserIDs   []int   `json:"user_ids,omitempty"`
}

// EditTypingEvent tells that someone started or stopped editing a
// message's content.
type EditTypingEvent struct {
	Op        string              `json:"op"`
	SenderID  int                 `json:"sender_id"`
	MessageID int64               `json:"message_id"`
	Recipient EditTypingRecipient `json:"recipient"`
}

// SetEditTyping sends a typing notification for editing a message (POST
// /messages/{message_id}/typing, feature level 351): the caller must be
// allowed to edit its content now (no grace period). It goes, as a
// typing_edit_message event, to those who would see the edit and receive
// typing notifications: the channel's subscribers, or the direct
// message's participants. A user who turned off sending typing
// notifications for that kind of message is refused.
func (a *Actor) SetEditTyping(ctx context.Context, messageID int64, op string) error {
	if op != "start" && op != "stop" {
		return BadRequest("Invalid op")
	}
	r := a.r
	return a.writeVolatile(ctx, func(me *user.User) error {
		m := r.accessibleMessage(me, messageID)
		if m == nil {
			return invalidMessage()
		}
		if !r.settings.AllowMessageEditing {
			return BadRequest("Your organization has turned off message editing")
		}
		if err := r.checkContentEditor(me, m, 0); err != nil {
			return err
		}
		ev := EditTypingEvent{Op: op, SenderID: me.ID, MessageID: m.ID}
		var audience []int
		if m.Type == message.Channel {
			if !me.Settings.SendStreamTypingNotifications {
				return BadRequest("User has disabled typing notifications for channel messages")
			}
			topicName := m.Topic
			ev.Recipient = EditTypingRecipient{Type: "channel", ChannelID: m.ChannelID, Topic: &topicName}
			audience = r.subscriberIDs(m.ChannelID)
		} else {
			if !me.Settings.SendPrivateTypingNotifications {
				return BadRequest("User has disabled typing notifications for direct messages")
			}
			ev.Recipient = EditTypingRecipient{Type: "direct", UserIDs: slices.Clone(m.DMUserIDs)}
			audience = m.DMUserIDs
		}
		r.emit("typing_edit_message", ev, r.typingAudience(audience)...)
		return nil
	})
}
