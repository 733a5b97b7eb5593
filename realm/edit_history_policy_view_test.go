package realm

import "testing"

// A message object's edit_history follows the realm's
// message_edit_history_visibility_policy as Zulip's messages_for_ids
// does: "all" lists every edit; "moves" only the edits that moved the
// message, without content fields; "none" leaves edit_history out.
func TestMessageEditHistoryFollowsPolicy(t *testing.T) {
	r, clk := newTestRealm(t)
	id := sendTo(t, r, idIago, "Denmark", "old", "first")
	edit := func(req UpdateMessageRequest) {
		t.Helper()
		req.MessageID = id
		if _, err := r.As(idIago).UpdateMessage(bg, req); err != nil {
			t.Fatal(err)
		}
		clk.Advance(1)
	}
	second, topic := "second", "new"
	edit(UpdateMessageRequest{Content: &second})
	third := "third"
	edit(UpdateMessageRequest{Content: &third, Topic: &topic})
	for _, c := range []struct {
		policy            string
		entries           int
		withContent, none bool
	}{{EditHistoryAll, 2, true, false}, {EditHistoryMoves, 1, false, false}, {EditHistoryNone, 0, false, true}} {
		p := c.policy
		if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{EditHistoryPolicy: &p}); err != nil {
			t.Fatal(err)
		}
		v, _, err := r.As(idHamlet).Message(bg, id, ViewOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.none {
			if v.EditHistory != nil {
				t.Errorf("%s: edit_history %+v, want none", p, v.EditHistory)
			}
			continue
		}
		if len(v.EditHistory) != c.entries {
			t.Fatalf("%s: %d entries %+v, want %d", p, len(v.EditHistory), v.EditHistory, c.entries)
		}
		newest := v.EditHistory[0]
		if newest.PrevTopic == nil || *newest.PrevTopic != "old" {
			t.Errorf("%s: newest entry %+v lacks the move", p, newest)
		}
		if (newest.PrevContent != nil) != c.withContent || (newest.PrevRenderedContent != nil) != c.withContent {
			t.Errorf("%s: newest entry content fields %+v, want shown %v", p, newest, c.withContent)
		}
	}
}
