package httpapi

import (
	"net/url"
	"testing"
	"time"
)

func TestRequestLogRecordsZulipRequests(t *testing.T) {
	e := newCtlEnv(t)
	e.ok(e.do("hamlet@zulip.com", "GET", "/users/me", nil))
	status, body := e.do("", "GET", "/users/me", nil)
	e.wantError(status, body, 401, "UNAUTHORIZED", "")
	e.ok(e.ctl("GET", "/minizulip/clock", nil)) // not logged
	reqs := e.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests %+v", reqs)
	}
	if r := reqs[0]; r.Method != "GET" || r.Path != "/api/v1/users/me" || r.User != "hamlet@zulip.com" || r.UserID == 0 || r.Status != 200 || r.Duration <= 0 {
		t.Fatalf("first request %+v", r)
	}
	if r := reqs[1]; r.User != "" || r.UserID != 0 || r.Status != 401 {
		t.Fatalf("second request %+v", r)
	}
	status, body = e.ctl("GET", "/minizulip/requests", nil)
	list := e.ok(status, body)["requests"].([]any)
	first := list[0].(map[string]any)
	if len(list) != 2 || first["user"] != "hamlet@zulip.com" || first["status"] != float64(200) || first["method"] != "GET" ||
		first["path"] != "/api/v1/users/me" || first["duration_ms"] == nil {
		t.Fatalf("GET /minizulip/requests: %v", list)
	}
	e.ok(e.ctl("DELETE", "/minizulip/requests", nil))
	if len(e.api.Requests()) != 0 {
		t.Fatal("the log was not cleared")
	}
	e.do("iago@zulip.com", "GET", "/users/me", url.Values{})
	if reqs := e.api.Requests(); len(reqs) != 1 || reqs[0].User != "iago@zulip.com" {
		t.Fatalf("after clearing: %+v", reqs)
	}
}

func TestRequestLogKeepsTheLatest(t *testing.T) {
	var l requestLog
	for i := range RequestLogSize + 5 {
		l.add(RequestRecord{Path: "/p", Status: i, Duration: time.Millisecond})
	}
	s := &Server{}
	s.tc.requests.ring, s.tc.requests.next = l.ring, l.next
	reqs := s.Requests()
	if len(reqs) != RequestLogSize || reqs[0].Status != 5 || reqs[len(reqs)-1].Status != RequestLogSize+4 {
		t.Fatalf("%d records, from %d to %d", len(reqs), reqs[0].Status, reqs[len(reqs)-1].Status)
	}
}
