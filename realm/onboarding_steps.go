package realm

// OnboardingStepsState is the onboarding_steps section of POST
// /register: the onboarding steps the user has yet to see, and the
// server's navigation tour video (feature level 369; the register gate
// leaves it out below). The fake runs as a Zulip server with its
// tutorial off (TUTORIAL_ENABLED false), which lists no steps. Below
// feature level 233 the list, and the section, were named hotspots.
type OnboardingStepsState struct {
	OnboardingSteps        *[]OnboardingStep `json:"onboarding_steps,omitempty"`
	Hotspots               *[]OnboardingStep `json:"hotspots,omitempty"` // below feature level 233
	NavigationTourVideoURL *string           `json:"navigation_tour_video_url"`
}

// OnboardingStep is one onboarding step a client may show.
type OnboardingStep struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// onboardingSteps is the onboarding_steps section, under the name of
// the realm's level.
func (r *Realm) onboardingSteps() *OnboardingStepsState {
	url, none := navigationTourVideoURL, []OnboardingStep{}
	out := &OnboardingStepsState{NavigationTourVideoURL: &url}
	if r.has(changeOnboardingSteps) {
		out.OnboardingSteps = &none
	} else {
		out.Hotspots = &none
	}
	return out
}
