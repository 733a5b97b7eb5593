package realm

import (
	"testing"

	"github.com/minizulip/minizulip/message"
)

// Rows 248 (POST /messages, POST and PATCH /scheduled_messages, POST
// /typing ?type): "channel" is a message type from 248 on; below, it is
// refused as an unknown type, and nothing is sent or scheduled.
func TestChannelMessageTypeFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeChannelMessageType, func(t *testing.T, r *Realm, has bool) {
		a := r.As(idHamlet)
		next := r.messages.nextID
		q := mustQueue(t, r, idIago, QueueOptions{Capabilities: ClientCapabilities{StreamTypingNotifications: true}})
		_, sendErr := a.SendMessage(bg, SendRequest{Type: "channel", To: message.To{ChannelName: "Denmark"}, Topic: str("t"), Content: "x"})
		at := r.clock.Now().Unix() + 3600
		sid, schedErr := a.CreateScheduledMessage(bg, ScheduledMessageInput{Type: "channel", To: "2", Topic: str("t"), Content: "x", DeliverAt: at})
		typingErr := a.SetTyping(bg, TypingRequest{Type: "channel", Op: "start", StreamID: 2, To: []int{2}, Topic: str("castle")})
		// An existing scheduled message, retyped.
		old, err := a.CreateScheduledMessage(bg, ScheduledMessageInput{Type: "direct", To: "[10]", Content: "x", DeliverAt: at})
		if err != nil {
			t.Fatal(err)
		}
		updateErr := a.UpdateScheduledMessage(bg, old, ScheduledMessageUpdate{Type: str("channel"), To: str("2"), Topic: str("t")})
		evs := eventsOf(t, r, idIago, q, "typing")
		if !has {
			wantCode(t, sendErr, CodeBadRequest, "Invalid type")
			wantCode(t, schedErr, CodeBadRequest, "Invalid type")
			wantCode(t, typingErr, CodeBadRequest, "Invalid type")
			wantCode(t, updateErr, CodeBadRequest, "Invalid type")
			if r.messages.nextID != next || len(evs) != 0 || sid != 0 {
				t.Fatalf("a refused type did something: %d typing events, scheduled %d", len(evs), sid)
			}
			// "stream" still works.
			if _, err := a.SendMessage(bg, SendRequest{Type: "stream", To: message.To{ChannelName: "Denmark"}, Topic: str("t"), Content: "x"}); err != nil {
				t.Fatal(err)
			}
			return
		}
		for _, err := range []error{sendErr, schedErr, typingErr, updateErr} {
			if err != nil {
				t.Fatal(err)
			}
		}
		if len(evs) != 1 || evs[0]["message_type"] != "stream" {
			t.Fatalf("typing events %v", evs)
		}
	})
}

// Row 215 (POST /typing ?type): "private" names a direct message below
// 215, and is refused from it on.
func TestPrivateTypingTypeFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeTypingStreamID, func(t *testing.T, r *Realm, has bool) {
		q := mustQueue(t, r, idIago, QueueOptions{})
		err := r.As(idHamlet).SetTyping(bg, TypingRequest{Type: "private", Op: "start", To: []int{idIago}})
		evs := eventsOf(t, r, idIago, q, "typing")
		if has {
			wantCode(t, err, CodeBadRequest, "Invalid type")
			if len(evs) != 0 {
				t.Fatalf("a refused notification sent %v", evs)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 1 || evs[0]["message_type"] != "private" {
			t.Fatalf("typing events %v", evs)
		}
	})
}

// Row 224 (POST /messages/flags): stream_wildcard_mentioned and
// topic_wildcard_mentioned are flags from 224 on, not editable; below,
// they are unknown flags.
func TestSplitWildcardFlagsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeWildcardMentionFlags, func(t *testing.T, r *Realm, has bool) {
		id := send(t, r, idIago, "Denmark", "t", "x")
		for _, flag := range []string{"stream_wildcard_mentioned", "topic_wildcard_mentioned"} {
			_, err := r.As(idHamlet).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{id}, Op: "add", Flag: flag})
			if has {
				wantCode(t, err, CodeBadRequest, "Flag not editable: '"+flag+"'")
			} else {
				wantCode(t, err, CodeBadRequest, "Invalid flag: '"+flag+"'")
			}
		}
		// wildcard_mentioned is known at both levels.
		_, err := r.As(idHamlet).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{id}, Op: "add", Flag: "wildcard_mentioned"})
		wantCode(t, err, CodeBadRequest, "Flag not editable: 'wildcard_mentioned'")
	})
}
