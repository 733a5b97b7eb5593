package httpapi

import (
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
)

func (e *msgEnv) register(email string, form url.Values) (string, map[string]any) {
	e.t.Helper()
	status, body := e.do(email, "POST", "/register", form)
	e.wantSuccess(status, body)
	return body["queue_id"].(string), body
}

func (e *msgEnv) events(email, queueID string, last int, block bool) []any {
	e.t.Helper()
	status, body := e.do(email, "GET", "/events", url.Values{"queue_id": {queueID}, "last_event_id": {strconv.Itoa(last)}, "dont_block": {strconv.FormatBool(!block)}})
	e.wantSuccess(status, body)
	return body["events"].([]any)
}

func TestHTTPRegisterAndReceiveMessage(t *testing.T) {
	e := newMsgEnv(t)
	qid, body := e.register("iago@zulip.com", url.Values{
		"event_types": {`["message"]`}, "apply_markdown": {"true"},
		"client_capabilities": {`{"notification_settings_null": true, "bulk_message_deletion": true}`},
	})
	if body["last_event_id"] != float64(-1) || body["zulip_feature_level"] != float64(496) || body["max_message_id"] != float64(-1) {
		t.Fatalf("register answer %v", body)
	}
	if _, ok := body["realm_name"]; ok {
		t.Fatal("fetch_event_types defaults to event_types: no realm state expected")
	}
	e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"*hey*"}})
	evs := e.events("iago@zulip.com", qid, -1, false)
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	ev := evs[0].(map[string]any)
	msg := ev["message"].(map[string]any)
	if ev["type"] != "message" || ev["id"] != float64(0) || msg["content"] != "<p><em>hey</em></p>" || msg["sender_id"] != float64(10) {
		t.Fatalf("event %v", ev)
	}
	status, body := e.do("iago@zulip.com", "DELETE", "/events", url.Values{"queue_id": {qid}})
	e.wantSuccess(status, body)
	status, body = e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"0"}})
	e.wantError(status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+qid)
	if body["queue_id"] != qid {
		t.Fatalf("BAD_EVENT_QUEUE_ID carries queue_id: %v", body)
	}
}

func TestHTTPRegisterFetchesState(t *testing.T) {
	e := newMsgEnv(t)
	e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"direct"}, "to": {"[11]"}, "content": {"psst"}})
	_, body := e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["realm","message","update_message_flags","user_settings","recent_private_conversations"]`}})
	if body["max_message_length"] != float64(10000) || body["max_topic_length"] != float64(60) || body["max_file_upload_size_mib"] != float64(25) ||
		body["realm_empty_topic_display_name"] != "general chat" || body["realm_name"] != "Zulip Dev" {
		t.Fatalf("realm state %v", body)
	}
	unread := body["unread_msgs"].(map[string]any)
	pms := unread["pms"].([]any)
	if unread["count"] != float64(1) || len(pms) != 1 || pms[0].(map[string]any)["other_user_id"] != float64(10) {
		t.Fatalf("unread_msgs %v", unread)
	}
	if body["user_settings"].(map[string]any)["receives_typing_notifications"] != true {
		t.Fatalf("user_settings %v", body["user_settings"])
	}
	rpc := body["recent_private_conversations"].([]any)
	if len(rpc) != 1 || rpc[0].(map[string]any)["user_ids"].([]any)[0] != float64(10) {
		t.Fatalf("recent_private_conversations %v", rpc)
	}
	if _, ok := body["user_topics"]; ok {
		t.Fatal("user_topic was not asked for")
	}
}

func TestHTTPLongPollWithConcurrentSender(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["message"]`}})
	var wg sync.WaitGroup
	var got []any
	wg.Add(1)
	go func() {
		defer wg.Done()
		got = e.events("iago@zulip.com", qid, -1, true)
	}()
	waitPolling(t, e.realm, qid)
	e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"now"}})
	wg.Wait()
	if len(got) != 1 || got[0].(map[string]any)["type"] != "message" {
		t.Fatalf("long poll got %v", got)
	}
}

