package realm

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/store"
)

// editSnapshot is everything an edit may change: each message's place,
// content and history, and every user's flags.
type editSnapshot struct {
	Messages []string
	Flags    map[int][]string
}

func snapshotMessages(r *Realm) editSnapshot {
	s := editSnapshot{Flags: map[int][]string{}}
	_ = r.view(func() error {
		r.messages.store.All().Up(0, func(m *message.Message) bool {
			s.Messages = append(s.Messages, fmt.Sprintf("%d %d %q %q %q edits=%d edit=%d moved=%d", m.ID, m.ChannelID,
				m.Topic, m.Content, m.Rendered, m.Changes().Edits.Len(), m.Changes().LastEditTS, m.Changes().LastMovedTS))
			return true
		})
		for uid := range r.users.byID {
			r.messages.store.Copies(uid, 0, func(c store.Copy) bool {
				s.Flags[uid] = append(s.Flags[uid], fmt.Sprintf("%d:%v", c.Message.ID, c.Flags.Names()))
				return true
			})
		}
		return nil
	})
	return s
}

// wantUnchanged asserts that a refused edit changed nothing and emitted
// nothing.
func wantUnchanged(t *testing.T, r *Realm, before editSnapshot, q *Queue, userID int) {
	t.Helper()
	if diff := cmp.Diff(before, snapshotMessages(r)); diff != "" {
		t.Fatalf("a refused edit changed the realm (-before +after):\n%s", diff)
	}
	if evs := pending(t, r, userID, q, -1); len(evs) != 0 {
		t.Fatalf("a refused edit emitted %d events: %v", len(evs), evs)
	}
}

func edit(r *Realm, userID int, req UpdateMessageRequest) error {
	_, err := r.As(userID).UpdateMessage(bg, req)
	return err
}

