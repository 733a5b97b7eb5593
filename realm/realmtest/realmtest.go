// Package realmtest holds assertion and set-up helpers for Go test suites
// that drive a realm.Realm, in the spirit of miniredis's CheckGet: set up
// users, channels and messages in one call, list a narrow's messages
// without HTTP, check a message's content, topic and flags, and wait for
// an event with a deadline on the realm's clock.
//
// The helpers take a T (satisfied by *testing.T and *testing.B), so this
// package does not link the testing package either.
package realmtest

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

// T is the part of testing.TB the checks use.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
}

// TB is T with Cleanup, for helpers that leave something to close.
type TB interface {
	T
	Cleanup(func())
}

// Setup is what Populate adds: users first, then channels, then messages,
// each naming users by email (seeded users included).
type Setup struct {
	Users    []realm.NewUser
	Channels []Channel
	Messages []Message
}

// Channel is a channel to create, with its subscribers by email.
type Channel struct {
	Name, Description string
	InviteOnly        bool
	Subscribers       []string
}

// Message is a message to send: to a channel and topic, or (To set) a
// direct message to those emails. Its sender has it read.
type Message struct {
	From           string
	Channel, Topic string
	To             []string
	Content        string
}

// Populated holds the IDs of what Populate added: users and channels by
// email and name, and the messages' IDs in the order given.
type Populated struct {
	Users    map[string]int
	Channels map[string]int
	Messages []int64
}

// Populate adds users, channels and messages in one call, failing t on
// the first that the realm refuses.
func Populate(t T, r *realm.Realm, s Setup) Populated {
	t.Helper()
	out := Populated{Users: map[string]int{}, Channels: map[string]int{}}
	for _, u := range s.Users {
		id, err := r.AddUser(u)
		if err != nil {
			t.Fatalf("realmtest: add user %s: %v", u.Email, err)
		}
		out.Users[u.Email] = id
	}
	for _, c := range s.Channels {
		ids := make([]int, len(c.Subscribers))
		for i, email := range c.Subscribers {
			ids[i] = UserID(t, r, email)
		}
		id, err := r.AddChannel(realm.NewChannel{Name: c.Name, Description: c.Description, InviteOnly: c.InviteOnly, SubscriberIDs: ids})
		if err != nil {
			t.Fatalf("realmtest: add channel %s: %v", c.Name, err)
		}
		out.Channels[c.Name] = id
	}
	for i, m := range s.Messages {
		read := true // as a person's client sends them
		req := realm.SendRequest{Content: m.Content, ReadBySender: &read}
		if len(m.To) > 0 {
			req.Type, req.To = "direct", message.To{Emails: m.To, IsList: true}
		} else {
			topic := m.Topic
			req.Type, req.To, req.Topic = "stream", message.To{ChannelName: m.Channel}, &topic
		}
		res, err := r.As(UserID(t, r, m.From)).SendMessage(context.Background(), req)
		if err != nil {
			t.Fatalf("realmtest: message %d from %s: %v", i, m.From, err)
		}
		out.Messages = append(out.Messages, res.ID)
	}
	return out
}

// UserID is the ID of the user with that email, failing t if none.
func UserID(t T, r *realm.Realm, email string) int {
	t.Helper()
	id, ok := r.UserIDByEmail(email)
	if !ok {
		t.Fatalf("realmtest: no user %s", email)
	}
	return id
}

// Messages lists, oldest first and with raw Markdown content, every
// message of the narrow that the user can read: what GET /messages would
// page through, without HTTP.
func Messages(t T, r *realm.Realm, userID int, narrow ...message.Term) []realm.Message {
	t.Helper()
	var out []realm.Message
	anchor, include := realm.Anchor{ID: realm.AnchorOldest}, true
	page := min(r.Limits().MaxMessagesPerFetch, 1000)
	for {
		res, err := r.As(userID).Messages(context.Background(), realm.FetchRequest{
			Anchor: anchor, IncludeAnchor: include, NumAfter: page, Narrow: narrow})
		if err != nil {
			t.Fatalf("realmtest: messages of %v: %v", narrow, err)
		}
		out = append(out, res.Messages...)
		if res.FoundNewest || len(res.Messages) == 0 {
			return out
		}
		anchor, include = realm.Anchor{ID: res.Messages[len(res.Messages)-1].ID}, false
	}
}

