package httpapi

import (
	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

func botRoutes() []route {
	return []route{
		{method: "POST", path: "/bots", h: createBot},
	}
}

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
	return c.actor.CreateBot(c.ctx(), req)
}
