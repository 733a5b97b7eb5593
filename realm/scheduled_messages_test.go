package realm

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
)

// channelID is a seeded channel's ID.
func channelID(t *testing.T, r *Realm, name string) int {
	t.Helper()
	c := r.channels.byName[channelKey(name)]
	if c == nil {
		t.Fatalf("no channel %s", name)
	}
	return c.ID
}

// newestMessage is the last message stored.
func newestMessage(t *testing.T, r *Realm) *message.Message {
	t.Helper()
	m, ok := r.messages.store.Message(r.messages.nextID - 1)
	if !ok {
		t.Fatal("no message")
	}
	return m
}

// scheduleIn schedules content to the channel for d from now.
func scheduleIn(t *testing.T, r *Realm, userID int, to, topicName, content string, d time.Duration) int {
	t.Helper()
	typ := "channel"
	if strings.HasPrefix(to, "[") {
		typ = "direct"
	}
	id, err := r.As(userID).CreateScheduledMessage(bg, ScheduledMessageInput{Type: typ, To: to, Topic: &topicName,
		Content: content, DeliverAt: r.Now().Add(d).Unix(), Client: "ZulipElectron"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// eventOps lists the ops of the events of one type.
func eventOps(t *testing.T, evs []Event, typ string) []string {
	t.Helper()
	var ops []string
	for _, ev := range evs {
		if ev.Type == typ {
			ops = append(ops, eventJSON(t, ev)["op"].(string))
		}
	}
	return ops
}

func TestScheduledMessagesCreateListDelete(t *testing.T) {
	r, _ := newTestRealm(t)
	verona := channelID(t, r, "Verona")
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"scheduled_messages"}})
	other := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"scheduled_messages"}})
	later := scheduleIn(t, r, idHamlet, strconv.Itoa(verona), "castle", "to the **castle**", 2*time.Hour)
	sooner := scheduleIn(t, r, idHamlet, "[12, 12]", "ignored", "hello othello", time.Hour)
	list, err := r.As(idHamlet).ScheduledMessages(bg)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != sooner || list[1].ID != later {
		t.Fatalf("list not by delivery time: %+v", list)
	}
	dm, ch := list[0], list[1]
	if dm.Type != "private" || !slices.Equal(dm.To.UserIDs, []int{idOthello}) || dm.Topic != nil || dm.Failed {
		t.Fatalf("direct message %+v", dm)
	}
	if ch.Type != "stream" || ch.To.ChannelID != verona || ch.To.UserIDs != nil || *ch.Topic != "castle" ||
		ch.RenderedContent != "<p>to the <strong>castle</strong></p>" ||
		ch.ScheduledDeliveryTimestamp != r.Now().Add(2*time.Hour).Unix() {
		t.Fatalf("channel message %+v", ch)
	}
	if j := string(mustJSON(t, ch)); !strings.Contains(j, `"to":`+strconv.Itoa(verona)+`,`) {
		t.Fatalf("channel to is not a number: %s", j)
	}
	if others, _ := r.As(idIago).ScheduledMessages(bg); len(others) != 0 {
		t.Fatalf("iago sees hamlet's scheduled messages: %+v", others)
	}
	// Another user's ID and an unknown one do not exist; nothing changes.
	for _, e := range []error{r.As(idIago).DeleteScheduledMessage(bg, later), r.As(idHamlet).DeleteScheduledMessage(bg, 999)} {
		if re := wantCode(t, e, CodeBadRequest, "Scheduled message does not exist"); re.Status != 404 {
			t.Fatalf("status %d", re.Status)
		}
	}
	if err := r.As(idHamlet).DeleteScheduledMessage(bg, sooner); err != nil {
		t.Fatal(err)
	}
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); len(list) != 1 || list[0].ID != later {
		t.Fatalf("after delete %+v", list)
	}
	evs := pending(t, r, idHamlet, q, -1)
	if ops := eventOps(t, evs, "scheduled_messages"); strings.Join(ops, ",") != "add,add,remove" {
		t.Fatalf("events %v", ops)
	}
	if j := eventJSON(t, evs[0]); j["scheduled_messages"].([]any)[0].(map[string]any)["scheduled_message_id"] != float64(later) {
		t.Fatalf("add event %v", j)
	}
	if j := eventJSON(t, evs[2]); j["scheduled_message_id"] != float64(sooner) {
		t.Fatalf("remove event %v", j)
	}
	if evs := pending(t, r, idIago, other, -1); len(evs) != 0 {
		t.Fatalf("events of hamlet's scheduled messages reached iago: %v", evs)
	}
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"scheduled_messages"}})
	if len(state.ScheduledMessages) != 1 || state.ScheduledMessages[0].ID != later {
		t.Fatalf("register %+v", state.ScheduledMessagesState)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every rule of a send applies when scheduling, and a refused request
// stores nothing and tells no one.
func TestScheduledMessageRefusals(t *testing.T) {
	r, _ := newTestRealm(t)
	verona := strconv.Itoa(channelID(t, r, "Verona"))
	announce := strconv.Itoa(channelID(t, r, "announce"))
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"scheduled_messages"}})
	now := r.Now().Unix()
	topicName := "t"
	for _, c := range []struct {
		in   ScheduledMessageInput
		code Code
		msg  string
	}{
		{ScheduledMessageInput{Type: "channel", To: verona, Topic: &topicName, Content: "x", DeliverAt: now}, CodeBadRequest, "Scheduled delivery time must be in the future."},
		{ScheduledMessageInput{Type: "channel", To: verona, Topic: &topicName, Content: "x", DeliverAt: now - 60}, CodeBadRequest, "Scheduled delivery time must be in the future."},
		{ScheduledMessageInput{Type: "huddle", To: verona, Content: "x", DeliverAt: now + 60}, CodeBadRequest, "Invalid type"},
		{ScheduledMessageInput{Type: "stream", To: "Verona", Topic: &topicName, Content: "x", DeliverAt: now + 60}, CodeBadRequest, "Invalid data type for channel ID"},
		{ScheduledMessageInput{Type: "channel", To: "999", Topic: &topicName, Content: "x", DeliverAt: now + 60}, CodeStreamDoesNotExist, "Channel with ID '999' does not exist"},
		{ScheduledMessageInput{Type: "channel", To: verona, Content: "x", DeliverAt: now + 60}, CodeBadRequest, "Missing topic"},
		{ScheduledMessageInput{Type: "channel", To: announce, Topic: &topicName, Content: "x", DeliverAt: now + 60}, CodeBadRequest, "You do not have permission to post in this channel."},
		{ScheduledMessageInput{Type: "channel", To: verona, Topic: &topicName, Content: "  ", DeliverAt: now + 60}, CodeBadRequest, "Message must not be empty"},
		{ScheduledMessageInput{Type: "direct", To: "12", Content: "x", DeliverAt: now + 60}, CodeBadRequest, "Invalid data type for recipients"},
		{ScheduledMessageInput{Type: "direct", To: `[12, "cordelia@zulip.com"]`, Content: "x", DeliverAt: now + 60}, CodeBadRequest, "Recipient list may only contain user IDs"},
		{ScheduledMessageInput{Type: "private", To: "[999]", Content: "x", DeliverAt: now + 60}, CodeBadRequest, "Invalid user ID 999"},
		{ScheduledMessageInput{Type: "direct", To: "[]", Content: "x", DeliverAt: now + 60}, CodeBadRequest, "Message must have recipients"},
	} {
		_, err := r.As(idHamlet).CreateScheduledMessage(bg, c.in)
		wantCode(t, err, c.code, c.msg)
	}
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); len(list) != 0 || r.scheduled.lastID != 0 {
		t.Fatalf("refused requests stored %+v", list)
	}
	if evs := pending(t, r, idHamlet, q, -1); len(evs) != 0 {
		t.Fatalf("refused requests sent events %v", evs)
	}
	// Content over the limit is cut, as a send cuts it.
	id := scheduleIn(t, r, idHamlet, verona, "t", strings.Repeat("x", 10001), time.Hour)
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); list[0].ID != id || !strings.HasSuffix(list[0].Content, message.TruncatedSuffix) {
		t.Fatal("long content is not truncated")
	}
}

