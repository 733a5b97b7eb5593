package httpapi

import (
	"net/url"
	"testing"
)

// subscription is email's entry for channel id in GET /users/me/subscriptions.
func (e *chanEnv) subscription(email string, id float64) map[string]any {
	e.t.Helper()
	for _, s := range e.ok(e.do(email, "GET", "/users/me/subscriptions", nil))["subscriptions"].([]any) {
		if sub := s.(map[string]any); sub["stream_id"] == id {
			return sub
		}
	}
	e.t.Fatalf("%s has no subscription to %v", email, id)
	return nil
}

func TestHTTPSubscriptionProperties(t *testing.T) {
	e := newChanEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["subscription"]`}})
	e.ok(e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions/properties", url.Values{"subscription_data": {
		`[{"stream_id":2,"property":"is_muted","value":true},{"stream_id":2,"property":"pin_to_top","value":true},` +
			`{"stream_id":1,"property":"color","value":"#f00f00"},{"stream_id":1,"property":"audible_notifications","value":false}]`}}))
	dk, vr := e.subscription("hamlet@zulip.com", 2), e.subscription("hamlet@zulip.com", 1)
	if dk["is_muted"] != true || dk["in_home_view"] != false || dk["pin_to_top"] != true ||
		vr["color"] != "#f00f00" || vr["audible_notifications"] != false || vr["push_notifications"] != nil {
		t.Fatalf("Denmark %v\nVerona %v", dk, vr)
	}
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 5 {
		t.Fatalf("events %v", evs)
	}
	first := evs[0].(map[string]any)
	if first["type"] != "subscription" || first["op"] != "update" || first["property"] != "in_home_view" || first["value"] != false || first["stream_id"] != float64(2) {
		t.Fatalf("first event %v", first)
	}
	// register shows the new state.
	_, body := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["subscription"]`}})
	for _, s := range body["subscriptions"].([]any) {
		if sub := s.(map[string]any); sub["stream_id"] == float64(2) && (sub["is_muted"] != true || sub["pin_to_top"] != true) {
			t.Fatalf("register subscription %v", sub)
		}
	}
}

func TestHTTPSubscriptionPropertiesBadInput(t *testing.T) {
	e := newChanEnv(t)
	before := e.subscription("hamlet@zulip.com", 2)
	for _, c := range []struct{ data, msg string }{
		{`{"stream_id":2}`, "subscription_data is not a list"},
		{`not json`, `Argument "subscription_data" is not valid JSON.`},
		{`[5]`, "subscription_data[0] is not a dict"},
		{`[{"property":"is_muted","value":true}]`, "stream_id key is missing from subscription_data[0]"},
		{`[{"stream_id":2,"value":true}]`, "property key is missing from subscription_data[0]"},
		{`[{"stream_id":2,"property":"is_muted"}]`, "value key is missing from subscription_data[0]"},
		{`[{"stream_id":"two","property":"is_muted","value":true}]`, `subscription_data[0]["stream_id"] is not an integer`},
		{`[{"stream_id":2,"property":7,"value":true}]`, `subscription_data[0]["property"] is not a string`},
		{`[{"stream_id":2,"property":"pin_to_top","value":true},{"stream_id":2,"property":"is_muted","value":1}]`, `subscription_data[1]["value"] is not an allowed_type`},
		{`[{"stream_id":2,"property":"pin_to_top","value":true},{"stream_id":2,"property":"volume","value":true}]`, "Unknown subscription property: volume"},
		{`[{"stream_id":2,"property":"color","value":"#12345g"}]`, "color is not a valid hex color code"},
		{`[{"stream_id":2,"property":"is_muted","value":"true"}]`, "is_muted is not a boolean"},
		{`[{"stream_id":3,"property":"is_muted","value":true}]`, "Not subscribed to channel ID 3"},
		{`[{"stream_id":999,"property":"is_muted","value":true}]`, "Invalid channel ID"},
	} {
		status, body := e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions/properties", url.Values{"subscription_data": {c.data}})
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, body := e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions/properties", nil)
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'subscription_data' argument")
	if after := e.subscription("hamlet@zulip.com", 2); after["pin_to_top"] != before["pin_to_top"] || after["is_muted"] != before["is_muted"] {
		t.Fatalf("refused requests changed %v into %v", before, after)
	}
}

func TestHTTPPatchSubscriptions(t *testing.T) {
	e := newChanEnv(t)
	body := e.ok(e.do("hamlet@zulip.com", "PATCH", "/users/me/subscriptions", url.Values{
		"add": {`[{"name":"Scotland","color":"#abcdef"},{"name":"Verona"}]`}, "delete": {`["Denmark"]`}}))
	if body["subscribed"].(map[string]any)["10"].([]any)[0] != "Scotland" ||
		body["already_subscribed"].(map[string]any)["10"].([]any)[0] != "Verona" ||
		len(body["removed"].([]any)) != 1 || body["removed"].([]any)[0] != "Denmark" || len(body["not_removed"].([]any)) != 0 {
		t.Fatalf("answer %v", body)
	}
	if e.subscription("hamlet@zulip.com", 3)["color"] != "#abcdef" {
		t.Fatal("Scotland's color not set")
	}
	// Only delete: the add half answers empty maps.
	body = e.ok(e.do("hamlet@zulip.com", "PATCH", "/users/me/subscriptions", url.Values{"delete": {`["Scotland"]`}}))
	if len(body["subscribed"].(map[string]any)) != 0 || body["removed"].([]any)[0] != "Scotland" {
		t.Fatalf("delete-only answer %v", body)
	}
	before := e.snapshot()
	for _, c := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{}, `Nothing to do. Specify at least one of "add" or "delete".`},
		{url.Values{"add": {`[{"name":"Scotland"}]`}, "delete": {`["Atlantis"]`}}, "Channel(s) (Atlantis) do not exist"},
		{url.Values{"add": {`[{"color":"#abcdef"}]`}}, `add[0]["name"] is missing`},
		{url.Values{"add": {`["Scotland"]`}}, "add[0] is not a dict"},
		{url.Values{"delete": {`[1]`}}, "delete[0] is not a string"},
		{url.Values{"delete": {`"Denmark"`}}, "delete is not a list"},
		{url.Values{"add": {`[{"name":"core team"}]`}}, "Unable to access channel (core team)."},
	} {
		status, body := e.do("cordelia@zulip.com", "PATCH", "/users/me/subscriptions", c.form)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	e.unchanged(before)
}
