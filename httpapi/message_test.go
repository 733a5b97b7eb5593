package httpapi

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestHTTPSendAndFetchChannelMessage(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{
		"type": {"channel"}, "to": {"Denmark"}, "topic": {"castle"}, "content": {"To **be**"},
	})
	e.wantSuccess(status, body)
	id := body["id"].(float64)
	if body["automatic_new_visibility_policy"] != float64(3) {
		t.Fatalf("want automatic follow on initiation: %v", body)
	}
	if _, ok := body["ignored_parameters_unsupported"]; ok {
		t.Fatalf("no parameter was unsupported: %v", body)
	}
	status, body = e.do("iago@zulip.com", "GET", "/messages", url.Values{
		"anchor": {"newest"}, "num_before": {"10"}, "num_after": {"0"},
		"narrow": {`[{"operator":"channel","operand":"Denmark"},{"operator":"topic","operand":"CASTLE"}]`},
	})
	e.wantSuccess(status, body)
	msgs := body["messages"].([]any)
	if len(msgs) != 1 || body["found_newest"] != true || body["found_oldest"] != true || body["anchor"] != float64(1e16) {
		t.Fatalf("fetch answer %v", body)
	}
	m := msgs[0].(map[string]any)
	want := map[string]any{
		"id": id, "sender_id": float64(10), "content": "<p>To <strong>be</strong></p>", "subject": "castle",
		"display_recipient": "Denmark", "type": "stream", "stream_id": float64(2), "content_type": "text/html",
		"sender_email": "user10@zulipdev.com", "sender_full_name": "King Hamlet", "sender_realm_str": "zulip",
		"is_me_message": false, "client": "Go-http-client",
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("message[%s] = %v, want %v", k, m[k], v)
		}
	}
	for _, k := range []string{"recipient_id", "timestamp", "reactions", "topic_links", "submessages", "flags", "avatar_url"} {
		if _, ok := m[k]; !ok {
			t.Errorf("message lacks %s", k)
		}
	}
	status, body = e.do("iago@zulip.com", "GET", "/messages/1", url.Values{"apply_markdown": {"false"}})
	e.wantSuccess(status, body)
	if body["raw_content"] != "To **be**" || body["message"].(map[string]any)["content"] != "To **be**" ||
		body["message"].(map[string]any)["content_type"] != "text/x-markdown" {
		t.Fatalf("single message %v", body)
	}
}

func TestHTTPSendToForms(t *testing.T) {
	e := newMsgEnv(t)
	for _, to := range []string{"Denmark", "2", `"Denmark"`, `["Denmark"]`, `[2]`} {
		status, body := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {to}, "topic": {"t"}, "content": {"x"}})
		e.wantSuccess(status, body)
	}
	for _, to := range []string{"[11]", `["iago@zulip.com"]`, "iago@zulip.com", "user11@zulipdev.com", "11"} {
		status, body := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"private"}, "to": {to}, "content": {"x"}})
		e.wantSuccess(status, body)
	}
	if n := e.count("iago@zulip.com"); n != 10 {
		t.Fatalf("iago has %d messages, want 10", n)
	}
}