func TestScheduledMessageEdits(t *testing.T) {
	r, _ := newTestRealm(t)
	verona, denmark := channelID(t, r, "Verona"), channelID(t, r, "Denmark")
	id := scheduleIn(t, r, idHamlet, strconv.Itoa(verona), "castle", "first", time.Hour)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"scheduled_messages"}})
	a := r.As(idHamlet)
	get := func() ScheduledMessage {
		list, _ := a.ScheduledMessages(bg)
		if len(list) != 1 {
			t.Fatalf("list %+v", list)
		}
		return list[0]
	}
	before := get()
	future := r.Now().Add(3 * time.Hour).Unix()
	past := r.Now().Unix()
	for _, c := range []struct {
		e   ScheduledMessageUpdate
		msg string
	}{
		{ScheduledMessageUpdate{}, "Nothing to change"},
		{ScheduledMessageUpdate{Type: str("direct")}, "Recipient required when updating type of scheduled message."},
		{ScheduledMessageUpdate{Type: str("channel"), To: str(strconv.Itoa(denmark))}, "Topic required when updating scheduled message type to stream."},
		{ScheduledMessageUpdate{Type: str("bogus"), To: str("1")}, "Invalid type"},
		{ScheduledMessageUpdate{DeliverAt: &past}, "Scheduled delivery time must be in the future."},
		{ScheduledMessageUpdate{To: str("[12]")}, "Invalid data type for channel ID"},
		{ScheduledMessageUpdate{Content: str("")}, "Message must not be empty"},
	} {
		wantCode(t, a.UpdateScheduledMessage(bg, id, c.e), CodeBadRequest, c.msg)
	}
	wantCode(t, a.UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{To: str("999")}), CodeStreamDoesNotExist, "Channel with ID '999' does not exist")
	wantCode(t, r.As(idIago).UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{Content: str("x")}), CodeBadRequest, "Scheduled message does not exist")
	if got := get(); got.Content != before.Content || *got.Topic != "castle" || got.ScheduledDeliveryTimestamp != before.ScheduledDeliveryTimestamp {
		t.Fatalf("refused edits changed it: %+v", got)
	}
	if evs := pending(t, r, idHamlet, q, -1); len(evs) != 0 {
		t.Fatalf("refused edits sent events %v", evs)
	}
	// Topic alone; then content and time; then a move to a direct message.
	if err := a.UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{Topic: str("moat")}); err != nil {
		t.Fatal(err)
	}
	if got := get(); *got.Topic != "moat" || got.Content != "first" {
		t.Fatalf("topic edit %+v", got)
	}
	if err := a.UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{Content: str("*second*"), DeliverAt: &future}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got.Content != "*second*" || got.RenderedContent != "<p><em>second</em></p>" || got.ScheduledDeliveryTimestamp != future || *got.Topic != "moat" {
		t.Fatalf("content edit %+v", got)
	}
	if err := a.UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{Type: str("direct"), To: str("[8, 12]")}); err != nil {
		t.Fatal(err)
	}
	got := get()
	if got.Type != "private" || !slices.Equal(got.To.UserIDs, []int{idCordelia, idOthello}) || got.Topic != nil || got.Content != "*second*" {
		t.Fatalf("type edit %+v", got)
	}
	// A topic sent for a direct message is ignored.
	if err := a.UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{Topic: str("ignored")}); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{Type: str("stream"), To: str(strconv.Itoa(denmark)), Topic: str("back")}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got.Type != "stream" || got.To.ChannelID != denmark || *got.Topic != "back" {
		t.Fatalf("back to a channel %+v", got)
	}
	evs := pending(t, r, idHamlet, q, -1)
	if ops := eventOps(t, evs, "scheduled_messages"); strings.Join(ops, ",") != "update,update,update,update,update" {
		t.Fatalf("events %v", ops)
	}
	if j := eventJSON(t, evs[4])["scheduled_message"].(map[string]any); j["topic"] != "back" || j["to"] != float64(denmark) {
		t.Fatalf("update event %v", j)
	}
}

