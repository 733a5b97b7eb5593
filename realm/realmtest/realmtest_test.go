package realmtest

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/user"
)

// fakeT records a failure and stops the helper, as t.Fatalf would.
type fakeT struct {
	failed   string
	cleanups []func()
}

type stop struct{}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
	panic(stop{})
}
func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// fails runs fn with a fake T and returns its failure message ("" if none).
func fails(fn func(t *fakeT)) (msg string) {
	f := &fakeT{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				panic(r)
			}
		}
		for _, c := range f.cleanups {
			c()
		}
		msg = f.failed
	}()
	fn(f)
	return ""
}

func newRealm(opts ...realm.Option) (*realm.Realm, *clock.Manual) {
	c := clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return realm.New(append([]realm.Option{realm.WithClock(c)}, opts...)...), c
}

func TestPopulateAddsUsersChannelsAndMessages(t *testing.T) {
	r, _ := newRealm()
	p := Populate(t, r, Setup{
		Users:    []realm.NewUser{{Email: "ada@example.com", FullName: "Ada"}, {Email: "bob@example.com", FullName: "Bob", Role: user.RoleAdmin}},
		Channels: []Channel{{Name: "lab", Subscribers: []string{"ada@example.com", "bob@example.com"}}},
		Messages: []Message{
			{From: "ada@example.com", Channel: "lab", Topic: "engines", Content: "It **computes**."},
			{From: "bob@example.com", To: []string{"ada@example.com"}, Content: "psst"},
		},
	})
	if len(p.Users) != 2 || p.Channels["lab"] == 0 || len(p.Messages) != 2 {
		t.Fatalf("populated %+v", p)
	}
	ada := p.Users["ada@example.com"]
	CheckContent(t, r, ada, p.Messages[0], "It **computes**.")
	CheckTopic(t, r, ada, p.Messages[0], "engines")
	CheckFlags(t, r, ada, p.Messages[0], "read")
	CheckFlags(t, r, ada, p.Messages[1])
	lab := Messages(t, r, ada, Narrow("channel", "lab")...)
	if len(lab) != 1 || lab[0].Content != "It **computes**." || lab[0].ID != p.Messages[0] {
		t.Fatalf("lab messages %+v", lab)
	}
	if dms := Messages(t, r, ada, Narrow("is", "dm")...); len(dms) != 1 || dms[0].Content != "psst" {
		t.Fatalf("direct messages %+v", dms)
	}
}

func TestPopulateFailsOnRefusedInput(t *testing.T) {
	r, _ := newRealm()
	for _, c := range []struct {
		setup Setup
		want  string
	}{
		{Setup{Users: []realm.NewUser{{Email: "not an email", FullName: "X"}}}, "add user not an email"},
		{Setup{Channels: []Channel{{Name: "c", Subscribers: []string{"ghost@example.com"}}}}, "no user ghost@example.com"},
		{Setup{Messages: []Message{{From: "iago@zulip.com", Channel: "Nowhere", Topic: "t", Content: "x"}}}, "message 0 from iago@zulip.com"},
	} {
		if msg := fails(func(f *fakeT) { Populate(f, r, c.setup) }); !strings.Contains(msg, c.want) {
			t.Fatalf("failure %q, want %q", msg, c.want)
		}
	}
}

func TestMessagesPagesThroughLongNarrows(t *testing.T) {
	limits := realm.DefaultLimits()
	limits.MaxMessagesPerFetch = 3
	r, _ := newRealm(realm.WithLimits(limits))
	iago := UserID(t, r, "iago@zulip.com")
	var want []int64
	for i := range 7 {
		res, err := r.As(iago).SendChannelMessage(context.Background(), "Denmark", "many", fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, res.ID)
	}
	got := Messages(t, r, iago, Narrow("channel", "Denmark", "topic", "many")...)
	if len(got) != len(want) || got[0].ID != want[0] || got[6].ID != want[6] {
		t.Fatalf("got %d messages", len(got))
	}
	if msg := fails(func(f *fakeT) { Messages(f, r, iago, Narrow("channel", "Nowhere")...) }); !strings.Contains(msg, "messages of") {
		t.Fatalf("a bad narrow: %q", msg)
	}
}

