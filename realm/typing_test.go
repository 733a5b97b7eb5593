package realm

import (
	"fmt"
	"testing"
	"time"

	"github.com/minizulip/minizulip/user"
)

func TestTypingDirect(t *testing.T) {
	r, _ := newTestRealm(t)
	iago := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"typing"}})
	othello := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"typing"}})
	cordelia := mustQueue(t, r, idCordelia, QueueOptions{EventTypes: []string{"typing"}})
	r.UpdateUserSettings(idOthello, func(s *user.Settings) { s.ReceivesTypingNotifications = false })
	if err := r.As(idHamlet).SetTyping(bg, TypingRequest{Op: "start", To: []int{idIago, idOthello}}); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idIago, iago, -1)
	if len(evs) != 1 {
		t.Fatalf("iago got %+v", evs)
	}
	j := eventJSON(t, evs[0])
	if j["op"] != "start" || j["message_type"] != "direct" || j["sender"].(map[string]any)["user_id"] != float64(idHamlet) ||
		len(j["recipients"].([]any)) != 3 {
		t.Fatalf("typing event %v", j)
	}
	if evs := pending(t, r, idOthello, othello, -1); len(evs) != 0 {
		t.Fatal("othello turned typing notifications off")
	}
	if evs := pending(t, r, idCordelia, cordelia, -1); len(evs) != 0 {
		t.Fatal("cordelia is not a recipient")
	}
}

func TestTypingChannelAndErrors(t *testing.T) {
	r, _ := newTestRealm(t)
	capable := mustQueue(t, r, idIago, QueueOptions{Capabilities: ClientCapabilities{StreamTypingNotifications: true}})
	plain := mustQueue(t, r, idIago, QueueOptions{})
	if err := r.As(idHamlet).SetTyping(bg, TypingRequest{Type: "stream", Op: "stop", StreamID: 2, Topic: str("castle")}); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idIago, capable, -1)
	if len(evs) != 1 {
		t.Fatalf("capable queue %+v", evs)
	}
	if j := eventJSON(t, evs[0]); j["stream_id"] != float64(2) || j["topic"] != "castle" || j["message_type"] != "stream" || j["recipients"] != nil {
		t.Fatalf("channel typing %v", j)
	}
	if evs := pending(t, r, idIago, plain, -1); len(evs) != 0 {
		t.Fatal("queue without stream_typing_notifications got channel typing")
	}
	a := r.As(idHamlet)
	wantCode(t, a.SetTyping(bg, TypingRequest{Op: "begin", To: []int{idIago}}), CodeBadRequest, "Invalid op")
	wantCode(t, a.SetTyping(bg, TypingRequest{Op: "start"}), CodeBadRequest, "Missing 'to' argument")
	wantCode(t, a.SetTyping(bg, TypingRequest{Op: "start", To: []int{999}}), CodeBadRequest, "Invalid user ID 999")
	wantCode(t, a.SetTyping(bg, TypingRequest{Type: "stream", Op: "start", Topic: str("x")}), CodeBadRequest, "Missing 'stream_id' argument")
	wantCode(t, a.SetTyping(bg, TypingRequest{Type: "stream", Op: "start", StreamID: 2}), CodeBadRequest, "Missing topic")
	wantCode(t, r.As(idOthello).SetTyping(bg, TypingRequest{Type: "stream", Op: "start", StreamID: 6, Topic: str("x")}), CodeBadRequest, "Invalid channel ID")
	wantCode(t, a.SetTyping(bg, TypingRequest{Type: "smoke", Op: "start"}), CodeBadRequest, "Invalid type")
}

func TestTypingRefusedWhenTheSenderTurnedItOff(t *testing.T) {
	r, _ := newTestRealm(t)
	r.UpdateUserSettings(idHamlet, func(s *user.Settings) { s.SendPrivateTypingNotifications = false })
	wantCode(t, r.As(idHamlet).SetTyping(bg, TypingRequest{Op: "start", To: []int{idIago}}), CodeBadRequest,
		"User has disabled typing notifications for direct messages")
	if err := r.As(idHamlet).SetTyping(bg, TypingRequest{Type: "channel", Op: "start", StreamID: 2, Topic: str("castle")}); err != nil {
		t.Fatal(err)
	}
	r.UpdateUserSettings(idHamlet, func(s *user.Settings) { s.SendStreamTypingNotifications = false })
	wantCode(t, r.As(idHamlet).SetTyping(bg, TypingRequest{Type: "channel", Op: "start", StreamID: 2, Topic: str("castle")}), CodeBadRequest,
		"User has disabled typing notifications for channel messages")
}