// When the realm clock reaches the time, the message is sent as its
// sender through the send path and leaves the list.
func TestScheduledMessageDeliveredByClock(t *testing.T) {
	r, clock := newTestRealm(t)
	baseline := clock.PendingTimers()
	verona := channelID(t, r, "Verona")
	hamlet := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"scheduled_messages", "message"}})
	othello := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"scheduled_messages", "message"}})
	first := scheduleIn(t, r, idHamlet, strconv.Itoa(verona), "castle", "hello @**Othello, the Moor of Venice**", 5*time.Minute)
	second := scheduleIn(t, r, idHamlet, "[12]", "", "psst", 2*time.Hour)
	before := r.messages.nextID
	clock.Advance(5*time.Minute - time.Second)
	if r.messages.nextID != before {
		t.Fatal("delivered early")
	}
	clock.Advance(time.Second)
	m := newestMessage(t, r)
	if r.messages.nextID != before+1 || m.SenderID != idHamlet || m.ChannelID != verona || m.Topic != "castle" ||
		m.Content != "hello @**Othello, the Moor of Venice**" || m.Timestamp != r.Now().Unix() {
		t.Fatalf("delivered message %+v", m)
	}
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); len(list) != 1 || list[0].ID != second {
		t.Fatalf("list after delivery %+v", list)
	}
	// The sender's copy is read (a human client scheduled it), the
	// mentioned recipient's is unread and mentioned.
	view, _, err := r.As(idOthello).Message(bg, m.ID, ViewOptions{})
	if err != nil || slices.Contains(view.Flags, "read") || !slices.Contains(view.Flags, "mentioned") {
		t.Fatalf("othello's copy %v %v", view.Flags, err)
	}
	if view, _, _ := r.As(idHamlet).Message(bg, m.ID, ViewOptions{}); !slices.Contains(view.Flags, "read") {
		t.Fatalf("hamlet's copy %v", view.Flags)
	}
	evs := pending(t, r, idHamlet, hamlet, -1)
	if ops := eventOps(t, evs, "scheduled_messages"); strings.Join(ops, ",") != "add,add,remove" {
		t.Fatalf("hamlet's events %v", ops)
	}
	if eventJSON(t, evs[len(evs)-1])["scheduled_message_id"] != float64(first) {
		t.Fatal("remove event names another message")
	}
	oevs := pending(t, r, idOthello, othello, -1)
	if len(oevs) != 1 || oevs[0].Type != "message" {
		t.Fatalf("othello's events %v", oevs)
	}
	// A jump past the second time delivers it too.
	clock.Advance(5 * time.Hour)
	m = newestMessage(t, r)
	if m.Type != message.Direct || !slices.Equal(m.DMUserIDs, []int{idHamlet, idOthello}) || m.Content != "psst" {
		t.Fatalf("direct message %+v", m)
	}
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); len(list) != 0 {
		t.Fatalf("list %+v", list)
	}
	if n := clock.PendingTimers(); n != baseline {
		t.Fatalf("%d timers left after the last delivery, want %d", n, baseline)
	}
}

