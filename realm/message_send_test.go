package realm

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
)

func TestSendChannelMessageDeliversToSubscribers(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idHamlet).SendChannelMessage(bg, "verona", "greetings", "hello **world**")
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != 1 || res.AutomaticNewVisibilityPolicy == nil || *res.AutomaticNewVisibilityPolicy != PolicyFollowed {
		t.Fatalf("result %+v: want id 1 and automatic follow (policy 3) on initiation", res)
	}
	m, raw, err := r.As(idOthello).Message(bg, res.ID, ViewOptions{ApplyMarkdown: true})
	if err != nil {
		t.Fatal(err)
	}
	if raw != "hello **world**" || m.Content != "<p>hello <strong>world</strong></p>" || m.DisplayRecipient != "Verona" ||
		m.Subject != "greetings" || m.Type != "stream" || m.StreamID != 1 || m.SenderEmail != "user10@zulipdev.com" {
		t.Fatalf("unexpected message %+v", m)
	}
	if len(m.Flags) != 0 {
		t.Fatalf("othello's copy should be unread: %v", m.Flags)
	}
	// Second message in the same topic: no automatic change any more.
	res2, _ := r.As(idHamlet).SendChannelMessage(bg, "Verona", "Greetings", "again")
	if res2.AutomaticNewVisibilityPolicy != nil {
		t.Fatal("policy already followed: no change expected")
	}
	// A non-subscriber of Verona (a bot of the dev channels only) has no copy.
	if r.messages.store.HasCopy(idDefaultBot, res.ID) {
		t.Fatal("default bot is not subscribed to Verona")
	}
}

func TestSendReadBySender(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	api, _ := a.SendMessage(bg, SendRequest{Type: "stream", To: message.To{ChannelName: "Denmark"}, Topic: str("t"), Content: "x", Client: "ZulipPython"})
	web, _ := a.SendMessage(bg, SendRequest{Type: "stream", To: message.To{ChannelName: "Denmark"}, Topic: str("t"), Content: "x", Client: "website"})
	forced, _ := a.SendMessage(bg, SendRequest{Type: "stream", To: message.To{ChannelName: "Denmark"}, Topic: str("t"), Content: "x", Client: "curl", ReadBySender: func() *bool { b := true; return &b }()})
	for _, c := range []struct {
		id   int64
		read bool
	}{{api.ID, false}, {web.ID, true}, {forced.ID, true}} {
		um, ok := r.messages.store.Copy(idIago, c.id)
		if !ok || (um.Flags&message.Read != 0) != c.read {
			t.Errorf("message %d: read=%v, want %v", c.id, ok && um.Flags&message.Read != 0, c.read)
		}
	}
}

func TestSendTopicRules(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idHamlet)
	send := func(topicName *string) (SendResult, error) {
		return a.SendMessage(bg, SendRequest{Type: "channel", To: message.To{ChannelName: "Denmark"}, Topic: topicName, Content: "hi"})
	}
	_, err := send(nil)
	wantCode(t, err, CodeBadRequest, "Missing topic")
	for _, empty := range []string{"", "(no topic)", "general chat", "   "} {
		res, err := send(str(empty))
		if err != nil {
			t.Fatalf("topic %q: %v", empty, err)
		}
		m, _, _ := a.Message(bg, res.ID, ViewOptions{AllowEmptyTopicName: true})
		if m.Subject != "" {
			t.Fatalf("topic %q stored as %q, want empty", empty, m.Subject)
		}
		m, _, _ = a.Message(bg, res.ID, ViewOptions{})
		if m.Subject != "general chat" {
			t.Fatalf("empty topic shown as %q without allow_empty_topic_name", m.Subject)
		}
	}
	long := strings.Repeat("x", 70)
	res, _ := send(&long)
	m, _, _ := a.Message(bg, res.ID, ViewOptions{})
	if m.Subject != strings.Repeat("x", 57)+"..." {
		t.Fatalf("long topic stored as %q", m.Subject)
	}
	_, err = send(str("bad\x01topic"))
	wantCode(t, err, CodeBadRequest, "Invalid character in topic")

	r.UpdateSettings(func(s *Settings) { s.MandatoryTopics = true })
	before := r.MessageCount()
	for _, empty := range []string{"", "(no topic)", "general chat"} {
		_, err := send(str(empty))
		wantCode(t, err, CodeBadRequest, "Topic can't be empty!")
	}
	if r.MessageCount() != before {
		t.Fatal("rejected sends stored messages")
	}
}

