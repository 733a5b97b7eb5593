package realm

import (
	"testing"
	"time"
)

// register's idle_queue_timeout (Zulip 12.0, feature level 481): seconds
// or "mobile" (12 h, Zulip's MOBILE_EVENT_QUEUE_TIMEOUT_SECS), capped at
// MAX_QUEUE_TIMEOUT_SECS (7 days) as zerver/tornado/event_queue.py caps
// lifespans; zulip-flutter sends both forms JSON-encoded
// (lib/api/route/events.dart, IdleQueueTimeout.toJson).
func TestParseIdleQueueTimeout(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want int
	}{
		{"3600", 3600}, {`"mobile"`, 43200}, {"mobile", 43200}, {" 90 ", 90},
		{"604800", 604800}, {"999999999", 604800}, {"1", 1},
	} {
		got, err := ParseIdleQueueTimeout(c.raw)
		if err != nil || got != c.want {
			t.Errorf("%q: %d %v, want %d", c.raw, got, err, c.want)
		}
	}
	for _, raw := range []string{"0", "-5", "", "x", `"Mobile"`, "1.5", "[3600]", "3600 1", "null", "true", `"3600"x`} {
		if _, err := ParseIdleQueueTimeout(raw); err == nil {
			t.Errorf("%q accepted", raw)
		} else {
			wantCode(t, err, CodeBadRequest, `idle_queue_timeout is not a positive integer or "mobile"`)
		}
	}
}

// The queue lives as long as asked idle, the answer says how long, and
// below feature level 481 the answer has no such key.
func TestIdleQueueTimeoutKeepsQueueAndIsAnswered(t *testing.T) {
	r, clock := newTestRealm(t)
	mobile, err := r.As(idIago).Register(bg, RegisterRequest{Queue: QueueOptions{IdleTimeoutSecs: 43200, LifespanSecs: 60},
		FetchEventTypes: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := r.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{}})
	if mobile.IdleQueueTimeoutSecs == nil || *mobile.IdleQueueTimeoutSecs != 43200 {
		t.Fatalf("idle_queue_timeout_secs %v, want 43200", mobile.IdleQueueTimeoutSecs)
	}
	if plain.IdleQueueTimeoutSecs == nil || *plain.IdleQueueTimeoutSecs != 600 {
		t.Fatalf("default idle_queue_timeout_secs %v, want 600", plain.IdleQueueTimeoutSecs)
	}
	clock.Advance(11 * time.Hour)
	if _, err := r.As(idIago).Events(bg, GetEventsRequest{QueueID: plain.QueueID, LastEventID: -1, DontBlock: true}); err == nil {
		t.Fatal("the default queue outlived 600 s idle")
	}
	if _, err := r.As(idIago).Events(bg, GetEventsRequest{QueueID: mobile.QueueID, LastEventID: -1, DontBlock: true}); err != nil {
		t.Fatalf("the mobile queue went within 12 h: %v", err)
	}
	clock.Advance(12*time.Hour + 2*time.Minute)
	_, err = r.As(idIago).Events(bg, GetEventsRequest{QueueID: mobile.QueueID, LastEventID: -1, DontBlock: true})
	wantCode(t, err, CodeBadEventQueueID, "")

	old, _ := newTestRealm(t, WithFeatureLevel(ChangeIdleQueueTimeout.Level()-1, "11.0"))
	ans, _ := old.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{}})
	if ans.IdleQueueTimeoutSecs != nil {
		t.Fatal("idle_queue_timeout_secs below feature level 481")
	}
}
