package realm

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minizulip/minizulip/user"
)

// benchClock is a clock that moves only when told and never fires timers,
// so a benchmark can cross presence thresholds every iteration without
// its queues being collected.
type benchClock struct{ now atomic.Int64 }

type benchTimer struct{}

func (benchTimer) Stop() bool { return true }

func (c *benchClock) Now() time.Time                        { return time.Unix(0, c.now.Load()).UTC() }
func (c *benchClock) AfterFunc(time.Duration, func()) Timer { return benchTimer{} }
func (c *benchClock) advance(d time.Duration)               { c.now.Add(int64(d)) }

// presenceRealm is a realm of n users, every one with a presence, and
// queues open queues (a third each legacy, slim_presence and
// simplified_presence_events) of as many users, all event types.
func presenceRealm(b *testing.B, n, queues int) (*Realm, *benchClock) {
	clock := &benchClock{}
	clock.now.Store(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	r := New(WithClock(clock))
	r.mu.Lock()
	var ids []int
	for _, u := range r.users.byID {
		if u.IsActive && !u.IsSystemBot && !u.IsBot() {
			ids = append(ids, u.ID)
		}
	}
	for i := len(ids); i < n; i++ {
		u := r.addUser(&user.User{DeliveryEmail: fmt.Sprintf("crowd%d@zulip.com", i), FullName: fmt.Sprintf("Crowd %d", i), Role: user.RoleMember})
		ids = append(ids, u.ID)
	}
	now := clock.Now()
	for _, id := range ids {
		r.recordPresence(r.users.byID[id], now, true, false)
	}
	r.mu.Unlock()
	for i := 0; i < queues; i++ {
		opts := QueueOptions{LifespanSecs: 3600}
		switch i % 3 {
		case 1:
			opts.SlimPresence = true
		case 2:
			opts.Capabilities.SimplifiedPresenceEvents = true
		}
		if _, err := r.As(ids[i]).RegisterQueue(bg, opts); err != nil {
			b.Fatal(err)
		}
	}
	return r, clock
}

// BenchmarkPresence measures presence in a realm of 10,000 users with
// 1,000 open queues: the baselines are a read-only call (a user's status)
// and a user_status change (one shared event to every queue); then a
// regular ping (rewrites the presence, no event), a ping coming back
// online (an event to every queue, in three shapes), and the presence
// fetches of POST /users/me/presence (everything; nothing new since
// last_update_id).
func BenchmarkPresence(b *testing.B) {
	const users, queues = 10000, 1000
	r, clock := presenceRealm(b, users, queues)
	a := r.As(idHamlet)
	drained := func(i int) {
		if i%4000 == 3999 {
			b.StopTimer()
			r.drainQueues()
			b.StartTimer()
		}
	}
	run := func(name string, step func(i int) error) {
		b.Run(fmt.Sprintf("users=%d/queues=%d/%s", users, queues, name), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if err := step(i); err != nil {
					b.Fatal(err)
				}
				i++
			}
			r.drainQueues()
		})
	}
	run("baseline_read_status", func(int) error {
		_, err := a.UserStatus(bg, idIago)
		return err
	})
	texts := []string{"in a meeting", "at lunch"}
	run("baseline_status_change", func(i int) error {
		err := a.UpdateStatus(bg, StatusUpdate{StatusText: &texts[i%2]})
		drained(i)
		return err
	})
	// The fetches run while every presence is recent: the pings after
	// them move the clock by years.
	run("fetch_all_modern", func(int) error {
		res, err := a.UpdatePresence(bg, PresenceRequest{Status: PresenceActive, SlimPresence: true})
		if err == nil && len(res.Presences.Modern) != users {
			err = fmt.Errorf("%d presences fetched, want %d", len(res.Presences.Modern), users)
		}
		return err
	})
	var last int
	run("fetch_since_last_update_id", func(int) error {
		res, err := a.UpdatePresence(bg, PresenceRequest{Status: PresenceActive, LastUpdateID: &last})
		if err == nil {
			last = *res.PresenceLastUpdateID
		}
		return err
	})
	run("ping_no_event", func(int) error {
		clock.advance(61 * time.Second)
		_, err := a.UpdatePresence(bg, PresenceRequest{Status: PresenceIdle, PingOnly: true})
		return err
	})
	run("ping_back_online", func(i int) error {
		clock.advance(131 * time.Second)
		_, err := a.UpdatePresence(bg, PresenceRequest{Status: PresenceActive, PingOnly: true})
		drained(i)
		return err
	})
}
