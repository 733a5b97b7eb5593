package realm

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
)

// topicIDs lists the IDs of a topic's messages as a user fetches them.
func topicIDs(t *testing.T, r *Realm, userID int, channel, topicName string) []int64 {
	t.Helper()
	res, err := r.As(userID).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorOldest}, NumAfter: 100, IncludeAnchor: true,
		Narrow: []message.Term{{Operator: "channel", Operand: channel}, {Operator: "topic", Operand: topicName}}})
	if err != nil {
		t.Fatal(err)
	}
	return ids(res)
}

func TestMoveTopicPropagateModes(t *testing.T) {
	r, clock := newTestRealm(t)
	var sent []int64
	for i := 0; i < 4; i++ {
		sent = append(sent, send(t, r, idHamlet, "Denmark", "castle", fmt.Sprintf("m%d", i)))
	}
	q := mustQueue(t, r, idOthello, QueueOptions{})
	clock.Advance(time.Minute)
	// change_one: only the target.
	if err := edit(r, idOthello, UpdateMessageRequest{MessageID: sent[1], Topic: str("keep"), SendNotificationToNewThread: new(bool)}); err != nil {
		t.Fatal(err)
	}
	if got := topicIDs(t, r, idOthello, "Denmark", "keep"); !eqIDs(got, []int64{sent[1]}) {
		t.Fatalf("change_one moved %v", got)
	}
	// change_later: the target and what follows.
	if err := edit(r, idOthello, UpdateMessageRequest{MessageID: sent[2], Topic: str("later"), PropagateMode: ChangeLater, SendNotificationToNewThread: new(bool)}); err != nil {
		t.Fatal(err)
	}
	if got := topicIDs(t, r, idOthello, "Denmark", "later"); !eqIDs(got, []int64{sent[2], sent[3]}) {
		t.Fatalf("change_later moved %v", got)
	}
	if got := topicIDs(t, r, idOthello, "Denmark", "castle"); !eqIDs(got, []int64{sent[0]}) {
		t.Fatalf("castle keeps %v", got)
	}
	evs := eventsOfType(t, r, idOthello, q, "update_message")
	if len(evs) != 2 {
		t.Fatalf("%d update_message events", len(evs))
	}
	ev := evs[1]
	if ev["propagate_mode"] != "change_later" || ev["orig_subject"] != "castle" || ev["subject"] != "later" ||
		!cmp.Equal(ev["message_ids"], []any{float64(sent[2]), float64(sent[3])}) || ev["topic_links"] == nil || ev["content"] != nil {
		t.Fatalf("move event %v", ev)
	}
	m := getMsg(t, r, idOthello, sent[3])
	now := clock.Now().Unix()
	if m.LastMovedTS == nil || *m.LastMovedTS != now || m.LastEditTS != nil {
		t.Fatalf("moved message timestamps: moved %v edit %v", m.LastMovedTS, m.LastEditTS)
	}
	wantHistory := []EditHistoryEntry{{UserID: idOthello, Timestamp: now, PrevTopic: str("castle"), Topic: str("later")}}
	if diff := cmp.Diff(wantHistory, m.EditHistory); diff != "" {
		t.Fatalf("edit_history (-want +got):\n%s", diff)
	}
	// change_all: the whole topic, matched case-insensitively, into
	// a topic that already has messages.
	if err := edit(r, idOthello, UpdateMessageRequest{MessageID: sent[2], Topic: str("KEEP"), PropagateMode: ChangeAll, SendNotificationToNewThread: new(bool)}); err != nil {
		t.Fatal(err)
	}
	if got := topicIDs(t, r, idOthello, "Denmark", "keep"); !eqIDs(got, []int64{sent[1], sent[2], sent[3]}) {
		t.Fatalf("change_all merged %v", got)
	}
	if m := getMsg(t, r, idOthello, sent[1]); m.Subject != "keep" {
		t.Fatalf("untouched message's topic %q", m.Subject)
	}
	if m := getMsg(t, r, idOthello, sent[3]); m.Subject != "KEEP" || len(m.EditHistory) != 2 {
		t.Fatalf("moved twice: %q %+v", m.Subject, m.EditHistory)
	}
}

