package httpapi

import (
	"net/http"

	"github.com/minizulip/minizulip/realm"
)

// setPlanType answers POST /minizulip/plan_type: moves the realm to the
// plan `plan_type` (Zulip's number: 1 self-hosted, 2 Zulip Cloud Free, 3
// Standard, 4 Standard sponsored, 10 Plus; required) as Zulip's billing
// does (realm.SetPlanType), with the upload limits and settings that
// come with it. Users are told with realm events.
func (s *Server) setPlanType(_ *http.Request, p *params) (any, error) {
	raw, ok := p.str("plan_type")
	if !ok {
		return nil, realm.VariableMissing("plan_type")
	}
	n, err := parseJSONInt(raw)
	if err != nil {
		return nil, realm.BadRequest("plan_type is not an integer")
	}
	if err := s.realm.SetPlanType(realm.PlanType(n)); err != nil {
		return nil, err
	}
	return map[string]any{"plan_type": n}, nil
}
