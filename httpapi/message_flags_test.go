package httpapi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sendTo posts a channel message as email and returns its ID.
func (e *msgEnv) sendTo(email, channel, topicName, content string) int64 {
	e.t.Helper()
	status, body := e.do(email, "POST", "/messages", url.Values{"type": {"stream"}, "to": {channel}, "topic": {topicName}, "content": {content}})
	e.wantSuccess(status, body)
	return int64(body["id"].(float64))
}

// flagsOf is the flags GET /messages/{id} shows email.
func (e *msgEnv) flagsOf(email string, id int64) []any {
	e.t.Helper()
	status, body := e.do(email, "GET", "/messages/"+strconv.FormatInt(id, 10), nil)
	e.wantSuccess(status, body)
	return body["message"].(map[string]any)["flags"].([]any)
}

// fetchedFlags maps every message email can fetch in a narrow to its flags.
func (e *msgEnv) fetchedFlags(email, narrow string) map[string]any {
	e.t.Helper()
	status, body := e.do(email, "GET", "/messages", url.Values{"anchor": {"oldest"}, "num_before": {"0"}, "num_after": {"1000"}, "narrow": {narrow}})
	e.wantSuccess(status, body)
	out := map[string]any{}
	for _, m := range body["messages"].([]any) {
		msg := m.(map[string]any)
		out[fmt.Sprint(msg["id"])] = msg["flags"]
	}
	return out
}

// unreadMsgs is register's unread_msgs for email.
func (e *msgEnv) unreadMsgs(email string) map[string]any {
	e.t.Helper()
	_, body := e.register(email, url.Values{"fetch_event_types": {`["message","update_message_flags"]`}, "event_types": {`["heartbeat"]`}})
	return body["unread_msgs"].(map[string]any)
}

