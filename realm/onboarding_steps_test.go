package realm

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm/fixture"
)

// registeredSteps is the user's register section of onboarding steps,
// under the key of the realm's level, as JSON objects.
func registeredSteps(t *testing.T, r *Realm, userID int) (key string, steps []map[string]any) {
	t.Helper()
	state, err := r.As(userID).Register(bg, RegisterRequest{FetchEventTypes: []string{"onboarding_steps", "hotspots"}})
	if err != nil {
		t.Fatal(err)
	}
	wire, err := json.Marshal(state.Wire())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(wire, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"onboarding_steps", "hotspots"} {
		if raw, ok := m[k]; ok {
			if key != "" {
				t.Fatalf("register sent both %s and %s", key, k)
			}
			key = k
			if err := json.Unmarshal(raw, &steps); err != nil {
				t.Fatal(err)
			}
		}
	}
	return key, steps
}

// stepNames lists the names of the steps.
func stepNames(steps []map[string]any) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s["name"].(string))
	}
	return out
}

// The dev realm's users have seen every step (Zulip's populate_db marks
// them); a user created later has seen none and is sent today's
// one-time notices and action, each with its type.
func TestNewUsersHaveOnboardingStepsDevUsersNone(t *testing.T) {
	r, _ := newTestRealm(t)
	if key, steps := registeredSteps(t, r, idHamlet); key != "onboarding_steps" || len(steps) != 0 {
		t.Errorf("hamlet: %s %v, want onboarding_steps []", key, steps)
	}
	id, err := r.AddUser(NewUser{Email: "newcomer@zulip.com", FullName: "Newcomer"})
	must(t, err)
	_, steps := registeredSteps(t, r, id)
	want := append(slices.Clone(oneTimeNotices), oneTimeActions...)
	if got := stepNames(steps); !reflect.DeepEqual(got, want) {
		t.Errorf("a new user's steps %v, want %v", got, want)
	}
	for _, s := range steps {
		typ := stepOneTimeNotice
		if slices.Contains(oneTimeActions, s["name"].(string)) {
			typ = stepOneTimeAction
		}
		if s["type"] != typ || len(s) != 2 {
			t.Errorf("step %v, want type %s and name only", s, typ)
		}
	}
}

// Rows 233 (onboarding_steps, the type field), 230 (has_trigger) and
// 259 (no more hotspots): a user who has seen nothing is sent, below
// 233, the tutorial's first hotspot under hotspots, without a type and
// with has_trigger from 230; from 233 the one-time notices (the
// navigation tour video from 369) and the action, then that hotspot
// typed "hotspot"; from 259 no hotspot.
func TestOnboardingStepsShapeFollowsLevel(t *testing.T) {
	notices := func(video bool) []string {
		var out []string
		for _, n := range oneTimeNotices {
			if n != navigationTourNotice || video {
				out = append(out, n)
			}
		}
		return append(out, oneTimeActions...)
	}
	for _, c := range []struct {
		level   int
		key     string
		names   []string
		hotspot map[string]any // the last step, when a hotspot
	}{
		{changeHotspotTrigger.Level() - 1, "hotspots", []string{"intro_streams"},
			map[string]any{"name": "intro_streams", "title": introHotspots[0].title, "description": introHotspots[0].description, "delay": 0.5}},
		{changeHotspotTrigger.Level(), "hotspots", []string{"intro_streams"},
			map[string]any{"name": "intro_streams", "title": introHotspots[0].title, "description": introHotspots[0].description, "delay": 0.5, "has_trigger": false}},
		{changeOnboardingSteps.Level() - 1, "hotspots", []string{"intro_streams"},
			map[string]any{"name": "intro_streams", "title": introHotspots[0].title, "description": introHotspots[0].description, "delay": 0.5, "has_trigger": false}},
		{changeOnboardingSteps.Level(), "onboarding_steps", append(notices(false), "intro_streams"),
			map[string]any{"type": "hotspot", "name": "intro_streams", "title": introHotspots[0].title, "description": introHotspots[0].description, "delay": 0.5, "has_trigger": false}},
		{changeHotspotsRemoved.Level() - 1, "onboarding_steps", append(notices(false), "intro_streams"),
			map[string]any{"type": "hotspot", "name": "intro_streams", "title": introHotspots[0].title, "description": introHotspots[0].description, "delay": 0.5, "has_trigger": false}},
		{changeHotspotsRemoved.Level(), "onboarding_steps", notices(false), nil},
		{368, "onboarding_steps", notices(false), nil},
		{369, "onboarding_steps", notices(true), nil},
		{DefaultFeatureLevel, "onboarding_steps", notices(true), nil},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, ""))
		must(t, r.SetOnboardingStepsSeen(idHamlet, nil))
		key, steps := registeredSteps(t, r, idHamlet)
		if key != c.key || !reflect.DeepEqual(stepNames(steps), c.names) {
			t.Errorf("level %d: %s %v, want %s %v", c.level, key, stepNames(steps), c.key, c.names)
			continue
		}
		if c.hotspot != nil && !reflect.DeepEqual(steps[len(steps)-1], c.hotspot) {
			t.Errorf("level %d: hotspot %v, want %v", c.level, steps[len(steps)-1], c.hotspot)
		}
		if c.hotspot == nil && slices.ContainsFunc(steps, func(s map[string]any) bool { return s["type"] == stepHotspot }) {
			t.Errorf("level %d: a hotspot sent: %v", c.level, steps)
		}
	}
}

