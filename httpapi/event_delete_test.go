package httpapi

import (
	"net/url"
	"testing"
)

// pollInBackground starts a blocking GET /events and returns a channel
// that gets its status and body once it ends, after it is waiting.
func (e *msgEnv) pollInBackground(email, qid string) <-chan map[string]any {
	e.t.Helper()
	done := make(chan map[string]any, 1)
	go func() {
		status, body := e.do(email, "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}})
		body["status"] = float64(status)
		done <- body
	}()
	waitPolling(e.t, e.realm, qid)
	return done
}

// TestHTTPDeleteQueueEndsPendingPoll: DELETE /events under a waiting GET
// ends that GET as Zulip's cleanup does, a success with the pending
// events (none) and the queue's ID; the next GET is BAD_EVENT_QUEUE_ID.
func TestHTTPDeleteQueueEndsPendingPoll(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["message"]`}})
	done := e.pollInBackground("iago@zulip.com", qid)
	e.ok(e.do("iago@zulip.com", "DELETE", "/events", url.Values{"queue_id": {qid}}))
	body := <-done
	if body["status"] != float64(200) || body["result"] != "success" || body["queue_id"] != qid || len(body["events"].([]any)) != 0 {
		t.Fatalf("pending poll ended with %v", body)
	}
	status, errBody := e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}})
	e.fail(status, errBody, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+qid)
	if errBody["queue_id"] != qid {
		t.Fatalf("error body %v", errBody)
	}
	// Expiring a queue on demand ends its poll the same way.
	qid2, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["message"]`}})
	done = e.pollInBackground("iago@zulip.com", qid2)
	if !e.realm.ExpireQueue(qid2) {
		t.Fatal("queue did not exist")
	}
	if body := <-done; body["status"] != float64(200) || body["queue_id"] != qid2 {
		t.Fatalf("poll of an expired queue ended with %v", body)
	}
}

// TestHTTPWaitedPollNamesItsQueue: an answer to a poll that waited names
// the queue; an immediate one does not.
func TestHTTPWaitedPollNamesItsQueue(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["message"]`}})
	done := e.pollInBackground("iago@zulip.com", qid)
	e.sendTo("hamlet@zulip.com", "Denmark", "t", "now")
	body := <-done
	if body["queue_id"] != qid || len(body["events"].([]any)) != 1 {
		t.Fatalf("waited poll %v", body)
	}
	status, body := e.do("iago@zulip.com", "GET", "/events", url.Values{"queue_id": {qid}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	e.wantSuccess(status, body)
	if _, ok := body["queue_id"]; ok || len(body["events"].([]any)) != 1 {
		t.Fatalf("immediate answer %v", body)
	}
}