// idList is a JSON list of message IDs.
func idList(ids ...int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

func TestHTTPUpdateMessageFlags(t *testing.T) {
	e := newMsgEnv(t)
	m1 := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "one")
	m2 := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "two @**Othello, the Moor of Venice**")
	dm := func() int64 {
		status, body := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"direct"}, "to": {"[12]"}, "content": {"psst"}})
		e.wantSuccess(status, body)
		return int64(body["id"].(float64))
	}()
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["update_message_flags"]`}})

	body := e.ok(e.do("othello@zulip.com", "POST", "/messages/flags", url.Values{"messages": {idList(m2, m1)}, "op": {"add"}, "flag": {"starred"}}))
	if diff := cmp.Diff([]any{float64(m2), float64(m1)}, body["messages"]); diff != "" {
		t.Fatalf("messages echo the request: %s", diff)
	}
	if _, ok := body["ignored_because_not_subscribed_channels"]; ok {
		t.Fatal("ignored channels only when marking unread")
	}
	if got := e.flagsOf("othello@zulip.com", m1); !cmp.Equal(got, []any{"starred"}) {
		t.Fatalf("flags %v", got)
	}
	e.ok(e.do("othello@zulip.com", "POST", "/messages/flags", url.Values{"messages": {idList(m1, m2, dm)}, "op": {"add"}, "flag": {"read"}}))
	body = e.ok(e.do("othello@zulip.com", "POST", "/messages/flags", url.Values{"messages": {idList(m2, dm)}, "op": {"remove"}, "flag": {"read"}}))
	if diff := cmp.Diff([]any{}, body["ignored_because_not_subscribed_channels"]); diff != "" {
		t.Fatalf("ignored channels: %s", diff)
	}
	want := map[string]any{
		fmt.Sprint(m1): []any{"read", "starred"},
		fmt.Sprint(m2): []any{"starred", "mentioned"},
	}
	if diff := cmp.Diff(want, e.fetchedFlags("othello@zulip.com", `[{"operator":"channel","operand":"Denmark"}]`)); diff != "" {
		t.Fatalf("GET /messages flags (-want +got):\n%s", diff)
	}
	evs := e.events("othello@zulip.com", qid, -1, false)
	if len(evs) != 3 {
		t.Fatalf("events %v", evs)
	}
	last := evs[2].(map[string]any)
	wantLast := map[string]any{"id": float64(2), "type": "update_message_flags", "op": "remove", "operation": "remove",
		"flag": "read", "messages": []any{float64(m2), float64(dm)}, "all": false,
		"message_details": map[string]any{
			fmt.Sprint(m2): map[string]any{"type": "stream", "stream_id": float64(2), "topic": "castle", "unmuted_stream_msg": true, "mentioned": true},
			fmt.Sprint(dm): map[string]any{"type": "private", "user_ids": []any{float64(10)}},
		}}
	if diff := cmp.Diff(wantLast, last); diff != "" {
		t.Fatalf("remove-read event (-want +got):\n%s", diff)
	}
	u := e.unreadMsgs("othello@zulip.com")
	if u["count"] != float64(2) || len(u["pms"].([]any)) != 1 || len(u["streams"].([]any)) != 1 {
		t.Fatalf("unread_msgs %v", u)
	}
}

func TestHTTPUpdateMessageFlagsRefusals(t *testing.T) {
	e := newMsgEnv(t)
	m := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "one")
	secret := e.sendTo("hamlet@zulip.com", "core team", "plans", "two")
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["update_message_flags"]`}})
	narrow := `[{"operator":"channel","operand":"Denmark"}]`
	before := e.fetchedFlags("othello@zulip.com", narrow)
	for _, c := range []struct {
		form      url.Values
		code, msg string
	}{
		{url.Values{"op": {"add"}, "flag": {"read"}}, "REQUEST_VARIABLE_MISSING", "Missing 'messages' argument"},
		{url.Values{"messages": {idList(m)}, "flag": {"read"}}, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument"},
		{url.Values{"messages": {idList(m)}, "op": {"add"}}, "REQUEST_VARIABLE_MISSING", "Missing 'flag' argument"},
		{url.Values{"messages": {"5"}, "op": {"add"}, "flag": {"read"}}, "BAD_REQUEST", "messages is not a list"},
		{url.Values{"messages": {`["x"]`}, "op": {"add"}, "flag": {"read"}}, "BAD_REQUEST", "messages[0] is not an integer"},
		{url.Values{"messages": {"[1"}, "op": {"add"}, "flag": {"read"}}, "BAD_REQUEST", `Argument "messages" is not valid JSON.`},
		{url.Values{"messages": {idList(m)}, "op": {"add"}, "flag": {"unread"}}, "BAD_REQUEST", "Invalid flag: 'unread'"},
		{url.Values{"messages": {idList(m)}, "op": {"add"}, "flag": {"historical"}}, "BAD_REQUEST", "Flag not editable: 'historical'"},
		{url.Values{"messages": {idList(m)}, "op": {"flip"}, "flag": {"starred"}}, "BAD_REQUEST", "Invalid message flag operation: 'flip'"},
		{url.Values{"messages": {idList(m, secret)}, "op": {"add"}, "flag": {"starred"}}, "BAD_REQUEST", "Invalid message(s)"},
		{url.Values{"messages": {idList(m, 9999)}, "op": {"remove"}, "flag": {"read"}}, "BAD_REQUEST", "Invalid message(s)"},
	} {
		status, body := e.do("othello@zulip.com", "POST", "/messages/flags", c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	if diff := cmp.Diff(before, e.fetchedFlags("othello@zulip.com", narrow)); diff != "" {
		t.Fatalf("refused requests changed flags:\n%s", diff)
	}
	if evs := e.events("othello@zulip.com", qid, -1, false); len(evs) != 0 {
		t.Fatalf("refused requests sent events: %v", evs)
	}
}

func TestHTTPUpdateMessageFlagsForNarrow(t *testing.T) {
	e := newMsgEnv(t)
	var castle []int64
	for i := 0; i < 4; i++ {
		castle = append(castle, e.sendTo("hamlet@zulip.com", "Denmark", "castle", fmt.Sprint("c", i)))
		e.sendTo("hamlet@zulip.com", "Denmark", "moat", fmt.Sprint("m", i))
	}
	narrow := `[{"operator":"channel","operand":"Denmark"},{"operator":"topic","operand":"Castle"}]`
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["update_message_flags"]`}})
	form := url.Values{"anchor": {"first_unread"}, "num_before": {"0"}, "num_after": {"2"}, "narrow": {narrow}, "op": {"add"}, "flag": {"read"}}
	body := e.ok(e.do("othello@zulip.com", "POST", "/messages/flags/narrow", form))
	want := map[string]any{"result": "success", "msg": "", "processed_count": float64(3), "updated_count": float64(3),
		"first_processed_id": float64(castle[0]), "last_processed_id": float64(castle[2]), "found_oldest": false, "found_newest": false}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	body = e.ok(e.do("othello@zulip.com", "POST", "/messages/flags/narrow", form))
	if body["first_processed_id"] != float64(castle[3]) || body["processed_count"] != float64(1) || body["found_newest"] != true {
		t.Fatalf("first_unread moved on: %v", body)
	}
	// Nothing newer than the newest: an empty range, null IDs.
	form.Set("anchor", "newest")
	body = e.ok(e.do("othello@zulip.com", "POST", "/messages/flags/narrow", form))
	if body["first_processed_id"] != nil || body["last_processed_id"] != nil || body["processed_count"] != float64(0) {
		t.Fatalf("empty range %v", body)
	}
	// Marking unread over a range reports the skipped channels.
	form = url.Values{"anchor": {"oldest"}, "num_before": {"0"}, "num_after": {"100"}, "narrow": {narrow}, "op": {"remove"}, "flag": {"read"}}
	body = e.ok(e.do("othello@zulip.com", "POST", "/messages/flags/narrow", form))
	if body["updated_count"] != float64(4) || !cmp.Equal(body["ignored_because_not_subscribed_channels"], []any{}) || body["found_oldest"] != true {
		t.Fatalf("mark unread %v", body)
	}
	evs := e.events("othello@zulip.com", qid, -1, false)
	if len(evs) != 4 {
		t.Fatalf("one event per request: %v", evs)
	}
	if got := e.fetchedFlags("othello@zulip.com", narrow); len(got) != 4 || len(got[fmt.Sprint(castle[0])].([]any)) != 0 {
		t.Fatalf("flags after marking unread %v", got)
	}

	before := e.fetchedFlags("othello@zulip.com", narrow)
	base := url.Values{"anchor": {"oldest"}, "num_before": {"0"}, "num_after": {"10"}, "narrow": {narrow}, "op": {"add"}, "flag": {"read"}}
	for _, c := range []struct {
		drop, key, value string
		code, msg        string
	}{
		{drop: "anchor", code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'anchor' argument"},
		{drop: "narrow", code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'narrow' argument"},
		{drop: "num_after", code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'num_after' argument"},
		{drop: "op", code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'op' argument"},
		{key: "anchor", value: "middle", code: "BAD_REQUEST", msg: "Invalid anchor"},
		{key: "num_before", value: "-1", code: "REQUEST_VARIABLE_INVALID", msg: "Bad value for 'num_before': -1"},
		{key: "narrow", value: `{"a":1}`, code: "REQUEST_VARIABLE_INVALID", msg: `Bad value for 'narrow': {"a":1}`},
		{key: "narrow", value: `[{"operator":"channel","operand":"Atlantis"}]`, code: "BAD_NARROW", msg: "Invalid narrow operator: unknown stream Atlantis"},
		{key: "include_anchor", value: "maybe", code: "BAD_REQUEST", msg: "include_anchor is not a boolean"},
		{key: "flag", value: "wildcard_mentioned", code: "BAD_REQUEST", msg: "Flag not editable: 'wildcard_mentioned'"},
	} {
		form := url.Values{}
		for k, v := range base {
			form[k] = v
		}
		if c.drop != "" {
			form.Del(c.drop)
		} else {
			form.Set(c.key, c.value)
		}
		status, body := e.do("othello@zulip.com", "POST", "/messages/flags/narrow", form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	form = url.Values{"anchor": {"oldest"}, "num_before": {"2"}, "num_after": {"2"}, "include_anchor": {"false"}, "narrow": {"[]"}, "op": {"add"}, "flag": {"read"}}
	status, body := e.do("othello@zulip.com", "POST", "/messages/flags/narrow", form)
	e.fail(status, body, 400, "BAD_REQUEST", "The anchor can only be excluded at an end of the range")
	if diff := cmp.Diff(before, e.fetchedFlags("othello@zulip.com", narrow)); diff != "" {
		t.Fatalf("refused requests changed flags:\n%s", diff)
	}
	if evs := e.events("othello@zulip.com", qid, 3, false); len(evs) != 0 {
		t.Fatalf("refused requests sent events: %v", evs)
	}
}

func TestHTTPMarkAsRead(t *testing.T) {
	e := newMsgEnv(t)
	a := e.sendTo("hamlet@zulip.com", "Denmark", "Castle", "a")
	e.sendTo("hamlet@zulip.com", "Denmark", "castle", "b")
	moat := e.sendTo("hamlet@zulip.com", "Denmark", "moat", "c")
	scot := e.sendTo("hamlet@zulip.com", "Scotland", "glen", "d")
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["update_message_flags"]`}})

	for _, c := range []struct {
		path      string
		form      url.Values
		code, msg string
	}{
		{"/mark_topic_as_read", url.Values{"topic_name": {"castle"}}, "REQUEST_VARIABLE_MISSING", "Missing 'stream_id' argument"},
		{"/mark_topic_as_read", url.Values{"stream_id": {"2"}}, "REQUEST_VARIABLE_MISSING", "Missing 'topic_name' argument"},
		{"/mark_topic_as_read", url.Values{"stream_id": {"two"}, "topic_name": {"castle"}}, "BAD_REQUEST", "stream_id is not an integer"},
		{"/mark_topic_as_read", url.Values{"stream_id": {"42"}, "topic_name": {"castle"}}, "BAD_REQUEST", "Invalid channel ID"},
		{"/mark_topic_as_read", url.Values{"stream_id": {"6"}, "topic_name": {"castle"}}, "BAD_REQUEST", "Invalid channel ID"},
		{"/mark_topic_as_read", url.Values{"stream_id": {"2"}, "topic_name": {"tower"}}, "BAD_REQUEST", "No such topic 'tower'"},
		{"/mark_stream_as_read", url.Values{}, "REQUEST_VARIABLE_MISSING", "Missing 'stream_id' argument"},
		{"/mark_stream_as_read", url.Values{"stream_id": {"6"}}, "BAD_REQUEST", "Invalid channel ID"},
	} {
		status, body := e.do("othello@zulip.com", "POST", c.path, c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	if u := e.unreadMsgs("othello@zulip.com"); u["count"] != float64(4) {
		t.Fatalf("refused requests changed unread_msgs: %v", u)
	}
	if evs := e.events("othello@zulip.com", qid, -1, false); len(evs) != 0 {
		t.Fatalf("refused requests sent events: %v", evs)
	}

	e.ok(e.do("othello@zulip.com", "POST", "/mark_topic_as_read", url.Values{"stream_id": {"2"}, "topic_name": {"CASTLE"}}))
	u := e.unreadMsgs("othello@zulip.com")
	streams := u["streams"].([]any)
	if u["count"] != float64(2) || len(streams) != 2 || streams[0].(map[string]any)["topic"] != "moat" {
		t.Fatalf("unread_msgs after marking castle %v", u)
	}
	if got := e.flagsOf("othello@zulip.com", a); !cmp.Equal(got, []any{"read"}) {
		t.Fatalf("flags %v", got)
	}
	e.ok(e.do("othello@zulip.com", "POST", "/mark_stream_as_read", url.Values{"stream_id": {"2"}}))
	body := e.ok(e.do("othello@zulip.com", "POST", "/mark_all_as_read", nil))
	if body["complete"] != true {
		t.Fatalf("mark all %v", body)
	}
	if u := e.unreadMsgs("othello@zulip.com"); u["count"] != float64(0) {
		t.Fatalf("unread after mark all %v", u)
	}
	evs := e.events("othello@zulip.com", qid, -1, false)
	var got [][]any
	for _, ev := range evs {
		m := ev.(map[string]any)
		got = append(got, []any{m["messages"], m["all"]})
	}
	want := [][]any{
		{[]any{float64(a), float64(a + 1)}, false},
		{[]any{float64(moat)}, false},
		{[]any{}, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	if got := e.flagsOf("othello@zulip.com", scot); !cmp.Equal(got, []any{"read"}) {
		t.Fatalf("mark all left %v", got)
	}
}
