package realm

import "testing"

func TestRegisterRealmSectionMatchesServerSettings(t *testing.T) {
	r, _ := newTestRealm(t)
	state, err := r.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if err != nil {
		t.Fatal(err)
	}
	ss := r.ServerSettings("")
	if state["realm_icon_url"] != ss.RealmIcon || state["realm_uri"] != ss.RealmURI || state["realm_url"] != ss.RealmURI {
		t.Fatalf("register %v / %v vs server_settings %+v", state["realm_icon_url"], state["realm_url"], ss)
	}
	old, _ := newTestRealm(t, WithFeatureLevel(218, "8.0"))
	state, _ = old.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if _, ok := state["realm_url"]; ok || state["zulip_feature_level"] != 218 {
		t.Fatalf("realm_url is new at feature level 257: %v", state["realm_url"])
	}
}

func TestRegisterStateAndQueueAreConsistent(t *testing.T) {
	r, _ := newTestRealm(t)
	before, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "before")
	state, err := r.As(idIago).Register(bg, RegisterRequest{Queue: QueueOptions{EventTypes: []string{"message"}}})
	if err != nil {
		t.Fatal(err)
	}
	if state["max_message_id"] != before.ID || state["last_event_id"] != -1 {
		t.Fatalf("state %v", state)
	}
	after, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "t", "after")
	evs, err := r.As(idIago).GetEvents(bg, GetEventsRequest{QueueID: state.QueueID(), LastEventID: -1, DontBlock: true})
	if err != nil {
		t.Fatal(err)
	}
	// The message in the state is not an event; the one after it is.
	if len(evs) != 1 || evs[0].Payload.(*MessageEvent).Message.ID != after.ID {
		t.Fatalf("events %+v", evs)
	}
	if _, ok := state["realm_name"]; ok {
		t.Fatal("fetch_event_types defaults to event_types")
	}
}

func TestRegisterRealmEmoji(t *testing.T) {
	r, _ := newTestRealm(t)
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_emoji"}})
	emoji := state["realm_emoji"].(map[string]RealmEmoji)
	if e := emoji["1"]; e.Name != "green_tick" || e.AuthorID != idIago || e.Deactivated {
		t.Fatalf("realm_emoji %+v", emoji)
	}
}
