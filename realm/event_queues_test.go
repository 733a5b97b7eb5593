package realm

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
)

func mustQueue(t *testing.T, r *Realm, userID int, opts QueueOptions) *Queue {
	t.Helper()
	q, err := r.As(userID).RegisterQueue(bg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func pending(t *testing.T, r *Realm, userID int, q *Queue, last int) []Event {
	t.Helper()
	evs, err := r.As(userID).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: last, DontBlock: true})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func eventJSON(t *testing.T, ev Event) map[string]any {
	t.Helper()
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMessageEventReachesRecipientsOnly(t *testing.T) {
	r, _ := newTestRealm(t)
	hamletQ := mustQueue(t, r, idHamlet, QueueOptions{ApplyMarkdown: true})
	iagoQ := mustQueue(t, r, idIago, QueueOptions{ApplyMarkdown: false})
	cordeliaQ := mustQueue(t, r, idCordelia, QueueOptions{})
	res, err := r.As(idHamlet).SendMessage(bg, SendRequest{Type: "stream", To: toChannel("Denmark"), Topic: str("t"),
		Content: "**hi**", QueueID: str(hamletQ.ID()), LocalID: str("42.01"), Client: "website"})
	if err != nil {
		t.Fatal(err)
	}
	hev := pending(t, r, idHamlet, hamletQ, -1)
	// Hamlet gets the message and, as the topic's initiator, a user_topic
	// event (preceded by legacy muted_topics).
	if len(hev) != 3 || hev[0].Type != "message" || hev[1].Type != "muted_topics" || hev[2].Type != "user_topic" {
		t.Fatalf("hamlet events %+v", hev)
	}
	hm := eventJSON(t, hev[0])
	if hm["local_message_id"] != "42.01" || hm["id"] != float64(0) || hm["type"] != "message" {
		t.Fatalf("sender's message event %v", hm)
	}
	if f := hm["flags"].([]any); len(f) != 1 || f[0] != "read" {
		t.Fatalf("sender flags %v", hm["flags"])
	}
	msg := hm["message"].(map[string]any)
	if msg["content"] != "<p><strong>hi</strong></p>" || msg["id"] != float64(res.ID) {
		t.Fatalf("message object %v", msg)
	}
	if _, ok := msg["flags"]; ok {
		t.Fatal("the message object of an event carries no flags")
	}
	ut := eventJSON(t, hev[2])
	if ut["stream_id"] != float64(2) || ut["topic_name"] != "t" || ut["visibility_policy"] != float64(3) {
		t.Fatalf("user_topic %v", ut)
	}
	iev := pending(t, r, idIago, iagoQ, -1)
	if len(iev) != 1 {
		t.Fatalf("iago events %+v", iev)
	}
	im := eventJSON(t, iev[0])
	if _, ok := im["local_message_id"]; ok {
		t.Fatal("local_message_id leaked to another queue")
	}
	if im["message"].(map[string]any)["content"] != "**hi**" || len(im["flags"].([]any)) != 0 {
		t.Fatalf("iago's event %v", im)
	}
	if evs := pending(t, r, idCordelia, cordeliaQ, -1); len(evs) != 0 {
		t.Fatalf("cordelia is not in Denmark but got %+v", evs)
	}
}

func TestEventTypesAndNarrowFilterQueues(t *testing.T) {
	r, _ := newTestRealm(t)
	onlyTopics := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"user_topic"}})
	denmark := mustQueue(t, r, idIago, QueueOptions{Narrow: []message.Term{{Operator: "stream", Operand: "Denmark"}}})
	dms := mustQueue(t, r, idIago, QueueOptions{Narrow: []message.Term{{Operator: "is", Operand: "dm"}}})
	r.As(idIago).SendChannelMessage(bg, "Denmark", "x", "1")
	r.As(idIago).SendChannelMessage(bg, "Scotland", "x", "2")
	r.As(idHamlet).SendDirectMessage(bg, []int{idIago}, "3")
	if evs := pending(t, r, idIago, onlyTopics, -1); len(evs) != 2 || evs[0].Type != "user_topic" {
		t.Fatalf("user_topic-only queue got %+v (muted_topics must be withheld)", evs)
	}
	if evs := pending(t, r, idIago, denmark, -1); len(evs) != 1+2*2 || evs[0].Payload.(*MessageEvent).Message.DisplayRecipient != "Denmark" {
		t.Fatalf("Denmark queue got %d events", len(evs))
	}
	evs := pending(t, r, idIago, dms, -1)
	n := 0
	for _, ev := range evs {
		if ev.Type == "message" {
			n++
			if ev.Payload.(*MessageEvent).Message.Type != "private" {
				t.Fatal("is:dm queue got a channel message")
			}
		}
	}
	if n != 1 {
		t.Fatalf("is:dm queue got %d messages", n)
	}
}

