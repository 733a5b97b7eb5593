package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"

	"errors"
	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
)

func sendForm(content string) url.Values {
	return url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"faults"}, "content": {content}}
}

func TestFaultAnswersMatchingRequestsOfOneUserCountTimes(t *testing.T) {
	e := newCtlEnv(t)
	status, body := e.ctl("POST", "/minizulip/faults", url.Values{"method": {"POST"}, "path": {"/api/v1/messages"},
		"user": {"hamlet@zulip.com"}, "count": {"2"}, "status": {"503"}, "code": {"SERVICE_DOWN"}, "msg": {"Try later"}})
	e.ok(status, body)
	id := int(body["fault_id"].(float64))
	if id != 1 {
		t.Fatalf("fault_id %v", body["fault_id"])
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/messages", sendForm("one"))
	e.fail(status, body, 503, "SERVICE_DOWN", "Try later")
	// Another user's request, and another method, pass.
	e.ok(e.do("iago@zulip.com", "POST", "/messages", sendForm("iago")))
	e.ok(e.do("hamlet@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}}))
	status, body = e.ctl("GET", "/minizulip/faults", nil)
	faults := e.ok(status, body)["faults"].([]any)
	if len(faults) != 1 || faults[0].(map[string]any)["hits_left"] != float64(1) || faults[0].(map[string]any)["user"] != "hamlet@zulip.com" {
		t.Fatalf("faults %v", faults)
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/messages", sendForm("two"))
	e.fail(status, body, 503, "SERVICE_DOWN", "Try later")
	e.ok(e.do("hamlet@zulip.com", "POST", "/messages", sendForm("three")))
	if n := e.realm.MessageCount(); n != 2 {
		t.Fatalf("%d messages stored; the faulted sends must store nothing", n)
	}
	if len(e.api.Faults()) != 0 {
		t.Fatalf("a spent fault is still listed: %v", e.api.Faults())
	}
}

func TestFaultRateLimitCarriesRetryAfter(t *testing.T) {
	e := newCtlEnv(t)
	e.ok(e.ctl("POST", "/minizulip/faults", url.Values{"path": {"/api/v1/users/me"}, "status": {"429"}, "retry_after": {"2.5"}}))
	resp, err := e.srv.Client().Do(e.req("iago@zulip.com", "GET", "/api/v1/users/me"))
	if err != nil {
		t.Fatal(err)
	}
	body := decode(t, resp)
	if resp.StatusCode != 429 || body["code"] != "RATE_LIMIT_HIT" || body["msg"] != "API usage exceeded rate limit" ||
		body["retry-after"] != 2.5 || resp.Header.Get("Retry-After") != "2.5" {
		t.Fatalf("got %d %v, Retry-After %q", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	e.ok(e.do("iago@zulip.com", "GET", "/users/me", nil))
}

func TestFaultByRoutePatternAndUntilCleared(t *testing.T) {
	e := newCtlEnv(t)
	status, body := e.do("iago@zulip.com", "POST", "/messages", sendForm("x"))
	e.ok(status, body)
	id := strconv.Itoa(int(body["id"].(float64)))
	status, body = e.ctl("POST", "/minizulip/faults", url.Values{"method": {"GET"}, "path": {"/api/v1/messages/{message_id}"}, "count": {"-1"}, "status": {"500"}})
	fid := int(e.ok(status, body)["fault_id"].(float64))
	for range 3 {
		status, body = e.do("iago@zulip.com", "GET", "/messages/"+id, nil)
		e.fail(status, body, 500, "BAD_REQUEST", "Internal Server Error")
	}
	e.ok(e.do("iago@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}}))
	if f := e.api.Faults(); len(f) != 1 || f[0].Count != -1 {
		t.Fatalf("faults %+v", f)
	}
	e.ok(e.ctl("DELETE", "/minizulip/faults/"+strconv.Itoa(fid), nil))
	e.ok(e.do("iago@zulip.com", "GET", "/messages/"+id, nil))
	status, body = e.ctl("DELETE", "/minizulip/faults/"+strconv.Itoa(fid), nil)
	e.fail(status, body, 400, "BAD_REQUEST", `No active fault "`+strconv.Itoa(fid)+`"`)

	// A literal path matches that path only; DELETE /minizulip/faults
	// clears every fault.
	e.ok(e.ctl("POST", "/minizulip/faults", url.Values{"path": {"/api/v1/messages/999"}, "status": {"404"}}))
	e.ok(e.ctl("POST", "/minizulip/faults", url.Values{"path": {"/json/users/me"}, "drop": {"true"}}))
	e.ok(e.do("iago@zulip.com", "GET", "/messages/"+id, nil))
	e.ok(e.ctl("DELETE", "/minizulip/faults", nil))
	if len(e.api.Faults()) != 0 {
		t.Fatalf("faults left: %v", e.api.Faults())
	}
}

func TestFaultDropClosesTheConnection(t *testing.T) {
	e := newCtlEnv(t)
	e.ok(e.ctl("POST", "/minizulip/faults", url.Values{"path": {"/api/v1/users/me"}, "drop": {"true"}}))
	// A fresh connection: Go's transport retries a GET that fails on a
	// reused one, which would hide the drop.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(e.req("iago@zulip.com", "GET", "/api/v1/users/me"))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a dropped request got an answer: %d", resp.StatusCode)
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Logf("client error: %v", err) // the transport's wording varies
	}
	e.ok(e.do("iago@zulip.com", "GET", "/users/me", nil))
	reqs := e.api.Requests()
	if len(reqs) < 2 || !reqs[0].Dropped || reqs[0].Status != 0 || reqs[0].FaultID != 1 || reqs[1].Dropped || reqs[1].Status != 200 {
		t.Fatalf("request log %+v", reqs)
	}
}

func TestFaultDelayHoldsTheRequestThenServesIt(t *testing.T) {
	e := newCtlEnv(t)
	if _, err := e.api.AddFault(Fault{Path: "/api/v1/messages", Method: "POST", Delay: 30 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e.ok(e.do("iago@zulip.com", "POST", "/messages", sendForm("slow")))
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("answered after %v, before the delay", d)
	}
	if e.realm.MessageCount() != 1 {
		t.Fatal("a delayed send was not carried out")
	}
	status, body := e.ctl("GET", "/minizulip/faults", nil)
	if len(e.ok(status, body)["faults"].([]any)) != 0 {
		t.Fatalf("faults %v", body)
	}
}

func TestFaultBadInputIsRefusedAndAddsNothing(t *testing.T) {
	e := newCtlEnv(t)
	base := func(kv ...string) url.Values {
		v := url.Values{"path": {"/api/v1/messages"}, "status": {"500"}}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				v.Del(kv[i])
			} else {
				v.Set(kv[i], kv[i+1])
			}
		}
		return v
	}
	cases := []struct {
		form url.Values
		msg  string
	}{
		{base("colour", "red"), "Unknown parameter(s) of POST /minizulip/faults: colour (it takes: method, path, user, count, status, code, msg, retry_after, delay_ms, drop, timeout)"},
		{base("path", ""), "Missing 'path' argument"},
		{base("path", "/api/v1/nope"), ""},
		{base("path", "/messages"), ""},
		{base("path", "/api/v1/messages/{id}"), ""},
		{base("method", "PUT"), "PUT /api/v1/messages is not an endpoint (its methods: GET, POST)"},
		{base("user", "nobody@zulip.com"), `No user with email "nobody@zulip.com"`},
		{base("count", "0"), "count must be a positive number of requests, or -1 for every request until cleared"},
		{base("count", "-2"), "count must be a positive number of requests, or -1 for every request until cleared"},
		{base("count", "x"), "count is not an integer"},
		{base("status", "200"), "status must be an error status, 400 to 599"},
		{base("status", "600"), "status must be an error status, 400 to 599"},
		{base("status", ""), "A fault needs exactly one effect: status (with code, msg, retry_after), delay_ms, drop, or timeout"},
		{base("drop", "true"), "A fault needs exactly one effect: status (with code, msg, retry_after), delay_ms, drop, or timeout"},
		{base("delay_ms", "5"), "A fault needs exactly one effect: status (with code, msg, retry_after), delay_ms, drop, or timeout"},
		{base("status", "", "code", "X"), "A fault needs exactly one effect: status (with code, msg, retry_after), delay_ms, drop, or timeout"},
		{base("status", "", "drop", "true", "msg", "x"), "code, msg and retry_after go with a status"},
		{base("retry_after", "-1"), "retry_after must not be negative"},
		{base("retry_after", "soon"), "retry_after is not a number"},
		{base("status", "", "delay_ms", "0"), "delay_ms must be between 1 and 600000"},
		{base("status", "", "delay_ms", "600001"), "delay_ms must be between 1 and 600000"},
		{base("status", "", "drop", "maybe"), "drop is not a boolean"},
		{base("status", "", "timeout", "maybe"), "timeout is not a boolean"},
		{base("status", "", "timeout", "true"), "A timeout fault applies to the batched endpoints only: POST /api/v1/mark_all_as_read and POST /api/v1/streams/{stream_id}/delete_topic (or their /json paths)"},
		{base("status", "", "timeout", "true", "method", "", "path", "/api/v1/messages/{message_id}"), ""},
	}
	for _, c := range cases {
		status, body := e.ctl("POST", "/minizulip/faults", c.form)
		if status != 400 || body["result"] != "error" || (c.msg != "" && body["msg"] != c.msg) {
			t.Fatalf("%v: got %d %v, want 400 %q", c.form, status, body, c.msg)
		}
	}
	if len(e.api.Faults()) != 0 {
		t.Fatalf("refused faults were added: %v", e.api.Faults())
	}
	if _, err := e.api.AddFault(Fault{Path: "/api/v1/messages"}); err == nil {
		t.Fatal("a fault without effect was added from Go")
	}
	e.ok(e.do("iago@zulip.com", "POST", "/messages", sendForm("unharmed")))
}

// req builds an authenticated request to a full path.
func (e *ctlEnv) req(email, method, path string) *http.Request {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	_, key, _ := e.realm.APIKey(email)
	req.SetBasicAuth(email, key)
	return req
}

// decode reads a JSON answer.
func decode(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	return out
}

// A timeout fault makes a batched request stop after its first batch, as
// Zulip's time budget does: from feature level 211 it answers complete
// false; below, "partially_completed" with code REQUEST_TIMEOUT. The
// client repeats the request, which then completes.
func TestTimeoutFaultStopsABatchedRequest(t *testing.T) {
	for _, level := range []int{realm.ChangeCompleteField.Level() - 1, realm.ChangeCompleteField.Level()} {
		r := realm.New(realm.WithClock(clock.NewManual(ctlStart)), realm.WithFeatureLevel(level, ""))
		api := New(r)
		srv := httptest.NewServer(api)
		t.Cleanup(srv.Close)
		e := &ctlEnv{apiEnv: &apiEnv{t: t, realm: r, srv: srv}, api: api}
		id, _ := r.UserIDByEmail("iago@zulip.com")
		iago := r.As(id)
		for i := range 150 {
			if _, err := iago.SendChannelMessage(context.Background(), "Verona", "doomed", fmt.Sprint("m", i)); err != nil {
				t.Fatal(err)
			}
		}
		verona, _ := iago.ChannelID(context.Background(), "Verona")
		path := fmt.Sprintf("/streams/%d/delete_topic", verona)
		status, body := e.ctl("POST", "/minizulip/faults", url.Values{"path": {"/api/v1/streams/{stream_id}/delete_topic"}, "timeout": {"true"}})
		e.ok(status, body)
		status, body = e.do("iago@zulip.com", "POST", path, url.Values{"topic_name": {"doomed"}})
		want := map[string]any{"result": "success", "msg": "", "complete": false}
		if level < realm.ChangeCompleteField.Level() {
			want = map[string]any{"result": "partially_completed", "msg": "", "code": "REQUEST_TIMEOUT"}
		}
		if status != 200 || !reflect.DeepEqual(body, want) {
			t.Errorf("level %d: interrupted delete_topic = %d %v, want %v", level, status, body, want)
		}
		if n := topicCount(e, verona, "doomed"); n != 50 {
			t.Errorf("level %d: %d messages left after the first batch of 100, want 50", level, n)
		}
		status, body = e.do("iago@zulip.com", "POST", path, url.Values{"topic_name": {"doomed"}})
		want = map[string]any{"result": "success", "msg": "", "complete": true}
		if level < realm.ChangeCompleteField.Level() {
			want = map[string]any{"result": "success", "msg": ""}
		}
		if status != 200 || !reflect.DeepEqual(body, want) || topicCount(e, verona, "doomed") != 0 {
			t.Errorf("level %d: repeated delete_topic = %d %v, want %v and the topic gone", level, status, body, want)
		}
	}
}

// topicCount counts a topic's messages as iago reads them.
func topicCount(e *ctlEnv, channelID int, topic string) int {
	e.t.Helper()
	narrow := fmt.Sprintf(`[{"operator":"channel","operand":%d},{"operator":"topic","operand":%q}]`, channelID, topic)
	status, body := e.do("iago@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"1000"}, "num_after": {"0"}, "narrow": {narrow}})
	got := e.ok(status, body)
	return len(got["messages"].([]any))
}