// read_by_sender overrides the default; a message to oneself starts
// unread by default.
func TestScheduledMessageReadBySender(t *testing.T) {
	r, clock := newTestRealm(t)
	no, yes := false, true
	at := r.Now().Add(time.Minute).Unix()
	for _, in := range []ScheduledMessageInput{
		{Type: "direct", To: "[12]", Content: "a", DeliverAt: at, Client: "website", ReadBySender: &no},
		{Type: "direct", To: "[10]", Content: "b", DeliverAt: at, Client: "website"},
		{Type: "direct", To: "[12]", Content: "c", DeliverAt: at, Client: "python-zulip-api", ReadBySender: &yes},
		{Type: "direct", To: "[12]", Content: "d", DeliverAt: at, Client: "python-zulip-api"},
	} {
		if _, err := r.As(idHamlet).CreateScheduledMessage(bg, in); err != nil {
			t.Fatal(err)
		}
	}
	first := r.messages.nextID
	clock.Advance(time.Minute)
	var got []bool
	for id := first; id < r.messages.nextID; id++ {
		view, _, _ := r.As(idHamlet).Message(bg, id, ViewOptions{})
		got = append(got, slices.Contains(view.Flags, "read"))
	}
	if !slices.Equal(got, []bool{false, false, true, false}) {
		t.Fatalf("read by sender %v", got)
	}
}

