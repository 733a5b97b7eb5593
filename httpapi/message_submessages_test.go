package httpapi

import (
	"net/url"
	"strconv"
	"testing"
)

// A poll over HTTP as the web app and the mobile app make one: a /poll
// message carries its widget submessage, POST /submessage votes, and the
// recipients' queues hear the vote; bad submessages get Zulip's errors
// and change nothing.
func TestHTTPSubmessages(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["submessage"]`}})
	id := e.sendTo("iago@zulip.com", "Verona", "lunch", "/poll Lunch?\n- Pizza")
	status, body := e.do("hamlet@zulip.com", "GET", "/messages/"+strconv.FormatInt(id, 10), nil)
	subs := e.ok(status, body)["message"].(map[string]any)["submessages"].([]any)
	if len(subs) != 1 || subs[0].(map[string]any)["content"] != `{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza"]}}` {
		t.Fatalf("the poll's submessages: %v", subs)
	}
	vote := `{"type": "vote", "key": "canned,0", "vote": 1}`
	e.ok(e.do("hamlet@zulip.com", "POST", "/submessage", url.Values{"message_id": {strconv.FormatInt(id, 10)}, "msg_type": {"widget"}, "content": {vote}}))
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 1 {
		t.Fatalf("events: %v", evs)
	}
	ev := evs[0].(map[string]any)
	if ev["type"] != "submessage" || ev["content"] != vote || ev["message_id"] != float64(id) || ev["submessage_id"] != float64(2) ||
		ev["sender_id"] != float64(e.userID("hamlet@zulip.com")) || ev["msg_type"] != "widget" {
		t.Fatalf("submessage event: %v", ev)
	}
	idStr := strconv.FormatInt(id, 10)
	for _, c := range []struct {
		form       url.Values
		code, want string
	}{
		{url.Values{"message_id": {idStr}, "msg_type": {"widget"}}, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument"},
		{url.Values{"content": {vote}, "msg_type": {"widget"}}, "REQUEST_VARIABLE_MISSING", "Missing 'message_id' argument"},
		{url.Values{"content": {vote}, "message_id": {idStr}}, "REQUEST_VARIABLE_MISSING", "Missing 'msg_type' argument"},
		{url.Values{"content": {vote}, "message_id": {"x"}, "msg_type": {"widget"}}, "BAD_REQUEST", "message_id is not an integer"},
		{url.Values{"content": {"{"}, "message_id": {idStr}, "msg_type": {"widget"}}, "BAD_REQUEST", "Invalid json for submessage"},
		{url.Values{"content": {`{"type": "question", "question": "?"}`}, "message_id": {idStr}, "msg_type": {"widget"}}, "BAD_REQUEST",
			"You can't edit a question unless you are the author."},
		{url.Values{"content": {vote}, "message_id": {"99999"}, "msg_type": {"widget"}}, "BAD_REQUEST", "Invalid message(s)"},
	} {
		status, body := e.do("hamlet@zulip.com", "POST", "/submessage", c.form)
		e.fail(status, body, 400, c.code, c.want)
	}
	status, body = e.do("iago@zulip.com", "PATCH", "/messages/"+idStr, url.Values{"content": {"/poll Dinner?"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Widgets cannot be edited.")
	status, body = e.do("hamlet@zulip.com", "GET", "/messages/"+idStr, nil)
	if subs := e.ok(status, body)["message"].(map[string]any)["submessages"].([]any); len(subs) != 2 {
		t.Fatalf("refused requests changed the submessages: %v", subs)
	}
}

// A bot's widget_content, sent as python-zulip-api's bots send it, makes
// the message a zform; a bad one refuses the send.
func TestHTTPSendWidgetContent(t *testing.T) {
	e := newMsgEnv(t)
	zform := `{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Q?", "choices": [{"type": "multiple_choice", "short_name": "A", "long_name": "Yes", "reply": "answer A"}]}}`
	status, body := e.do("default-bot@zulip.com", "POST", "/messages", url.Values{"type": {"direct"}, "to": {`["hamlet@zulip.com"]`},
		"content": {"Q?"}, "widget_content": {zform}})
	id := int64(e.ok(status, body)["id"].(float64))
	status, body = e.do("hamlet@zulip.com", "GET", "/messages/"+strconv.FormatInt(id, 10), nil)
	subs := e.ok(status, body)["message"].(map[string]any)["submessages"].([]any)
	if len(subs) != 1 || subs[0].(map[string]any)["content"] != zform {
		t.Fatalf("the zform's submessages: %v", subs)
	}
	status, body = e.do("default-bot@zulip.com", "POST", "/messages", url.Values{"type": {"direct"}, "to": {`["hamlet@zulip.com"]`},
		"content": {"Q?"}, "widget_content": {`{"widget_type": "zform"}`}})
	e.fail(status, body, 400, "BAD_REQUEST", "Widgets: extra_data is not in widget_content")
}