func TestHTTPEventsBadInput(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", nil)
	cases := []struct {
		email string
		form  url.Values
		code  string
		msg   string
	}{
		{"iago@zulip.com", url.Values{"last_event_id": {"-1"}}, "BAD_REQUEST", "Missing 'queue_id' argument"},
		{"iago@zulip.com", url.Values{"queue_id": {qid}}, "BAD_REQUEST", "Missing 'last_event_id' argument"},
		{"iago@zulip.com", url.Values{"queue_id": {qid}, "last_event_id": {"-5"}, "dont_block": {"true"}}, "BAD_REQUEST", "An event newer than -5 has already been pruned!"},
		{"iago@zulip.com", url.Values{"queue_id": {qid}, "last_event_id": {"x"}}, "BAD_REQUEST", "last_event_id is not an integer"},
		{"hamlet@zulip.com", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}, "dont_block": {"true"}}, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: " + qid},
		{"iago@zulip.com", url.Values{"queue_id": {"nope"}, "last_event_id": {"-1"}}, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: nope"},
	}
	for _, c := range cases {
		status, body := e.do(c.email, "GET", "/events", c.form)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	status, body := e.do("iago@zulip.com", "POST", "/register", url.Values{"event_types": {"message"}})
	e.wantError(status, body, 400, "BAD_REQUEST", `Argument "event_types" is not valid JSON.`)
	status, body = e.do("iago@zulip.com", "POST", "/register", url.Values{"narrow": {`[["stream","Atlantis"]]`}})
	e.wantError(status, body, 400, "BAD_NARROW", "")
	// The queue still works after all that.
	if evs := e.events("iago@zulip.com", qid, -1, false); len(evs) != 0 {
		t.Fatalf("unexpected events %v", evs)
	}
}

func TestHTTPTyping(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["typing"]`}})
	status, body := e.do("hamlet@zulip.com", "POST", "/typing", url.Values{"op": {"start"}, "to": {"[11]"}})
	e.wantSuccess(status, body)
	evs := e.events("iago@zulip.com", qid, -1, false)
	if len(evs) != 1 || evs[0].(map[string]any)["op"] != "start" {
		t.Fatalf("typing events %v", evs)
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/typing", url.Values{"to": {"[11]"}})
	e.wantError(status, body, http.StatusBadRequest, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument")
	status, body = e.do("hamlet@zulip.com", "POST", "/typing", url.Values{"op": {"start"}, "to": {"11,12"}})
	e.wantError(status, body, http.StatusBadRequest, "BAD_REQUEST", `Argument "to" is not valid JSON.`)
}

func TestHTTPEditTyping(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["typing_edit_message"]`}})
	_, sent := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"direct"}, "to": {"[11]"}, "content": {"draft"}})
	id := strconv.Itoa(int(sent["id"].(float64)))
	e.wantSuccess(e.do("hamlet@zulip.com", "POST", "/messages/"+id+"/typing", url.Values{"op": {"start"}}))
	e.wantSuccess(e.do("hamlet@zulip.com", "POST", "/messages/"+id+"/typing", url.Values{"op": {"stop"}}))
	evs := e.events("iago@zulip.com", qid, -1, false)
	if len(evs) != 2 || evs[0].(map[string]any)["op"] != "start" || evs[1].(map[string]any)["op"] != "stop" {
		t.Fatalf("edit typing events %v", evs)
	}
	status, body := e.do("hamlet@zulip.com", "POST", "/messages/"+id+"/typing", nil)
	e.wantError(status, body, http.StatusBadRequest, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument")
	status, body = e.do("iago@zulip.com", "POST", "/messages/"+id+"/typing", url.Values{"op": {"start"}})
	e.wantError(status, body, http.StatusBadRequest, "BAD_REQUEST", "You don't have permission to edit this message")
}

// Row 361: the endpoint was POST /message_edit_typing, message_id in the
// body, at levels 351 to 360; from 361 on it is POST
// /messages/{message_id}/typing, and the old path is unknown. Below 351
// neither exists.
func TestEditTypingPathFollowsLevel(t *testing.T) {
	rename := realm.ChangeEditTypingPath.Level()
	for _, level := range []int{350, rename - 1, rename} {
		e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		_, unknown := e.do("iago@zulip.com", "GET", "/no_such_endpoint", nil)
		qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["typing_edit_message"]`}})
		_, sent := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"direct"}, "to": {"[11]"}, "content": {"draft"}})
		id := strconv.Itoa(int(sent["id"].(float64)))
		st1, body1 := e.do("hamlet@zulip.com", "POST", "/message_edit_typing", url.Values{"op": {"start"}, "message_id": {id}})
		st2, body2 := e.do("hamlet@zulip.com", "POST", "/messages/"+id+"/typing", url.Values{"op": {"stop"}})
		oldPath, newPath := level >= 351 && level < rename, level >= rename
		for _, c := range []struct {
			path   string
			st     int
			body   map[string]any
			served bool
		}{{"/message_edit_typing", st1, body1, oldPath}, {"/messages/{id}/typing", st2, body2, newPath}} {
			if c.served && c.st != 200 {
				t.Errorf("level %d: POST %s answered %d %v", level, c.path, c.st, c.body)
			}
			if !c.served && (c.st != 404 || !reflect.DeepEqual(c.body, unknown)) {
				t.Errorf("level %d: POST %s answered %d %v; want it unknown (404 %v)", level, c.path, c.st, c.body, unknown)
			}
		}
		if level >= 351 {
			if evs := e.events("iago@zulip.com", qid, -1, false); len(evs) != 1 {
				t.Errorf("level %d: edit typing events %v", level, evs)
			}
		}
		if oldPath {
			st, body := e.do("hamlet@zulip.com", "POST", "/message_edit_typing", url.Values{"op": {"start"}})
			e.wantError(st, body, http.StatusBadRequest, "REQUEST_VARIABLE_MISSING", "Missing 'message_id' argument")
		}
	}
}

// A user at the per-user queue cap who registers again loses the queue
// polled least recently; it answers as an expired queue does.
func TestHTTPPerUserQueueCap(t *testing.T) {
	e := newChanEnv(t, realm.WithMaxQueuesPerUser(2))
	first, _ := e.register("iago@zulip.com", nil)
	second, _ := e.register("iago@zulip.com", nil)
	hamlets, _ := e.register("hamlet@zulip.com", nil)
	e.clock.Advance(time.Second)
	e.events("iago@zulip.com", first, -1, false) // first is polled after second
	third, _ := e.register("iago@zulip.com", nil)
	status, body := e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {second}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	e.wantError(status, body, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+second)
	for _, q := range []struct{ email, id string }{{"iago@zulip.com", first}, {"iago@zulip.com", third}, {"hamlet@zulip.com", hamlets}} {
		status, body := e.do(q.email, "GET", "/events", url.Values{"queue_id": {q.id}, "last_event_id": {"-1"}, "dont_block": {"true"}})
		e.wantSuccess(status, body)
	}
}