func TestSendContentRules(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idHamlet)
	send := func(content string) (SendResult, error) { return a.SendChannelMessage(bg, "Denmark", "t", content) }
	_, err := send("  \n\t ")
	wantCode(t, err, CodeBadRequest, "Message must not be empty")
	_, err = send("a\x00b")
	wantCode(t, err, CodeBadRequest, "null bytes")
	res, err := send(strings.Repeat("é", 10001))
	if err != nil {
		t.Fatal(err)
	}
	_, raw, _ := a.Message(bg, res.ID, ViewOptions{})
	if !strings.HasSuffix(raw, "\n[message truncated]") || len([]rune(raw)) != 10000 {
		t.Fatalf("truncation: %d runes, suffix ok=%v", len([]rune(raw)), strings.HasSuffix(raw, "[message truncated]"))
	}
	res, _ = send("\n\nhello  \n ")
	_, raw, _ = a.Message(bg, res.ID, ViewOptions{})
	if raw != "hello" {
		t.Fatalf("content not stripped: %q", raw)
	}
	if r.MessageCount() != 2 {
		t.Fatalf("want 2 stored messages, have %d", r.MessageCount())
	}
}

func TestSendRecipientErrors(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idHamlet)
	_, err := a.SendChannelMessage(bg, "Nowhere", "t", "x")
	re := wantCode(t, err, CodeStreamDoesNotExist, "Nowhere")
	if re.Extra["stream"] != "Nowhere" || re.Status != http.StatusBadRequest {
		t.Fatalf("extra %v status %d", re.Extra, re.Status)
	}
	_, err = a.SendMessage(bg, SendRequest{Type: "stream", To: message.To{ChannelID: 999}, Topic: str("t"), Content: "x"})
	re = wantCode(t, err, CodeStreamDoesNotExist, "999")
	if re.Extra["stream_id"] != 999 {
		t.Fatalf("extra %v", re.Extra)
	}
	_, err = a.SendMessage(bg, SendRequest{Type: "dm", To: message.To{UserIDs: []int{idIago}}, Content: "x"})
	wantCode(t, err, CodeBadRequest, "Invalid type")
	_, err = a.SendDirectMessage(bg, []int{9999}, "x")
	wantCode(t, err, CodeBadRequest, "Invalid user ID 9999")
	_, err = a.SendMessage(bg, SendRequest{Type: "private", To: message.To{Emails: []string{"nobody@zulip.com"}}, Content: "x"})
	wantCode(t, err, CodeBadRequest, "Invalid email 'nobody@zulip.com'")
	_, err = a.SendDirectMessage(bg, []int{}, "x")
	wantCode(t, err, CodeBadRequest, "Message must have recipients")
	_, err = a.SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idIago}}, Content: "x", QueueID: str("q")})
	wantCode(t, err, CodeRequestVariableMissing, "local_id")
	// Othello is not in the private "core team"; Polonius (guest) is not in Denmark.
	_, err = r.As(idOthello).SendChannelMessage(bg, "core team", "t", "x")
	wantCode(t, err, CodeBadRequest, "Not authorized to send to channel 'core team'")
	_, err = r.As(idPolonius).SendChannelMessage(bg, "Denmark", "t", "x")
	wantCode(t, err, CodeBadRequest, "Not authorized to send to channel 'Denmark'")
	// Only administrators may post in announce.
	_, err = r.As(idHamlet).SendChannelMessage(bg, "announce", "t", "x")
	wantCode(t, err, CodeBadRequest, "permission to post")
	if r.MessageCount() != 0 {
		t.Fatal("rejected sends stored messages")
	}
	if _, err := r.As(idIago).SendChannelMessage(bg, "announce", "t", "x"); err != nil {
		t.Fatalf("admin to announce: %v", err)
	}
	if _, err := r.As(idPolonius).SendChannelMessage(bg, "Verona", "t", "x"); err != nil {
		t.Fatalf("guest to a subscribed channel: %v", err)
	}
	if _, err := r.As(9999).SendChannelMessage(bg, "Verona", "t", "x"); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("unknown acting user: %v", err)
	}
}

