package realm

import (
	"fmt"
	"strings"
	"time"

	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/minizulip/minizulip/message"
)

// submessagesOf is the submessages list of message id as user sees it.
func submessagesOf(t *testing.T, r *Realm, userID int, id int64) []Submessage {
	t.Helper()
	v, _, err := r.As(userID).Message(bg, id, ViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return v.Submessages
}

// A /poll message becomes a poll: its widget submessage is in the
// message event and in every view; others vote and add options, the
// author alone changes the question, each change reaches the holders of
// a copy, and the content can no longer be edited.
func TestPollSubmessages(t *testing.T) {
	r, _ := newTestRealm(t)
	hq := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"message", "submessage"}})
	res, err := r.As(idIago).SendChannelMessage(bg, "Verona", "lunch", "/poll Lunch?\n- Pizza\n- Sushi")
	if err != nil {
		t.Fatal(err)
	}
	widget := Submessage{MsgType: "widget", MessageID: res.ID, SenderID: idIago, ID: 1,
		Content: `{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Sushi"]}}`}
	if diff := cmp.Diff([]Submessage{widget}, submessagesOf(t, r, idHamlet, res.ID)); diff != "" {
		t.Fatalf("the poll's submessages (-want +got):\n%s", diff)
	}
	evs := pending(t, r, idHamlet, hq, -1)
	if len(evs) != 1 || !cmp.Equal(evs[0].Payload.(*MessageEvent).Message.Submessages, []Submessage{widget}) {
		t.Fatalf("message event: %+v", evs)
	}

	vote := `{"type": "vote", "key": "canned,0", "vote": 1}`
	if err := r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: vote}); err != nil {
		t.Fatal(err)
	}
	question := `{"type": "question", "question": "Dinner?"}`
	wantCode(t, r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: question}),
		CodeBadRequest, "You can't edit a question unless you are the author.")
	wantCode(t, r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: `{"type": "vote"`}),
		CodeBadRequest, "Invalid json for submessage")
	wantCode(t, r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: `{"type": "vote", "key": "x", "vote": 3}`}),
		CodeBadRequest, `Invalid poll data["vote"]`)
	wantCode(t, r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: 999, MsgType: "widget", Content: vote}),
		CodeBadRequest, "Invalid message(s)")
	if err := r.As(idIago).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: question}); err != nil {
		t.Fatal(err)
	}
	got := submessagesOf(t, r, idOthello, res.ID)
	if len(got) != 3 || got[1] != (Submessage{MsgType: "widget", Content: vote, MessageID: res.ID, SenderID: idHamlet, ID: 2}) ||
		got[2].SenderID != idIago || got[2].ID != 3 {
		t.Fatalf("after a vote and a new question: %+v", got)
	}
	evs = pending(t, r, idHamlet, hq, evs[0].ID)
	if len(evs) != 2 {
		t.Fatalf("hamlet heard %d submessage events, want 2", len(evs))
	}
	ev, ok := evs[0].Payload.(SubmessageEvent)
	if !ok || ev != (SubmessageEvent{MsgType: "widget", MessageID: res.ID, SubmessageID: 2, SenderID: idHamlet, Content: vote}) {
		t.Fatalf("submessage event: %+v", evs[0].Payload)
	}

	_, err = r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: res.ID, Content: str("/poll Dinner?")})
	wantCode(t, err, CodeBadRequest, "Widgets cannot be edited.")
	if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: res.ID, Topic: str("food")}); err != nil {
		t.Fatalf("moving a poll: %v", err)
	}
}

// The sender of a message adds its first submessage: until then, others
// are refused. A message without a widget takes any JSON.
func TestSubmessageSenderFirst(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idIago).SendChannelMessage(bg, "Verona", "game", "A game")
	if err != nil {
		t.Fatal(err)
	}
	if got := submessagesOf(t, r, idHamlet, res.ID); got == nil || len(got) != 0 {
		t.Fatalf("a plain message's submessages: %#v (want an empty list)", got)
	}
	wantCode(t, r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "game", Content: `{"move": 1}`}),
		CodeBadRequest, "You cannot attach a submessage to this message.")
	if err := r.As(idIago).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "game", Content: `3`}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "game", Content: `{"move": 1}`}); err != nil {
		t.Fatalf("after the sender's: %v", err)
	}
	if got := submessagesOf(t, r, idIago, res.ID); len(got) != 2 || got[1].MsgType != "game" || got[1].SenderID != idHamlet {
		t.Fatalf("submessages: %+v", got)
	}
}