func TestEditTypingChannel(t *testing.T) {
	r, clock := newTestRealm(t)
	id := send(t, r, idHamlet, "Denmark", "castle", "to be edited")
	types := QueueOptions{EventTypes: []string{"typing_edit_message"}}
	iago := mustQueue(t, r, idIago, types)
	othello := mustQueue(t, r, idOthello, types)
	cordelia := mustQueue(t, r, idCordelia, types) // not subscribed to Denmark
	r.UpdateUserSettings(idOthello, func(s *user.Settings) { s.ReceivesTypingNotifications = false })
	if err := r.As(idHamlet).SetEditTyping(bg, id, "start"); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idIago, iago, -1)
	if len(evs) != 1 || evs[0].Type != "typing_edit_message" {
		t.Fatalf("iago got %+v", evs)
	}
	j := eventJSON(t, evs[0])
	rec := j["recipient"].(map[string]any)
	if j["op"] != "start" || j["sender_id"] != float64(idHamlet) || j["message_id"] != float64(id) ||
		rec["type"] != "channel" || rec["channel_id"] != float64(r.channelByNameOrID("Denmark").ID) || rec["topic"] != "castle" || rec["user_ids"] != nil {
		t.Fatalf("event %v", j)
	}
	if len(pending(t, r, idOthello, othello, -1)) != 0 || len(pending(t, r, idCordelia, cordelia, -1)) != 0 {
		t.Fatal("typing went to a user who turned it off or does not see the channel")
	}
	// Only the sender, only within the edit limit (no grace), only while
	// editing is allowed.
	wantCode(t, r.As(idIago).SetEditTyping(bg, id, "start"), CodeBadRequest, "You don't have permission to edit this message")
	wantCode(t, r.As(idHamlet).SetEditTyping(bg, id, "begin"), CodeBadRequest, "Invalid op")
	wantCode(t, r.As(idHamlet).SetEditTyping(bg, 999999, "start"), CodeBadRequest, "Invalid message(s)")
	private := send(t, r, idIago, "core team", "plans", "secret")
	wantCode(t, r.As(idOthello).SetEditTyping(bg, private, "start"), CodeBadRequest, "Invalid message(s)")
	limit := 60
	r.settings.MessageContentEditLimitSeconds = &limit
	clock.Advance(61 * time.Second)
	wantCode(t, r.As(idHamlet).SetEditTyping(bg, id, "stop"), CodeBadRequest, "The time limit for editing this message has passed")
	r.settings.MessageContentEditLimitSeconds = nil
	r.settings.AllowMessageEditing = false
	wantCode(t, r.As(idHamlet).SetEditTyping(bg, id, "stop"), CodeBadRequest, "Your organization has turned off message editing")
	if len(pending(t, r, idIago, iago, evs[0].ID)) != 0 {
		t.Fatal("a refused notification was sent")
	}
}

func TestEditTypingDirect(t *testing.T) {
	r, _ := newTestRealm(t)
	dm, err := r.As(idHamlet).SendDirectMessage(bg, []int{idIago, idOthello}, "group chat")
	if err != nil {
		t.Fatal(err)
	}
	types := QueueOptions{EventTypes: []string{"typing_edit_message"}}
	iago := mustQueue(t, r, idIago, types)
	cordelia := mustQueue(t, r, idCordelia, types)
	if err := r.As(idHamlet).SetEditTyping(bg, dm.ID, "stop"); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idIago, iago, -1)
	if len(evs) != 1 {
		t.Fatalf("iago got %+v", evs)
	}
	rec := eventJSON(t, evs[0])["recipient"].(map[string]any)
	if rec["type"] != "direct" || fmt.Sprint(rec["user_ids"]) != fmt.Sprint([]any{float64(idHamlet), float64(idIago), float64(idOthello)}) || rec["channel_id"] != nil {
		t.Fatalf("recipient %v", rec)
	}
	if len(pending(t, r, idCordelia, cordelia, -1)) != 0 {
		t.Fatal("cordelia is not in the conversation")
	}
	r.UpdateUserSettings(idHamlet, func(s *user.Settings) { s.SendPrivateTypingNotifications = false })
	wantCode(t, r.As(idHamlet).SetEditTyping(bg, dm.ID, "start"), CodeBadRequest, "User has disabled typing notifications for direct messages")
}