func TestHTTPSendErrors(t *testing.T) {
	e := newMsgEnv(t)
	cases := []struct {
		form       url.Values
		status     int
		code, msg  string
		extraKey   string
		extraValue any
	}{
		{url.Values{"to": {"Denmark"}, "topic": {"t"}, "content": {"x"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'type' argument", "var_name", "type"},
		{url.Values{"type": {"stream"}, "topic": {"t"}, "content": {"x"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'to' argument", "var_name", "to"},
		{url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument", "var_name", "content"},
		{url.Values{"type": {"stream"}, "to": {"Denmark"}, "content": {"x"}}, 400, "BAD_REQUEST", "Missing topic", "", nil},
		{url.Values{"type": {"stream"}, "to": {"Atlantis"}, "topic": {"t"}, "content": {"x"}}, 400, "STREAM_DOES_NOT_EXIST", "Channel 'Atlantis' does not exist", "stream", "Atlantis"},
		{url.Values{"type": {"bogus"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"x"}}, 400, "BAD_REQUEST", "Invalid type", "", nil},
		{url.Values{"type": {"direct"}, "to": {"[99999]"}, "content": {"x"}}, 400, "BAD_REQUEST", "Invalid user ID 99999", "", nil},
		{url.Values{"type": {"direct"}, "to": {`["nobody@example.com"]`}, "content": {"x"}}, 400, "BAD_REQUEST", "Invalid email 'nobody@example.com'", "", nil},
		{url.Values{"type": {"direct"}, "to": {"[11"}, "content": {"x"}}, 400, "BAD_REQUEST", "", "", nil},
		{url.Values{"type": {"direct"}, "to": {"[11]"}, "content": {"x"}, "local_id": {"1"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'queue_id' argument", "var_name", "queue_id"},
		{url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"x"}, "read_by_sender": {"maybe"}}, 400, "BAD_REQUEST", "read_by_sender is not a boolean", "", nil},
		{url.Values{"type": {"stream"}, "to": {"core team"}, "topic": {"t"}, "content": {"x"}}, 400, "BAD_REQUEST", "Not authorized to send to channel 'core team'", "", nil},
	}
	for _, c := range cases {
		status, body := e.do("othello@zulip.com", "POST", "/messages", c.form)
		e.wantError(status, body, c.status, c.code, c.msg)
		if c.extraKey != "" && body[c.extraKey] != c.extraValue {
			t.Errorf("%v: %s = %v, want %v", c.form, c.extraKey, body[c.extraKey], c.extraValue)
		}
		if c.extraKey == "" && len(body) != 3 {
			t.Errorf("%v: plain errors carry exactly result, msg, code: %v", c.form, body)
		}
	}
	status, body := e.do("polonius@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"x"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "Not authorized to send to channel 'Denmark'")
	status, body = e.do("", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"x"}})
	e.wantError(status, body, 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required")
	if n := e.count("iago@zulip.com"); n != 0 {
		t.Fatalf("rejected sends stored %d messages", n)
	}
}

func TestHTTPSendIgnoredParametersAndMultipart(t *testing.T) {
	e := newMsgEnv(t)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range map[string]string{"type": "stream", "to": "Denmark", "topic": "multi", "content": "from zulip-js", "sparkle": "1"} {
		_ = mw.WriteField(k, v)
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/messages", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	_, key, _ := e.realm.APIKey("hamlet@zulip.com")
	req.SetBasicAuth("hamlet@zulip.com", key)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	e.wantSuccess(resp.StatusCode, body)
	ignored, _ := body["ignored_parameters_unsupported"].([]any)
	if len(ignored) != 1 || ignored[0] != "sparkle" {
		t.Fatalf("ignored_parameters_unsupported = %v", body["ignored_parameters_unsupported"])
	}
}

func TestHTTPFetchErrors(t *testing.T) {
	e := newMsgEnv(t)
	base := func(extra map[string]string) url.Values {
		v := url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}}
		for k, x := range extra {
			if x == "" {
				v.Del(k)
			} else {
				v.Set(k, x)
			}
		}
		return v
	}
	cases := []struct {
		q         url.Values
		code, msg string
	}{
		{base(map[string]string{"num_before": "-1"}), "REQUEST_VARIABLE_INVALID", "Bad value for 'num_before': -1"},
		{base(map[string]string{"num_after": ""}), "REQUEST_VARIABLE_MISSING", "Missing 'num_after' argument"},
		{base(map[string]string{"anchor": ""}), "BAD_REQUEST", "Missing 'anchor' argument."},
		{base(map[string]string{"anchor": "later"}), "BAD_REQUEST", "Invalid anchor"},
		{base(map[string]string{"narrow": `{"operator":"x"}`}), "REQUEST_VARIABLE_INVALID", ""},
		{base(map[string]string{"narrow": `[["stream","Atlantis"]]`}), "BAD_NARROW", "Invalid narrow operator: unknown stream Atlantis"},
		{base(map[string]string{"num_before": "5001"}), "BAD_REQUEST", "Too many messages requested (maximum 5000)."},
	}
	for _, c := range cases {
		status, body := e.do("iago@zulip.com", "GET", "/messages", c.q)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	status, body := e.do("iago@zulip.com", "GET", "/messages", base(map[string]string{"num_before": "-1"}))
	if body["var_name"] != "num_before" || body["bad_value"] != "-1" {
		t.Fatalf("REQUEST_VARIABLE_INVALID extras: %d %v", status, body)
	}
	status, body = e.do("iago@zulip.com", "GET", "/messages/12345", nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "Invalid message(s)")
	status, _ = e.do("iago@zulip.com", "GET", "/messages/abc", nil)
	if status != http.StatusNotFound {
		t.Fatalf("non-numeric message id: status %d, want 404", status)
	}
}

func TestHTTPDeleteMessage(t *testing.T) {
	e := newMsgEnv(t)
	_, body := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Verona"}, "topic": {"t"}, "content": {"x"}})
	id := strings.TrimSuffix(strings.TrimSuffix(jsonNumber(body["id"]), ".0"), "")
	status, body := e.do("othello@zulip.com", "DELETE", "/messages/"+id, nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "You don't have permission to delete this message")
	e.clock.Advance(11 * time.Minute)
	status, body = e.do("hamlet@zulip.com", "DELETE", "/messages/"+id, nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "The time limit for deleting this message has passed")
	if e.count("hamlet@zulip.com") != 1 {
		t.Fatal("a rejected delete removed the message")
	}
	status, body = e.do("iago@zulip.com", "DELETE", "/messages/"+id, nil)
	e.wantSuccess(status, body)
	if e.count("hamlet@zulip.com") != 0 {
		t.Fatal("the message survived its deletion")
	}
}

func TestHTTPRender(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "POST", "/messages/render", url.Values{"content": {"**hi** <script>x</script>"}})
	e.wantSuccess(status, body)
	if body["rendered"] != "<p><strong>hi</strong> &lt;script&gt;x&lt;/script&gt;</p>" {
		t.Fatalf("rendered %q", body["rendered"])
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/messages/render", nil)
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument")
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