// A delivery the rules now refuse leaves the message listed as failed,
// tells the sender (update event, Notification Bot message) and needs a
// new time to be edited.
func TestScheduledMessageFailedDelivery(t *testing.T) {
	r, clock := newTestRealm(t)
	id := scheduleIn(t, r, idHamlet, "[12]", "", "for othello", 5*time.Minute)
	if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"scheduled_messages", "message"}})
	clock.Advance(5 * time.Minute)
	list, _ := r.As(idHamlet).ScheduledMessages(bg)
	if len(list) != 1 || list[0].ID != id || !list[0].Failed {
		t.Fatalf("list %+v", list)
	}
	notice := newestMessage(t, r)
	when := time.Unix(list[0].ScheduledDeliveryTimestamp, 0).UTC().Format("2006-01-02 15:04:05+00:00")
	want := "The message you scheduled for <time:" + when + ">  was not sent because of the following error:\n\n> '" + r.apiEmail(r.users.byID[idOthello]) + "' is no longer using Zulip.\n\n[View scheduled messages](#scheduled)"
	if notice.SenderID != idNotificationBot || !slices.Equal(notice.DMUserIDs, []int{idNotificationBot, idHamlet}) || notice.Content != want {
		t.Fatalf("notice %+v", notice)
	}
	evs := pending(t, r, idHamlet, q, -1)
	if ops := eventOps(t, evs, "scheduled_messages"); strings.Join(ops, ",") != "update" {
		t.Fatalf("events %v", ops)
	}
	if j := eventJSON(t, evs[0])["scheduled_message"].(map[string]any); j["failed"] != true {
		t.Fatalf("update %v", j)
	}
	// Not tried again.
	count := r.messages.nextID
	clock.Advance(24 * time.Hour)
	if r.messages.nextID != count {
		t.Fatal("a failed message was tried again")
	}
	wantCode(t, r.As(idHamlet).UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{Content: str("x")}), CodeBadRequest, "Scheduled delivery time must be in the future.")
	if err := r.As(idIago).ReactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	at := r.Now().Add(time.Minute).Unix()
	if err := r.As(idHamlet).UpdateScheduledMessage(bg, id, ScheduledMessageUpdate{DeliverAt: &at}); err != nil {
		t.Fatal(err)
	}
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); list[0].Failed {
		t.Fatal("editing did not clear the failure")
	}
	clock.Advance(time.Minute)
	if m := newestMessage(t, r); m.Content != "for othello" || m.SenderID != idHamlet {
		t.Fatalf("not delivered after the edit: %+v", m)
	}
}

// A sender deactivated before the time gets no notice and no event.
func TestScheduledMessageOfDeactivatedSender(t *testing.T) {
	r, clock := newTestRealm(t)
	scheduleIn(t, r, idHamlet, "[12]", "", "x", time.Hour)
	if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	count := r.messages.nextID
	clock.Advance(time.Hour)
	if r.messages.nextID != count {
		t.Fatal("a message was sent")
	}
	for _, it := range r.scheduled.byID {
		if !it.failed || it.failure != "Account is deactivated" {
			t.Fatalf("item %+v", it)
		}
	}
}

// A restored realm delivers exactly the scheduled messages it was
// restored with, and a fork on its own clock delivers its own.
func TestScheduledMessagesAcrossRestoreAndFork(t *testing.T) {
	r, clock := newTestRealm(t)
	baseline := clock.PendingTimers()
	kept := scheduleIn(t, r, idHamlet, "[12]", "", "kept", time.Hour)
	snap := r.Snapshot()
	if err := r.As(idHamlet).DeleteScheduledMessage(bg, kept); err != nil {
		t.Fatal(err)
	}
	scheduleIn(t, r, idHamlet, "[12]", "", "dropped by restore", 30*time.Minute)
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); len(list) != 1 || list[0].ID != kept {
		t.Fatalf("restored list %+v", list)
	}
	forkClock := manualAt(clock.Now())
	f := r.ForkOn(forkClock)
	count := r.messages.nextID
	clock.Advance(time.Hour)
	if r.messages.nextID != count+1 || newestMessage(t, r).Content != "kept" {
		t.Fatalf("restored realm delivered %d messages", r.messages.nextID-count)
	}
	if n := clock.PendingTimers(); n != baseline {
		t.Fatalf("%d timers left, want %d", n, baseline)
	}
	if list, _ := f.As(idHamlet).ScheduledMessages(bg); len(list) != 1 {
		t.Fatal("the origin's delivery reached the fork")
	}
	forkClock.Advance(time.Hour)
	if list, _ := f.As(idHamlet).ScheduledMessages(bg); len(list) != 0 || newestMessage(t, f).Content != "kept" {
		t.Fatal("the fork did not deliver its own")
	}
}

// The register sections follow the feature levels that brought them.
func TestScheduledStateByFeatureLevel(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(178, "7.0"))
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"scheduled_messages", "reminders"}})
	if state.ScheduledMessagesState != nil || state.RemindersState != nil {
		t.Fatal("sections before their levels")
	}
	r, _ = newTestRealm(t, WithFeatureLevel(398, "11.0"))
	state, _ = r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"scheduled_messages", "reminders"}})
	if state.ScheduledMessagesState == nil || state.RemindersState != nil {
		t.Fatal("reminders before 399")
	}
}
