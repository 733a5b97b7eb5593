package httpapi

import (
	"net/url"
	"slices"
	"testing"
)

// streamEvents registers email for stream events (with the given client
// capabilities) and returns a function reading what arrived.
func (e *chanEnv) streamEvents(email, capabilities string) func() []map[string]any {
	e.t.Helper()
	form := url.Values{"event_types": {`["stream","subscription"]`}}
	if capabilities != "" {
		form.Set("client_capabilities", capabilities)
	}
	qid, _ := e.register(email, form)
	return func() []map[string]any {
		e.t.Helper()
		var out []map[string]any
		for _, ev := range e.events(email, qid, -1, false) {
			out = append(out, ev.(map[string]any))
		}
		return out
	}
}

func TestHTTPCreateChannel(t *testing.T) {
	e := newChanEnv(t)
	othello := e.streamEvents("othello@zulip.com", "")
	cordelia := e.streamEvents("cordelia@zulip.com", "")
	body := e.ok(e.do("hamlet@zulip.com", "POST", "/channels/create", url.Values{
		"name": {"  elsinore "}, "description": {"The *castle*"}, "subscribers": {"[12]"}, "invite_only": {"true"},
		"can_remove_subscribers_group": {"11"}}))
	id := body["id"].(float64)
	st := e.ok(e.do("othello@zulip.com", "GET", "/streams/"+jsonNumber(id), nil))["stream"].(map[string]any)
	if st["name"] != "elsinore" || st["rendered_description"] != "<p>The <em>castle</em></p>" || st["invite_only"] != true ||
		st["history_public_to_subscribers"] != false || st["creator_id"] != float64(10) || st["can_remove_subscribers_group"] != float64(11) {
		t.Fatalf("stream %v", st)
	}
	if got := e.subscriptionNames("hamlet@zulip.com"); slices.Contains(got, "elsinore") {
		t.Fatal("the creator was not among the subscribers")
	}
	var ops []string
	for _, ev := range othello() {
		ops = append(ops, ev["type"].(string)+" "+ev["op"].(string))
	}
	if !slices.Equal(ops, []string{"stream create", "subscription add"}) {
		t.Fatalf("othello's events %v", ops)
	}
	if evs := cordelia(); len(evs) != 0 {
		t.Fatalf("cordelia may not see the private channel: %v", evs)
	}
	before := e.snapshot()
	for _, c := range []struct {
		email  string
		form   url.Values
		status int
		code   string
		msg    string
	}{
		{"iago@zulip.com", url.Values{"name": {"ELSINORE"}, "subscribers": {"[]"}}, 409, "CHANNEL_ALREADY_EXISTS", "Channel 'ELSINORE' already exists"},
		{"polonius@zulip.com", url.Values{"name": {"guests"}, "subscribers": {"[]"}}, 400, "BAD_REQUEST", "Not allowed for guest users"},
		{"iago@zulip.com", url.Values{"name": {"nobody"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'subscribers' argument"},
		{"iago@zulip.com", url.Values{"subscribers": {"[]"}}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'name' argument"},
		{"iago@zulip.com", url.Values{"name": {"ghosts"}, "subscribers": {"[999]"}}, 400, "BAD_REQUEST", "No such user"},
		{"iago@zulip.com", url.Values{"name": {" "}, "subscribers": {"[]"}}, 400, "BAD_REQUEST", "Channel name can't be empty."},
		{"hamlet@zulip.com", url.Values{"name": {"mine"}, "subscribers": {"[]"}, "message_retention_days": {"5"}}, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
	} {
		status, body := e.do(c.email, "POST", "/channels/create", c.form)
		e.fail(status, body, c.status, c.code, c.msg)
	}
	e.unchanged(before)
	// No subscribers at all is allowed.
	id2 := e.ok(e.do("iago@zulip.com", "POST", "/channels/create", url.Values{"name": {"empty"}, "subscribers": {"[]"}}))["id"].(float64)
	if got := e.members("iago@zulip.com", jsonNumber(id2)); len(got) != 0 {
		t.Fatalf("members of a channel made without subscribers: %v", got)
	}
}

func TestHTTPUpdateChannel(t *testing.T) {
	e := newChanEnv(t)
	cordelia := e.streamEvents("cordelia@zulip.com", "")
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/4", url.Values{"new_name": {" Venezia "}, "description": {"La *Serenissima*\nsul mare"}}))
	st := e.ok(e.do("cordelia@zulip.com", "GET", "/streams/4", nil))["stream"].(map[string]any)
	if st["name"] != "Venezia" || st["description"] != "La *Serenissima* sul mare" || st["rendered_description"] != "<p>La <em>Serenissima</em> sul mare</p>" {
		t.Fatalf("stream %v", st)
	}
	e.ok(e.do("iago@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"venezia"}}))
	status, body := e.do("iago@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"Venice"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel name 'Venice'")
	evs := cordelia()
	if len(evs) != 2 || evs[0]["property"] != "description" || evs[0]["rendered_description"] != "<p>La <em>Serenissima</em> sul mare</p>" ||
		evs[1]["property"] != "name" || evs[1]["name"] != "Venice" || evs[1]["value"] != "Venezia" || evs[1]["stream_id"] != float64(4) {
		t.Fatalf("events %v", evs)
	}
	// A renamed channel still takes messages by its new name.
	e.ok(e.do("cordelia@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Venezia"}, "topic": {"t"}, "content": {"ciao"}}))

	// Group settings: {"new", "old"}; a stale old refuses the change.
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"can_send_message_group": {`{"new": 11}`}}))
	if st := e.ok(e.do("hamlet@zulip.com", "GET", "/streams/2", nil))["stream"].(map[string]any); st["can_send_message_group"] != float64(11) || st["stream_post_policy"] != float64(2) {
		t.Fatalf("after can_send_message_group: %v", st)
	}
	status, body = e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"can_send_message_group": {`{"new": 8, "old": 9}`}})
	e.fail(status, body, 400, "EXPECTATION_MISMATCH", "'old' value does not match the expected value.")

	before := e.snapshot()
	for _, c := range []struct {
		email, id string
		form      url.Values
		status    int
		code, msg string
	}{
		{"hamlet@zulip.com", "2", url.Values{"new_name": {"Danmark"}}, 400, "BAD_REQUEST", "You do not have permission to administer this channel."},
		{"shiva@zulip.com", "2", url.Values{"description": {"x"}}, 400, "BAD_REQUEST", "You do not have permission to administer this channel."},
		{"polonius@zulip.com", "2", url.Values{"new_name": {"Danmark"}}, 400, "BAD_REQUEST", "Invalid channel ID"},
		{"cordelia@zulip.com", "6", url.Values{"new_name": {"open"}}, 400, "BAD_REQUEST", "Invalid channel ID"},
		{"iago@zulip.com", "999", url.Values{"new_name": {"x"}}, 400, "BAD_REQUEST", "Invalid channel ID"},
		{"iago@zulip.com", "2", url.Values{"new_name": {"verona"}}, 400, "BAD_REQUEST", "Channel name 'verona' is already taken."},
		{"iago@zulip.com", "2", url.Values{"new_name": {"Denmark"}}, 400, "BAD_REQUEST", "Channel already has that name!"},
		{"iago@zulip.com", "2", url.Values{"new_name": {""}}, 400, "BAD_REQUEST", "Channel name can't be empty."},
		{"iago@zulip.com", "2", url.Values{"history_public_to_subscribers": {"false"}}, 400, "BAD_REQUEST", "Invalid parameters"},
		{"iago@zulip.com", "1", url.Values{"is_private": {"true"}}, 400, "BAD_REQUEST", "A default channel cannot be private."},
		{"iago@zulip.com", "2", url.Values{"message_retention_days": {"30"}}, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"iago@zulip.com", "2", url.Values{"is_private": {"maybe"}}, 400, "BAD_REQUEST", "is_private is not a boolean"},
		{"iago@zulip.com", "2", url.Values{"can_send_message_group": {`17`}}, 400, "BAD_REQUEST", "can_send_message_group is not a dict"},
		{"iago@zulip.com", "2", url.Values{"can_send_message_group": {`{"new": 9999}`}}, 400, "BAD_REQUEST", "Invalid user group"},
		{"iago@zulip.com", "2", url.Values{"can_administer_channel_group": {`{"new": 2}`}}, 400, "BAD_REQUEST", ""},
		{"iago@zulip.com", "2", url.Values{"folder_id": {"3"}}, 400, "BAD_REQUEST", "Invalid channel folder ID"},
		{"iago@zulip.com", "2", url.Values{"topics_policy": {"sometimes"}}, 400, "BAD_REQUEST", "Invalid topics_policy"},
		{"iago@zulip.com", "2", url.Values{"is_archived": {"true"}}, 400, "BAD_REQUEST", "Invalid parameters"},
		// Nothing is applied when a later part fails.
		{"iago@zulip.com", "2", url.Values{"new_name": {"Danmark"}, "message_retention_days": {"3"}}, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
	} {
		status, body := e.do(c.email, "PATCH", "/streams/"+c.id, c.form)
		e.wantError(status, body, c.status, c.code, c.msg)
	}
	e.unchanged(before)
	// Owners set retention; the channel's creator administers it.
	e.ok(e.do("desdemona@zulip.com", "PATCH", "/streams/2", url.Values{"message_retention_days": {"30"}}))
	id := e.ok(e.do("hamlet@zulip.com", "POST", "/channels/create", url.Values{"name": {"hamlet's"}, "subscribers": {"[10]"}}))["id"].(float64)
	e.ok(e.do("hamlet@zulip.com", "PATCH", "/streams/"+jsonNumber(id), url.Values{"description": {"mine"}}))
}

func TestHTTPUpdateChannelPrivacy(t *testing.T) {
	e := newChanEnv(t)
	cordelia := e.streamEvents("cordelia@zulip.com", "")
	othello := e.streamEvents("othello@zulip.com", "")
	// Denmark goes private: cordelia (not subscribed) loses sight of it,
	// othello (subscribed) is told of the new settings.
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"is_private": {"true"}}))
	st := e.ok(e.do("othello@zulip.com", "GET", "/streams/2", nil))["stream"].(map[string]any)
	if st["invite_only"] != true || st["history_public_to_subscribers"] != false {
		t.Fatalf("stream %v", st)
	}
	evs := cordelia()
	if len(evs) != 1 || evs[0]["op"] != "delete" || evs[0]["stream_ids"].([]any)[0] != float64(2) {
		t.Fatalf("cordelia's events %v", evs)
	}
	evs = othello()
	if len(evs) != 2 || evs[0]["property"] != "invite_only" || evs[0]["value"] != true || evs[0]["history_public_to_subscribers"] != false ||
		evs[0]["is_web_public"] != false || evs[1]["property"] != "history_public_to_subscribers" || evs[1]["value"] != false {
		t.Fatalf("othello's events %v", evs)
	}
	status, body := e.do("cordelia@zulip.com", "GET", "/streams/2", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	// Back to public: cordelia sees it again.
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"is_private": {"false"}}))
	if evs := cordelia(); len(evs) != 2 || evs[1]["op"] != "create" || evs[1]["streams"].([]any)[0].(map[string]any)["invite_only"] != false {
		t.Fatalf("cordelia's events after going public %v", evs)
	}
	// An administrator outside a private channel may not change its privacy.
	e.ok(e.do("iago@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["core team"]`}}))
	status, body = e.do("iago@zulip.com", "PATCH", "/streams/6", url.Values{"is_private": {"false"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/6", url.Values{"description": {"admins may edit the description"}}))
}

func TestHTTPArchiveChannel(t *testing.T) {
	e := newChanEnv(t)
	m := e.sendTo("hamlet@zulip.com", "Denmark", "before", "kept")
	modern := e.streamEvents("othello@zulip.com", `{"notification_settings_null": true, "archived_channels": true}`)
	legacy := e.streamEvents("cordelia@zulip.com", "")
	status, body := e.do("hamlet@zulip.com", "DELETE", "/streams/2", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "You do not have permission to administer this channel.")
	e.ok(e.do("iago@zulip.com", "DELETE", "/streams/2", nil))
	if evs := modern(); len(evs) != 1 || evs[0]["op"] != "update" || evs[0]["property"] != "is_archived" || evs[0]["value"] != true {
		t.Fatalf("archived_channels client events %v", evs)
	}
	if evs := legacy(); len(evs) != 1 || evs[0]["op"] != "delete" || evs[0]["stream_ids"].([]any)[0] != float64(2) {
		t.Fatalf("legacy client events %v", evs)
	}
	if slices.Contains(e.streamNames("cordelia@zulip.com", nil), "Denmark") || slices.Contains(e.subscriptionNames("othello@zulip.com"), "Denmark") {
		t.Fatal("an archived channel is still listed")
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"x"}})
	if status != 400 || body["result"] != "error" {
		t.Fatalf("sending to an archived channel: %d %v", status, body)
	}
	if got := e.message("othello@zulip.com", jsonNumber(float64(m))); got["content"] == nil {
		t.Fatal("the archived channel's message is no longer readable")
	}
	status, body = e.do("iago@zulip.com", "DELETE", "/streams/2", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Channel is already deactivated")
	status, body = e.do("iago@zulip.com", "DELETE", "/streams/999", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	// Unarchiving brings it back.
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"is_archived": {"false"}}))
	if evs := legacy(); len(evs) != 2 || evs[1]["op"] != "create" {
		t.Fatalf("legacy client events after unarchiving %v", evs)
	}
	if !slices.Contains(e.streamNames("cordelia@zulip.com", nil), "Denmark") {
		t.Fatal("the unarchived channel is not listed")
	}
}