func TestGetEventsAcknowledgesAndErrors(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"message"}})
	for i := 0; i < 3; i++ {
		r.As(idHamlet).SendChannelMessage(bg, "Denmark", "x", "m")
	}
	if evs := pending(t, r, idIago, q, -1); len(evs) != 3 || evs[2].ID != 2 {
		t.Fatalf("events %+v", evs)
	}
	// Returning events does not remove them; acknowledging does.
	if evs := pending(t, r, idIago, q, 1); len(evs) != 1 || evs[0].ID != 2 {
		t.Fatalf("after ack 1: %+v", evs)
	}
	_, err := r.As(idIago).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: 0, DontBlock: true})
	wantCode(t, err, CodeBadRequest, "An event newer than 0 has already been pruned!")
	_, err = r.As(idIago).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: 7, DontBlock: true})
	wantCode(t, err, CodeBadRequest, "Event 7 was not in this queue")
	_, err = r.As(idHamlet).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: 1, DontBlock: true})
	re := wantCode(t, err, CodeBadEventQueueID, "Bad event queue ID: "+q.ID())
	if re.Extra["queue_id"] != q.ID() {
		t.Fatalf("extra %v", re.Extra)
	}
	if err := r.As(idHamlet).DeleteQueue(bg, q.ID()); err == nil {
		t.Fatal("another user deleted iago's queue")
	}
	if err := r.As(idIago).DeleteQueue(bg, q.ID()); err != nil {
		t.Fatal(err)
	}
	_, err = r.As(idIago).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: 1, DontBlock: true})
	wantCode(t, err, CodeBadEventQueueID, "")
}

func TestQueueGarbageCollectionAndOverflow(t *testing.T) {
	r, clock := newTestRealm(t, WithMaxQueueEvents(2))
	idle := mustQueue(t, r, idIago, QueueOptions{})
	long := mustQueue(t, r, idIago, QueueOptions{LifespanSecs: 3600})
	other := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"delete_message"}, LifespanSecs: 3600})
	clock.Advance(601 * time.Second)
	if r.QueueCount() != 2 {
		t.Fatalf("queues after 601 s: %d, want 2 (idle one collected)", r.QueueCount())
	}
	_, err := r.As(idIago).Events(bg, GetEventsRequest{QueueID: idle.ID(), LastEventID: -1, DontBlock: true})
	wantCode(t, err, CodeBadEventQueueID, "")
	for i := 0; i < 3; i++ {
		r.As(idHamlet).SendChannelMessage(bg, "Denmark", "x", "m")
	}
	_, err = r.As(idIago).Events(bg, GetEventsRequest{QueueID: long.ID(), LastEventID: -1, DontBlock: true})
	wantCode(t, err, CodeBadEventQueueID, "")
	if _, err := r.As(idHamlet).Events(bg, GetEventsRequest{QueueID: other.ID(), LastEventID: -1, DontBlock: true}); err != nil {
		t.Fatalf("an overflow dropped an unrelated queue: %v", err)
	}
	if !r.ExpireQueue(other.ID()) || r.ExpireQueue(other.ID()) {
		t.Fatal("ExpireQueue")
	}
}

