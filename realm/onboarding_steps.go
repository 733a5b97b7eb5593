package realm

import "slices"

// Onboarding steps are the web app's tutorial hints and one-time notices
// (zerver/lib/onboarding_steps.py): each user's list holds those of the
// realm's level the user has not marked seen (POST
// /users/me/onboarding_steps, onboarding_step_table.go), as a Zulip
// server with its tutorial on (TUTORIAL_ENABLED, on by default) sends
// them. The list and its objects took three shapes:
//
//   - below feature level 233: register's and the event's hotspots,
//     the next intro hotspot of a user who has not finished the tutorial
//     (name, title, description, delay; has_trigger from 230);
//   - from 233 (changeOnboardingSteps): onboarding_steps, the one-time
//     notices not seen, then that hotspot, each with its type;
//   - from 259 (changeHotspotsRemoved): no hotspots.
//
// Zulip's dev realm marks every step seen for its users (populate_db),
// and so does the dev seed: only users created later, or loaded from a
// fixture saying nothing of their steps, have steps to see.

// OnboardingStepsState is the onboarding_steps section of POST
// /register: the onboarding steps the user has yet to see, and the
// server's navigation tour video (feature level 369; the register gate
// leaves it out below). Below feature level 233 the list, and the
// section, were named hotspots.
type OnboardingStepsState struct {
	OnboardingSteps        *[]OnboardingStep `json:"onboarding_steps,omitempty"`
	Hotspots               *[]OnboardingStep `json:"hotspots,omitempty"` // below feature level 233
	NavigationTourVideoURL *string           `json:"navigation_tour_video_url"`
}