func getMsg(t *testing.T, r *Realm, userID int, id int64) Message {
	t.Helper()
	m, _, err := r.As(userID).Message(bg, id, ViewOptions{ApplyMarkdown: true, AllowEmptyTopicName: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func eventsOfType(t *testing.T, r *Realm, userID int, q *Queue, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range pending(t, r, userID, q, -1) {
		if ev.Type == typ {
			out = append(out, eventJSON(t, ev))
		}
	}
	return out
}

func TestEditContent(t *testing.T) {
	r, clock := newTestRealm(t)
	id := send(t, r, idHamlet, "Denmark", "castle", "first draft")
	hq := mustQueue(t, r, idHamlet, QueueOptions{ApplyMarkdown: true})
	oq := mustQueue(t, r, idOthello, QueueOptions{})
	clock.Advance(time.Minute)
	res, err := r.As(idHamlet).UpdateMessage(bg, UpdateMessageRequest{MessageID: id, Content: str("now @**Othello, the Moor of Venice**")})
	if err != nil {
		t.Fatal(err)
	}
	if res.DetachedUploads == nil || len(res.DetachedUploads) != 0 {
		t.Fatalf("detached_uploads must be an empty list: %#v", res.DetachedUploads)
	}
	m := getMsg(t, r, idHamlet, id)
	now := clock.Now().Unix()
	if m.Content != `<p>now <span class="user-mention" data-user-id="12">@Othello, the Moor of Venice</span></p>` ||
		m.LastEditTS == nil || *m.LastEditTS != now || m.LastMovedTS != nil {
		t.Fatalf("edited message %+v", m)
	}
	wantHistory := []EditHistoryEntry{{UserID: idHamlet, Timestamp: now, PrevContent: str("first draft"), PrevRenderedContent: str("<p>first draft</p>")}}
	if diff := cmp.Diff(wantHistory, m.EditHistory); diff != "" {
		t.Fatalf("edit_history (-want +got):\n%s", diff)
	}
	if f := flagsOf(t, r, idOthello, id); f&message.Mentioned == 0 {
		t.Fatalf("othello is mentioned by the new content: %v", f.Names())
	}
	evs := eventsOfType(t, r, idOthello, oq, "update_message")
	if len(evs) != 1 {
		t.Fatalf("othello got %d update_message events", len(evs))
	}
	ev := evs[0]
	want := map[string]any{"user_id": float64(idHamlet), "edit_timestamp": float64(now), "message_id": float64(id),
		"message_ids": []any{float64(id)}, "flags": []any{"mentioned"}, "rendering_only": false,
		"stream_id": float64(2), "stream_name": "Denmark", "orig_content": "first draft", "orig_rendered_content": "<p>first draft</p>",
		"content": "now @**Othello, the Moor of Venice**", "rendered_content": m.Content, "is_me_message": false,
		"type": "update_message", "id": float64(0)}
	if diff := cmp.Diff(want, ev); diff != "" {
		t.Fatalf("update_message event (-want +got):\n%s", diff)
	}
	if evs := eventsOfType(t, r, idHamlet, hq, "update_message"); len(evs) != 1 || len(evs[0]["flags"].([]any)) != 0 {
		t.Fatalf("the sender hears of it with his own flags (none: sent unread by an API client): %v", evs)
	}

	// Removing the mention clears the flag; whitespace-only content is
	// stored as "(deleted)".
	if err := edit(r, idHamlet, UpdateMessageRequest{MessageID: id, Content: str("  \n ")}); err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idOthello, id); f&message.Mentioned != 0 {
		t.Fatalf("mention flag kept: %v", f.Names())
	}
	if _, raw, _ := r.As(idHamlet).Message(bg, id, ViewOptions{}); raw != "(deleted)" {
		t.Fatalf("whitespace content stored as %q", raw)
	}
	if h, _ := r.As(idOthello).MessageHistory(bg, id, false); len(h) != 3 || h[0].Content != "first draft" ||
		h[2].Content != "(deleted)" || h[1].PrevContent == nil || *h[1].PrevContent != "first draft" || h[1].ContentHTMLDiff == nil {
		t.Fatalf("history %+v", h)
	}
}

func TestEditContentRefusals(t *testing.T) {
	r, clock := newTestRealm(t)
	id := send(t, r, idHamlet, "Denmark", "castle", "hello")
	dm, err := r.As(idIago).SendDirectMessage(bg, []int{idDesdemona}, "private")
	if err != nil {
		t.Fatal(err)
	}
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	sum := sha256.Sum256([]byte("stale"))
	cases := []struct {
		name   string
		user   int
		req    UpdateMessageRequest
		code   Code
		msg    string
		before func()
	}{
		{"unknown message", idHamlet, UpdateMessageRequest{MessageID: 999, Content: str("x")}, CodeBadRequest, "Invalid message(s)", nil},
		{"someone else's direct message", idHamlet, UpdateMessageRequest{MessageID: dm.ID, Content: str("x")}, CodeBadRequest, "Invalid message(s)", nil},
		{"not the sender", idOthello, UpdateMessageRequest{MessageID: id, Content: str("x")}, CodeBadRequest, "You don't have permission to edit this message", nil},
		{"nothing", idHamlet, UpdateMessageRequest{MessageID: id}, CodeBadRequest, "Nothing to change", nil},
		{"same topic is nothing", idHamlet, UpdateMessageRequest{MessageID: id, Topic: str(" castle ")}, CodeBadRequest, "Nothing to change", nil},
		{"bad propagate_mode", idHamlet, UpdateMessageRequest{MessageID: id, Topic: str("x"), PropagateMode: "change_some"}, CodeBadRequest, "Invalid propagate_mode", nil},
		{"propagate without move", idHamlet, UpdateMessageRequest{MessageID: id, Content: str("x"), PropagateMode: ChangeAll}, CodeBadRequest, "Invalid propagate_mode without topic edit", nil},
		{"content with channel", idHamlet, UpdateMessageRequest{MessageID: id, Content: str("x"), ChannelID: intPtr(1)}, CodeBadRequest, "Cannot change message content while changing stream", nil},
		{"direct message topic", idIago, UpdateMessageRequest{MessageID: dm.ID, Topic: str("x")}, CodeBadRequest, "Direct messages cannot have topics.", nil},
		{"direct message channel", idIago, UpdateMessageRequest{MessageID: dm.ID, ChannelID: intPtr(1)}, CodeBadRequest, "Direct messages cannot be moved to channels.", nil},
		{"stale content hash", idHamlet, UpdateMessageRequest{MessageID: id, Content: str("x"), PrevContentSHA256: str(hex.EncodeToString(sum[:]))}, CodeBadRequest, "prev_content_sha256", nil},
		{"unprintable topic", idHamlet, UpdateMessageRequest{MessageID: id, Topic: str("a\x00b")}, CodeBadRequest, "Invalid character in topic", nil},
		{"editing off", idHamlet, UpdateMessageRequest{MessageID: id, Content: str("x")}, CodeBadRequest, "Your organization has turned off message editing",
			func() { r.UpdateSettings(func(s *Settings) { s.AllowMessageEditing = false }) }},
		{"too late", idHamlet, UpdateMessageRequest{MessageID: id, Content: str("x")}, CodeBadRequest, "The time limit for editing this message has passed",
			func() {
				r.UpdateSettings(func(s *Settings) { s.AllowMessageEditing = true })
				clock.Advance(621 * time.Second)
			}},
	}
	for _, c := range cases {
		if c.before != nil {
			c.before()
			q = mustQueue(t, r, idHamlet, QueueOptions{})
		}
		evs := pending(t, r, idHamlet, q, -1)
		last := -1
		if len(evs) > 0 {
			last = evs[len(evs)-1].ID
		}
		before := snapshotMessages(r)
		err := edit(r, c.user, c.req)
		if err == nil {
			t.Fatalf("%s: accepted", c.name)
		}
		wantCode(t, err, c.code, c.msg)
		if diff := cmp.Diff(before, snapshotMessages(r)); diff != "" {
			t.Fatalf("%s: refused edit changed the realm:\n%s", c.name, diff)
		}
		if evs := pending(t, r, idHamlet, q, last); len(evs) != 0 {
			t.Fatalf("%s: refused edit emitted %v", c.name, evs)
		}
	}
	// The grace period: 600 s + 20 s is still allowed; the matching hash too.
	id2 := send(t, r, idHamlet, "Denmark", "castle", "second")
	clock.Advance(620 * time.Second)
	good := sha256.Sum256([]byte("second"))
	if err := edit(r, idHamlet, UpdateMessageRequest{MessageID: id2, Content: str("2nd"), PrevContentSHA256: str(hex.EncodeToString(good[:]))}); err != nil {
		t.Fatal(err)
	}
}

func TestEditReChecksWildcardMentions(t *testing.T) {
	r, _ := newTestRealm(t)
	id := send(t, r, idHamlet, "devel", "big", "hello")
	before := snapshotMessages(r)
	err := edit(r, idHamlet, UpdateMessageRequest{MessageID: id, Content: str("@**all** look")})
	wantCode(t, err, CodeStreamWildcardMentionNotAllow, "channel wildcard mentions")
	if diff := cmp.Diff(before, snapshotMessages(r)); diff != "" {
		t.Fatalf("refused edit changed the realm:\n%s", diff)
	}
	id = send(t, r, idIago, "devel", "big", "hello")
	if err := edit(r, idIago, UpdateMessageRequest{MessageID: id, Content: str("@**all** look")}); err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idHamlet, id); f&message.WildcardMentioned == 0 {
		t.Fatalf("hamlet's flags after an administrator's @all edit: %v", f.Names())
	}
}

func TestDeleteTopic(t *testing.T) {
	r, _ := newTestRealm(t)
	keep := send(t, r, idHamlet, "Denmark", "keep", "stays")
	var doomed []int64
	for i := 0; i < 2*deleteTopicBatch+5; i++ {
		doomed = append(doomed, send(t, r, idHamlet, "Denmark", []string{"Doomed", "doomed"}[i%2], "bye"))
	}
	q := mustQueue(t, r, idOthello, QueueOptions{Capabilities: ClientCapabilities{BulkMessageDeletion: true}})
	before := snapshotMessages(r)
	_, err := r.As(idHamlet).DeleteTopic(bg, 2, "doomed")
	wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	_, err = r.As(idIago).DeleteTopic(bg, 999, "doomed")
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	wantUnchanged(t, r, before, q, idOthello)

	res, err := r.As(idIago).DeleteTopic(bg, 2, "DOOMED")
	if err != nil || !res.Complete {
		t.Fatalf("delete topic: %+v %v", res, err)
	}
	if got := topicIDs(t, r, idOthello, "Denmark", "doomed"); len(got) != 0 {
		t.Fatalf("left %v", got)
	}
	dels := eventsOfType(t, r, idOthello, q, "delete_message")
	if len(dels) != 3 {
		t.Fatalf("%d delete events, want one per batch of %d", len(dels), deleteTopicBatch)
	}
	if first := dels[0]["message_ids"].([]any); len(first) != deleteTopicBatch || first[len(first)-1] != float64(doomed[len(doomed)-1]) {
		t.Fatalf("the first batch holds the newest messages: %v", first)
	}
	if got := topicIDs(t, r, idOthello, "Denmark", "keep"); !eqIDs(got, []int64{keep}) {
		t.Fatalf("other topic %v", got)
	}
	// The empty topic by its display name; the channel's oldest message goes.
	r2, _ := newTestRealm(t)
	e := send(t, r2, idHamlet, "Denmark", "", "empty")
	later := send(t, r2, idHamlet, "Denmark", "later", "x")
	if _, err := r2.As(idIago).DeleteTopic(bg, 2, "general chat"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r2.As(idIago).Message(bg, e, ViewOptions{}); err == nil {
		t.Fatal("empty topic not deleted")
	}
	_ = r2.view(func() error {
		if got := r2.channels.byID[2].FirstMessageID; got != later {
			t.Errorf("first_message_id %d, want %d", got, later)
		}
		return nil
	})
}

// An administrator who is not subscribed to a private channel, or deletes
// in an archived one, gets Zulip's "Invalid channel ID", and nothing is
// deleted; subscribed, the administrator deletes.
func TestDeleteTopicNeedsContentAccess(t *testing.T) {
	r, _ := newTestRealm(t)
	if _, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "vault"}}, InviteOnly: true}); err != nil {
		t.Fatal(err)
	}
	vault := channelID(t, r, "vault")
	secret := send(t, r, idHamlet, "vault", "plans", "secret")
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	before := snapshotMessages(r)
	_, err := r.As(idIago).DeleteTopic(bg, vault, "plans")
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	wantUnchanged(t, r, before, q, idHamlet)
	if _, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "vault"}}, Principals: Principals{IDs: []int{idIago}}}); err != nil {
		t.Fatal(err)
	}
	// Iago joined after the message (protected history): nothing of his
	// to delete, but the request succeeds.
	if res, err := r.As(idIago).DeleteTopic(bg, vault, "plans"); err != nil || !res.Complete {
		t.Fatalf("subscribed: %+v %v", res, err)
	}
	if _, _, err := r.As(idHamlet).Message(bg, secret, ViewOptions{}); err != nil {
		t.Fatalf("a message iago cannot read was deleted: %v", err)
	}
	send(t, r, idHamlet, "Denmark", "old", "x")
	if err := r.As(idIago).ArchiveChannel(bg, 2); err != nil {
		t.Fatal(err)
	}
	_, err = r.As(idIago).DeleteTopic(bg, 2, "old")
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
}

// A queued update_message event keeps the content of its own edit when
// the message is edited again before the client polls.
func TestQueuedEditEventKeepsItsContent(t *testing.T) {
	r, clock := newTestRealm(t)
	id := send(t, r, idHamlet, "Denmark", "castle", "first")
	oq := mustQueue(t, r, idOthello, QueueOptions{ApplyMarkdown: true})
	clock.Advance(time.Second)
	for _, content := range []string{"second", "third"} {
		if err := edit(r, idHamlet, UpdateMessageRequest{MessageID: id, Content: str(content)}); err != nil {
			t.Fatal(err)
		}
	}
	evs := eventsOfType(t, r, idOthello, oq, "update_message")
	if len(evs) != 2 || evs[0]["content"] != "second" || evs[0]["rendered_content"] != "<p>second</p>" || evs[1]["content"] != "third" {
		t.Fatalf("queued edit events %v", evs)
	}
}
