package realm

import (
	"slices"
	"testing"
)

// A channel wildcard (@**all**, @**everyone**, @**channel** from 247, @**stream**)
// gives every recipient stream_wildcard_mentioned, a topic wildcard
// (@**topic**) the topic's participants topic_wildcard_mentioned, and
// both the deprecated wildcard_mentioned after them (feature level 224);
// below 224 a server has wildcard_mentioned alone. Either counts as a
// mention in unread_msgs, and is:mentioned finds it.
func TestWildcardMentionFlagsFollowFeatureLevel(t *testing.T) {
	for _, level := range []int{changeWildcardMentionFlags.Level() - 1, changeWildcardMentionFlags.Level()} {
		r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
		q := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"message"}})
		sendTo(t, r, idOthello, "Denmark", "wild", "first")
		ids := map[string]int64{}
		wildcards := []string{"@**all** a", "@**everyone** b", "@**stream** d", "@**topic** e"}
		if r.has(changeChannelWildcardMention) { // @**channel** is no wildcard below 247
			wildcards = append(wildcards, "@**channel** c")
		}
		for _, c := range wildcards {
			ids[c] = sendTo(t, r, idHamlet, "Denmark", "wild", c)
		}
		split := level >= changeWildcardMentionFlags.Level()
		flagsOf := func(uid int, id int64) []string {
			t.Helper()
			v, _, err := r.As(uid).Message(bg, id, ViewOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return v.Flags
		}
		for c, id := range ids {
			want := []string{"wildcard_mentioned"}
			if split {
				want = []string{"stream_wildcard_mentioned", "wildcard_mentioned"}
				if c == "@**topic** e" {
					want = []string{"topic_wildcard_mentioned", "wildcard_mentioned"}
				}
			}
			if got := flagsOf(idOthello, id); !slices.Equal(got, want) {
				t.Errorf("level %d, %q: othello's flags %v, want %v", level, c, got, want)
			}
			// iago did not post in the topic: the topic wildcard is not his.
			got := flagsOf(idIago, id)
			if c == "@**topic** e" {
				if slices.Contains(got, "wildcard_mentioned") || slices.Contains(got, "topic_wildcard_mentioned") {
					t.Errorf("level %d: iago, no participant, has %v", level, got)
				}
			} else if !slices.Equal(got, want) {
				t.Errorf("level %d, %q: iago's flags %v, want %v", level, c, got, want)
			}
		}
		// The message event carries the same names.
		evs := pending(t, r, idIago, q, -1)
		if len(evs) == 0 {
			t.Fatal("no message events")
		}
		wantAll := []string{"wildcard_mentioned"}
		if split {
			wantAll = []string{"stream_wildcard_mentioned", "wildcard_mentioned"}
		}
		found := false
		for _, ev := range evs {
			m := eventJSON(t, ev)
			if msg, _ := m["message"].(map[string]any); msg["id"] == float64(ids["@**all** a"]) {
				found = true
				var got []string
				for _, f := range m["flags"].([]any) {
					got = append(got, f.(string))
				}
				if !slices.Equal(got, wantAll) {
					t.Errorf("level %d: event flags %v, want %v", level, got, wantAll)
				}
			}
		}
		if !found {
			t.Errorf("level %d: no event for @**all**", level)
		}
		// Unread mentions count both kinds.
		got := unreadOf(t, r, idOthello, false)
		for c, id := range ids {
			if !slices.Contains(got.Mentions, id) {
				t.Errorf("level %d: %q missing from othello's unread mentions %v", level, c, got.Mentions)
			}
		}
	}
}

// A topic wildcard in a direct message mentions everyone in it, with
// topic_wildcard_mentioned; a channel wildcard there gives
// stream_wildcard_mentioned.
func TestWildcardMentionFlagsInDirectMessages(t *testing.T) {
	r, _ := newTestRealm(t)
	for content, want := range map[string][]string{
		"@**topic** hi": {"topic_wildcard_mentioned", "wildcard_mentioned"},
		"@**all** hi":   {"stream_wildcard_mentioned", "wildcard_mentioned"},
	} {
		res, err := r.As(idHamlet).SendDirectMessage(bg, []int{idOthello, idIago}, content)
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := r.As(idOthello).Message(bg, res.ID, ViewOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v.Flags, want) {
			t.Errorf("%q: flags %v, want %v", content, v.Flags, want)
		}
	}
}
