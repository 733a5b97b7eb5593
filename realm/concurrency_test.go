package realm

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/realm/clock"
)

// TestConcurrentUse drives the realm from many goroutines at once; run
// with -race it checks that every operation takes the locks it needs.
func TestConcurrentUse(t *testing.T) {
	// The system clock, so that the heartbeat ends a poll whose user gets
	// no more events once the writers are done.
	r := New(WithClock(clock.System), WithHeartbeat(20*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	users := []int{idHamlet, idIago, idOthello, idCordelia, idZoe}
	var wg sync.WaitGroup
	for i, uid := range users {
		wg.Add(2)
		go func() { // writer
			defer wg.Done()
			a := r.As(uid)
			for j := 0; j < 50; j++ {
				res, err := a.SendChannelMessage(ctx, "Verona", fmt.Sprintf("t%d", j%3), "hello")
				if err != nil {
					t.Error(err)
					return
				}
				if j%10 == 0 {
					_ = a.DeleteMessage(ctx, res.ID)
				}
				_, _ = a.SendDirectMessage(ctx, []int{users[(i+1)%len(users)]}, "psst")
				_, _ = a.Subscribe(ctx, SubscribeRequest{Channels: []ChannelSpec{{Name: fmt.Sprintf("room %d", j%4)}}})
				_ = a.SetTyping(ctx, TypingRequest{Op: "start", To: []int{idIago}})
			}
		}()
		go func() { // reader with an event queue
			defer wg.Done()
			a := r.As(uid)
			l, err := a.Listen(ctx, RegisterRequest{})
			if err != nil {
				t.Error(err)
				return
			}
			defer l.Close()
			for j := 0; j < 20; j++ {
				if _, err := a.Messages(ctx, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 20, IncludeAnchor: true,
					Narrow: narrow(t, `[["channel","Verona"]]`)}); err != nil {
					t.Error(err)
					return
				}
				if _, err := l.Next(ctx); err != nil {
					t.Error(err)
					return
				}
				_, _ = a.Users(ctx, UserListOptions{})
				_, _ = a.UserGroups(ctx, UserGroupsRequest{})
			}
		}()
	}
	wg.Add(1)
	go func() { // an administrator changing realm-wide state
		defer wg.Done()
		a := r.As(idIago)
		for j := 0; j < 20; j++ {
			id, err := a.AddLinkifier(ctx, linkifier.Spec{Pattern: fmt.Sprintf(`X%d-(?P<id>[0-9]+)`, j), URLTemplate: "https://x/{id}"})
			if err == nil {
				_ = a.DeleteLinkifier(ctx, id)
			}
			g, err := a.CreateUserGroup(ctx, CreateGroupRequest{Name: fmt.Sprintf("g%d", j), Members: []int{idHamlet}})
			if err == nil {
				_ = a.DeactivateUserGroup(ctx, g)
			}
			r.UpdateSettings(func(s *Settings) { s.MandatoryTopics = j%2 == 0 })
		}
	}()
	wg.Wait()
	if r.MessageCount() == 0 {
		t.Fatal("nothing was sent")
	}
}