// OnboardingStep is one onboarding step a client may show: a one-time
// notice or action (type and name), or, below feature level 259, an
// intro hotspot with its text (no type below 233).
type OnboardingStep struct {
	Type        string   `json:"type,omitempty"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Delay       *float64 `json:"delay,omitempty"`
	HasTrigger  *bool    `json:"has_trigger,omitempty"` // feature level 230
}

// OnboardingStepsEvent is an onboarding_steps event (hotspots below
// feature level 233): the user's whole list after a change, sent to the
// user only.
type OnboardingStepsEvent struct {
	OnboardingSteps *[]OnboardingStep `json:"onboarding_steps,omitempty"`
	Hotspots        *[]OnboardingStep `json:"hotspots,omitempty"` // below feature level 233
}

// The types of onboarding steps.
const (
	stepHotspot       = "hotspot"
	stepOneTimeNotice = "one_time_notice"
	stepOneTimeAction = "one_time_action"
)

// introHotspot is a hint of the new users' tutorial, shown one at a time
// below feature level 259. The titles and descriptions are the fake's
// own words.
type introHotspot struct{ name, title, description string }

// introHotspots are the tutorial's hints, in the order they are shown.
var introHotspots = []introHotspot{
	{"intro_streams", "Channels", "A message to a channel reaches everyone subscribed to it."},
	{"intro_topics", "Topics", "Every channel message has a topic, which keeps conversations apart."},
	{"intro_gear", "Settings", "Your notifications and preferences are in the settings."},
	{"intro_compose", "Compose", "Start a new conversation here."},
}

// hotspotDelay is the delay, in seconds, Zulip gives an intro hotspot
// before it shows.
const hotspotDelay = 0.5

// oneTimeNotices are the one-time notices, in the order Zulip lists
// them; the names of today's Zulip at every level from 233 (the
// changelog dates the kind, not each name).
var oneTimeNotices = []string{
	"visibility_policy_banner",
	"intro_inbox_view_modal",
	"intro_recent_view_modal",
	"first_stream_created_banner",
	"jump_to_conversation_banner",
	"non_interleaved_view_messages_fading",
	"interleaved_view_messages_fading",
	"intro_resolve_topic",
	"navigation_tour_video",
}

// navigationTourNotice is the notice of the navigation tour video: a
// server without the video (below feature level 369, which brought
// navigation_tour_video_url) counts it as seen.
const navigationTourNotice = "navigation_tour_video"

// hasNavigationTourVideo reports whether the realm's level has the
// navigation tour video (register's navigation_tour_video_url).
func (r *Realm) hasNavigationTourVideo() bool {
	return !slices.Contains(r.fieldsAfterLevel("POST /register", "register gate"), "navigation_tour_video_url")
}

// oneTimeActions are the one-time actions, listed after the notices.
var oneTimeActions = []string{"narrow_to_dm_with_welcome_bot_new_user"}

// allOnboardingStepNames lists every step name of any level: the names
// the dev seed marks seen and fixtures may name.
func allOnboardingStepNames() []string {
	var out []string
	for _, h := range introHotspots {
		out = append(out, h.name)
	}
	out = append(out, oneTimeNotices...)
	return append(out, oneTimeActions...)
}

// knownOnboardingStep reports whether a server of the realm's level
// knows the step name: POST /users/me/hotspots knows the hotspots (below
// 233), POST /users/me/onboarding_steps every step of its level.
func (r *Realm) knownOnboardingStep(name string) bool {
	hotspot := slices.ContainsFunc(introHotspots, func(h introHotspot) bool { return h.name == name })
	if !r.has(changeOnboardingSteps) {
		return hotspot
	}
	if hotspot {
		return !r.has(changeHotspotsRemoved)
	}
	return slices.Contains(oneTimeNotices, name) || slices.Contains(oneTimeActions, name)
}

// nextOnboardingSteps lists the steps userID has yet to see, in the
// shape of the realm's level.
func (r *Realm) nextOnboardingSteps(userID int) []OnboardingStep {
	seen := r.onboarding.seenBy(userID)
	out := []OnboardingStep{}
	if r.has(changeOnboardingSteps) {
		for _, name := range oneTimeNotices {
			if seen[name] || (name == navigationTourNotice && !r.hasNavigationTourVideo()) {
				continue
			}
			out = append(out, OnboardingStep{Type: stepOneTimeNotice, Name: name})
		}
		for _, name := range oneTimeActions {
			if !seen[name] {
				out = append(out, OnboardingStep{Type: stepOneTimeAction, Name: name})
			}
		}
	}
	if r.has(changeHotspotsRemoved) {
		return out
	}
	// The tutorial: the first intro hotspot not seen (none once all are,
	// Zulip's finished tutorial).
	for _, h := range introHotspots {
		if seen[h.name] {
			continue
		}
		delay := hotspotDelay
		step := OnboardingStep{Name: h.name, Title: h.title, Description: h.description, Delay: &delay}
		if r.has(changeHotspotTrigger) {
			step.HasTrigger = new(bool)
		}
		if r.has(changeOnboardingSteps) {
			step.Type = stepHotspot
		}
		return append(out, step)
	}
	return out
}

// onboardingSteps is the onboarding_steps section, under the name of
// the realm's level.
func (r *Realm) onboardingSteps(me int) *OnboardingStepsState {
	return r.onboardingStepsOf(r.nextOnboardingSteps(me))
}

// onboardingStepsOf is the onboarding_steps section listing steps (none
// for nil).
func (r *Realm) onboardingStepsOf(steps []OnboardingStep) *OnboardingStepsState {
	if steps == nil {
		steps = []OnboardingStep{}
	}
	url := navigationTourVideoURL
	out := &OnboardingStepsState{NavigationTourVideoURL: &url}
	if r.has(changeOnboardingSteps) {
		out.OnboardingSteps = &steps
	} else {
		out.Hotspots = &steps
	}
	return out
}

// emitOnboardingSteps tells the user's queues the user's list, by the
// event of the realm's level.
func (r *Realm) emitOnboardingSteps(userID int) {
	steps := r.nextOnboardingSteps(userID)
	if r.has(changeOnboardingSteps) {
		r.emit("onboarding_steps", OnboardingStepsEvent{OnboardingSteps: &steps}, userID)
	} else {
		r.emit("hotspots", OnboardingStepsEvent{Hotspots: &steps}, userID)
	}
}
