package realm

import (
	"testing"

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
