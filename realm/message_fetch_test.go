package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/minizulip/minizulip/message"
)

func ids(res FetchResult) []int64 {
	out := []int64{}
	for _, m := range res.Messages {
		out = append(out, m.ID)
	}
	return out
}

func eqIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func narrow(t *testing.T, raw string) []message.Term {
	t.Helper()
	terms, err := message.ParseNarrow(raw)
	if err != nil {
		t.Fatal(err)
	}
	return terms
}

// seedFetch sends ten channel messages in two topics and returns their IDs.
func seedFetch(t *testing.T, r *Realm) []int64 {
	var out []int64
	for i := 0; i < 10; i++ {
		topicName := "alpha"
		if i%2 == 1 {
			topicName = "beta"
		}
		res, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", topicName, "m")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res.ID)
	}
	return out
}

func TestFetchAnchors(t *testing.T) {
	r, _ := newTestRealm(t)
	all := seedFetch(t, r)
	a := r.As(idIago)
	cases := []struct {
		name                  string
		req                   FetchRequest
		want                  []int64
		anchor                int64
		foundAnchor, old, new bool
	}{
		{"newest", FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 3, NumAfter: 5, IncludeAnchor: true}, all[7:], AnchorNewest, false, false, true},
		{"oldest", FetchRequest{Anchor: Anchor{ID: AnchorOldest}, NumBefore: 5, NumAfter: 3, IncludeAnchor: true}, all[:3], 0, false, true, false},
		{"id middle", FetchRequest{Anchor: Anchor{ID: all[4]}, NumBefore: 2, NumAfter: 2, IncludeAnchor: true}, all[2:7], all[4], true, false, false},
		{"id edges", FetchRequest{Anchor: Anchor{ID: all[1]}, NumBefore: 5, NumAfter: 20, IncludeAnchor: true}, all, all[1], true, true, true},
		{"exclude anchor", FetchRequest{Anchor: Anchor{ID: all[4]}, NumBefore: 0, NumAfter: 2, IncludeAnchor: false}, all[5:7], all[4], true, false, false},
		{"missing anchor id", FetchRequest{Anchor: Anchor{ID: 100}, NumBefore: 2, NumAfter: 2, IncludeAnchor: true}, all[8:], 100, false, false, true},
		{"zero before", FetchRequest{Anchor: Anchor{ID: all[0]}, NumBefore: 0, NumAfter: 1, IncludeAnchor: true}, all[:2], all[0], true, false, false},
	}
	for _, c := range cases {
		res, err := a.Messages(bg, c.req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !eqIDs(ids(res), c.want) || res.Anchor != c.anchor || res.FoundAnchor != c.foundAnchor ||
			res.FoundOldest != c.old || res.FoundNewest != c.new || res.HistoryLimited {
			t.Errorf("%s: got ids %v anchor %d found %v/%v/%v; want %v anchor %d found %v/%v/%v", c.name,
				ids(res), res.Anchor, res.FoundAnchor, res.FoundOldest, res.FoundNewest,
				c.want, c.anchor, c.foundAnchor, c.old, c.new)
		}
	}
}

func TestFetchFirstUnreadAndIsUnread(t *testing.T) {
	r, _ := newTestRealm(t)
	all := seedFetch(t, r)
	r.mu.Lock()
	for _, id := range all[:4] {
		r.messages.store.SetFlags(idIago, id, message.Read)
	}
	r.mu.Unlock()
	res, err := r.As(idIago).Messages(bg, FetchRequest{Anchor: Anchor{FirstUnread: true}, NumBefore: 1, NumAfter: 1, IncludeAnchor: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Anchor != all[4] || !eqIDs(ids(res), all[3:6]) || !res.FoundAnchor {
		t.Fatalf("first_unread: anchor %d ids %v", res.Anchor, ids(res))
	}
	res, _ = r.As(idIago).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorOldest}, NumAfter: 100, IncludeAnchor: true, Narrow: narrow(t, `[{"operator":"is","operand":"unread"}]`)})
	if !eqIDs(ids(res), all[4:]) {
		t.Fatalf("is:unread %v", ids(res))
	}
	res, _ = r.As(idIago).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorOldest}, NumAfter: 100, IncludeAnchor: true, Narrow: narrow(t, `[{"operator":"is","operand":"unread","negated":true}]`)})
	if !eqIDs(ids(res), all[:4]) {
		t.Fatalf("-is:unread %v", ids(res))
	}
	// No unread messages: first_unread means newest.
	res, _ = r.As(idCordelia).Messages(bg, FetchRequest{Anchor: Anchor{FirstUnread: true}, NumBefore: 2, IncludeAnchor: true})
	if res.Anchor != AnchorNewest {
		t.Fatalf("cordelia (no unreads) anchor %d", res.Anchor)
	}
}

