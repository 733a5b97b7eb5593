package realm

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// remind schedules a reminder about message id for d from now.
func remind(t *testing.T, r *Realm, userID int, id int64, note string, d time.Duration) int {
	t.Helper()
	rid, err := r.As(userID).CreateReminder(bg, id, r.Now().Add(d).Unix(), note)
	if err != nil {
		t.Fatal(err)
	}
	return rid
}

// reminderOf is the stored content of the user's reminder.
func reminderOf(t *testing.T, r *Realm, userID, id int) Reminder {
	t.Helper()
	list, err := r.As(userID).Reminders(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, rem := range list {
		if rem.ID == id {
			return rem
		}
	}
	t.Fatalf("no reminder %d in %+v", id, list)
	return Reminder{}
}

// Reminders are worded as Zulip words them, for channel messages, direct
// messages, notes to oneself and widgets.
func TestReminderContent(t *testing.T) {
	r, _ := newTestRealm(t)
	url := r.URL()
	verona := channelID(t, r, "Verona")
	id := func(res SendResult, err error) int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return res.ID
	}
	hamlet := r.As(idHamlet)
	chMsg := id(hamlet.SendChannelMessage(bg, "Verona", "{789}", "{456}"))
	dmMsg := id(hamlet.SendDirectMessage(bg, []int{idOthello}, "Test message"))
	groupMsg := id(hamlet.SendDirectMessage(bg, []int{idOthello, idCordelia}, "to both"))
	selfMsg := id(hamlet.SendDirectMessage(bg, []int{idHamlet}, "Test message"))
	selfTodo := id(hamlet.SendDirectMessage(bg, []int{idHamlet}, "/todo Test todo list"))
	poll := id(hamlet.SendDirectMessage(bg, []int{idOthello}, "/poll What is your favorite color?"))
	fenced := id(hamlet.SendChannelMessage(bg, "Verona", "test", "```\ncode\n```"))
	me := "@_**King Hamlet|10**"
	othello := "@_**Othello, the Moor of Venice|12**"
	cordelia := "@_**Cordelia, Lear's daughter|8**"
	v := strconv.Itoa(verona) + "-Verona"
	n := func(id int64) string { return strconv.FormatInt(id, 10) }
	for _, c := range []struct {
		id   int64
		note string
		want string
	}{
		{chMsg, "{123}", "You requested a reminder for the following message. Note:\n > {123}\n\n" +
			me + " [said](" + url + "/#narrow/channel/" + v + "/topic/.7B789.7D/near/" + n(chMsg) + ") in [#Verona > {789}](#narrow/channel/" + v + "/topic/.7B789.7D/with/" + n(chMsg) + "):\n```quote\n{456}\n```"},
		{dmMsg, "", "You requested a reminder for the following direct message.\n\n" +
			me + " [said](" + url + "/#narrow/dm/10,12/near/" + n(dmMsg) + ") to " + othello + ":\n```quote\nTest message\n```"},
		{dmMsg, "This is a note for the reminder.  \n", "You requested a reminder for the following direct message. Note:\n > This is a note for the reminder.\n\n" +
			me + " [said](" + url + "/#narrow/dm/10,12/near/" + n(dmMsg) + ") to " + othello + ":\n```quote\nTest message\n```"},
		{groupMsg, "", "You requested a reminder for the following direct message.\n\n" +
			me + " [said](" + url + "/#narrow/dm/8,10,12-group/near/" + n(groupMsg) + ") to " + cordelia + " and " + othello + ":\n```quote\nto both\n```"},
		{selfMsg, "", "You requested a reminder for the following direct message.\n\n" +
			"You [sent](" + url + "/#narrow/dm/10/near/" + n(selfMsg) + ") a note to yourself:\n```quote\nTest message\n```"},
		{selfTodo, "", "You requested a reminder for the following direct message.\n\n" +
			"You [sent](" + url + "/#narrow/dm/10/near/" + n(selfTodo) + ") yourself a todo list."},
		{poll, "", "You requested a reminder for the following direct message.\n\n" +
			me + " [sent](" + url + "/#narrow/dm/10,12/near/" + n(poll) + ") a poll to " + othello + "."},
		{fenced, "", "You requested a reminder for the following message.\n\n" +
			me + " [said](" + url + "/#narrow/channel/" + v + "/topic/test/near/" + n(fenced) + ") in [#Verona > test](#narrow/channel/" + v + "/topic/test/with/" + n(fenced) + "):\n````quote\n```\ncode\n```\n````"},
	} {
		rid := remind(t, r, idHamlet, c.id, c.note, time.Hour)
		if got := reminderOf(t, r, idHamlet, rid); got.Content != c.want || got.ReminderTargetMessageID != c.id ||
			got.Type != "private" || len(got.To) != 1 || got.To[0] != idHamlet || got.RenderedContent == "" {
			t.Errorf("reminder about %d:\n got %q\nwant %q", c.id, got.Content, c.want)
		}
	}
	// A long message is cut so that the reminder fits the length limit.
	long := id(hamlet.SendDirectMessage(bg, []int{idOthello}, strings.Repeat("x", 10000)))
	got := reminderOf(t, r, idHamlet, remind(t, r, idHamlet, long, "", time.Hour)).Content
	if len([]rune(got)) != 10000 || !strings.HasSuffix(got, "x\n[message truncated]\n```") {
		t.Fatalf("long reminder: %d code points, ends %q", len([]rune(got)), got[len(got)-40:])
	}
}

