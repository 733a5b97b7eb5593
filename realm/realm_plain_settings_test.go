package realm

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/realm/fixture"
)

// The realm's Welcome Bot text goes to new users whose invitation names
// none; an invitation's own text (even empty) wins.
func TestRealmWelcomeMessageCustomText(t *testing.T) {
	r, _ := newTestRealm(t)
	text := "Read the *rules* first."
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{WelcomeMessageCustomText: &text}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).SendInvites(bg, InviteRequest{InviteeEmails: "ada@zulip.com"}); err != nil {
		t.Fatal(err)
	}
	ada, err := r.AcceptInvitation(lastInviteKey(t, r, "ada@zulip.com"), Signup{FullName: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := r.LastMessage(bg, ada); m.SenderEmail != welcomeBotEmail || m.Content != text {
		t.Fatalf("last message to Ada %+v, want Welcome Bot's %q", m, text)
	}
	none := ""
	if err := r.As(idIago).SendInvites(bg, InviteRequest{InviteeEmails: "bo@zulip.com", WelcomeMessageCustomText: &none}); err != nil {
		t.Fatal(err)
	}
	bo, err := r.AcceptInvitation(lastInviteKey(t, r, "bo@zulip.com"), Signup{FullName: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := r.LastMessage(bg, bo); m.Content == text {
		t.Fatalf("an invitation without a custom message sent the realm's: %+v", m)
	}
	long := string(make([]rune, MaxWelcomeMessageCustomTextLength+1))
	wantCode(t, errOf(r.As(idIago).UpdateRealm(bg, RealmUpdate{WelcomeMessageCustomText: &long})), CodeBadRequest,
		"welcome_message_custom_text is too long (limit: 8000 characters)")
}

// With require_unique_names, a name another account has (up to case and
// Unicode compatibility) is refused wherever a name is set; one's own
// name is not a clash.
func TestRequireUniqueNames(t *testing.T) {
	r, _ := newTestRealm(t)
	yes := true
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{RequireUniqueNames: &yes}); err != nil {
		t.Fatal(err)
	}
	const msg = "Unique names required in this organization."
	for _, name := range []string{"IaGo", "ｉａｇｏ", "𝕚𝕒𝕘𝕠"} {
		wantCode(t, r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{FullName: &name}), CodeBadRequest, msg)
	}
	if got := r.users.byID[idHamlet].FullName; got != "King Hamlet" {
		t.Fatalf("a refused rename changed the name to %q", got)
	}
	iago := "Iago"
	wantCode(t, r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{FullName: &iago}), CodeBadRequest, msg)
	_, err := r.As(idIago).CreateBot(bg, BotRequest{FullName: "iago", ShortName: "twin"})
	wantCode(t, err, CodeBadRequest, msg)
	_, err = r.As(idIago).CreateUser(bg, NewCreateUserRequest("twin@zulip.com", "pw", "IAGO"))
	wantCode(t, err, CodeBadRequest, msg)
	// One's own name, in another case, is no clash.
	if err := r.As(idIago).UpdateSettings(bg, SettingsUpdate{FullName: ptr("IAGO")}); err != nil {
		t.Fatal(err)
	}
	// Without the rule, the same names are accepted.
	no := false
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{RequireUniqueNames: &no}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{FullName: &iago}); err != nil {
		t.Fatal(err)
	}
}

