package realm

import (
	"fmt"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
)

// TestFetchedFlagsWalkAgreesWithLookups checks the flags GetMessages
// reads in one walk down the viewer's copies against a lookup a message:
// history from before the viewer subscribed (read and historical),
// received messages with their own flags, and ranges where the viewer's
// other copies (direct messages) outnumber the fetched messages, so the
// walk gives up and looks the rest up.
func TestFetchedFlagsWalkAgreesWithLookups(t *testing.T) {
	r, _ := newTestRealm(t)
	iago, hamlet := r.As(idIago), r.As(idHamlet)
	if _, err := iago.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "walk"}}}); err != nil {
		t.Fatal(err)
	}
	// A copy below the channel's messages, so that walks over its history
	// pass messages the viewer never received.
	if _, err := iago.SendDirectMessage(bg, []int{idHamlet}, "before"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ { // before hamlet subscribes: history
		if _, err := iago.SendChannelMessage(bg, "walk", "t", fmt.Sprintf("old %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := hamlet.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "walk"}}}); err != nil {
		t.Fatal(err)
	}
	var starred []int64
	for i := 0; i < 30; i++ {
		res, err := iago.SendChannelMessage(bg, "walk", "t", fmt.Sprintf("new %d", i))
		if err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			starred = append(starred, res.ID)
		}
		dms := 1
		if i < 15 {
			dms = 8 // the older half: many more other copies than messages
		}
		for range dms {
			if _, err := iago.SendDirectMessage(bg, []int{idHamlet}, "psst"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := hamlet.UpdateMessageFlags(bg, FlagsRequest{Messages: starred, Op: "add", Flag: "starred"}); err != nil {
		t.Fatal(err)
	}
	res, err := hamlet.Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 100, IncludeAnchor: true,
		Narrow: narrow(t, `[["channel","walk"],["topic","t"]]`)}) // not the channel events notice
	if err != nil || len(res.Messages) != 60 {
		t.Fatalf("%v, %d messages", err, len(res.Messages))
	}
	for i, m := range res.Messages {
		want := []string{message.FlagRead, message.FlagHistorical}
		if i >= 30 {
			want = []string{}
			if slices.Contains(starred, m.ID) {
				want = []string{message.FlagStarred}
			}
		}
		if !slices.Equal(m.Flags, want) {
			t.Errorf("message %d (%d of the channel): flags %v, want %v", m.ID, i, m.Flags, want)
		}
	}
	// Every sub-range, through the walk and through lookups.
	_ = r.view(func() error {
		me := r.users.byID[idHamlet]
		var all []*message.Message
		r.messages.store.Channel(r.channels.byName["walk"].ID).Up(0, func(m *message.Message) bool { all = append(all, m); return true })
		for lo := 0; lo < len(all); lo += 7 {
			for hi := lo; hi <= len(all); hi += 11 {
				got := r.fetchedFlagsOf(me, all[lo:hi])
				for i, m := range all[lo:hi] {
					if want := r.fetchedFlags(me, m); got[i] != want {
						t.Errorf("range [%d,%d) message %d: walk gives %v, lookup %v", lo, hi, m.ID, got[i], want)
					}
				}
			}
		}
		return nil
	})
}