// A to-do list from /todo takes tasks and strikes from anyone, its title
// from its author.
func TestTodoSubmessages(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idIago).SendDirectMessage(bg, []int{idHamlet}, "/todo Release\n- Tag: on main")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"widget_type": "todo", "extra_data": {"task_list_title": "Release", "tasks": [{"task": "Tag", "desc": "on main"}]}}`
	if got := submessagesOf(t, r, idHamlet, res.ID); len(got) != 1 || got[0].Content != want {
		t.Fatalf("the list's submessages: %+v", got)
	}
	task := `{"type": "new_task", "key": 1, "task": "Ship", "desc": "", "completed": false}`
	if err := r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: task}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: `{"type": "new_task_list_title", "title": "X"}`}),
		CodeBadRequest, "You can't edit the task list title unless you are the author.")
	wantCode(t, r.As(idOthello).AddSubmessage(bg, SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: task}),
		CodeBadRequest, "Invalid message(s)")
}

// A bot's widget_content becomes the message's widget; a bad one refuses
// the send, which stores nothing.
func TestSendWidgetContent(t *testing.T) {
	r, _ := newTestRealm(t)
	zform := `{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Q?", "choices": [{"short_name": "A", "long_name": "Yes", "reply": "answer A"}]}}`
	topicName := "quiz"
	res, err := r.As(idDefaultBot).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idHamlet}, IsList: true}, Content: "Q?", WidgetContent: &zform})
	if err != nil {
		t.Fatal(err)
	}
	if got := submessagesOf(t, r, idHamlet, res.ID); len(got) != 1 || got[0].Content != zform || got[0].SenderID != idDefaultBot {
		t.Fatalf("the zform's submessages: %+v", got)
	}
	before := r.MessageCount()
	bad := `{"widget_type": "poll", "extra_data": {}}`
	_, err = r.As(idDefaultBot).SendMessage(bg, SendRequest{Type: "stream", To: message.To{ChannelName: "Verona"}, Topic: &topicName, Content: "Q?", WidgetContent: &bad})
	wantCode(t, err, CodeBadRequest, "Widgets: unknown widget type: poll")
	if r.MessageCount() != before {
		t.Fatal("a refused send stored a message")
	}
}

// Submessages are part of a message's state: a snapshot keeps them and
// the next ID, and a fork's stay in the fork.
func TestSubmessagesSnapshot(t *testing.T) {
	r, _ := newTestRealm(t)
	res, err := r.As(idIago).SendChannelMessage(bg, "Verona", "lunch", "/poll Lunch?")
	if err != nil {
		t.Fatal(err)
	}
	snap := r.Snapshot()
	fork := r.Fork()
	vote := SubmessageRequest{MessageID: res.ID, MsgType: "widget", Content: `{"type": "vote", "key": "canned,0", "vote": 1}`}
	if err := fork.As(idHamlet).AddSubmessage(bg, vote); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idOthello).AddSubmessage(bg, vote); err != nil {
		t.Fatal(err)
	}
	if got := submessagesOf(t, fork, idIago, res.ID); len(got) != 2 || got[1].SenderID != idHamlet || got[1].ID != 2 {
		t.Fatalf("fork: %+v", got)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := submessagesOf(t, r, idIago, res.ID); len(got) != 1 {
		t.Fatalf("restored: %+v", got)
	}
	if err := r.As(idHamlet).AddSubmessage(bg, vote); err != nil {
		t.Fatal(err)
	}
	if got := submessagesOf(t, r, idIago, res.ID); got[1].ID != 2 {
		t.Fatalf("the next submessage ID after a restore: %+v", got)
	}
}

// A scheduled /poll or /todo message becomes a widget when delivered, as
// one sent directly does: Zulip's send_scheduled_message (zerver/actions/
// scheduled_messages.py) sends it through check_message and
// do_send_messages, whose widget post-save actions read the content.
func TestScheduledWidgetMessages(t *testing.T) {
	r, clock := newTestRealm(t)
	verona := fmt.Sprint(channelID(t, r, "Verona"))
	scheduleIn(t, r, idIago, verona, "lunch", "/poll Lunch?\n- Pizza\n- Sushi", time.Minute)
	scheduleIn(t, r, idIago, fmt.Sprintf("[%d]", idHamlet), "", "/todo Chores\n- Dishes", 2*time.Minute)
	clock.Advance(time.Minute)
	poll := newestMessage(t, r)
	want := []Submessage{{MsgType: "widget", MessageID: poll.ID, SenderID: idIago, ID: 1,
		Content: `{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Sushi"]}}`}}
	if diff := cmp.Diff(want, submessagesOf(t, r, idHamlet, poll.ID)); diff != "" {
		t.Fatalf("the scheduled poll's submessages (-want +got):\n%s", diff)
	}
	clock.Advance(time.Minute)
	todo := newestMessage(t, r)
	got := submessagesOf(t, r, idHamlet, todo.ID)
	if todo.ID == poll.ID || len(got) != 1 || got[0].ID != 2 || got[0].SenderID != idIago || !strings.Contains(got[0].Content, `"widget_type": "todo"`) {
		t.Fatalf("the scheduled todo's submessages: %+v", got)
	}
	vote := `{"type": "vote", "key": "canned,0", "vote": 1}`
	if err := r.As(idHamlet).AddSubmessage(bg, SubmessageRequest{MessageID: poll.ID, MsgType: "widget", Content: vote}); err != nil {
		t.Fatal(err)
	}
}
