package httpapi

import "github.com/minizulip/minizulip/realm"

func userStatusRoutes() []route {
	return []route{
		{method: "GET", path: "/users/{user_id}/status", h: getUserStatus},
		{method: "POST", path: "/users/me/status", h: updateUserStatus},
		{method: "POST", path: "/users/{user_id}/status", h: updateStatusForUser},
	}
}

// statusAnswer is the body of GET /users/{user_id}/status.
type statusAnswer struct {
	Status realm.UserStatus `json:"status"`
}

func getUserStatus(c *call) (any, error) {
	id, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	st, err := c.actor.UserStatus(c.ctx(), id)
	if err != nil {
		return nil, err
	}
	return statusAnswer{Status: st}, nil
}

func updateUserStatus(c *call) (any, error) {
	req := statusUpdate(c)
	away, set, err := c.p.optBoolSet("away")
	if err != nil {
		return nil, err
	}
	if set {
		req.Away = &away
	}
	return nil, c.actor.UpdateStatus(c.ctx(), req)
}

func updateStatusForUser(c *call) (any, error) {
	id, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateStatusFor(c.ctx(), id, statusUpdate(c))
}

// statusUpdate reads the status fields both status endpoints take.
func statusUpdate(c *call) realm.StatusUpdate {
	var req realm.StatusUpdate
	for _, f := range []struct {
		name string
		dst  **string
	}{
		{"status_text", &req.StatusText}, {"emoji_name", &req.EmojiName},
		{"emoji_code", &req.EmojiCode}, {"reaction_type", &req.ReactionType},
	} {
		if v, ok := c.p.str(f.name); ok {
			*f.dst = &v
		}
	}
	return req
}