func TestMoveNotices(t *testing.T) {
	r, _ := newTestRealm(t)
	a := send(t, r, idHamlet, "Denmark", "castle", "one")
	send(t, r, idHamlet, "Denmark", "castle", "two")
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: a, Topic: str("keep"), PropagateMode: ChangeAll,
		SendNotificationToOldThread: func() *bool { b := true; return &b }()}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Denmark keep: This topic was moved here from #**Denmark>castle** by @_**Iago|11**.",
		"Denmark castle: This topic was moved to #**Denmark>keep** by @_**Iago|11**.",
	}
	if diff := cmp.Diff(want, noticesSince(t, r, a)); diff != "" {
		t.Fatalf("notices (-want +got):\n%s", diff)
	}
	// One message moved into a topic with messages, to another channel.
	b := send(t, r, idHamlet, "Denmark", "bridge", "three")
	send(t, r, idHamlet, "Verona", "plaza", "already here")
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: b, Topic: str("plaza"), ChannelID: intPtr(1)}); err != nil {
		t.Fatal(err)
	}
	got := noticesSince(t, r, b)
	wantOne := fmt.Sprintf("Verona plaza: [A message](http://localhost:9991/#narrow/channel/1-Verona/topic/plaza/near/%d) was moved here from #**Denmark>bridge** by @_**Iago|11**.", b)
	if len(got) != 1 || got[0] != wantOne {
		t.Fatalf("notices %q\nwant %q", got, wantOne)
	}
}

// noticesSince lists the Notification Bot's messages after id as
// "channel topic: content".
func noticesSince(t *testing.T, r *Realm, id int64) []string {
	t.Helper()
	var out []string
	_ = r.view(func() error {
		r.messages.store.All().Up(id+1, func(m *message.Message) bool {
			if m.SenderID == idNotificationBot {
				out = append(out, r.channels.byID[m.ChannelID].Name+" "+m.Topic+": "+m.Content)
			}
			return true
		})
		return nil
	})
	return out
}

func TestResolveTopic(t *testing.T) {
	r, _ := newTestRealm(t)
	a := send(t, r, idHamlet, "Denmark", "bug", "broken")
	send(t, r, idOthello, "Denmark", "bug", "indeed")
	if err := edit(r, idShiva, UpdateMessageRequest{MessageID: a, Topic: str("✔ bug"), PropagateMode: ChangeAll}); err != nil {
		t.Fatal(err)
	}
	notices := noticesSince(t, r, a)
	if diff := cmp.Diff([]string{"Denmark ✔ bug: @_**शिव|15** has marked this topic as resolved."}, notices); diff != "" {
		t.Fatalf("a pure resolve posts only its notice (-want +got):\n%s", diff)
	}
	var notice int64
	_ = r.view(func() error {
		r.messages.store.Sender(idNotificationBot).Down(AnchorNewest, func(m *message.Message) bool { notice = m.ID; return false })
		return nil
	})
	// Hamlet follows the topic he started: his default
	// resolved_topic_notice_auto_read_policy (except_followed) leaves the
	// notice unread for him only (resolved_notice_read_test.go).
	for uid, wantUnread := range map[int]bool{idHamlet: true, idOthello: false, idIago: false, idShiva: false} {
		if unread := flagsOf(t, r, uid, notice)&message.Read == 0; unread != wantUnread {
			t.Errorf("user %d: notice unread = %v, want %v", uid, unread, wantUnread)
		}
	}
	if m := getMsg(t, r, idHamlet, a); m.LastMovedTS != nil {
		t.Fatalf("resolving is not a move: last_moved_timestamp %v", *m.LastMovedTS)
	}
	if err := edit(r, idShiva, UpdateMessageRequest{MessageID: a, Topic: str("bug"), PropagateMode: ChangeAll}); err != nil {
		t.Fatal(err)
	}
	if n := noticesSince(t, r, notice); len(n) != 1 || n[0] != "Denmark bug: @_**शिव|15** has marked this topic as unresolved." {
		t.Fatalf("unresolve notices %q", n)
	}
	// Resolving and renaming at once is a move too.
	last := int64(0)
	_ = r.view(func() error { last = r.messages.nextID - 1; return nil })
	if err := edit(r, idShiva, UpdateMessageRequest{MessageID: a, Topic: str("✔ other"), PropagateMode: ChangeAll}); err != nil {
		t.Fatal(err)
	}
	if n := noticesSince(t, r, last); len(n) != 1 || n[0] != "Denmark ✔ other: This topic was moved here from #**Denmark>bug** by @_**शिव|15**." {
		t.Fatalf("rename notices %q", n)
	}
	// The empty topic cannot be resolved.
	e := send(t, r, idHamlet, "Denmark", "", "no topic")
	for _, name := range []string{"✔", "✔ general chat"} {
		wantCode(t, edit(r, idHamlet, UpdateMessageRequest{MessageID: e, Topic: str(name)}), CodeBadRequest, "cannot be marked as resolved")
	}
}

