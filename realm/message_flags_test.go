package realm

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/store"
)

// flagState is a user's copies and their flags, for checking that a
// refused request changed nothing.
func flagState(r *Realm, userID int) map[int64]message.Flags {
	out := map[int64]message.Flags{}
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.messages.store.Copies(userID, 0, func(c store.Copy) bool {
		out[c.Message.ID] = c.Flags
		return true
	})
	return out
}

// unreadIDs lists the user's unread index.
func unreadIDs(r *Realm, userID int) []int64 {
	var ids []int64
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.messages.store.Unread(userID).Up(0, func(m *message.Message) bool { ids = append(ids, m.ID); return true })
	return ids
}

// send posts a channel message as userID and returns its ID.
func send(t *testing.T, r *Realm, userID int, channel, topicName, content string) int64 {
	t.Helper()
	res, err := r.As(userID).SendChannelMessage(bg, channel, topicName, content)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// flagEvents returns the update_message_flags events pending in q as JSON
// objects.
func flagEvents(t *testing.T, r *Realm, userID int, q *Queue) []map[string]any {
	t.Helper()
	return eventsOfType(t, r, userID, q, "update_message_flags")
}

func jsonIDs(v ...int64) []any {
	out := make([]any, len(v))
	for i, id := range v {
		out[i] = float64(id)
	}
	return out
}

func TestStarAndUnstarHeldMessages(t *testing.T) {
	r, _ := newTestRealm(t)
	m1 := send(t, r, idHamlet, "Denmark", "castle", "one")
	m2 := send(t, r, idHamlet, "Denmark", "castle", "two")
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"update_message_flags"}})
	res, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{m2, m1, m2}, Op: "add", Flag: "starred"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(FlagsResult{Messages: []int64{m2, m1, m2}}, res); diff != "" {
		t.Fatalf("the answer echoes the IDs as sent (-want +got):\n%s", diff)
	}
	if f := flagsOf(t, r, idOthello, m1); f != message.Starred {
		t.Fatalf("flags %v, want starred (and still unread)", f.Names())
	}
	if got := unreadIDs(r, idOthello); !cmp.Equal(got, []int64{m1, m2}) {
		t.Fatalf("starring keeps the messages unread: %v", got)
	}
	// Zulip lists changed messages in request order, repeats included.
	want := []map[string]any{{"id": float64(0), "type": "update_message_flags", "op": "add", "operation": "add",
		"flag": "starred", "messages": jsonIDs(m2, m1, m2), "all": false}}
	if diff := cmp.Diff(want, flagEvents(t, r, idOthello, q)); diff != "" {
		t.Fatalf("event (-want +got):\n%s", diff)
	}
	// Starring again changes nothing: the event lists no message.
	if _, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{m1}, Op: "add", Flag: "starred"}); err != nil {
		t.Fatal(err)
	}
	evs := flagEvents(t, r, idOthello, q)
	if len(evs) != 2 || len(evs[1]["messages"].([]any)) != 0 {
		t.Fatalf("a no-op still sends an event listing nothing: %v", evs)
	}
	if _, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{m1, 999}, Op: "remove", Flag: "starred"}); err != nil {
		t.Fatalf("removing a flag from a message without a copy is a no-op: %v", err)
	}
	if f := flagsOf(t, r, idOthello, m1); f != 0 {
		t.Fatalf("flags %v after unstarring", f.Names())
	}
	if r.messages.store.HasCopy(idOthello, 999) {
		t.Fatal("unknown message got a copy")
	}
	// collapsed is editable too; the register's starred_messages follows.
	if _, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{m2}, Op: "add", Flag: "collapsed"}); err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idOthello, m2); f != message.Starred|message.Collapsed {
		t.Fatalf("flags %v", f.Names())
	}
	state, err := r.As(idOthello).Register(bg, RegisterRequest{FetchEventTypes: []string{"starred_messages"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := state.StarredMessagesState.StarredMessages; !cmp.Equal(got, []int64{m2}) {
		t.Fatalf("starred_messages %v", got)
	}
}

func TestMarkReadAndUnread(t *testing.T) {
	r, _ := newTestRealm(t)
	m1 := send(t, r, idHamlet, "Denmark", "castle", "hi @**Othello, the Moor of Venice**")
	m2 := send(t, r, idHamlet, "Denmark", "moat", "@**all** look")
	dm, err := r.As(idHamlet).SendDirectMessage(bg, []int{idOthello, idIago}, "group")
	if err != nil {
		t.Fatal(err)
	}
	self, err := r.As(idOthello).SendDirectMessage(bg, []int{idOthello}, "note to self")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.As(idOthello).SetUserTopic(bg, UserTopicRequest{ChannelID: 2, Topic: "moat", Policy: PolicyMuted}); err != nil {
		t.Fatal(err)
	}
	all := []int64{m1, m2, dm.ID, self.ID}
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"update_message_flags"}})
	if _, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: all, Op: "add", Flag: "read"}); err != nil {
		t.Fatal(err)
	}
	if got := unreadIDs(r, idOthello); len(got) != 0 {
		t.Fatalf("still unread: %v", got)
	}
	res, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: all, Op: "remove", Flag: "read"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IgnoredBecauseNotSubscribedChannels == nil || len(*res.IgnoredBecauseNotSubscribedChannels) != 0 {
		t.Fatalf("marking unread reports the skipped channels, here none: %+v", res)
	}
	if got := unreadIDs(r, idOthello); !cmp.Equal(got, all) {
		t.Fatalf("unread %v, want %v", got, all)
	}
	evs := flagEvents(t, r, idOthello, q)
	if len(evs) != 2 {
		t.Fatalf("events %v", evs)
	}
	if evs[0]["op"] != "add" || evs[0]["flag"] != "read" || evs[0]["message_details"] != nil {
		t.Fatalf("add event %v", evs[0])
	}
	key := func(id int64) string { return fmt.Sprint(id) }
	wantDetails := map[string]any{
		key(m1):      map[string]any{"type": "stream", "stream_id": float64(2), "topic": "castle", "unmuted_stream_msg": true, "mentioned": true},
		key(m2):      map[string]any{"type": "stream", "stream_id": float64(2), "topic": "moat", "unmuted_stream_msg": false},
		key(dm.ID):   map[string]any{"type": "private", "user_ids": []any{float64(idHamlet), float64(idIago)}},
		key(self.ID): map[string]any{"type": "private", "user_ids": []any{}},
	}
	if diff := cmp.Diff(wantDetails, evs[1]["message_details"]); diff != "" {
		t.Fatalf("message_details: a wildcard mention in a muted topic is no mention (-want +got):\n%s", diff)
	}
	if evs[1]["op"] != "remove" || evs[1]["operation"] != "remove" || evs[1]["all"] != false || len(evs[1]["messages"].([]any)) != 4 {
		t.Fatalf("remove event %v", evs[1])
	}
	// unread_msgs follows the flags.
	state, err := r.As(idOthello).Register(bg, RegisterRequest{FetchEventTypes: []string{"message", "update_message_flags"}})
	if err != nil {
		t.Fatal(err)
	}
	if u := state.UnreadState.UnreadMsgs; len(u.Streams) != 2 || len(u.Huddles) != 1 || len(u.PMs) != 1 || !slices.Contains(u.Mentions, m1) {
		t.Fatalf("unread_msgs %+v", u)
	}
}