func TestReminderRefusals(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"reminders"}})
	res, err := r.As(idHamlet).SendChannelMessage(bg, "core team", "secret", "plans")
	if err != nil {
		t.Fatal(err)
	}
	public, _ := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "open")
	at := r.Now().Add(time.Hour).Unix()
	othello := r.As(idOthello)
	_, err = othello.CreateReminder(bg, res.ID, at, "")
	wantCode(t, err, CodeBadRequest, "Invalid message(s)")
	_, err = othello.CreateReminder(bg, 99999, at, "")
	wantCode(t, err, CodeBadRequest, "Invalid message(s)")
	_, err = othello.CreateReminder(bg, public.ID, r.Now().Unix(), "")
	wantCode(t, err, CodeBadRequest, "Scheduled delivery time must be in the future.")
	_, err = othello.CreateReminder(bg, public.ID, at, strings.Repeat("n", MaxReminderNoteLength+1))
	wantCode(t, err, CodeBadRequest, "Maximum reminder note length: 1000 characters")
	if list, _ := othello.Reminders(bg); len(list) != 0 || r.scheduled.lastID != 0 {
		t.Fatalf("refused reminders stored: %+v", list)
	}
	if evs := pending(t, r, idOthello, q, -1); len(evs) != 0 {
		t.Fatalf("refused reminders sent events %v", evs)
	}
	// A note at the limit is fine; the public channel's message is
	// accessible without a copy.
	rid := remind(t, r, idOthello, public.ID, strings.Repeat("n", MaxReminderNoteLength), time.Hour)
	// Reminders and scheduled messages do not answer for each other.
	wantCode(t, othello.DeleteScheduledMessage(bg, rid), CodeBadRequest, "Scheduled message does not exist")
	if re := wantCode(t, r.As(idHamlet).DeleteReminder(bg, rid), CodeBadRequest, "Reminder does not exist"); re.Status != 404 {
		t.Fatalf("status %d", re.Status)
	}
	sid := scheduleIn(t, r, idOthello, "[10]", "", "x", time.Hour)
	wantCode(t, othello.DeleteReminder(bg, sid), CodeBadRequest, "Reminder does not exist")
	if list, _ := othello.ScheduledMessages(bg); len(list) != 1 || list[0].ID != sid {
		t.Fatalf("scheduled messages %+v", list)
	}
	if list, _ := othello.Reminders(bg); len(list) != 1 || list[0].ID != rid {
		t.Fatalf("reminders %+v", list)
	}
	if err := othello.DeleteReminder(bg, rid); err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idOthello, q, -1)
	if ops := eventOps(t, evs, "reminders"); strings.Join(ops, ",") != "add,remove" {
		t.Fatalf("events %v", ops)
	}
	if j := eventJSON(t, evs[1]); j["reminder_id"] != float64(rid) {
		t.Fatalf("remove event %v", j)
	}
	if list, _ := othello.Reminders(bg); len(list) != 0 {
		t.Fatalf("after delete %+v", list)
	}
}

