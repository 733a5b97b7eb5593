package httpapi

import "github.com/minizulip/minizulip/realm"

func userTopicRoutes() []route {
	return []route{
		{method: "POST", path: "/user_topics", h: setUserTopic},
		{method: "PATCH", path: "/users/me/subscriptions/muted_topics", h: muteTopic},
	}
}

func setUserTopic(c *call) (any, error) {
	var req realm.UserTopicRequest
	var err error
	if req.ChannelID, err = c.p.mustInt("stream_id"); err != nil {
		return nil, err
	}
	if req.Topic, err = c.p.mustStr("topic"); err != nil {
		return nil, err
	}
	if req.Policy, err = c.p.mustInt("visibility_policy"); err != nil {
		return nil, err
	}
	return nil, c.actor.SetUserTopic(c.ctx(), req)
}

// muteTopic is the deprecated muted-topics endpoint: op add mutes (policy
// 1), remove resets to inherit (0).
func muteTopic(c *call) (any, error) {
	var req realm.UserTopicRequest
	id, hasID, err := c.p.optInt("stream_id")
	if err != nil {
		return nil, err
	}
	name, hasName := c.p.str("stream")
	switch {
	case hasID && hasName:
		return nil, realm.BadRequest("Please choose one: 'stream' or 'stream_id'.")
	case !hasID && !hasName:
		return nil, realm.BadRequest("Missing 'stream_id' argument")
	}
	req.ChannelID, req.ChannelName = id, name
	if req.Topic, err = c.p.mustStr("topic"); err != nil {
		return nil, err
	}
	op, err := c.p.mustStr("op")
	if err != nil {
		return nil, err
	}
	switch op {
	case "add":
		req.Policy = realm.PolicyMuted
	case "remove":
		req.Policy = realm.PolicyInherit
	default:
		return nil, realm.BadRequest("Invalid op")
	}
	return nil, c.actor.SetUserTopic(c.ctx(), req)
}