func TestMarkUnreadSkipsUnsubscribedChannels(t *testing.T) {
	r, _ := newTestRealm(t)
	inDenmark := send(t, r, idHamlet, "Denmark", "castle", "public history")
	inVerona := send(t, r, idHamlet, "Verona", "walls", "cordelia receives this")
	cordelia := r.As(idCordelia)
	// Cordelia is not subscribed to Denmark: starring its message creates
	// a historical copy, read.
	if _, err := cordelia.UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{inDenmark}, Op: "add", Flag: "starred"}); err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idCordelia, inDenmark); f != message.Read|message.Starred|message.Historical {
		t.Fatalf("historical copy flags %v", f.Names())
	}
	if _, err := cordelia.UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{inVerona}, Op: "add", Flag: "read"}); err != nil {
		t.Fatal(err)
	}
	q := mustQueue(t, r, idCordelia, QueueOptions{EventTypes: []string{"update_message_flags"}})
	res, err := cordelia.UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{inDenmark, inVerona, 424242}, Op: "remove", Flag: "read"})
	wantCode(t, err, CodeBadRequest, "Invalid message(s)")
	if f := flagsOf(t, r, idCordelia, inVerona); f&message.Read == 0 {
		t.Fatal("a refused request changed flags")
	}
	res, err = cordelia.UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{inDenmark, inVerona}, Op: "remove", Flag: "read"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IgnoredBecauseNotSubscribedChannels == nil || !cmp.Equal(*res.IgnoredBecauseNotSubscribedChannels, []int{2}) {
		t.Fatalf("ignored channels %+v", res.IgnoredBecauseNotSubscribedChannels)
	}
	if f := flagsOf(t, r, idCordelia, inDenmark); f&message.Read == 0 {
		t.Fatal("a message of an unsubscribed channel was marked unread")
	}
	if got := unreadIDs(r, idCordelia); !cmp.Equal(got, []int64{inVerona}) {
		t.Fatalf("unread %v", got)
	}
	evs := flagEvents(t, r, idCordelia, q)
	if len(evs) != 1 || !cmp.Equal(evs[0]["messages"], jsonIDs(inVerona)) {
		t.Fatalf("the event lists the changed message only: %v", evs)
	}
	// Below feature level 355 the answer has no ignored list.
	old, _ := newTestRealm(t, WithFeatureLevel(354, "test"))
	res, err = old.As(idCordelia).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{}, Op: "remove", Flag: "read"})
	if err != nil || res.IgnoredBecauseNotSubscribedChannels != nil || res.Messages == nil {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestMarkUnreadCreatesUnreadHistoricalCopy(t *testing.T) {
	r, _ := newTestRealm(t)
	old := send(t, r, idHamlet, "Scotland", "glen", "before cordelia joined")
	r.mu.Lock()
	r.subscribe(3, idCordelia)
	r.mu.Unlock()
	if _, err := r.As(idCordelia).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{old}, Op: "remove", Flag: "read"}); err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idCordelia, old); f != message.Historical {
		t.Fatalf("flags %v, want historical only", f.Names())
	}
	if got := unreadIDs(r, idCordelia); !cmp.Equal(got, []int64{old}) {
		t.Fatalf("unread %v", got)
	}
	// Adding read to history without a copy creates nothing.
	other := send(t, r, idHamlet, "Denmark", "x", "y")
	if _, err := r.As(idCordelia).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{other, 777}, Op: "add", Flag: "read"}); err != nil {
		t.Fatal(err)
	}
	if r.messages.store.HasCopy(idCordelia, other) {
		t.Fatal("marking channel history read created a copy")
	}
}

func TestFlagRequestsRefusedChangeNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	m := send(t, r, idHamlet, "Denmark", "castle", "hello")
	private := send(t, r, idHamlet, "core team", "secret", "members only")
	dm, err := r.As(idHamlet).SendDirectMessage(bg, []int{idIago}, "between us")
	if err != nil {
		t.Fatal(err)
	}
	q := mustQueue(t, r, idOthello, QueueOptions{})
	before := flagState(r, idOthello)
	for _, c := range []struct {
		req FlagsRequest
		msg string
	}{
		{FlagsRequest{Messages: []int64{m}, Op: "add", Flag: "bogus"}, "Invalid flag: 'bogus'"},
		{FlagsRequest{Messages: []int64{m}, Op: "toggle", Flag: "bogus"}, "Invalid flag: 'bogus'"}, // the flag is checked first
		{FlagsRequest{Messages: []int64{m}, Op: "add", Flag: "is_private"}, "Invalid flag: 'is_private'"},
		{FlagsRequest{Messages: []int64{m}, Op: "add", Flag: "mentioned"}, "Flag not editable: 'mentioned'"},
		{FlagsRequest{Messages: []int64{m}, Op: "add", Flag: "wildcard_mentioned"}, "Flag not editable: 'wildcard_mentioned'"},
		{FlagsRequest{Messages: []int64{m}, Op: "remove", Flag: "historical"}, "Flag not editable: 'historical'"},
		{FlagsRequest{Messages: []int64{m}, Op: "add", Flag: "has_alert_word"}, "Flag not editable: 'has_alert_word'"},
		{FlagsRequest{Messages: []int64{m}, Op: "toggle", Flag: "starred"}, "Invalid message flag operation: 'toggle'"},
		{FlagsRequest{Messages: []int64{m, private}, Op: "add", Flag: "starred"}, "Invalid message(s)"},
		{FlagsRequest{Messages: []int64{m, dm.ID}, Op: "add", Flag: "starred"}, "Invalid message(s)"},
		{FlagsRequest{Messages: []int64{m, 12345}, Op: "add", Flag: "collapsed"}, "Invalid message(s)"},
		{FlagsRequest{Messages: []int64{dm.ID}, Op: "remove", Flag: "read"}, "Invalid message(s)"},
	} {
		_, err := r.As(idOthello).UpdateMessageFlags(bg, c.req)
		if err == nil {
			t.Fatalf("%+v: accepted", c.req)
		}
		if e := wantCode(t, err, CodeBadRequest, c.msg); e.Msg != c.msg || e.Status != 400 {
			t.Fatalf("%+v: %q (%d), want exactly %q", c.req, e.Msg, e.Status, c.msg)
		}
	}
	if diff := cmp.Diff(before, flagState(r, idOthello)); diff != "" {
		t.Fatalf("refused requests changed flags:\n%s", diff)
	}
	if evs := pending(t, r, idOthello, q, -1); len(evs) != 0 {
		t.Fatalf("refused requests sent events: %v", evs)
	}
	// Marking unread skips channels the caller is not subscribed to before
	// any access check, as Zulip does: a private channel's message is
	// skipped, not refused.
	res, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{private}, Op: "remove", Flag: "read"})
	if err != nil || !cmp.Equal(*res.IgnoredBecauseNotSubscribedChannels, []int{6}) || r.messages.store.HasCopy(idOthello, private) {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestUnreadDetailsNameTheEmptyTopicPerClient(t *testing.T) {
	r, _ := newTestRealm(t)
	m := send(t, r, idHamlet, "Denmark", "", "empty topic")
	if _, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{m}, Op: "add", Flag: "read"}); err != nil {
		t.Fatal(err)
	}
	modern := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"update_message_flags"}, Capabilities: ClientCapabilities{EmptyTopicName: true}})
	legacy := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"update_message_flags"}})
	if _, err := r.As(idOthello).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{m}, Op: "remove", Flag: "read"}); err != nil {
		t.Fatal(err)
	}
	topicOf := func(q *Queue) any {
		evs := flagEvents(t, r, idOthello, q)
		if len(evs) != 1 {
			t.Fatalf("events %v", evs)
		}
		return evs[0]["message_details"].(map[string]any)[fmt.Sprint(m)].(map[string]any)["topic"]
	}
	if got := topicOf(modern); got != "" {
		t.Fatalf("empty_topic_name client sees %q", got)
	}
	if got := topicOf(legacy); got != "general chat" {
		t.Fatalf("other clients see %q, want the display name", got)
	}
}