// POST /users/me/onboarding_steps: the step leaves the caller's list,
// the caller's queues (no one else's) get the list that remains;
// marking twice is no error; an unknown name or a bot is refused and
// changes nothing.
func TestMarkOnboardingStepSeen(t *testing.T) {
	r, _ := newTestRealm(t)
	must(t, r.SetOnboardingStepsSeen(idHamlet, nil))
	mine := mustQueue(t, r, idHamlet, QueueOptions{})
	other := mustQueue(t, r, idIago, QueueOptions{})
	must(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str("intro_inbox_view_modal")))
	must(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str("intro_inbox_view_modal")))
	_, steps := registeredSteps(t, r, idHamlet)
	if slices.Contains(stepNames(steps), "intro_inbox_view_modal") || len(steps) != len(oneTimeNotices)+len(oneTimeActions)-1 {
		t.Errorf("after marking: %v", stepNames(steps))
	}
	evs := eventsOf(t, r, idHamlet, mine, "onboarding_steps")
	if len(evs) != 2 {
		t.Fatalf("hamlet's queue: %d onboarding_steps events, want 2", len(evs))
	}
	var list []map[string]any
	for _, s := range evs[1]["onboarding_steps"].([]any) {
		list = append(list, s.(map[string]any))
	}
	if !reflect.DeepEqual(stepNames(list), stepNames(steps)) {
		t.Errorf("event list %v, register %v", stepNames(list), stepNames(steps))
	}
	if evs := eventsOf(t, r, idIago, other, "onboarding_steps"); len(evs) != 0 {
		t.Errorf("iago heard of hamlet's steps: %v", evs)
	}

	wantCode(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str("no_such_step")), CodeBadRequest, "Unknown onboarding_step: no_such_step")
	// The tutorial's hotspots left at 259.
	wantCode(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str("intro_streams")), CodeBadRequest, "Unknown onboarding_step: intro_streams")
	must(t, r.SetOnboardingStepsSeen(idDefaultBot, nil))
	wantCode(t, r.As(idDefaultBot).MarkOnboardingStepSeen(bg, str("intro_inbox_view_modal")), CodeBadRequest, "This endpoint does not accept bot requests.")
	if _, after := registeredSteps(t, r, idHamlet); !reflect.DeepEqual(stepNames(after), stepNames(steps)) {
		t.Errorf("a refused mark changed the list: %v", stepNames(after))
	}
	if _, bot := registeredSteps(t, r, idDefaultBot); len(bot) != len(oneTimeNotices)+len(oneTimeActions) {
		t.Errorf("the bot's steps changed: %v", stepNames(bot))
	}
}

