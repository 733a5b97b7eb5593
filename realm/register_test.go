package realm

import (
	"encoding/json"
	"testing"
)

// jsonKeys lists the top-level keys of v's JSON encoding.
func jsonKeys(t *testing.T, v any) map[string]bool {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for k := range m {
		keys[k] = true
	}
	return keys
}

func TestRegisterRealmSectionMatchesServerSettings(t *testing.T) {
	r, _ := newTestRealm(t)
	state, err := r.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if err != nil {
		t.Fatal(err)
	}
	ss := r.ServerSettings(ServerSettingsRequest{DevLogin: true})
	if state.RealmIconURL != ss.RealmIcon || state.RealmURI != ss.RealmURI || state.RealmURL != ss.RealmURI {
		t.Fatalf("register %v / %v vs server_settings %+v", state.RealmIconURL, state.RealmURL, ss)
	}
	old, _ := newTestRealm(t, WithFeatureLevel(218, "8.0"))
	state, _ = old.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if keys := jsonKeys(t, state); keys["realm_url"] || !keys["realm_uri"] || state.ZulipFeatureLevel != 218 {
		t.Fatalf("realm_url is new at feature level 257: %q", state.RealmURL)
	}
}

func TestRegisterStateAndQueueAreConsistent(t *testing.T) {
	r, _ := newTestRealm(t)
	before, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "before")
	state, err := r.As(idIago).Register(bg, RegisterRequest{Queue: QueueOptions{EventTypes: []string{"message"}}})
	if err != nil {
		t.Fatal(err)
	}
	if state.MessageState == nil || state.MaxMessageID != before.ID || state.LastEventID != -1 {
		t.Fatalf("state %v", state)
	}
	after, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "after")
	evs, err := r.As(idIago).Events(bg, GetEventsRequest{QueueID: state.QueueID, LastEventID: -1, DontBlock: true})
	if err != nil {
		t.Fatal(err)
	}
	// The message in the state is not an event; the one after it is.
	if len(evs) != 1 || evs[0].Payload.(*MessageEvent).Message.ID != after.ID {
		t.Fatalf("events %+v", evs)
	}
	if state.RealmState != nil || jsonKeys(t, state)["realm_name"] {
		t.Fatal("fetch_event_types defaults to event_types")
	}
}

func TestRegisterRealmEmoji(t *testing.T) {
	r, _ := newTestRealm(t)
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_emoji"}})
	emoji := state.RealmEmoji
	if e := emoji["1"]; e.Name != "green_tick" || e.AuthorID != idIago || e.Deactivated {
		t.Fatalf("realm_emoji %+v", emoji)
	}
}