func TestFlagsForNarrow(t *testing.T) {
	r, _ := newTestRealm(t)
	var castle []int64
	for i := 0; i < 5; i++ {
		castle = append(castle, send(t, r, idHamlet, "Denmark", "castle", fmt.Sprint("c", i)))
		send(t, r, idHamlet, "Denmark", "moat", fmt.Sprint("m", i))
	}
	narrow := []message.Term{{Operator: "channel", Operand: "Denmark"}, {Operator: "topic", Operand: "CASTLE"}}
	othello := r.As(idOthello)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"update_message_flags"}})
	res, err := othello.UpdateMessageFlagsForNarrow(bg, FlagsNarrowRequest{Anchor: Anchor{ID: castle[1]}, IncludeAnchor: true,
		NumBefore: 0, NumAfter: 2, Narrow: narrow, Op: "add", Flag: "read"})
	if err != nil {
		t.Fatal(err)
	}
	want := FlagsNarrowResult{ProcessedCount: 3, UpdatedCount: 3, FirstProcessedID: &castle[1], LastProcessedID: &castle[3]}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if evs := flagEvents(t, r, idOthello, q); len(evs) != 1 || !cmp.Equal(evs[0]["messages"], jsonIDs(castle[1:4]...)) {
		t.Fatalf("events %v", evs)
	}
	// first_unread starts at the oldest unread message of the narrow.
	res, err = othello.UpdateMessageFlagsForNarrow(bg, FlagsNarrowRequest{Anchor: Anchor{FirstUnread: true}, IncludeAnchor: true,
		NumBefore: 10, NumAfter: 10, Narrow: narrow, Op: "add", Flag: "read"})
	if err != nil {
		t.Fatal(err)
	}
	want = FlagsNarrowResult{ProcessedCount: 5, UpdatedCount: 2, FirstProcessedID: &castle[0], LastProcessedID: &castle[4],
		FoundOldest: true, FoundNewest: true}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Fatalf("first_unread (-want +got):\n%s", diff)
	}
	for _, id := range castle {
		if flagsOf(t, r, idOthello, id)&message.Read == 0 {
			t.Fatalf("message %d still unread", id)
		}
	}
	if got := unreadIDs(r, idOthello); len(got) != 5 {
		t.Fatalf("moat messages must stay unread: %v", got)
	}
	// An empty range: null IDs.
	res, err = othello.UpdateMessageFlagsForNarrow(bg, FlagsNarrowRequest{Anchor: Anchor{ID: AnchorNewest}, IncludeAnchor: true,
		NumBefore: 0, NumAfter: 5, Narrow: narrow, Op: "add", Flag: "starred"})
	if err != nil || res.ProcessedCount != 0 || res.FirstProcessedID != nil || res.LastProcessedID != nil || !res.FoundNewest || res.FoundOldest {
		t.Fatalf("%+v %v", res, err)
	}
	// Channel history Cordelia never received: starring makes historical copies.
	res, err = r.As(idCordelia).UpdateMessageFlagsForNarrow(bg, FlagsNarrowRequest{Anchor: Anchor{ID: AnchorOldest}, IncludeAnchor: true,
		NumAfter: 3, Narrow: narrow[:1], Op: "add", Flag: "starred"})
	if err != nil || res.ProcessedCount != 3 || res.UpdatedCount != 3 || !res.FoundOldest || res.FoundNewest {
		t.Fatalf("%+v %v", res, err)
	}
	if f := flagsOf(t, r, idCordelia, castle[0]); f != message.Read|message.Starred|message.Historical {
		t.Fatalf("flags %v", f.Names())
	}
}

func TestFlagsForNarrowRefusedChangeNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	send(t, r, idHamlet, "Denmark", "castle", "x")
	q := mustQueue(t, r, idOthello, QueueOptions{})
	before := flagState(r, idOthello)
	base := FlagsNarrowRequest{Anchor: Anchor{ID: AnchorOldest}, IncludeAnchor: true, NumAfter: 10, Op: "add", Flag: "read"}
	for _, c := range []struct {
		edit func(*FlagsNarrowRequest)
		code Code
		msg  string
	}{
		{func(req *FlagsNarrowRequest) { req.IncludeAnchor, req.NumBefore = false, 3 }, CodeBadRequest, "The anchor can only be excluded at an end of the range"},
		{func(req *FlagsNarrowRequest) { req.Narrow = []message.Term{{Operator: "channel", Operand: "Atlantis"}} }, CodeBadNarrow, "Invalid narrow operator: unknown stream Atlantis"},
		{func(req *FlagsNarrowRequest) { req.Flag = "mentioned" }, CodeBadRequest, "Flag not editable: 'mentioned'"},
		{func(req *FlagsNarrowRequest) { req.Op = "set" }, CodeBadRequest, "Invalid message flag operation: 'set'"},
		{func(req *FlagsNarrowRequest) { req.NumAfter = -1 }, CodeBadRequest, "num_before and num_after must not be negative"},
	} {
		req := base
		c.edit(&req)
		_, err := r.As(idOthello).UpdateMessageFlagsForNarrow(bg, req)
		if e := wantCode(t, err, c.code, c.msg); e.Msg != c.msg {
			t.Fatalf("%q, want exactly %q", e.Msg, c.msg)
		}
	}
	if diff := cmp.Diff(before, flagState(r, idOthello)); diff != "" {
		t.Fatalf("refused requests changed flags:\n%s", diff)
	}
	if evs := pending(t, r, idOthello, q, -1); len(evs) != 0 {
		t.Fatalf("refused requests sent events: %v", evs)
	}
}