// Below 233 (POST /users/me/hotspots) only hotspots are known, the
// answer is a hotspots event, and the tutorial goes hotspot by hotspot
// until none is left; from 233 to 258 a hotspot may be marked under the
// new name, and the next one shows.
func TestHotspotsTutorialBelowTheirRemoval(t *testing.T) {
	r, _ := newTestRealm(t, WithFeatureLevel(changeOnboardingSteps.Level()-1, ""))
	must(t, r.SetOnboardingStepsSeen(idHamlet, nil))
	q := mustQueue(t, r, idHamlet, QueueOptions{})
	wantCode(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str("visibility_policy_banner")), CodeBadRequest, "Unknown hotspot: visibility_policy_banner")
	for i, h := range introHotspots {
		_, steps := registeredSteps(t, r, idHamlet)
		if got := stepNames(steps); !reflect.DeepEqual(got, []string{h.name}) {
			t.Fatalf("step %d: %v, want [%s]", i, got, h.name)
		}
		must(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str(h.name)))
	}
	if key, steps := registeredSteps(t, r, idHamlet); key != "hotspots" || len(steps) != 0 {
		t.Errorf("after the tutorial: %s %v, want hotspots []", key, steps)
	}
	evs := eventsOf(t, r, idHamlet, q, "hotspots")
	if len(evs) != len(introHotspots) { // one a mark
		t.Fatalf("%d hotspots events, want %d", len(evs), len(introHotspots))
	}
	if last := evs[len(evs)-1]["hotspots"].([]any); len(last) != 0 {
		t.Errorf("last hotspots event %v, want none left", last)
	}
	if evs := eventsOf(t, r, idHamlet, q, "onboarding_steps"); len(evs) != 0 {
		t.Errorf("onboarding_steps events below 233: %v", evs)
	}

	r, _ = newTestRealm(t, WithFeatureLevel(changeHotspotsRemoved.Level()-1, ""))
	must(t, r.SetOnboardingStepsSeen(idHamlet, nil))
	must(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str("intro_streams")))
	_, steps := registeredSteps(t, r, idHamlet)
	if last := steps[len(steps)-1]; last["name"] != "intro_topics" || last["type"] != stepHotspot {
		t.Errorf("level %d after intro_streams: last step %v, want the hotspot intro_topics", r.FeatureLevel(), last)
	}
}

// The steps seen go through a fixture; a fixture naming an unknown
// user or step, or a user or step twice, is refused.
func TestOnboardingStepsFixture(t *testing.T) {
	r, _ := newTestRealm(t)
	must(t, r.SetOnboardingStepsSeen(idHamlet, []string{"intro_recent_view_modal", "intro_gear"}))
	raw, err := r.Dump()
	must(t, err)
	var doc fixture.Document
	must(t, json.Unmarshal(raw, &doc))
	var hamlet []string
	for _, s := range doc.OnboardingSteps {
		if s.UserID == idHamlet {
			hamlet = s.Seen
		}
	}
	if !reflect.DeepEqual(hamlet, []string{"intro_recent_view_modal", "intro_gear"}) {
		t.Errorf("dumped %v", hamlet)
	}
	loaded, _ := newTestRealm(t)
	must(t, loaded.LoadFixture(raw))
	_, a := registeredSteps(t, r, idHamlet)
	_, b := registeredSteps(t, loaded, idHamlet)
	if !reflect.DeepEqual(a, b) || len(a) == 0 {
		t.Errorf("after a round trip %v, before %v", b, a)
	}
	for _, c := range []struct {
		steps []fixture.OnboardingSteps
		want  string
	}{
		{[]fixture.OnboardingSteps{{UserID: 999, Seen: nil}}, "onboarding_steps[0].user_id"},
		{[]fixture.OnboardingSteps{{UserID: idHamlet, Seen: []string{"nope"}}}, "Unknown onboarding_step: nope"},
		{[]fixture.OnboardingSteps{{UserID: idHamlet, Seen: []string{"intro_gear", "intro_gear"}}}, "listed twice"},
		{[]fixture.OnboardingSteps{{UserID: idHamlet}, {UserID: idHamlet}}, "onboarding_steps[1].user_id"},
	} {
		bad := doc
		bad.OnboardingSteps = c.steps
		text, err := json.Marshal(bad)
		must(t, err)
		if err := loaded.LoadFixture(text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("fixture %v: %v, want an error naming %q", c.steps, err, c.want)
		}
	}
	wantCode(t, r.SetOnboardingStepsSeen(999, nil), CodeBadRequest, "No such user")
	if err := r.SetOnboardingStepsSeen(idHamlet, []string{"nope"}); err == nil {
		t.Error("an unknown step was set")
	}
}

// A spectator has no account to keep steps for: an empty list at every
// level, under the level's name, as Zulip sends (user_profile None).
func TestSpectatorsHaveNoOnboardingSteps(t *testing.T) {
	for _, level := range []int{changeOnboardingSteps.Level() - 1, DefaultFeatureLevel} {
		r, _ := newTestRealm(t, WithFeatureLevel(level, ""))
		res, err := r.Spectator("").Register(bg, RegisterRequest{FetchEventTypes: []string{"onboarding_steps", "hotspots"}})
		must(t, err)
		st := res.State().OnboardingStepsState
		list := st.OnboardingSteps
		if level < changeOnboardingSteps.Level() {
			list = st.Hotspots
		}
		if list == nil || len(*list) != 0 {
			t.Errorf("level %d: a spectator's steps %+v", level, st)
		}
	}
}
