package httpapi

import (
	"fmt"
	"net/url"
	"strconv"
	"testing"
	"time"
)

func (e *apiEnv) message(email, id string) map[string]any {
	e.t.Helper()
	status, body := e.do(email, "GET", "/messages/"+id, url.Values{"allow_empty_topic_name": {"true"}})
	e.wantSuccess(status, body)
	return body["message"].(map[string]any)
}

func TestHTTPEditMessage(t *testing.T) {
	e := newMsgEnv(t)
	id := fmt.Sprint(e.sendTo("hamlet@zulip.com", "Denmark", "castle", "draft"))
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["update_message","message"]`}, "apply_markdown": {"true"}})
	e.clock.Advance(time.Minute)
	status, body := e.do("hamlet@zulip.com", "PATCH", "/messages/"+id, url.Values{"content": {"final **text**"}})
	e.wantSuccess(status, body)
	if du, ok := body["detached_uploads"].([]any); !ok || len(du) != 0 {
		t.Fatalf("detached_uploads must be an empty list: %v", body)
	}
	m := e.message("othello@zulip.com", id)
	if m["content"] != "<p>final <strong>text</strong></p>" || m["last_edit_timestamp"] != float64(e.clock.Now().Unix()) {
		t.Fatalf("edited message %v", m)
	}
	hist := m["edit_history"].([]any)
	if len(hist) != 1 || hist[0].(map[string]any)["prev_content"] != "draft" {
		t.Fatalf("edit_history %v", hist)
	}
	evs := e.events("othello@zulip.com", qid, -1, false)
	if len(evs) != 1 || evs[0].(map[string]any)["orig_content"] != "draft" || evs[0].(map[string]any)["rendered_content"] != m["content"] {
		t.Fatalf("update_message events %v", evs)
	}

	// The history endpoint: oldest first.
	status, body = e.do("othello@zulip.com", "GET", "/messages/"+id+"/history", nil)
	e.wantSuccess(status, body)
	h := body["message_history"].([]any)
	if len(h) != 2 || h[0].(map[string]any)["content"] != "draft" || h[1].(map[string]any)["prev_content"] != "draft" ||
		h[1].(map[string]any)["content_html_diff"] == nil {
		t.Fatalf("message_history %v", h)
	}

	// Topic moves, with the legacy "subject" name and a notice.
	status, body = e.do("othello@zulip.com", "PATCH", "/messages/"+id, url.Values{"subject": {"keep"}, "propagate_mode": {"change_all"},
		"send_notification_to_old_thread": {"true"}})
	e.wantSuccess(status, body)
	if m := e.message("othello@zulip.com", id); m["subject"] != "keep" || m["last_moved_timestamp"] == nil {
		t.Fatalf("moved message %v", m)
	}
	evs = e.events("othello@zulip.com", qid, 0, false)
	var kinds []string
	for _, ev := range evs {
		ev := ev.(map[string]any)
		kind := ev["type"].(string)
		if kind == "message" {
			kind += ":" + ev["message"].(map[string]any)["subject"].(string)
		}
		kinds = append(kinds, kind)
	}
	if fmt.Sprint(kinds) != "[update_message message:keep message:castle]" {
		t.Fatalf("events after a move: %v", kinds)
	}
}

func TestHTTPEditMessageErrors(t *testing.T) {
	e := newMsgEnv(t)
	id := fmt.Sprint(e.sendTo("hamlet@zulip.com", "Denmark", "castle", "hello"))
	old := fmt.Sprint(e.sendTo("hamlet@zulip.com", "Denmark", "history", "old"))
	e.clock.Advance(8 * 24 * time.Hour)
	recent := fmt.Sprint(e.sendTo("hamlet@zulip.com", "Denmark", "history", "recent"))
	before := e.message("hamlet@zulip.com", id)
	cases := []struct {
		email, id string
		form      url.Values
		code, msg string
	}{
		{"hamlet@zulip.com", "999", url.Values{"content": {"x"}}, "BAD_REQUEST", "Invalid message(s)"},
		{"othello@zulip.com", id, url.Values{"content": {"x"}}, "BAD_REQUEST", "You don't have permission to edit this message"},
		{"hamlet@zulip.com", id, url.Values{"topic": {"x"}, "propagate_mode": {"change_most"}}, "BAD_REQUEST", "Invalid propagate_mode"},
		{"hamlet@zulip.com", id, url.Values{"content": {"x"}, "stream_id": {"1"}}, "BAD_REQUEST", "Cannot change message content while changing stream"},
		{"hamlet@zulip.com", id, url.Values{"stream_id": {"999"}}, "BAD_REQUEST", "Invalid channel ID"},
		{"hamlet@zulip.com", id, url.Values{"stream_id": {"x"}}, "BAD_REQUEST", "stream_id is not an integer"},
		{"hamlet@zulip.com", id, url.Values{"send_notification_to_old_thread": {"maybe"}, "topic": {"x"}}, "BAD_REQUEST", "send_notification_to_old_thread is not a boolean"},
		{"hamlet@zulip.com", id, url.Values{}, "BAD_REQUEST", "Nothing to change"},
		{"hamlet@zulip.com", id, url.Values{"content": {"x"}, "prev_content_sha256": {"00"}}, "BAD_REQUEST", "'prev_content_sha256' value does not match the expected value."},
		{"polonius@zulip.com", id, url.Values{"stream_id": {"1"}}, "BAD_REQUEST", "Invalid message(s)"},
	}
	for _, c := range cases {
		status, body := e.do(c.email, "PATCH", "/messages/"+c.id, c.form)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	status, body := e.do("hamlet@zulip.com", "PATCH", "/messages/"+recent, url.Values{"topic": {"new"}, "propagate_mode": {"change_all"}})
	e.wantError(status, body, 400, "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", "You only have permission to move the 1/2 most recent messages in this topic.")
	if body["first_message_id_allowed_to_move"] != float64(mustAtoi(t, recent)) || body["total_messages_in_topic"] != float64(2) ||
		body["total_messages_allowed_to_move"] != float64(1) {
		t.Fatalf("extra fields %v", body)
	}
	if after := e.message("hamlet@zulip.com", id); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("refused edits changed the message:\n%v\n%v", before, after)
	}
	if m := e.message("hamlet@zulip.com", old); m["subject"] != "history" {
		t.Fatalf("refused move changed %v", m)
	}
	status, body = e.do("hamlet@zulip.com", "GET", "/messages/999/history", nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "Invalid message(s)")
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestHTTPDeleteTopic(t *testing.T) {
	e := newMsgEnv(t)
	a := fmt.Sprint(e.sendTo("hamlet@zulip.com", "Denmark", "doomed", "one"))
	e.sendTo("hamlet@zulip.com", "Denmark", "Doomed", "two")
	status, body := e.do("hamlet@zulip.com", "POST", "/streams/2/delete_topic", url.Values{"topic_name": {"doomed"}})
	e.wantError(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.do("iago@zulip.com", "POST", "/streams/2/delete_topic", url.Values{})
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'topic_name' argument")
	status, body = e.do("iago@zulip.com", "POST", "/streams/999/delete_topic", url.Values{"topic_name": {"doomed"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	e.message("hamlet@zulip.com", a) // still there
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["delete_message"]`}, "client_capabilities": {`{"notification_settings_null":true,"bulk_message_deletion":true}`}})
	status, body = e.do("iago@zulip.com", "POST", "/streams/2/delete_topic", url.Values{"topic_name": {"DOOMED"}})
	e.wantSuccess(status, body)
	if body["complete"] != true {
		t.Fatalf("answer %v", body)
	}
	status, body = e.do("hamlet@zulip.com", "GET", "/messages/"+a, nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "Invalid message(s)")
	evs := e.events("othello@zulip.com", qid, -1, false)
	if len(evs) != 1 || len(evs[0].(map[string]any)["message_ids"].([]any)) != 2 {
		t.Fatalf("delete events %v", evs)
	}
}