func TestFetchNarrows(t *testing.T) {
	r, _ := newTestRealm(t)
	all := seedFetch(t, r)
	dm, _ := r.As(idHamlet).SendDirectMessage(bg, []int{idIago}, "psst")
	group, _ := r.As(idHamlet).SendDirectMessage(bg, []int{idIago, idOthello}, "all three")
	iagoMsg, _ := r.As(idIago).SendChannelMessage(bg, "Denmark", "ALPHA", "from iago")
	get := func(actor int, raw string) []int64 {
		t.Helper()
		res, err := r.As(actor).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 100, IncludeAnchor: true, Narrow: narrow(t, raw)})
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return ids(res)
	}
	alpha := []int64{all[0], all[2], all[4], all[6], all[8], iagoMsg.ID}
	checks := []struct {
		actor int
		raw   string
		want  []int64
	}{
		{idIago, `[{"operator":"channel","operand":"denmark"},{"operator":"topic","operand":"Alpha"}]`, alpha},
		{idIago, `[["stream","Denmark"],["topic","beta"]]`, []int64{all[1], all[3], all[5], all[7], all[9]}},
		{idIago, `[{"operator":"channel","operand":2},{"operator":"sender","operand":"iago@zulip.com"}]`, []int64{iagoMsg.ID}},
		{idIago, `[{"operator":"dm","operand":[10]}]`, []int64{dm.ID}},
		{idIago, `[{"operator":"dm","operand":"user10@zulipdev.com,othello@zulip.com"}]`, []int64{group.ID}},
		{idIago, `[{"operator":"is","operand":"dm"}]`, []int64{dm.ID, group.ID}},
		{idIago, `[{"operator":"dm-including","operand":12}]`, []int64{group.ID}},
		{idIago, `[{"operator":"sender","operand":10},{"operator":"channel","operand":"Denmark","negated":true}]`, []int64{dm.ID, group.ID}},
		{idIago, `[{"operator":"topic","operand":"beta","negated":true},{"operator":"channel","operand":"Denmark"}]`, alpha},
		// Othello is in Denmark too; Cordelia is not, but Denmark is public:
		// with a channel narrow she reads its whole history.
		{idCordelia, `[{"operator":"channel","operand":"Denmark"},{"operator":"topic","operand":"beta"}]`, []int64{all[1], all[3], all[5], all[7], all[9]}},
		{idCordelia, `[]`, []int64{}},
		{idOthello, `[{"operator":"dm","operand":[10]}]`, []int64{}},
	}
	for _, c := range checks {
		if got := get(c.actor, c.raw); !eqIDs(got, c.want) {
			t.Errorf("user %d narrow %s: got %v want %v", c.actor, c.raw, got, c.want)
		}
	}
	res, _ := r.As(idCordelia).Messages(bg, FetchRequest{Anchor: Anchor{ID: all[1]}, NumAfter: 0, IncludeAnchor: true, Narrow: narrow(t, `[["channel","Denmark"]]`)})
	if f := res.Messages[0].Flags; len(f) != 2 || f[0] != "read" || f[1] != "historical" {
		t.Fatalf("historical flags %v", f)
	}
	// Guests do not read history of channels they are not in.
	if got := get(idPolonius, `[["channel","Denmark"]]`); len(got) != 0 {
		t.Fatalf("guest read Denmark history: %v", got)
	}
}

func TestFetchErrors(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	_, err := a.Messages(bg, FetchRequest{Anchor: Anchor{ID: 1}, NumBefore: 4000, NumAfter: 1001, IncludeAnchor: true})
	wantCode(t, err, CodeBadRequest, "Too many messages requested (maximum 5000).")
	_, err = a.Messages(bg, FetchRequest{Anchor: Anchor{ID: 1}, NumBefore: 1, NumAfter: 1})
	wantCode(t, err, CodeBadRequest, "The anchor can only be excluded at an end of the range")
	for raw, desc := range map[string]string{
		`[["stream","Atlantis"]]`:                 "unknown stream Atlantis",
		`[["sender","ghost@zulip.com"]]`:          "unknown user ghost@zulip.com",
		`[["dm","ghost@zulip.com"]]`:              "unknown user in ghost@zulip.com",
		`[["is","sleepy"]]`:                       "unknown 'is' operand sleepy",
		`[{"operator":"teleport","operand":"x"}]`: "unknown operator teleport",
		`[{"operator":"id","operand":"abc"}]`:     "Invalid message ID",
	} {
		_, err := a.Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1, IncludeAnchor: true, Narrow: narrow(t, raw)})
		re := wantCode(t, err, CodeBadNarrow, desc)
		if re.Extra["desc"] != desc {
			t.Errorf("%s: desc %v", raw, re.Extra["desc"])
		}
	}
	for in, want := range map[string]int64{"newest": AnchorNewest, "oldest": 0, "-5": 0, "42": 42, "99999999999999999999": AnchorNewest} {
		got, err := ParseAnchor(in)
		if err != nil || got.ID != want {
			t.Errorf("ParseAnchor(%q) = %v, %v", in, got, err)
		}
	}
	_, err = ParseAnchor("soon")
	wantCode(t, err, CodeBadRequest, "Invalid anchor")
}