// The plain settings survive a fixture dump and load; a fixture without
// them gets Zulip's defaults, and bad values are refused.
func TestPlainSettingsFixture(t *testing.T) {
	r, _ := newTestRealm(t)
	url, on, text, moves := "https://jitsi.example.com", true, "Hello!", EditHistoryMoves
	off := false
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{JitsiServerURL: &url, EnableGuestUserIndicator: &off,
		EnableGuestUserDMWarning: &off, RequireUniqueNames: &on, RequireE2EEPushNotifications: &on,
		WelcomeMessageCustomText: &text, EditHistoryPolicy: &moves}); err != nil {
		t.Fatal(err)
	}
	end := int64(1900000000)
	if err := r.SetPushNotificationsEnabled(true, &end); err != nil {
		t.Fatal(err)
	}
	doc := dumpDocument(t, r)
	fresh, _ := newTestRealm(t)
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	got := fresh.settings
	if got.JitsiServerURL == nil || *got.JitsiServerURL != url || got.EnableGuestUserIndicator || got.EnableGuestUserDMWarning ||
		!got.RequireUniqueNames || !got.RequireE2EEPushNotifications || got.WelcomeMessageCustomText != text || got.EditHistoryPolicy != moves ||
		!got.PushNotificationsEnabled || got.PushNotificationsEnabledEnd == nil || *got.PushNotificationsEnabledEnd != end {
		t.Fatalf("loaded settings %+v", got)
	}
	doc.Settings.JitsiServerURL, doc.Settings.EnableGuestUserIndicator, doc.Settings.EnableGuestUserDMWarning = nil, nil, nil
	doc.Settings.MessageEditHistoryVisibilityPolicy = ""
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if s := fresh.settings; s.JitsiServerURL != nil || !s.EnableGuestUserIndicator || !s.EnableGuestUserDMWarning || s.EditHistoryPolicy != EditHistoryAll {
		t.Fatalf("defaults %+v", s)
	}
	for _, bad := range []func(*fixture.Settings){
		func(s *fixture.Settings) { s.JitsiServerURL = ptr("ftp://example.com") },
		func(s *fixture.Settings) { s.MessageEditHistoryVisibilityPolicy = "sometimes" },
		func(s *fixture.Settings) { s.WelcomeMessageCustomText = string(make([]rune, 8001)) },
	} {
		d := dumpDocument(t, r)
		bad(&d.Settings)
		if err := fresh.LoadFixture(encodeDocument(t, d)); err == nil {
			t.Errorf("a bad fixture loaded: %+v", d.Settings)
		}
	}
}

func dumpDocument(t *testing.T, r *Realm) fixture.Document {
	t.Helper()
	b, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	var doc fixture.Document
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func encodeDocument(t *testing.T, doc fixture.Document) []byte {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Push notifications' state is the server's to set: each value that
// changes is announced with Zulip's realm update event, and register
// sends both.
func TestSetPushNotificationsEnabled(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	end := int64(1900000000)
	if err := r.SetPushNotificationsEnabled(true, &end); err != nil {
		t.Fatal(err)
	}
	if err := r.SetPushNotificationsEnabled(true, &end); err != nil { // no change, no event
		t.Fatal(err)
	}
	if err := r.SetPushNotificationsEnabled(true, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range pending(t, r, idHamlet, q, -1) {
		j := eventJSON(t, ev)
		got = append(got, j["property"].(string)+"="+fmtJSON(j["value"]))
	}
	want := []string{"push_notifications_enabled=true", "push_notifications_enabled_end_timestamp=1900000000",
		"push_notifications_enabled_end_timestamp=null"}
	if !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	st := realmState(t, r, idHamlet)
	if !st.RealmPushNotificationsEnabled || st.RealmPushNotificationsEnabledEndTimestamp != nil {
		t.Fatalf("register %v %v", st.RealmPushNotificationsEnabled, st.RealmPushNotificationsEnabledEndTimestamp)
	}
	bad := int64(-1)
	wantCode(t, r.SetPushNotificationsEnabled(false, &bad), CodeBadRequest, "end_timestamp must be a UNIX timestamp or null")
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Register's onboarding steps (none for a dev realm user, who has seen
// them all; onboarding_steps_test.go has the rest) are named
// hotspots below 233 and onboarding_steps from it, each fetched by its
// own name only; the navigation tour video is sent from 369.
func TestOnboardingStepsAtTheirLevels(t *testing.T) {
	for _, c := range []struct {
		level         int
		there, absent []string
	}{
		{changeOnboardingSteps.Level() - 1, []string{"hotspots"}, []string{"onboarding_steps", "navigation_tour_video_url"}},
		{changeOnboardingSteps.Level(), []string{"onboarding_steps"}, []string{"hotspots", "navigation_tour_video_url"}},
		{369, []string{"onboarding_steps", "navigation_tour_video_url"}, []string{"hotspots"}},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, ""))
		name, other := "onboarding_steps", "hotspots"
		if c.level < changeOnboardingSteps.Level() {
			name, other = other, name
		}
		if state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{other}}); err != nil || state.OnboardingStepsState != nil {
			t.Errorf("level %d: fetching %s gave %+v %v, want nothing", c.level, other, state.OnboardingStepsState, err)
		}
		state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{name}})
		if err != nil {
			t.Fatal(err)
		}
		keys := jsonKeys(t, state.Wire())
		for _, k := range c.there {
			if !keys[k] {
				t.Errorf("level %d: %s missing", c.level, k)
			}
		}
		for _, k := range c.absent {
			if keys[k] {
				t.Errorf("level %d: %s sent", c.level, k)
			}
		}
	}
}
