package httpapi

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/user"
)

// reactionPath is the reactions endpoint of a message.
func reactionPath(id int64) string { return "/messages/" + strconv.FormatInt(id, 10) + "/reactions" }

// reactionsShown is the reactions of a Denmark message as email fetches
// it alone and in GET /messages, which must agree.
func (e *msgEnv) reactionsShown(email string, id int64) []any {
	e.t.Helper()
	one := e.message(email, strconv.FormatInt(id, 10))["reactions"].([]any)
	status, body := e.do(email, "GET", "/messages", url.Values{"anchor": {strconv.FormatInt(id, 10)},
		"num_before": {"0"}, "num_after": {"0"}, "narrow": {`[{"operator":"channel","operand":"Denmark"}]`}})
	e.wantSuccess(status, body)
	many := body["messages"].([]any)[0].(map[string]any)["reactions"].([]any)
	if diff := cmp.Diff(one, many); diff != "" {
		e.t.Fatalf("GET /messages/{id} and GET /messages disagree (-one +many):\n%s", diff)
	}
	return one
}

// reactionEventsOf are the reaction events in email's queue.
func (e *msgEnv) reactionEventsOf(email, qid string) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	for _, ev := range e.events(email, qid, -1, false) {
		if m := ev.(map[string]any); m["type"] == "reaction" {
			out = append(out, m)
		}
	}
	return out
}

func reactionObj(name, code, typ string, userID int) map[string]any {
	return map[string]any{"emoji_name": name, "emoji_code": code, "reaction_type": typ, "user_id": float64(userID)}
}

// Adding and removing reactions, shown in message objects and announced
// to exactly the users who can see the message.
func TestHTTPReactions(t *testing.T) {
	e := newMsgEnv(t)
	id := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "hello")
	queues := map[string]string{}
	for _, who := range []string{"hamlet", "othello", "cordelia", "polonius"} {
		queues[who], _ = e.register(who+"@zulip.com", url.Values{"event_types": {`["reaction"]`}})
	}
	path := reactionPath(id)
	e.ok(e.do("othello@zulip.com", "POST", path, url.Values{"emoji_name": {"tada"}}))
	// A custom emoji is recognised without reaction_type; so is the
	// special built-in one.
	e.ok(e.do("othello@zulip.com", "POST", path, url.Values{"emoji_name": {"green_tick"}}))
	e.ok(e.do("hamlet@zulip.com", "POST", path, url.Values{"emoji_name": {"zulip"}}))
	want := []any{
		reactionObj("tada", "1f389", "unicode_emoji", 12),
		reactionObj("green_tick", "1", "realm_emoji", 12),
		reactionObj("zulip", "zulip", "zulip_extra_emoji", 10),
	}
	if diff := cmp.Diff(want, e.reactionsShown("cordelia@zulip.com", id)); diff != "" {
		t.Fatalf("reactions (-want +got):\n%s", diff)
	}
	wantEvent := map[string]any{"type": "reaction", "op": "add", "id": float64(0), "message_id": float64(id),
		"emoji_name": "tada", "emoji_code": "1f389", "reaction_type": "unicode_emoji", "user_id": float64(12),
		"user": map[string]any{"user_id": float64(12), "email": "user12@zulipdev.com", "full_name": "Othello, the Moor of Venice"}}
	for who, n := range map[string]int{"hamlet": 3, "othello": 3, "cordelia": 0, "polonius": 0} {
		evs := e.reactionEventsOf(who+"@zulip.com", queues[who])
		if len(evs) != n {
			t.Fatalf("%s got %d reaction events, want %d: %v", who, len(evs), n, evs)
		}
		if n > 0 {
			if diff := cmp.Diff(wantEvent, evs[0]); diff != "" {
				t.Fatalf("%s's first event (-want +got):\n%s", who, diff)
			}
		}
	}
	// Cordelia may read Denmark's history: her vote joins Othello's
	// reaction by code under its name, and gives her a copy, so that she
	// hears of the message's reactions from then on.
	e.ok(e.do("cordelia@zulip.com", "POST", path, url.Values{"emoji_name": {"party_popper"}, "emoji_code": {"1f389"},
		"reaction_type": {"unicode_emoji"}}))
	if got := e.flagsOf("cordelia@zulip.com", id); len(got) != 2 || got[0] != "read" || got[1] != "historical" {
		t.Fatalf("cordelia's flags %v", got)
	}
	e.ok(e.do("othello@zulip.com", "DELETE", path, url.Values{"emoji_name": {"tada"}}))
	evs := e.reactionEventsOf("cordelia@zulip.com", queues["cordelia"])
	if len(evs) != 2 || evs[0]["op"] != "add" || evs[0]["emoji_name"] != "tada" || evs[1]["op"] != "remove" || evs[1]["user_id"] != float64(12) {
		t.Fatalf("cordelia's events %v", evs)
	}
	if len(e.reactionEventsOf("polonius@zulip.com", queues["polonius"])) != 0 {
		t.Fatal("polonius (a guest, not subscribed) must hear of nothing")
	}
	want = []any{
		reactionObj("green_tick", "1", "realm_emoji", 12),
		reactionObj("zulip", "zulip", "zulip_extra_emoji", 10),
		reactionObj("tada", "1f389", "unicode_emoji", 8),
	}
	if diff := cmp.Diff(want, e.reactionsShown("hamlet@zulip.com", id)); diff != "" {
		t.Fatalf("reactions after the removal (-want +got):\n%s", diff)
	}
	// Removing by code and type, either spelling of the special type.
	e.ok(e.do("hamlet@zulip.com", "DELETE", path, url.Values{"emoji_code": {"zulip"}, "reaction_type": {"zulip_extra_emoji"}}))
	e.ok(e.do("othello@zulip.com", "DELETE", path, url.Values{"emoji_name": {"green_tick"}, "emoji_code": {"1"},
		"reaction_type": {"realm_emoji"}}))
	if diff := cmp.Diff([]any{reactionObj("tada", "1f389", "unicode_emoji", 8)}, e.reactionsShown("hamlet@zulip.com", id)); diff != "" {
		t.Fatalf("reactions (-want +got):\n%s", diff)
	}
}