func TestMovePermissions(t *testing.T) {
	r, _ := newTestRealm(t)
	id := send(t, r, idHamlet, "Verona", "castle", "hello")
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	admins := NamedGroupSetting(r.groups.byName["role:administrators"].ID)
	r.UpdateSettings(func(s *Settings) { s.CanMoveMessagesBetweenTopicsGroup = admins })
	pending(t, r, idHamlet, q, -1)
	_, _ = r.As(idHamlet).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: 0, DontBlock: true})
	before := snapshotMessages(r)
	for _, c := range []struct {
		user int
		req  UpdateMessageRequest
		msg  string
	}{
		{idHamlet, UpdateMessageRequest{MessageID: id, Topic: str("moved")}, "You don't have permission to edit this message"},
		{idPolonius, UpdateMessageRequest{MessageID: id, ChannelID: intPtr(2)}, "You don't have permission to move this message"},
		{idHamlet, UpdateMessageRequest{MessageID: id, ChannelID: intPtr(999)}, "Invalid channel ID"},
		{idOthello, UpdateMessageRequest{MessageID: id, ChannelID: intPtr(6)}, "Invalid channel ID"}, // core team: private, not subscribed
		{idHamlet, UpdateMessageRequest{MessageID: id, ChannelID: intPtr(11)}, "You do not have permission to post in this channel."},
	} {
		wantCode(t, edit(r, c.user, c.req), CodeBadRequest, c.msg)
	}
	if diff := cmp.Diff(before, snapshotMessages(r)); diff != "" {
		t.Fatalf("refused moves changed the realm:\n%s", diff)
	}
	if evs := pending(t, r, idHamlet, q, 0); len(evs) != 0 {
		t.Fatalf("refused moves emitted %v", evs)
	}
	// Resolving needs only can_resolve_topics_group.
	if err := edit(r, idHamlet, UpdateMessageRequest{MessageID: id, Topic: str("✔ castle")}); err != nil {
		t.Fatal(err)
	}
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: id, Topic: str("moved")}); err != nil {
		t.Fatal(err)
	}
}

