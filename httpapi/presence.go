package httpapi

import "github.com/minizulip/minizulip/realm"

func presenceRoutes() []route {
	return []route{
		{method: "POST", path: "/users/me/presence", h: updatePresence},
		{method: "GET", path: "/users/{user_id_or_email}/presence", h: getUserPresence},
		{method: "GET", path: "/realm/presence", h: getRealmPresence},
	}
}

func updatePresence(c *call) (any, error) {
	var req realm.PresenceRequest
	var err error
	if req.Status, err = c.p.mustStr("status"); err != nil {
		return nil, err
	}
	if req.PingOnly, err = c.p.optBool("ping_only", false); err != nil {
		return nil, err
	}
	if req.NewUserInput, err = c.p.optBool("new_user_input", false); err != nil {
		return nil, err
	}
	if req.SlimPresence, err = c.p.optBool("slim_presence", false); err != nil {
		return nil, err
	}
	if c.actor.Realm().Has(realm.ChangePresenceLastUpdateID) {
		if req.LastUpdateID, err = optIntPtr(c, "last_update_id"); err != nil {
			return nil, err
		}
	}
	if c.actor.Realm().Has(realm.ChangePresenceHistoryLimit) {
		if req.HistoryLimitDays, err = optIntPtr(c, "history_limit_days"); err != nil {
			return nil, err
		}
	}
	return c.actor.UpdatePresence(c.ctx(), req)
}

// optIntPtr reads an optional integer parameter, nil when absent.
func optIntPtr(c *call, name string) (*int, error) {
	v, set, err := c.p.optInt(name)
	if err != nil || !set {
		return nil, err
	}
	return &v, nil
}

// userPresenceAnswer is the body of GET /users/{user_id_or_email}/presence.
type userPresenceAnswer struct {
	Presence map[string]realm.LegacyClientPresence `json:"presence"`
}

func getUserPresence(c *call) (any, error) {
	p, err := c.actor.UserPresence(c.ctx(), c.req.PathValue("user_id_or_email"))
	if err != nil {
		return nil, err
	}
	return userPresenceAnswer{Presence: p}, nil
}

func getRealmPresence(c *call) (any, error) { return c.actor.RealmPresence(c.ctx()) }