// Narrow builds a narrow from operator, operand pairs:
// Narrow("channel", "Denmark", "topic", "castle").
func Narrow(pairs ...string) []message.Term {
	var terms []message.Term
	for i := 0; i+1 < len(pairs); i += 2 {
		terms = append(terms, message.Term{Operator: pairs[i], Operand: pairs[i+1]})
	}
	return terms
}

// fetch gets a message as the user sees it, raw content in Content.
func fetch(t T, r *realm.Realm, userID int, id int64) realm.Message {
	t.Helper()
	m, raw, err := r.As(userID).Message(context.Background(), id, realm.ViewOptions{})
	if err != nil {
		t.Fatalf("realmtest: message %d for user %d: %v", id, userID, err)
	}
	m.Content = raw
	return m
}

// CheckContent fails t unless message id, as the user sees it, has this
// raw Markdown content.
func CheckContent(t T, r *realm.Realm, userID int, id int64, content string) {
	t.Helper()
	if got := fetch(t, r, userID, id).Content; got != content {
		t.Fatalf("message %d: content %q, want %q", id, got, content)
	}
}

// CheckTopic fails t unless message id is in this topic.
func CheckTopic(t T, r *realm.Realm, userID int, id int64, topic string) {
	t.Helper()
	if got := fetch(t, r, userID, id).Subject; got != topic {
		t.Fatalf("message %d: topic %q, want %q", id, got, topic)
	}
}

// CheckFlags fails t unless the user's flags on message id are exactly
// these, in any order ("read", "starred", "mentioned"…).
func CheckFlags(t T, r *realm.Realm, userID int, id int64, flags ...string) {
	t.Helper()
	got := slices.Sorted(slices.Values(fetch(t, r, userID, id).Flags))
	want := slices.Sorted(slices.Values(flags))
	if !slices.Equal(got, want) {
		t.Fatalf("message %d for user %d: flags [%s], want [%s]", id, userID, strings.Join(got, " "), strings.Join(want, " "))
	}
}

// Listener reads a user's events for WaitEvent, keeping the events that
// came in the same batch after the one a wait returned.
type Listener struct {
	r       *realm.Realm
	l       *realm.Listener
	pending []realm.Event
}

// Listen opens an event queue for the user (of these event types; none
// means all), closed when the test ends.
func Listen(t TB, r *realm.Realm, userID int, eventTypes ...string) *Listener {
	t.Helper()
	l, err := r.As(userID).Listen(context.Background(), realm.RegisterRequest{
		Queue: realm.QueueOptions{EventTypes: eventTypes, ApplyMarkdown: true}, FetchEventTypes: []string{}})
	if err != nil {
		t.Fatalf("realmtest: listen as %d: %v", userID, err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return &Listener{r: r, l: l}
}

// QueueID is the ID of the listener's event queue.
func (l *Listener) QueueID() string { return l.l.QueueID() }

// RealTimeLimit bounds, in real time, how long WaitEvent waits when the
// realm's clock does not reach the deadline (a manual clock nobody moves),
// so a test fails rather than hangs.
var RealTimeLimit = 10 * time.Second

// WaitEvent returns the next event of type typ, skipping (and dropping)
// events of other types. It fails t when the realm's clock passes within
// first (for a manual clock: when the test advances it that far), or after
// RealTimeLimit of real time.
func (l *Listener) WaitEvent(t T, typ string, within time.Duration) realm.Event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	onClock := l.r.Clock().AfterFunc(within, cancel)
	defer onClock.Stop()
	wall := time.AfterFunc(RealTimeLimit, cancel)
	defer wall.Stop()
	for {
		for len(l.pending) > 0 {
			ev := l.pending[0]
			l.pending = l.pending[1:]
			if ev.Type == typ {
				return ev
			}
		}
		if ctx.Err() != nil {
			break
		}
		evs, err := l.l.Next(ctx)
		if err != nil {
			t.Fatalf("realmtest: waiting for a %s event: %v", typ, err)
			return realm.Event{}
		}
		l.pending = evs
	}
	t.Fatalf("realmtest: no %s event within %v on the realm's clock (or %v of real time)", typ, within, RealTimeLimit)
	return realm.Event{}
}