// Every refusal has Zulip's code and message and changes nothing.
func TestHTTPReactionErrors(t *testing.T) {
	e := newMsgEnv(t)
	id := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "hello")
	secret := e.sendTo("hamlet@zulip.com", "core team", "plans", "secret")
	path := reactionPath(id)
	e.ok(e.do("iago@zulip.com", "POST", path, url.Values{"emoji_name": {"tada"}}))
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["reaction","user_topic"]`}})
	for _, c := range []struct {
		who, method, path string
		form              url.Values
		status            int
		code, msg         string
	}{
		{"iago", "POST", path, url.Values{"emoji_name": {"tada"}}, 400, "REACTION_ALREADY_EXISTS", "Reaction already exists."},
		{"iago", "POST", path, url.Values{"emoji_name": {"party_popper"}, "emoji_code": {"1f389"}, "reaction_type": {"unicode_emoji"}}, 400, "REACTION_ALREADY_EXISTS", "Reaction already exists."},
		// Without reaction_type the name is looked up first.
		{"iago", "POST", path, url.Values{"emoji_name": {"party_popper"}, "emoji_code": {"1f389"}}, 400, "BAD_REQUEST", "Emoji 'party_popper' does not exist"},
		{"iago", "POST", path, url.Values{}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'emoji_name' argument"},
		{"iago", "POST", path, url.Values{"emoji_name": {"not_an_emoji"}}, 400, "BAD_REQUEST", "Emoji 'not_an_emoji' does not exist"},
		{"iago", "POST", path, url.Values{"emoji_name": {"smile"}, "emoji_code": {"1f44d"}}, 400, "BAD_REQUEST", "Invalid emoji name."},
		{"iago", "POST", path, url.Values{"emoji_name": {"smile"}, "emoji_code": {"xyz"}}, 400, "BAD_REQUEST", "Invalid emoji code."},
		{"iago", "POST", path, url.Values{"emoji_name": {"smile"}, "emoji_code": {""}}, 400, "BAD_REQUEST", "Invalid emoji code."},
		{"iago", "POST", path, url.Values{"emoji_name": {"smile"}, "reaction_type": {"realm_emoji"}}, 400, "BAD_REQUEST", "Invalid custom emoji."},
		{"iago", "POST", path, url.Values{"emoji_name": {"smile"}, "reaction_type": {"emoticon"}}, 400, "BAD_REQUEST", "Invalid emoji type."},
		{"iago", "POST", path, url.Values{"emoji_name": {"blue_tick"}, "emoji_code": {"1"}, "reaction_type": {"realm_emoji"}}, 400, "BAD_REQUEST", "Invalid custom emoji name."},
		{"iago", "POST", path, url.Values{"emoji_name": {"zulip"}, "emoji_code": {"1f389"}, "reaction_type": {"service_extra_emoji"}}, 400, "BAD_REQUEST", "Invalid emoji code."},
		{"othello", "POST", reactionPath(secret), url.Values{"emoji_name": {"tada"}}, 400, "BAD_REQUEST", "Invalid message(s)"},
		{"othello", "POST", reactionPath(99999), url.Values{"emoji_name": {"tada"}}, 400, "BAD_REQUEST", "Invalid message(s)"},
		{"othello", "DELETE", reactionPath(secret), url.Values{"emoji_name": {"tada"}}, 400, "BAD_REQUEST", "Invalid message(s)"},
		{"othello", "POST", "/messages/abc/reactions", url.Values{"emoji_name": {"tada"}}, 404, "BAD_REQUEST", "Not Found"},
		{"iago", "DELETE", path, url.Values{"emoji_name": {"smile"}}, 400, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist."},
		{"iago", "DELETE", path, url.Values{"emoji_code": {"1f389"}, "reaction_type": {"realm_emoji"}}, 400, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist."},
		{"othello", "DELETE", path, url.Values{"emoji_name": {"tada"}}, 400, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist."},
		{"iago", "DELETE", path, url.Values{"emoji_name": {"not_an_emoji"}}, 400, "BAD_REQUEST", "Emoji 'not_an_emoji' does not exist"},
		{"iago", "DELETE", path, url.Values{}, 400, "BAD_REQUEST", "At least one of the following arguments must be present: emoji_name, emoji_code"},
		{"", "POST", path, url.Values{"emoji_name": {"smile"}}, 401, "UNAUTHORIZED", ""},
	} {
		email := ""
		if c.who != "" {
			email = c.who + "@zulip.com"
		}
		status, body := e.do(email, c.method, c.path, c.form)
		e.wantError(status, body, c.status, c.code, c.msg)
		if c.code != "UNAUTHORIZED" && c.code != "REQUEST_VARIABLE_MISSING" && len(body) != 3 {
			t.Errorf("%s %s %v: error body %v carries extra fields", c.method, c.path, c.form, body)
		}
	}
	if diff := cmp.Diff([]any{reactionObj("tada", "1f389", "unicode_emoji", 11)}, e.reactionsShown("hamlet@zulip.com", id)); diff != "" {
		t.Fatalf("refusals changed reactions (-want +got):\n%s", diff)
	}
	if evs := e.events("iago@zulip.com", qid, -1, false); len(evs) != 0 {
		t.Fatalf("refusals sent events %v", evs)
	}
	if got := e.flagsOf("othello@zulip.com", id); len(got) != 0 {
		t.Fatalf("othello's copy changed: %v", got)
	}
}

// A vote for an existing reaction joins it by code and type, keeping its
// name, even when its custom emoji was deactivated since.
func TestHTTPReactionVotes(t *testing.T) {
	e := newMsgEnv(t)
	id := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "hello")
	path := reactionPath(id)
	e.ok(e.do("othello@zulip.com", "POST", path, url.Values{"emoji_name": {"thumbs_up"}}))
	e.ok(e.do("iago@zulip.com", "POST", path, url.Values{"emoji_name": {"+1"}, "emoji_code": {"1f44d"}, "reaction_type": {"unicode_emoji"}}))
	e.ok(e.do("othello@zulip.com", "POST", path, url.Values{"emoji_name": {"green_tick"}}))
	e.ok(e.do("iago@zulip.com", "DELETE", "/realm/emoji/green_tick", nil))
	// The name no longer resolves: a vote must name the code.
	status, body := e.do("hamlet@zulip.com", "POST", path, url.Values{"emoji_name": {"green_tick"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Emoji 'green_tick' does not exist")
	e.ok(e.do("hamlet@zulip.com", "POST", path, url.Values{"emoji_name": {"green_tick"}, "emoji_code": {"1"}, "reaction_type": {"realm_emoji"}}))
	// A new reaction with the deactivated emoji is refused.
	other := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "again")
	status, body = e.do("hamlet@zulip.com", "POST", reactionPath(other), url.Values{"emoji_name": {"green_tick"},
		"emoji_code": {"1"}, "reaction_type": {"realm_emoji"}})
	e.fail(status, body, 400, "BAD_REQUEST", "This custom emoji has been deactivated.")
	want := []any{
		reactionObj("thumbs_up", "1f44d", "unicode_emoji", 12),
		reactionObj("thumbs_up", "1f44d", "unicode_emoji", 11),
		reactionObj("green_tick", "1", "realm_emoji", 12),
		reactionObj("green_tick", "1", "realm_emoji", 10),
	}
	if diff := cmp.Diff(want, e.reactionsShown("iago@zulip.com", id)); diff != "" {
		t.Fatalf("reactions (-want +got):\n%s", diff)
	}
	// The deactivated emoji's reaction is still removable, by code.
	e.ok(e.do("hamlet@zulip.com", "DELETE", path, url.Values{"emoji_code": {"1"}, "reaction_type": {"realm_emoji"}}))
	if got := e.reactionsShown("iago@zulip.com", id); len(got) != 3 {
		t.Fatalf("reactions %v", got)
	}
	// has:reaction narrows find the message.
	status, body = e.do("iago@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"10"},
		"num_after": {"0"}, "narrow": {`[{"operator":"has","operand":"reaction"}]`}})
	if msgs := e.success(status, body)["messages"].([]any); len(msgs) != 1 || msgs[0].(map[string]any)["id"] != float64(id) {
		t.Fatalf("has:reaction found %v", msgs)
	}
}

// Reacting is participation: a subscriber whose setting follows topics
// on participation follows the topic, and hears so.
func TestHTTPReactionFollowsTopic(t *testing.T) {
	e := newMsgEnv(t)
	id := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "hello")
	e.realm.UpdateUserSettings(12, func(s *user.Settings) { s.AutomaticallyFollowTopicsPolicy = user.AutoOnParticipation })
	qid, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["user_topic","reaction"]`}})
	e.ok(e.do("othello@zulip.com", "POST", reactionPath(id), url.Values{"emoji_name": {"tada"}}))
	ops := eventOps(e.events("othello@zulip.com", qid, -1, false))
	if diff := cmp.Diff([]string{"user_topic:", "reaction:add"}, ops); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	_, reg := e.register("othello@zulip.com", url.Values{"fetch_event_types": {`["user_topic"]`}})
	topics := reg["user_topics"].([]any)
	if len(topics) != 1 || topics[0].(map[string]any)["topic_name"] != "castle" || topics[0].(map[string]any)["visibility_policy"] != float64(3) {
		t.Fatalf("user_topics %v", topics)
	}
}

// Below the levels that changed them, message reactions carry the user
// object and the special emoji's type is zulip_extra_emoji.
func TestHTTPReactionsAtOlderLevels(t *testing.T) {
	e := newAPIEnv(t, time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), realmFeatureLevel(300, "9.0"))
	id := e.sendTo("hamlet@zulip.com", "Denmark", "castle", "hello")
	e.ok(e.do("othello@zulip.com", "POST", reactionPath(id), url.Values{"emoji_name": {"zulip"}}))
	want := []any{map[string]any{"emoji_name": "zulip", "emoji_code": "zulip", "reaction_type": "zulip_extra_emoji",
		"user_id": float64(12), "user": map[string]any{"id": float64(12), "email": "user12@zulipdev.com", "full_name": "Othello, the Moor of Venice"}}}
	if diff := cmp.Diff(want, e.reactionsShown("hamlet@zulip.com", id)); diff != "" {
		t.Fatalf("reactions (-want +got):\n%s", diff)
	}
}