func TestSendDirectMessages(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idHamlet)
	// The sender listed among recipients is ignored.
	one, err := a.SendMessage(bg, SendRequest{Type: "private", To: message.To{Emails: []string{"IAGO@zulip.com", "hamlet@zulip.com"}, IsList: true}, Content: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	m, _, _ := r.As(idIago).Message(bg, one.ID, ViewOptions{})
	dr := m.DisplayRecipient.([]DisplayRecipientUser)
	if len(dr) != 2 || m.Type != "private" || m.StreamID != 0 || m.Subject != "" {
		t.Fatalf("1:1 message %+v", m)
	}
	if dr[0].Email != "user10@zulipdev.com" || dr[1].Email != "user11@zulipdev.com" {
		t.Fatalf("1:1 recipients not ordered by email: %+v", dr)
	}
	if m.RecipientID == r.recipients.personal[idIago] || m.RecipientID == r.recipients.personal[idHamlet] {
		t.Fatalf("recipient_id %d is a personal recipient; a 1:1 conversation has its own (TestDirectMessageRecipientIDFollowsFeatureLevel)", m.RecipientID)
	}
	self, _ := a.SendDirectMessage(bg, []int{idHamlet}, "note to self")
	m, _, _ = a.Message(bg, self.ID, ViewOptions{})
	if len(m.DisplayRecipient.([]DisplayRecipientUser)) != 1 || m.RecipientID != r.recipients.personal[idHamlet] {
		t.Fatalf("self message %+v", m)
	}
	group, _ := a.SendDirectMessage(bg, []int{idOthello, idIago}, "group")
	m, _, _ = r.As(idOthello).Message(bg, group.ID, ViewOptions{})
	ids := []int{}
	for _, u := range m.DisplayRecipient.([]DisplayRecipientUser) {
		ids = append(ids, u.ID)
	}
	if len(ids) != 3 || ids[0] != idHamlet || ids[1] != idIago || ids[2] != idOthello {
		t.Fatalf("group recipients %v", ids)
	}
	if _, _, err := r.As(idCordelia).Message(bg, group.ID, ViewOptions{}); !errors.Is(err, ErrBadRequest) {
		t.Fatal("a non-participant must not read a direct message")
	}
}

func TestDeleteMessageRules(t *testing.T) {
	r, clock := newTestRealm(t)
	own, _ := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "mine")
	other, _ := r.As(idOthello).SendChannelMessage(bg, "Verona", "t", "theirs")
	err := r.As(idHamlet).DeleteMessage(bg, other.ID)
	wantCode(t, err, CodeBadRequest, "You don't have permission to delete this message")
	clock.Advance(601 * time.Second)
	err = r.As(idHamlet).DeleteMessage(bg, own.ID)
	wantCode(t, err, CodeBadRequest, "The time limit for deleting this message has passed")
	if r.MessageCount() != 2 {
		t.Fatal("rejected deletes removed messages")
	}
	if err := r.As(idIago).DeleteMessage(bg, own.ID); err != nil {
		t.Fatalf("admin delete: %v", err)
	}
	r.mu.RLock()
	first := r.channels.byID[1].FirstMessageID
	r.mu.RUnlock()
	if first != other.ID {
		t.Fatalf("first_message_id %d, want %d", first, other.ID)
	}
	_, _, err = r.As(idHamlet).Message(bg, own.ID, ViewOptions{})
	wantCode(t, err, CodeBadRequest, "Invalid message(s)")
	err = r.As(idIago).DeleteMessage(bg, own.ID)
	wantCode(t, err, CodeBadRequest, "Invalid message(s)")
	fresh, _ := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "quick")
	if err := r.As(idHamlet).DeleteMessage(bg, fresh.ID); err != nil {
		t.Fatalf("own recent delete: %v", err)
	}
}

func toChannel(name string) message.To { return message.To{ChannelName: name} }

// The realm's configured max_topic_length is the one enforced and the one
// register advertises.
func TestConfiguredTopicLengthIsEnforced(t *testing.T) {
	limits := DefaultLimits()
	limits.MaxTopicLength = 10
	r, _ := newTestRealm(t, WithLimits(limits))
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "abcdefghijkl", "hi"); err != nil {
		t.Fatal(err)
	}
	m, ok := r.LastMessage(bg, idHamlet)
	if !ok || m.Subject != "abcdefg..." {
		t.Fatalf("stored topic %q", m.Subject)
	}
	state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if err != nil || state.MaxTopicLength != 10 {
		t.Fatalf("register advertises max_topic_length %v (%v)", state.MaxTopicLength, err)
	}
}

// Every path that names a topic refuses unprintable characters with
// Zulip's message, and changes nothing.
func TestTopicsRefuseUnprintableCharacters(t *testing.T) {
	r, _ := newTestRealm(t)
	_, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "nul\x00", "hi")
	wantCode(t, err, CodeBadRequest, "Invalid character in topic, at position 4!")
	err = r.As(idHamlet).SetUserTopic(bg, UserTopicRequest{ChannelName: "Denmark", Topic: "x\ufdd0", Policy: PolicyMuted})
	wantCode(t, err, CodeBadRequest, "Invalid character in topic, at position 2!")
	topic := "bad\x1f"
	err = r.As(idHamlet).SetTyping(bg, TypingRequest{Op: "start", Type: "channel", StreamID: 3, Topic: &topic})
	wantCode(t, err, CodeBadRequest, "Invalid character in topic, at position 4!")
	if r.MessageCount() != 0 {
		t.Fatal("a refused send stored a message")
	}
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"user_topic"}})
	if topics := state.UserTopics; len(topics) != 0 {
		t.Fatalf("a refused user topic was stored: %v", topics)
	}
}
