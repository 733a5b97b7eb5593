package httpapi

import (
	"net/url"
	"testing"
	"time"
)

func TestControlListsQueues(t *testing.T) {
	e := newCtlEnv(t)
	status, body := e.ctl("GET", "/minizulip/queues", nil)
	if list := e.ok(status, body)["queues"].([]any); len(list) != 0 {
		t.Fatalf("queues of a new realm: %v", list)
	}
	all := e.ok(e.do("hamlet@zulip.com", "POST", "/register", url.Values{"event_types": {`["message","typing"]`},
		"narrow": {`[["channel","Denmark"]]`}}))["queue_id"].(string)
	every := e.ok(e.do("hamlet@zulip.com", "POST", "/register", nil))["queue_id"].(string)
	iagos := e.ok(e.do("iago@zulip.com", "POST", "/register", nil))["queue_id"].(string)
	e.ok(e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"castle"}, "content": {"hi"}}))
	e.clock.Advance(90 * time.Second)
	e.ok(e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {iagos}, "last_event_id": {"-1"}, "dont_block": {"true"}}))

	list := e.ok(e.ctl("GET", "/minizulip/queues", nil))["queues"].([]any)
	if len(list) != 3 {
		t.Fatalf("queues %v", list)
	}
	first, second, third := list[0].(map[string]any), list[1].(map[string]any), list[2].(map[string]any)
	hamlet, _ := e.realm.UserIDByEmail("hamlet@zulip.com")
	if first["queue_id"] != all || first["user"] != "hamlet@zulip.com" || first["user_id"] != float64(hamlet) ||
		first["last_poll"] != float64(0) || first["pending"] != float64(1) {
		t.Fatalf("first queue %v", first)
	}
	if types := first["event_types"].([]any); len(types) != 2 || types[0] != "message" || types[1] != "typing" {
		t.Fatalf("event types %v", first["event_types"])
	}
	narrow := first["narrow"].([]any)
	if len(narrow) != 1 || narrow[0].(map[string]any)["operator"] != "channel" || narrow[0].(map[string]any)["operand"] != "Denmark" {
		t.Fatalf("narrow %v", narrow)
	}
	if second["queue_id"] != every || second["event_types"] != nil || len(second["narrow"].([]any)) != 0 {
		t.Fatalf("second queue %v", second)
	}
	if third["queue_id"] != iagos || third["last_poll"] != float64(ctlStart.Add(90*time.Second).Unix()) {
		t.Fatalf("polled queue %v", third)
	}

	mine := e.ok(e.ctl("GET", "/minizulip/queues", url.Values{"user": {"iago@zulip.com"}}))["queues"].([]any)
	if len(mine) != 1 || mine[0].(map[string]any)["queue_id"] != iagos {
		t.Fatalf("iago's queues %v", mine)
	}
	// An expired queue is gone from the list.
	e.ok(e.ctl("POST", "/minizulip/queues/"+every+"/expire", nil))
	if list := e.ok(e.ctl("GET", "/minizulip/queues", url.Values{"user": {"hamlet@zulip.com"}}))["queues"].([]any); len(list) != 1 {
		t.Fatalf("after expiry %v", list)
	}

	status, body = e.ctl("GET", "/minizulip/queues", url.Values{"user": {"nobody@zulip.com"}})
	e.fail(status, body, 400, "BAD_REQUEST", `No user with email "nobody@zulip.com"`)
	status, body = e.ctl("GET", "/minizulip/queues", url.Values{"queue_id": {all}})
	e.fail(status, body, 400, "BAD_REQUEST", "Unknown parameter(s) of GET /minizulip/queues: queue_id (it takes: user)")
}

// POST /minizulip/restart is a Zulip server's restart as its clients see
// it: each queue that takes restart events gets one with the server's
// version, and keeps working; register's server_generation moves to the
// restart.
func TestControlAnnouncesARestart(t *testing.T) {
	e := newCtlEnv(t)
	every := e.ok(e.do("hamlet@zulip.com", "POST", "/register", nil))
	before := every["server_generation"].(float64)
	queue := every["queue_id"].(string)
	messagesOnly := e.ok(e.do("iago@zulip.com", "POST", "/register", url.Values{"event_types": {`["message"]`}}))["queue_id"].(string)
	e.clock.Advance(5 * time.Minute)

	answer := e.ok(e.ctl("POST", "/minizulip/restart", nil))
	if answer["queues"] != float64(1) {
		t.Fatalf("queues told: %v", answer["queues"])
	}
	events := e.ok(e.do("hamlet@zulip.com", "GET", "/events", url.Values{"queue_id": {queue}, "last_event_id": {"-1"}, "dont_block": {"true"}}))["events"].([]any)
	if len(events) != 1 {
		t.Fatalf("events %v", events)
	}
	ev := events[0].(map[string]any)
	want := map[string]any{"type": "restart", "zulip_version": every["zulip_version"], "zulip_merge_base": every["zulip_merge_base"],
		"zulip_feature_level": every["zulip_feature_level"], "server_generation": float64(ctlStart.Add(5 * time.Minute).Unix())}
	for k, v := range want {
		if ev[k] != v {
			t.Fatalf("%s = %v, want %v (event %v)", k, ev[k], v, ev)
		}
	}
	if _, ok := ev["immediate"]; ok {
		t.Fatalf("a production restart carries no immediate flag: %v", ev)
	}
	pending := e.ok(e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {messagesOnly}, "last_event_id": {"-1"}, "dont_block": {"true"}}))["events"].([]any)
	if len(pending) != 0 {
		t.Fatalf("a queue of message events only got %v", pending)
	}
	after := e.ok(e.do("hamlet@zulip.com", "POST", "/register", nil))["server_generation"].(float64)
	if after != float64(ctlStart.Add(5*time.Minute).Unix()) || after == before {
		t.Fatalf("server_generation %v after the restart (before %v)", after, before)
	}
}