func TestMoveTimeLimits(t *testing.T) {
	r, clock := newTestRealm(t)
	old1 := send(t, r, idHamlet, "Denmark", "history", "old")
	old2 := send(t, r, idHamlet, "Denmark", "history", "old too")
	clock.Advance(8 * 24 * time.Hour)
	recent := send(t, r, idHamlet, "Denmark", "history", "recent")
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	before := snapshotMessages(r)

	err := edit(r, idHamlet, UpdateMessageRequest{MessageID: recent, Topic: str("new"), PropagateMode: ChangeAll})
	re := wantCode(t, err, CodeMoveMessagesTimeLimitExceeded, "You only have permission to move the 1/3 most recent messages in this topic.")
	wantExtra := map[string]any{"first_message_id_allowed_to_move": recent, "total_messages_in_topic": 3, "total_messages_allowed_to_move": 1}
	if diff := cmp.Diff(wantExtra, re.Extra); diff != "" {
		t.Fatalf("extra fields (-want +got):\n%s", diff)
	}
	wantCode(t, edit(r, idHamlet, UpdateMessageRequest{MessageID: old1, Topic: str("new")}), CodeBadRequest,
		"The time limit for editing this message's topic has passed.")
	wantCode(t, edit(r, idHamlet, UpdateMessageRequest{MessageID: old2, ChannelID: intPtr(1)}), CodeBadRequest,
		"The time limit for editing this message's stream has passed")
	wantUnchanged(t, r, before, q, idHamlet)

	// A message exactly at the deadline may be moved alone but does not
	// count as movable in a change_all: no message is, so the first
	// movable ID is null.
	r2, clock2 := newTestRealm(t)
	edge := send(t, r2, idHamlet, "Denmark", "edge", "x")
	clock2.Advance((604800 + editGraceSeconds) * time.Second)
	re = wantCode(t, edit(r2, idHamlet, UpdateMessageRequest{MessageID: edge, Topic: str("y"), PropagateMode: ChangeAll}),
		CodeMoveMessagesTimeLimitExceeded, "0/1")
	if re.Extra["first_message_id_allowed_to_move"] != nil {
		t.Fatalf("first_message_id_allowed_to_move = %v, want null", re.Extra["first_message_id_allowed_to_move"])
	}
	// Moderators and administrators are exempt, and resolving is not bound.
	if err := edit(r, idHamlet, UpdateMessageRequest{MessageID: recent, Topic: str("✔ history"), PropagateMode: ChangeAll}); err != nil {
		t.Fatal(err)
	}
	if err := edit(r, idShiva, UpdateMessageRequest{MessageID: recent, Topic: str("new"), PropagateMode: ChangeAll, ChannelID: intPtr(1)}); err != nil {
		t.Fatal(err)
	}
	// The resolve notice moved along; the "moved here" notice follows.
	if got := topicIDs(t, r, idShiva, "Verona", "new"); len(got) != 5 || !eqIDs(got[:3], []int64{old1, old2, recent}) {
		t.Fatalf("moderator moved %v", got)
	}
}

func TestMoveBetweenChannelsChangesAccess(t *testing.T) {
	r, _ := newTestRealm(t)
	id := send(t, r, idHamlet, "Verona", "secret", "psst")
	oq := mustQueue(t, r, idOthello, QueueOptions{Capabilities: ClientCapabilities{BulkMessageDeletion: true}})
	iq := mustQueue(t, r, idIago, QueueOptions{})
	if err := edit(r, idHamlet, UpdateMessageRequest{MessageID: id, ChannelID: intPtr(6), PropagateMode: ChangeAll}); err != nil {
		t.Fatal(err)
	}
	// Othello is not in the private "core team": the message is gone for him.
	if _, _, err := r.As(idOthello).Message(bg, id, ViewOptions{}); err == nil {
		t.Fatal("othello still reads the moved message")
	}
	dels := eventsOfType(t, r, idOthello, oq, "delete_message")
	if len(dels) != 1 || !cmp.Equal(dels[0]["message_ids"], []any{float64(id)}) || dels[0]["stream_id"] != float64(1) || dels[0]["topic"] != "secret" {
		t.Fatalf("othello's delete events %v", dels)
	}
	if evs := eventsOfType(t, r, idOthello, oq, "update_message"); len(evs) != 0 {
		t.Fatalf("othello must not hear of the move: %v", evs)
	}
	ups := eventsOfType(t, r, idIago, iq, "update_message")
	if len(ups) != 1 || ups[0]["new_stream_id"] != float64(6) || ups[0]["stream_id"] != float64(1) || ups[0]["subject"] != nil {
		t.Fatalf("iago's update events %v", ups)
	}
	if m := getMsg(t, r, idIago, id); m.StreamID != 6 || m.EditHistory[0].PrevStream != 1 || m.EditHistory[0].Stream != 6 {
		t.Fatalf("moved message %+v", m)
	}
}

