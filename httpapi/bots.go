package httpapi

import (
	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

func botRoutes() []route {
	return []route{
		{method: "POST", path: "/bots", h: createBot},
		{method: "PATCH", path: "/bots/{bot_id}", h: updateBot},
	}
}

// createBot is POST /bots: full_name and short_name required; bot_type,
// and for outgoing-webhook bots payload_url (a JSON string),
// interface_type and service_name, optional.
func createBot(c *call) (any, error) {
	var req realm.BotRequest
	var err error
	if req.FullName, err = c.p.mustStr("full_name"); err != nil {
		return nil, err
	}
	if req.ShortName, err = c.p.mustStr("short_name"); err != nil {
		return nil, err
	}
	botType, _, err := c.p.optInt("bot_type")
	if err != nil {
		return nil, err
	}
	req.BotType = user.BotType(botType)
	if _, err := c.p.optJSON("payload_url", &req.PayloadURL); err != nil {
		return nil, err
	}
	if req.InterfaceType, _, err = c.p.optInt("interface_type"); err != nil {
		return nil, err
	}
	req.ServiceName, _ = c.p.str("service_name")
	return c.actor.CreateBot(c.ctx(), req)
}

// updateBot is PATCH /bots/{bot_id}: service_payload_url (a JSON string)
// and service_interface, both optional.
func updateBot(c *call) (any, error) {
	id, err := c.pathInt("bot_id")
	if err != nil {
		return nil, err
	}
	var req realm.BotUpdate
	var url string
	if set, err := c.p.optJSON("service_payload_url", &url); err != nil {
		return nil, err
	} else if set {
		req.ServicePayloadURL = &url
	}
	if n, set, err := c.p.optInt("service_interface"); err != nil {
		return nil, err
	} else if set {
		req.ServiceInterface = &n
	}
	return c.actor.UpdateBot(c.ctx(), id, req)
}
