package realm

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestReadsOutsideTheLockRaceEditsReactionsAndMoves builds views after
// releasing the read lock (GetMessages, ListUsers) while other goroutines
// edit messages, react, move messages and whole topics, rename users and
// send. Run with -race: a stored message or user changed in place while a
// view reads it is a reported race. Every view must show one consistent
// version of its message, and afterwards every index must agree with a
// full scan and a fetch with the store.
func TestReadsOutsideTheLockRaceEditsReactionsAndMoves(t *testing.T) {
	r, _ := newTestRealm(t)
	iago, hamlet := r.As(idIago), r.As(idHamlet)
	var ids []int64
	for i := 0; i < 40; i++ {
		res, err := iago.SendChannelMessage(bg, "Verona", "a", fmt.Sprintf("version 0 of %d", i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	const rounds = 60
	var writers sync.WaitGroup
	done := make(chan struct{})
	write := func(name string, fn func(j int) error) {
		writers.Add(1)
		go func() {
			defer writers.Done()
			for j := 0; j < rounds; j++ {
				if err := fn(j); err != nil {
					t.Errorf("%s %d: %v", name, j, err)
					return
				}
			}
		}()
	}
	write("edit", func(j int) error {
		id := ids[j%len(ids)]
		_, err := iago.UpdateMessage(bg, UpdateMessageRequest{MessageID: id, Content: str(fmt.Sprintf("version %d of %d", j+1, j%len(ids)))})
		return err
	})
	write("react", func(j int) error { // no (message, emoji) pair twice in the rounds
		req := reactionReq(ids[(j*7)%len(ids)], []string{"smile", "heart", "tada"}[j%3], "", "")
		if err := hamlet.AddReaction(bg, req); err != nil {
			return err
		}
		if j%2 == 0 {
			return hamlet.RemoveReaction(bg, req)
		}
		return nil
	})
	write("move", func(j int) error { // only this goroutine moves
		id, mode := ids[(j*5)%len(ids)], ChangeOne
		if j%3 == 0 {
			id, mode = ids[0], ChangeAll // the whole topic of the first message
		}
		v, _, err := iago.Message(bg, id, ViewOptions{})
		if err != nil {
			return err
		}
		to := map[string]string{"a": "b", "b": "a"}[v.Subject]
		_, err = iago.UpdateMessage(bg, UpdateMessageRequest{MessageID: id, Topic: str(to), PropagateMode: mode})
		return err
	})
	write("rename", func(j int) error {
		return hamlet.UpdateSettings(bg, SettingsUpdate{FullName: str(fmt.Sprintf("Hamlet %d", j))})
	})
	write("send", func(j int) error {
		_, err := hamlet.SendChannelMessage(bg, "Verona", "a", fmt.Sprintf("reply %d", j))
		return err
	})
	var readers sync.WaitGroup
	for _, uid := range []int{idOthello, idCordelia} {
		readers.Add(1)
		go func() {
			defer readers.Done()
			a := r.As(uid)
			for n := 0; ; n++ {
				res, err := a.Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 100, IncludeAnchor: true,
					Narrow: narrow(t, `[["channel","Verona"]]`), View: ViewOptions{ApplyMarkdown: n%2 == 0}})
				if err != nil {
					t.Error(err)
					return
				}
				for _, m := range res.Messages {
					checkVersion(t, m)
				}
				users, err := a.Users(bg, UserListOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := json.Marshal([]any{res, users}); err != nil { // reads every field
					t.Error(err)
					return
				}
				select {
				case <-done:
					return
				default:
				}
			}
		}()
	}
	writers.Wait()
	close(done)
	readers.Wait()
	verifyIndexes(t, r)
	// Quiet now: a fetch shows what the store holds.
	res, err := r.As(idOthello).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1000, IncludeAnchor: true,
		Narrow: narrow(t, `[["channel","Verona"]]`)})
	if err != nil {
		t.Fatal(err)
	}
	_ = r.view(func() error {
		for _, v := range res.Messages {
			m, ok := r.messages.store.Message(v.ID)
			if !ok || v.Content != m.Content || v.Subject != m.Topic || len(v.Reactions) != len(m.Changes().Reactions) {
				t.Errorf("message %d: view %q in %q with %d reactions, stored %+v", v.ID, v.Content, v.Subject, len(v.Reactions), m)
			}
		}
		return nil
	})
}

// checkVersion checks that a view of a message the race test edits shows
// one version: the raw or rendered content of "version N of I" and, when
// edited, an edit history whose newest entry is that version's
// predecessor.
func checkVersion(t *testing.T, m Message) {
	t.Helper()
	if m.Subject != "a" && m.Subject != "b" {
		t.Errorf("message %d: topic %q", m.ID, m.Subject)
	}
	var n, of int
	text := strings.TrimSuffix(strings.TrimPrefix(m.Content, "<p>"), "</p>")
	if _, err := fmt.Sscanf(text, "version %d of %d", &n, &of); err != nil {
		return // a reply
	}
	if (n == 0) != (m.LastEditTS == nil) {
		t.Errorf("message %d: version %d, last edit %v", m.ID, n, m.LastEditTS)
	}
	for _, e := range m.EditHistory {
		if e.PrevContent != nil {
			var prev int
			if _, err := fmt.Sscanf(*e.PrevContent, "version %d of", &prev); err != nil || prev >= n {
				t.Errorf("message %d: version %d after %q", m.ID, n, *e.PrevContent)
			}
			break
		}
	}
	if m.Type != "stream" || m.DisplayRecipient != "Verona" {
		t.Errorf("message %d: %s to %v", m.ID, m.Type, m.DisplayRecipient)
	}
}
