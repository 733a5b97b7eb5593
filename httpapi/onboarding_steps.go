package httpapi

func onboardingStepRoutes() []route {
	return []route{
		{method: "POST", path: "/users/me/onboarding_steps", h: markOnboardingStep},
		// The name the endpoint had below feature level 233 (unknown
		// from 233 on: realm.HasEndpoint), its parameter hotspot.
		{method: "POST", path: "/users/me/hotspots", h: markHotspot},
	}
}

// markOnboardingStep is POST /users/me/onboarding_steps.
func markOnboardingStep(c *call) (any, error) { return markStepSeen(c, "onboarding_step") }

// markHotspot is POST /users/me/hotspots.
func markHotspot(c *call) (any, error) { return markStepSeen(c, "hotspot") }

// markStepSeen marks the step the parameter names seen (absent: nil,
// which the realm refuses once it knows the caller is no bot).
func markStepSeen(c *call, param string) (any, error) {
	var step *string
	if v, ok := c.p.str(param); ok {
		step = &v
	}
	return nil, c.actor.MarkOnboardingStepSeen(c.ctx(), step)
}
