package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// FuzzSendMessage drives POST /messages with arbitrary parameter values:
// no input may panic or produce a 5xx, every answer is a JSON envelope, and
// a rejected send stores nothing.
func FuzzSendMessage(f *testing.F) {
	f.Add("stream", "Denmark", "topic", "hello", "", "")
	f.Add("private", "[11,10]", "", "hi", "q", "1")
	f.Add("direct", `["iago@zulip.com"]`, "", "x", "", "")
	f.Add("channel", "[2]", "(no topic)", "\x00", "", "")
	f.Add("stream", `"core team"`, "t\x01", strings.Repeat("é", 10010), "", "")
	f.Add("private", "[", "", "", "", "")
	f.Add("stream", "99999999999999999999", "", "x", "", "")
	f.Add("direct", "[-1]", "general chat", "/me waves", "", "")
	r := realm.New()
	srv := New(r)
	_, key, _ := r.APIKey("hamlet@zulip.com")
	count := r.MessageCount
	f.Fuzz(func(t *testing.T, typ, to, topic, content, queueID, localID string) {
		form := url.Values{"type": {typ}, "to": {to}, "topic": {topic}, "content": {content}}
		if queueID != "" {
			form.Set("queue_id", queueID)
		}
		if localID != "" {
			form.Set("local_id", localID)
		}
		before := count()
		req := httptest.NewRequest("POST", "/api/v1/messages", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth("hamlet@zulip.com", key)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("status %d for %v: %s", w.Code, form, w.Body)
		}
		var body map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("answer is not JSON: %q", w.Body)
		}
		after := count()
		if w.Code == http.StatusOK {
			if body["result"] != "success" || after != before+1 {
				t.Fatalf("success %v but %d -> %d messages", body, before, after)
			}
		} else if body["result"] != "error" || body["code"] == nil || after != before {
			t.Fatalf("error %v but %d -> %d messages", body, before, after)
		}
	})
}