// has: narrows answer from what rendering found, stored with the message:
// emoji images are not has:image, links to uploads are has:attachment.
func TestFetchHasNarrows(t *testing.T) {
	r, _ := newTestRealm(t)
	send := func(content string) int64 {
		t.Helper()
		res, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "facts", content)
		if err != nil {
			t.Fatal(err)
		}
		return res.ID
	}
	plain := send("no links here :green_tick:")
	link := send("see https://example.com/page")
	image := send("look https://example.com/cat.png")
	upload := send("[notes.txt](/user_uploads/2/ab/xyz/notes.txt)")
	_ = plain
	get := func(operand string) []int64 {
		t.Helper()
		res, err := r.As(idHamlet).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 100, IncludeAnchor: true,
			Narrow: narrow(t, `[{"operator":"has","operand":"`+operand+`"}]`)})
		if err != nil {
			t.Fatalf("has:%s: %v", operand, err)
		}
		return ids(res)
	}
	got := map[string][]int64{"link": get("link"), "image": get("image"), "attachment": get("attachment")}
	want := map[string][]int64{"link": {link, image, upload}, "image": {image}, "attachment": {upload}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("has: narrows (-want +got):\n%s", diff)
	}
	if _, err := r.As(idHamlet).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1,
		Narrow: narrow(t, `[{"operator":"has","operand":"video"}]`)}); err == nil {
		t.Fatal("an unknown has: operand was accepted")
	}
}

func TestMeMessageFact(t *testing.T) {
	r, _ := newTestRealm(t)
	for content, want := range map[string]bool{"/me waves": true, "/me waves\nand more": false, "/mean": false, "hi /me": false} {
		if _, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "me", content); err != nil {
			t.Fatal(err)
		}
		if m, _ := r.LastMessage(bg, idHamlet); m.IsMeMessage != want {
			t.Errorf("%q: is_me_message %v, want %v", content, m.IsMeMessage, want)
		}
	}
}

// TestFetchFirstUnreadSkipsMuted: first_unread passes over muted topics,
// and over muted channels (except their unmuted topics) unless the
// narrow names the channel, as Zulip's exclude_muting_conditions does.
func TestFetchFirstUnreadSkipsMuted(t *testing.T) {
	r, _ := newTestRealm(t)
	mutedTopic := send(t, r, idHamlet, "Denmark", "noise", "muted topic")
	inMutedChannel := send(t, r, idHamlet, "Scotland", "highlands", "muted channel")
	unmutedTopic := send(t, r, idHamlet, "Scotland", "lochs", "unmuted topic in a muted channel")
	plain := send(t, r, idHamlet, "Denmark", "castle", "plain")
	a := r.As(idOthello)
	if err := a.SetUserTopic(bg, UserTopicRequest{ChannelID: 2, Topic: "NOISE", Policy: PolicyMuted}); err != nil {
		t.Fatal(err)
	}
	if err := a.SetUserTopic(bg, UserTopicRequest{ChannelID: 3, Topic: "lochs", Policy: PolicyUnmuted}); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.channels.subs[3][idOthello].IsMuted = true
	r.mu.Unlock()
	anchor := func(raw string) int64 {
		t.Helper()
		req := FetchRequest{Anchor: Anchor{FirstUnread: true}, NumBefore: 0, NumAfter: 0, IncludeAnchor: true}
		if raw != "" {
			req.Narrow = narrow(t, raw)
		}
		res, err := a.Messages(bg, req)
		if err != nil {
			t.Fatal(err)
		}
		return res.Anchor
	}
	if got := anchor(""); got != unmutedTopic {
		t.Fatalf("all messages: anchor %d; want %d (muted topic %d and muted channel %d skipped)", got, unmutedTopic, mutedTopic, inMutedChannel)
	}
	if got := anchor(`[["stream","Scotland"]]`); got != inMutedChannel {
		t.Fatalf("narrow to the muted channel: anchor %d; want %d", got, inMutedChannel)
	}
	if got := anchor(`[["stream","Denmark"]]`); got != plain {
		t.Fatalf("narrow to Denmark: anchor %d; want %d (muted topic skipped)", got, plain)
	}
	if got := anchor(`[["stream","Denmark"],["topic","noise"]]`); got != AnchorNewest {
		t.Fatalf("narrow to the muted topic: anchor %d; want newest, the topic stays skipped", got)
	}
	if got := anchor(`[{"operator":"stream","operand":"Denmark","negated":true}]`); got != inMutedChannel {
		t.Fatalf("negated channel term: anchor %d; want %d (only that channel's muted topics skipped)", got, inMutedChannel)
	}
}