func TestMoveCarriesUserTopics(t *testing.T) {
	r, _ := newTestRealm(t)
	id := send(t, r, idHamlet, "Denmark", "castle", "hello")
	if err := r.As(idOthello).SetUserTopic(bg, UserTopicRequest{ChannelID: 2, Topic: "castle", Policy: PolicyMuted}); err != nil {
		t.Fatal(err)
	}
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: id, Topic: str("fortress"), PropagateMode: ChangeAll}); err != nil {
		t.Fatal(err)
	}
	_ = r.view(func() error {
		if p := r.userTopicPolicy(idOthello, 2, "fortress"); p != PolicyMuted {
			t.Errorf("othello's policy on the new topic %d, want muted", p)
		}
		if p := r.userTopicPolicy(idOthello, 2, "castle"); p != PolicyInherit {
			t.Errorf("othello's policy on the old topic %d, want none", p)
		}
		if p := r.userTopicPolicy(idHamlet, 2, "fortress"); p != PolicyFollowed {
			t.Errorf("hamlet's automatic follow moved along: %d", p)
		}
		return nil
	})
}

func TestMoveGivesAndTakesCopies(t *testing.T) {
	r, _ := newTestRealm(t)
	// Scotland (iago, othello, shiva, prospero, zoe) to the private "core
	// team" without shared history (hamlet, iago, desdemona): hamlet and
	// desdemona get read copies, the rest of Scotland loses theirs.
	id := send(t, r, idIago, "Scotland", "plans", "secret plans")
	if r.messages.store.HasCopy(idHamlet, id) {
		t.Fatal("hamlet had a copy before the move")
	}
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: id, ChannelID: intPtr(6)}); err != nil {
		t.Fatal(err)
	}
	for _, uid := range []int{idHamlet, idDesdemona} {
		if f := flagsOf(t, r, uid, id); f != message.Read {
			t.Errorf("user %d gained flags %v, want [read]", uid, f.Names())
		}
	}
	for _, uid := range []int{idOthello, idShiva, idProspero, idZoe} {
		if r.messages.store.HasCopy(uid, id) {
			t.Errorf("user %d kept a copy in a private channel he is not in", uid)
		}
	}
	// A guest loses a message moved to a public channel he is not in;
	// a member keeps access through the channel's public history.
	v := send(t, r, idIago, "Verona", "open", "for all")
	pq := mustQueue(t, r, idPolonius, QueueOptions{Capabilities: ClientCapabilities{BulkMessageDeletion: true}})
	aq := mustQueue(t, r, idAaron, QueueOptions{Capabilities: ClientCapabilities{BulkMessageDeletion: true}})
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: v, ChannelID: intPtr(2)}); err != nil {
		t.Fatal(err)
	}
	if len(eventsOfType(t, r, idPolonius, pq, "delete_message")) != 1 {
		t.Fatal("the guest was not told the message left his reach")
	}
	if len(eventsOfType(t, r, idAaron, aq, "delete_message")) != 0 {
		t.Fatal("a member who can still read the public channel was told it was deleted")
	}
	if _, _, err := r.As(idAaron).Message(bg, v, ViewOptions{}); err != nil {
		t.Fatalf("aaron reads the moved message through public history: %v", err)
	}
}