// The range is clamped to 5000 messages, as Zulip clamps it: the side
// before the anchor keeps at least 2500 of what it asked for.
func TestFlagsForNarrowClampsTheRange(t *testing.T) {
	r, _ := newTestRealm(t)
	fillChannel(r, "bulk", 12_000, 1)
	narrow := []message.Term{{Operator: "channel", Operand: "bulk"}}
	var first int64
	r.mu.RLock()
	chID := r.channels.byName[channelKey("bulk")].ID
	r.messages.store.Channel(chID).Up(0, func(m *message.Message) bool { first = m.ID; return false })
	r.mu.RUnlock()
	mid := Anchor{ID: first + 6000}
	for _, c := range []struct {
		before, after int
		want          int
	}{
		{4000, 4000, 5001}, // 2500 + anchor + 2500
		{6000, 0, 5001},    // 5000 before + anchor
		{0, 6000, 5001},
		{1000, 7000, 5001}, // 1000 + anchor + 4000
		{3000, 100, 3101},  // under the bound: as asked
	} {
		res, err := r.As(idIago).UpdateMessageFlagsForNarrow(bg, FlagsNarrowRequest{Anchor: mid, IncludeAnchor: true,
			NumBefore: c.before, NumAfter: c.after, Narrow: narrow, Op: "remove", Flag: "collapsed"})
		if err != nil {
			t.Fatal(err)
		}
		if res.ProcessedCount != c.want || res.UpdatedCount != 0 {
			t.Errorf("before %d after %d: processed %d updated %d, want %d and 0", c.before, c.after, res.ProcessedCount, res.UpdatedCount, c.want)
		}
	}
}

