package realm

import "testing"

func TestUpdateSettingsEmitsUpdateDict(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	r.UpdateSettings(func(s *Settings) {
		s.AllowMessageEditing = false
		s.MessageContentEditLimitSeconds = nil
	})
	r.UpdateSettings(func(s *Settings) {}) // no change, no event
	evs := pending(t, r, idHamlet, q, -1)
	if len(evs) != 1 {
		t.Fatalf("events %+v", evs)
	}
	j := eventJSON(t, evs[0])
	data := j["data"].(map[string]any)
	if j["op"] != "update_dict" || j["property"] != "default" || len(data) != 2 || data["allow_message_editing"] != false ||
		data["message_content_edit_limit_seconds"] != nil {
		t.Fatalf("event %v", j)
	}
	if _, ok := data["message_content_edit_limit_seconds"]; !ok {
		t.Fatal("a limit set to unlimited is sent as null")
	}
}
