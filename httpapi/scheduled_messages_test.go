package httpapi

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// inFuture is a delivery timestamp d after the realm's now.
func (e *apiEnv) inFuture(d time.Duration) string {
	return strconv.FormatInt(e.realm.Now().Add(d).Unix(), 10)
}

func TestHTTPScheduledMessages(t *testing.T) {
	e := newMsgEnv(t)
	const hamlet = "hamlet@zulip.com"
	qid, _ := e.register(hamlet, url.Values{"event_types": {`["scheduled_messages"]`}})
	verona := e.channelID("Verona")
	st, body := e.do(hamlet, "POST", "/scheduled_messages", url.Values{"type": {"channel"}, "to": {verona},
		"topic": {"castle"}, "content": {"to the **castle**"}, "scheduled_delivery_timestamp": {e.inFuture(2 * time.Hour)}})
	chID := jsonNumber(e.ok(st, body)["scheduled_message_id"])
	// go-zulip's create: to as a JSON list, a type, no topic.
	st, body = e.do(hamlet, "POST", "/scheduled_messages", url.Values{"type": {"direct"}, "to": {"[12]"},
		"content": {"psst"}, "scheduled_delivery_timestamp": {e.inFuture(time.Hour)}, "read_by_sender": {"false"}})
	dmID := jsonNumber(e.ok(st, body)["scheduled_message_id"])
	st, body = e.do(hamlet, "GET", "/scheduled_messages", nil)
	list := e.ok(st, body)["scheduled_messages"].([]any)
	if len(list) != 2 {
		t.Fatalf("list %v", list)
	}
	first, second := list[0].(map[string]any), list[1].(map[string]any)
	if jsonNumber(first["scheduled_message_id"]) != dmID || first["type"] != "private" || jsonNumber(first["to"]) != "[12]" || first["topic"] != nil {
		t.Fatalf("direct message %v", first)
	}
	if jsonNumber(second["scheduled_message_id"]) != chID || second["type"] != "stream" || jsonNumber(second["to"]) != verona ||
		second["topic"] != "castle" || second["rendered_content"] != "<p>to the <strong>castle</strong></p>" || second["failed"] != false {
		t.Fatalf("channel message %v", second)
	}
	st, body = e.do(hamlet, "PATCH", "/scheduled_messages/"+chID, url.Values{"content": {"changed"}, "topic": {"moat"}})
	e.wantSuccess(st, body)
	st, body = e.do(hamlet, "PATCH", "/scheduled_messages/"+chID, nil)
	e.wantError(st, body, 400, "BAD_REQUEST", "Nothing to change")
	st, body = e.do(hamlet, "PATCH", "/scheduled_messages/"+chID, url.Values{"scheduled_delivery_timestamp": {"soon"}})
	e.wantError(st, body, 400, "BAD_REQUEST", "scheduled_delivery_timestamp is not an integer")
	st, body = e.do("iago@zulip.com", "PATCH", "/scheduled_messages/"+chID, url.Values{"content": {"mine"}})
	e.wantError(st, body, 404, "BAD_REQUEST", "Scheduled message does not exist")
	st, body = e.do(hamlet, "DELETE", "/scheduled_messages/"+dmID, nil)
	e.wantSuccess(st, body)
	st, body = e.do(hamlet, "DELETE", "/scheduled_messages/"+dmID, nil)
	e.wantError(st, body, 404, "BAD_REQUEST", "Scheduled message does not exist")
	st, body = e.do(hamlet, "GET", "/scheduled_messages", nil)
	list = e.ok(st, body)["scheduled_messages"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["content"] != "changed" || list[0].(map[string]any)["topic"] != "moat" {
		t.Fatalf("after edit and delete %v", list)
	}
	var ops []string
	for _, ev := range e.eventsOfType(hamlet, qid, "scheduled_messages") {
		ops = append(ops, ev["op"].(string))
	}
	if strings.Join(ops, ",") != "add,add,update,remove" {
		t.Fatalf("events %v", ops)
	}
	_, state := e.register(hamlet, url.Values{"fetch_event_types": {`["scheduled_messages"]`}})
	if got := state["scheduled_messages"].([]any); len(got) != 1 || jsonNumber(got[0].(map[string]any)["scheduled_message_id"]) != chID {
		t.Fatalf("register %v", state["scheduled_messages"])
	}
}

func TestHTTPScheduledMessageRefusals(t *testing.T) {
	e := newMsgEnv(t)
	const hamlet = "hamlet@zulip.com"
	verona := e.channelID("Verona")
	base := func(over url.Values) url.Values {
		v := url.Values{"type": {"stream"}, "to": {verona}, "topic": {"t"}, "content": {"x"},
			"scheduled_delivery_timestamp": {e.inFuture(time.Hour)}}
		for k, vals := range over {
			if vals == nil {
				v.Del(k)
			} else {
				v[k] = vals
			}
		}
		return v
	}
	for _, c := range []struct {
		form   url.Values
		status int
		code   string
		msg    string
	}{
		{base(url.Values{"scheduled_delivery_timestamp": nil}), 400, "REQUEST_VARIABLE_MISSING", "Missing 'scheduled_delivery_timestamp' argument"},
		{base(url.Values{"type": nil}), 400, "REQUEST_VARIABLE_MISSING", "Missing 'type' argument"},
		{base(url.Values{"scheduled_delivery_timestamp": {e.inFuture(-time.Minute)}}), 400, "BAD_REQUEST", "Scheduled delivery time must be in the future."},
		{base(url.Values{"to": {"Verona"}}), 400, "BAD_REQUEST", "Invalid data type for channel ID"},
		{base(url.Values{"to": {"9999"}}), 400, "STREAM_DOES_NOT_EXIST", "Channel with ID '9999' does not exist"},
		{base(url.Values{"type": {"direct"}, "to": {"[9999]"}}), 400, "BAD_REQUEST", "Invalid user ID 9999"},
		{base(url.Values{"read_by_sender": {"maybe"}}), 400, "BAD_REQUEST", "read_by_sender is not a boolean"},
	} {
		st, body := e.do(hamlet, "POST", "/scheduled_messages", c.form)
		e.wantError(st, body, c.status, c.code, c.msg)
	}
	st, body := e.do(hamlet, "GET", "/scheduled_messages", nil)
	if list := e.ok(st, body)["scheduled_messages"].([]any); len(list) != 0 {
		t.Fatalf("refused requests stored %v", list)
	}
}

// POST /minizulip/clock moving the clock past the time delivers the
// message, as the realm's clock reaching it does.
func TestHTTPScheduledMessageDeliveredByClockControl(t *testing.T) {
	e := newCtlEnv(t)
	const hamlet = "hamlet@zulip.com"
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["message"]`}})
	st, body := e.do(hamlet, "POST", "/scheduled_messages", url.Values{"type": {"direct"}, "to": {"[12]"},
		"content": {"on time"}, "scheduled_delivery_timestamp": {e.inFuture(5 * time.Minute)}})
	e.ok(st, body)
	st, body = e.ctl("POST", "/minizulip/clock", url.Values{"advance": {"299"}})
	e.ok(st, body)
	if evs := e.eventsOfType("othello@zulip.com", qid, "message"); len(evs) != 0 {
		t.Fatalf("delivered early: %v", evs)
	}
	st, body = e.ctl("POST", "/minizulip/clock", url.Values{"advance": {"1"}})
	e.ok(st, body)
	evs := e.eventsOfType("othello@zulip.com", qid, "message")
	if len(evs) != 1 {
		t.Fatalf("events %v", evs)
	}
	m := evs[0]["message"].(map[string]any)
	if m["content"] != "on time" || m["type"] != "private" || jsonNumber(m["sender_id"]) != "10" {
		t.Fatalf("message %v", m)
	}
	st, body = e.do(hamlet, "GET", "/scheduled_messages", nil)
	if list := e.ok(st, body)["scheduled_messages"].([]any); len(list) != 0 {
		t.Fatalf("still listed: %v", list)
	}
}

func TestHTTPReminders(t *testing.T) {
	e := newMsgEnv(t)
	const hamlet = "hamlet@zulip.com"
	qid, _ := e.register(hamlet, url.Values{"event_types": {`["reminders", "message"]`}})
	msg := e.sendDM(hamlet, "[12]", "remember this")
	id := strconv.FormatInt(msg, 10)
	st, body := e.do(hamlet, "POST", "/reminders", url.Values{"message_id": {id}, "note": {"a note"},
		"scheduled_delivery_timestamp": {e.inFuture(5 * time.Minute)}})
	rid := jsonNumber(e.ok(st, body)["reminder_id"])
	st, body = e.do(hamlet, "POST", "/reminders", url.Values{"message_id": {"99999"},
		"scheduled_delivery_timestamp": {e.inFuture(time.Hour)}})
	e.wantError(st, body, 400, "BAD_REQUEST", "Invalid message(s)")
	st, body = e.do(hamlet, "POST", "/reminders", url.Values{"message_id": {id}})
	e.wantError(st, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'scheduled_delivery_timestamp' argument")
	st, body = e.do(hamlet, "GET", "/reminders", nil)
	list := e.ok(st, body)["reminders"].([]any)
	if len(list) != 1 {
		t.Fatalf("list %v", list)
	}
	rem := list[0].(map[string]any)
	if jsonNumber(rem["reminder_id"]) != rid || jsonNumber(rem["reminder_target_message_id"]) != id || rem["type"] != "private" ||
		jsonNumber(rem["to"]) != "[10]" || !strings.Contains(rem["content"].(string), "Note:\n > a note") {
		t.Fatalf("reminder %v", rem)
	}
	_, state := e.register(hamlet, url.Values{"fetch_event_types": {`["reminders"]`}})
	if got := state["reminders"].([]any); len(got) != 1 || jsonNumber(got[0].(map[string]any)["reminder_id"]) != rid {
		t.Fatalf("register %v", state["reminders"])
	}
	st, body = e.do("iago@zulip.com", "DELETE", "/reminders/"+rid, nil)
	e.wantError(st, body, 404, "BAD_REQUEST", "Reminder does not exist")
	// Delivered at its time by the Notification Bot.
	e.clock.Advance(5 * time.Minute)
	st, body = e.do(hamlet, "GET", "/reminders", nil)
	if list := e.ok(st, body)["reminders"].([]any); len(list) != 0 {
		t.Fatalf("still listed: %v", list)
	}
	var got []string
	for _, ev := range e.events(hamlet, qid, -1, false) {
		m := ev.(map[string]any)
		op, _ := m["op"].(string)
		got = append(got, m["type"].(string)+":"+op)
		if m["type"] == "message" && m["message"].(map[string]any)["sender_email"] == "notification-bot@zulip.com" {
			got[len(got)-1] += ":bot"
		}
	}
	if strings.Join(got, ",") != "message:,reminders:add,message::bot,reminders:remove" {
		t.Fatalf("events %v", got)
	}
	// A second one, deleted before its time.
	st, body = e.do(hamlet, "POST", "/reminders", url.Values{"message_id": {id}, "scheduled_delivery_timestamp": {e.inFuture(time.Hour)}})
	rid = jsonNumber(e.ok(st, body)["reminder_id"])
	st, body = e.do(hamlet, "DELETE", "/reminders/"+rid, nil)
	e.wantSuccess(st, body)
	st, body = e.do(hamlet, "DELETE", "/reminders/"+rid, nil)
	e.wantError(st, body, 404, "BAD_REQUEST", "Reminder does not exist")
}