func TestChecksFailWithWhatDiffers(t *testing.T) {
	r, _ := newRealm()
	iago := UserID(t, r, "iago@zulip.com")
	p := Populate(t, r, Setup{Messages: []Message{{From: "iago@zulip.com", Channel: "Denmark", Topic: "castle", Content: "hi"}}})
	res := struct{ ID int64 }{p.Messages[0]}
	cases := map[string]func(f *fakeT){
		`content "hi", want "bye"`:          func(f *fakeT) { CheckContent(f, r, iago, res.ID, "bye") },
		`topic "castle", want "moat"`:       func(f *fakeT) { CheckTopic(f, r, iago, res.ID, "moat") },
		`flags [read], want [read starred]`: func(f *fakeT) { CheckFlags(f, r, iago, res.ID, "starred", "read") },
		"message 99999":                     func(f *fakeT) { CheckContent(f, r, iago, 99999, "x") },
		"no user nobody@zulip.com":          func(f *fakeT) { UserID(f, r, "nobody@zulip.com") },
	}
	for want, fn := range cases {
		if msg := fails(fn); !strings.Contains(msg, want) {
			t.Fatalf("failure %q, want %q", msg, want)
		}
	}
}

func TestWaitEventReturnsEventsInOrderAndKeepsTheRest(t *testing.T) {
	r, _ := newRealm()
	hamlet := UserID(t, r, "hamlet@zulip.com")
	l := Listen(t, r, hamlet, "message", "typing")
	iago := r.As(UserID(t, r, "iago@zulip.com"))
	for _, c := range []string{"one", "two"} {
		if _, err := iago.SendChannelMessage(context.Background(), "Denmark", "t", c); err != nil {
			t.Fatal(err)
		}
	}
	first := l.WaitEvent(t, "message", time.Minute).Payload.(*realm.MessageEvent).Message.Content
	second := l.WaitEvent(t, "message", time.Minute).Payload.(*realm.MessageEvent).Message.Content
	if first != "<p>one</p>" || second != "<p>two</p>" {
		t.Fatalf("events %q, %q", first, second)
	}
}

// The deadline is on the realm's clock: moving a manual clock past it
// ends the wait with a failure, without waiting in real time.
func TestWaitEventFailsWhenTheRealmClockPassesTheDeadline(t *testing.T) {
	r, clock := newRealm()
	hamlet := UserID(t, r, "hamlet@zulip.com")
	msg := make(chan string, 1)
	var queue string
	ready := make(chan struct{})
	go func() {
		msg <- fails(func(f *fakeT) {
			l := Listen(f, r, hamlet, "message")
			queue = l.QueueID()
			close(ready)
			l.WaitEvent(f, "message", 30*time.Second)
		})
	}()
	<-ready
	for deadline := time.Now().Add(10 * time.Second); !r.IsPolling(queue); runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatal("the listener never started waiting")
		}
	}
	clock.Advance(30 * time.Second)
	if got := <-msg; !strings.Contains(got, "no message event within 30s on the realm's clock") {
		t.Fatalf("failure %q", got)
	}
}

func TestWaitEventFailsWhenTheQueueIsGone(t *testing.T) {
	r, _ := newRealm()
	hamlet := UserID(t, r, "hamlet@zulip.com")
	got := fails(func(f *fakeT) {
		l := Listen(f, r, hamlet)
		r.ExpireQueue(l.QueueID())
		l.WaitEvent(f, "message", time.Minute)
	})
	if !strings.Contains(got, "BAD_EVENT_QUEUE_ID") {
		t.Fatalf("failure %q", got)
	}
}