func TestMarkTopicAsRead(t *testing.T) {
	r, _ := newTestRealm(t)
	a := send(t, r, idHamlet, "Denmark", "Castle", "a")
	b := send(t, r, idHamlet, "Denmark", "castle", "b")
	moat := send(t, r, idHamlet, "Denmark", "moat", "m")
	scot := send(t, r, idHamlet, "Scotland", "castle", "other channel")
	othello := r.As(idOthello)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"update_message_flags"}})
	if err := othello.MarkTopicAsRead(bg, 2, "CASTLE"); err != nil {
		t.Fatal(err)
	}
	if got := unreadIDs(r, idOthello); !cmp.Equal(got, []int64{moat, scot}) {
		t.Fatalf("unread %v", got)
	}
	want := []map[string]any{{"id": float64(0), "type": "update_message_flags", "op": "add", "operation": "add",
		"flag": "read", "messages": jsonIDs(a, b), "all": false}}
	if diff := cmp.Diff(want, flagEvents(t, r, idOthello, q)); diff != "" {
		t.Fatalf("event (-want +got):\n%s", diff)
	}
	// Nothing left to mark: no event.
	if err := othello.MarkTopicAsRead(bg, 2, "castle"); err != nil {
		t.Fatal(err)
	}
	if evs := flagEvents(t, r, idOthello, q); len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	state, err := othello.Register(bg, RegisterRequest{FetchEventTypes: []string{"message", "update_message_flags"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := state.UnreadState.UnreadMsgs.Streams; len(s) != 2 || s[0].Topic != "moat" || s[1].StreamID != 3 {
		t.Fatalf("unread_msgs streams %+v", s)
	}
	// The empty topic, named by its display name.
	empty := send(t, r, idHamlet, "Denmark", "", "e")
	if err := othello.MarkTopicAsRead(bg, 2, "general chat"); err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idOthello, empty); f&message.Read == 0 {
		t.Fatal("empty topic not marked")
	}
	if got := unreadIDs(r, idOthello); !cmp.Equal(got, []int64{moat, scot}) {
		t.Fatalf("marking the empty topic touched others: %v", got)
	}
	// Mark a channel, then everything.
	if err := othello.MarkChannelAsRead(bg, 2); err != nil {
		t.Fatal(err)
	}
	if got := unreadIDs(r, idOthello); !cmp.Equal(got, []int64{scot}) {
		t.Fatalf("unread after marking Denmark %v", got)
	}
	ans, err := othello.MarkAllAsRead(bg)
	if err != nil || !ans.Complete {
		t.Fatalf("%+v %v", ans, err)
	}
	if got := unreadIDs(r, idOthello); len(got) != 0 {
		t.Fatalf("unread after mark all %v", got)
	}
	evs := flagEvents(t, r, idOthello, q)
	last := evs[len(evs)-1]
	if last["all"] != true || len(last["messages"].([]any)) != 0 || last["flag"] != "read" {
		t.Fatalf("mark-all event %v", last)
	}
	if !cmp.Equal(evs[len(evs)-2]["messages"], jsonIDs(moat)) {
		t.Fatalf("mark-channel event %v", evs[len(evs)-2])
	}
}

func TestMarkAsReadRefusedChangeNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	send(t, r, idHamlet, "Denmark", "castle", "a")
	send(t, r, idHamlet, "core team", "secret", "b")
	send(t, r, idHamlet, "Verona", "walls", "c")
	q := mustQueue(t, r, idCordelia, QueueOptions{})
	before, unread := flagState(r, idCordelia), unreadIDs(r, idCordelia)
	for _, c := range []struct {
		call func() error
		msg  string
	}{
		{func() error { return r.As(idCordelia).MarkTopicAsRead(bg, 99, "castle") }, "Invalid channel ID"},
		{func() error { return r.As(idCordelia).MarkTopicAsRead(bg, 6, "secret") }, "Invalid channel ID"},
		{func() error { return r.As(idCordelia).MarkChannelAsRead(bg, 6) }, "Invalid channel ID"},
		// Denmark is public, but Cordelia holds none of its messages.
		{func() error { return r.As(idCordelia).MarkTopicAsRead(bg, 2, "castle") }, "No such topic 'castle'"},
		{func() error { return r.As(idCordelia).MarkTopicAsRead(bg, 1, "moat") }, "No such topic 'moat'"},
		{func() error { return r.As(idCordelia).MarkTopicAsRead(bg, 1, "general chat") }, "No such topic ''"},
	} {
		e := wantCode(t, c.call(), CodeBadRequest, c.msg)
		if e.Msg != c.msg {
			t.Fatalf("%q, want exactly %q", e.Msg, c.msg)
		}
	}
	if diff := cmp.Diff(before, flagState(r, idCordelia)); diff != "" || !cmp.Equal(unread, unreadIDs(r, idCordelia)) {
		t.Fatalf("refused requests changed flags:\n%s", diff)
	}
	if evs := pending(t, r, idCordelia, q, -1); len(evs) != 0 {
		t.Fatalf("refused requests sent events: %v", evs)
	}
	// A public channel the caller is not in is accessible: marking it
	// succeeds with nothing to do; "" is no named topic, so no check.
	if err := r.As(idCordelia).MarkChannelAsRead(bg, 2); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idCordelia).MarkTopicAsRead(bg, 2, ""); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(before, flagState(r, idCordelia)) {
		t.Fatal("no-op marks changed flags")
	}
}