// waitPolling waits until a GET /events is blocked on the queue.
func waitPolling(t *testing.T, r *Realm, queueID string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !r.IsPolling(queueID) {
		if time.Now().After(deadline) {
			t.Fatal("the long poll never started waiting")
		}
		runtime.Gosched()
	}
}

// Idle queues are collected on the realm's clock in the background: no
// register or poll is needed for them to go (issue 14, item 4).
func TestIdleQueuesCollectedInBackground(t *testing.T) {
	r, clock := newTestRealm(t)
	mustQueue(t, r, idIago, QueueOptions{LifespanSecs: 120})
	keep := mustQueue(t, r, idHamlet, QueueOptions{LifespanSecs: 600})
	if n := r.events.Len(); n != 2 {
		t.Fatalf("%d queues", n)
	}
	clock.Advance(3 * time.Minute) // the collector runs every minute
	if n := r.events.Len(); n != 1 {
		t.Fatalf("%d queues after the short-lived one idled out", n)
	}
	if _, err := r.As(idHamlet).Events(bg, GetEventsRequest{QueueID: keep.ID(), LastEventID: -1, DontBlock: true}); err != nil {
		t.Fatalf("the long-lived queue went too: %v", err)
	}
}

func TestLongPollWakesOnSendAndHeartbeats(t *testing.T) {
	r, clock := newTestRealm(t, WithHeartbeat(50*time.Second))
	q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"message"}})
	poll := func(last int) <-chan []Event {
		out := make(chan []Event, 1)
		go func() {
			evs, err := r.As(idIago).Events(context.Background(), GetEventsRequest{QueueID: q.ID(), LastEventID: last})
			if err != nil {
				t.Error(err)
			}
			out <- evs
		}()
		waitPolling(t, r, q.ID())
		return out
	}
	got := <-func() <-chan []Event {
		ch := poll(-1)
		r.As(idHamlet).SendChannelMessage(bg, "Denmark", "x", "wake up")
		return ch
	}()
	if len(got) != 1 || got[0].Type != "message" {
		t.Fatalf("long poll got %+v", got)
	}

	// A quiet poll ends with a heartbeat when the realm's clock passes the
	// heartbeat interval, and not before: no wall-clock time is involved.
	ch := poll(0)
	clock.Advance(49 * time.Second)
	select {
	case evs := <-ch:
		t.Fatalf("the poll ended before its heartbeat was due: %+v", evs)
	case <-time.After(20 * time.Millisecond):
	}
	clock.Advance(time.Second)
	hb := <-ch
	if len(hb) != 1 || hb[0].Type != "heartbeat" || hb[0].ID != 1 {
		t.Fatalf("heartbeat %+v", hb)
	}
	if m := eventJSON(t, hb[0]); len(m) != 2 {
		t.Fatalf("heartbeat is exactly {type, id}: %v", m)
	}
	// Only the background collection of idle queues is left waiting.
	if n := clock.PendingTimers(); n != 1 {
		t.Fatalf("%d timers pending, want the collector's alone", n)
	}
}