// At its time the Notification Bot sends the reminder to its owner alone,
// and the reminder leaves the list.
func TestReminderDeliveredByClock(t *testing.T) {
	r, clock := newTestRealm(t)
	res, _ := r.As(idHamlet).SendDirectMessage(bg, []int{idOthello}, "remember me")
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"reminders", "message"}})
	other := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"reminders", "message"}})
	rid := remind(t, r, idHamlet, res.ID, "soon", 5*time.Minute)
	want := reminderOf(t, r, idHamlet, rid).Content
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"reminders"}})
	if len(state.Reminders) != 1 || state.Reminders[0].ID != rid || state.Reminders[0].ReminderTargetMessageID != res.ID {
		t.Fatalf("register %+v", state.RemindersState)
	}
	clock.Advance(5 * time.Minute)
	m := newestMessage(t, r)
	if m.SenderID != idNotificationBot || len(m.DMUserIDs) != 2 || m.DMUserIDs[0] != idNotificationBot || m.DMUserIDs[1] != idHamlet || m.Content != want {
		t.Fatalf("delivered %+v", m)
	}
	if view, _, _ := r.As(idHamlet).Message(bg, m.ID, ViewOptions{}); len(view.Flags) != 0 {
		t.Fatalf("the reminder starts with flags %v", view.Flags)
	}
	if list, _ := r.As(idHamlet).Reminders(bg); len(list) != 0 {
		t.Fatalf("list after delivery %+v", list)
	}
	evs := pending(t, r, idHamlet, q, -1)
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type+":"+eventOpOrEmpty(t, ev))
	}
	if strings.Join(types, ",") != "reminders:add,message:,reminders:remove" {
		t.Fatalf("hamlet's events %v", types)
	}
	if evs := pending(t, r, idOthello, other, -1); len(evs) != 0 {
		t.Fatalf("othello got %v", evs)
	}
}

// eventOpOrEmpty is an event's op, "" for events without one.
func eventOpOrEmpty(t *testing.T, ev Event) string {
	op, _ := eventJSON(t, ev)["op"].(string)
	return op
}

// A reminder about a message deleted meanwhile is sent as it was worded;
// one whose owner was deactivated fails silently.
func TestReminderDeliveryEdgeCases(t *testing.T) {
	r, clock := newTestRealm(t)
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "soon gone")
	rid := remind(t, r, idHamlet, res.ID, "", time.Minute)
	want := reminderOf(t, r, idHamlet, rid).Content
	if err := r.As(idIago).DeleteMessage(bg, res.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if m := newestMessage(t, r); m.SenderID != idNotificationBot || m.Content != want {
		t.Fatalf("delivered %+v", m)
	}
	res, _ = r.As(idOthello).SendChannelMessage(bg, "Verona", "t", "x")
	rid = remind(t, r, idOthello, res.ID, "", time.Minute)
	if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	count := r.messages.nextID
	clock.Advance(time.Minute)
	if r.messages.nextID != count {
		t.Fatal("a reminder of a deactivated user was sent")
	}
	if it := r.scheduled.byID[rid]; it == nil || !it.failed || it.failure != "Account is deactivated" {
		t.Fatalf("reminder %+v", it)
	}
}
