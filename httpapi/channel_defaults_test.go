package httpapi

import (
	"net/url"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// defaultIDs reads register's realm_default_streams as IDs.
func (e *chanEnv) defaultIDs(email string) []float64 {
	e.t.Helper()
	_, reg := e.register(email, url.Values{"fetch_event_types": {`["default_streams"]`}})
	out := []float64{}
	for _, v := range reg["realm_default_streams"].([]any) {
		out = append(out, v.(float64))
	}
	return out
}

// defaultEvents are the default_streams lists a queue received.
func (e *chanEnv) defaultEvents(email, qid string) [][]any {
	e.t.Helper()
	var out [][]any
	for _, ev := range e.events(email, qid, -1, false) {
		if m := ev.(map[string]any); m["type"] == "default_streams" {
			out = append(out, m["default_streams"].([]any))
		}
	}
	return out
}

// Administrators add and remove default channels; register lists them by
// ID (guests see none), and every change reaches the non-guests as a
// default_streams event with the whole list.
func TestHTTPDefaultChannels(t *testing.T) {
	e := newChanEnv(t)
	ids := func(names ...string) []float64 {
		var out []float64
		for _, n := range names {
			out = append(out, jsonFloat(e.channelID(n)))
		}
		slices.Sort(out)
		return out
	}
	devDefaults := ids("Verona", "design", "devel", "social", "support")
	if diff := cmp.Diff(devDefaults, e.defaultIDs("hamlet@zulip.com")); diff != "" {
		t.Fatalf("dev default channels (-want +got):\n%s", diff)
	}
	if got := e.defaultIDs("polonius@zulip.com"); len(got) != 0 {
		t.Fatalf("a guest sees default channels %v", got)
	}
	hq, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["default_streams"]`}})
	gq, _ := e.register("polonius@zulip.com", url.Values{"event_types": {`["default_streams"]`}})

	denmark := e.channelID("Denmark")
	status, body := e.do("iago@zulip.com", "POST", "/default_streams", url.Values{"stream_id": {denmark}})
	e.wantSuccess(status, body)
	status, body = e.do("iago@zulip.com", "POST", "/default_streams", url.Values{"stream_id": {denmark}})
	e.wantSuccess(status, body) // already default: nothing to tell
	withDenmark := ids("Verona", "design", "devel", "social", "support", "Denmark")
	if diff := cmp.Diff(withDenmark, e.defaultIDs("hamlet@zulip.com")); diff != "" {
		t.Fatalf("after adding Denmark (-want +got):\n%s", diff)
	}
	status, body = e.do("iago@zulip.com", "DELETE", "/default_streams", url.Values{"stream_id": {denmark}})
	e.wantSuccess(status, body)
	if diff := cmp.Diff(devDefaults, e.defaultIDs("hamlet@zulip.com")); diff != "" {
		t.Fatalf("after removing Denmark (-want +got):\n%s", diff)
	}
	// PATCH /streams is_default_stream and archiving go through the same list.
	status, body = e.do("iago@zulip.com", "PATCH", "/streams/"+denmark, url.Values{"is_default_stream": {"true"}})
	e.wantSuccess(status, body)
	status, body = e.do("iago@zulip.com", "DELETE", "/streams/"+denmark, nil)
	e.wantSuccess(status, body)
	if diff := cmp.Diff(devDefaults, e.defaultIDs("hamlet@zulip.com")); diff != "" {
		t.Fatalf("an archived channel stays default (-want +got):\n%s", diff)
	}

	asFloats := func(list []any) []float64 {
		out := []float64{}
		for _, v := range list {
			out = append(out, v.(float64))
		}
		return out
	}
	got := e.defaultEvents("hamlet@zulip.com", hq)
	want := [][]float64{withDenmark, devDefaults, withDenmark, devDefaults}
	if len(got) != len(want) {
		t.Fatalf("hamlet got %d default_streams events, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if diff := cmp.Diff(want[i], asFloats(got[i])); diff != "" {
			t.Errorf("event %d (-want +got):\n%s", i, diff)
		}
	}
	if got := e.defaultEvents("polonius@zulip.com", gq); len(got) != 0 {
		t.Fatalf("the guest got default_streams events: %v", got)
	}
}

// Only administrators change default channels; a private, missing or
// unreachable channel is refused and nothing changes.
func TestHTTPDefaultChannelsRefused(t *testing.T) {
	e := newChanEnv(t)
	before := e.defaultIDs("hamlet@zulip.com")
	status, body := e.do("hamlet@zulip.com", "POST", "/default_streams", url.Values{"stream_id": {e.channelID("Denmark")}})
	e.wantError(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.do("hamlet@zulip.com", "DELETE", "/default_streams", url.Values{"stream_id": {e.channelID("Verona")}})
	e.wantError(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.do("iago@zulip.com", "POST", "/default_streams", url.Values{"stream_id": {e.channelID("core team")}})
	e.wantError(status, body, 400, "BAD_REQUEST", "Private channels cannot be made default.")
	for _, id := range []string{"999", "-1"} {
		status, body = e.do("iago@zulip.com", "POST", "/default_streams", url.Values{"stream_id": {id}})
		e.wantError(status, body, 400, "BAD_REQUEST", "Invalid channel ID")
	}
	status, body = e.do("iago@zulip.com", "POST", "/default_streams", url.Values{"stream_id": {"x"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "")
	status, body = e.do("iago@zulip.com", "POST", "/default_streams", nil)
	e.wantError(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'stream_id' argument")
	if diff := cmp.Diff(before, e.defaultIDs("hamlet@zulip.com")); diff != "" {
		t.Fatalf("refused requests changed the defaults (-before +after):\n%s", diff)
	}
}

// A channel created as a default one joins the list, and the realm hears
// of it after the channel's own creation event.
func TestHTTPCreateDefaultChannel(t *testing.T) {
	e := newChanEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["default_streams", "stream"]`}})
	status, body := e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name": "announcements2"}]`}, "is_default_stream": {"true"}})
	e.wantSuccess(status, body)
	id := jsonFloat(e.channelID("announcements2"))
	var types []string
	for _, ev := range e.events("hamlet@zulip.com", qid, -1, false) {
		m := ev.(map[string]any)
		types = append(types, m["type"].(string))
		if m["type"] == "default_streams" && !slices.Contains(m["default_streams"].([]any), any(id)) {
			t.Fatalf("default_streams without the new channel: %v", m)
		}
	}
	if !slices.Equal(types, []string{"stream", "default_streams"}) {
		t.Fatalf("event types %v", types)
	}
	if got := e.defaultIDs("hamlet@zulip.com"); !slices.Contains(got, id) {
		t.Fatalf("register defaults %v lack the new channel %v", got, id)
	}
}