func TestDeleteMessageEvents(t *testing.T) {
	r, _ := newTestRealm(t)
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "x", "m")
	bulk := mustQueue(t, r, idIago, QueueOptions{Capabilities: ClientCapabilities{BulkMessageDeletion: true}})
	legacy := mustQueue(t, r, idOthello, QueueOptions{})
	outsider := mustQueue(t, r, idCordelia, QueueOptions{})
	if err := r.As(idIago).DeleteMessage(bg, res.ID); err != nil {
		t.Fatal(err)
	}
	b := pending(t, r, idIago, bulk, -1)
	if len(b) != 2 || b[0].Type != "delete_message" || b[1].Type != "stream" {
		t.Fatalf("bulk queue %+v", b)
	}
	bj := eventJSON(t, b[0])
	if ids := bj["message_ids"].([]any); len(ids) != 1 || bj["message_type"] != "stream" || bj["topic"] != "x" || bj["stream_id"] != float64(2) {
		t.Fatalf("bulk delete %v", bj)
	}
	sj := eventJSON(t, b[1])
	if sj["property"] != "first_message_id" || sj["value"] != nil || sj["op"] != "update" {
		t.Fatalf("stream update %v", sj)
	}
	l := pending(t, r, idOthello, legacy, -1)
	if lj := eventJSON(t, l[0]); lj["message_id"] != float64(res.ID) || lj["message_ids"] != nil {
		t.Fatalf("legacy delete %v", lj)
	}
	// Cordelia sees Denmark (public) so gets the stream update, not the delete.
	o := pending(t, r, idCordelia, outsider, -1)
	if len(o) != 1 || o[0].Type != "stream" {
		t.Fatalf("outsider got %+v", o)
	}
}

func TestAllPublicStreamsQueues(t *testing.T) {
	r, _ := newTestRealm(t)
	// Cordelia is only in Verona; with all_public_streams she still hears
	// of Denmark, but never of the private core team.
	q := mustQueue(t, r, idCordelia, QueueOptions{EventTypes: []string{"message"}, AllPublicStreams: true})
	plain := mustQueue(t, r, idCordelia, QueueOptions{EventTypes: []string{"message"}})
	r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "public")
	r.As(idHamlet).SendChannelMessage(bg, "core team", "t", "private")
	evs := pending(t, r, idCordelia, q, -1)
	if len(evs) != 1 || evs[0].Payload.(*MessageEvent).Message.DisplayRecipient != "Denmark" {
		t.Fatalf("all_public_streams queue %+v", evs)
	}
	if evs := pending(t, r, idCordelia, plain, -1); len(evs) != 0 {
		t.Fatal("a plain queue only gets messages its user received")
	}
}

// A guest may not register for every public channel's messages, as on
// Zulip; and fan-out never hands an all_public_streams queue a message its
// user may not read, even when the queue got past registration.
func TestAllPublicStreamsRespectsAccess(t *testing.T) {
	r, _ := newTestRealm(t)
	_, err := r.As(idPolonius).RegisterQueue(bg, QueueOptions{AllPublicStreams: true})
	wantCode(t, err, CodeBadRequest, "User not authorized for this query")
	if r.QueueCount() != 0 {
		t.Fatal("a refused register left a queue")
	}
	q := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"message"}})
	// Make the queue ask for all public channels behind the check's back,
	// as a bug elsewhere might: fan-out must still refuse.
	q.Config().opts.AllPublicStreams = true
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "guests may not read this"); err != nil {
		t.Fatal(err)
	}
	if evs := pending(t, r, idPolonius, q, -1); len(evs) != 0 {
		t.Fatalf("guest's queue got %+v", evs)
	}
	member := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"message"}, AllPublicStreams: true})
	r.As(idHamlet).SendChannelMessage(bg, "Verona", "x", "public")
	if evs := pending(t, r, idOthello, member, -1); len(evs) != 1 {
		t.Fatalf("member's all_public_streams queue got %d events", len(evs))
	}
}

func TestStopDropsQueuesAndStopsTimers(t *testing.T) {
	c := clock.NewManual(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC))
	r := New(WithClock(c))
	iago, _ := r.UserIDByEmail("iago@zulip.com")
	q, err := r.As(iago).RegisterQueue(context.Background(), QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.PendingTimers() == 0 {
		t.Fatal("no idle collection armed")
	}
	r.Stop()
	if _, err := r.As(iago).Events(context.Background(), GetEventsRequest{QueueID: q.ID(), LastEventID: -1, DontBlock: true}); !errors.Is(err, &Error{Code: CodeBadEventQueueID}) {
		t.Fatalf("poll after close: %v", err)
	}
	if n := c.PendingTimers(); n != 0 {
		t.Fatalf("%d timers still armed after Stop", n)
	}
}
