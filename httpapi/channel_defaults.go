package httpapi

func defaultChannelRoutes() []route {
	return []route{
		{method: "POST", path: "/default_streams", h: addDefaultChannel},
		{method: "DELETE", path: "/default_streams", h: removeDefaultChannel},
	}
}

func addDefaultChannel(c *call) (any, error) {
	id, err := c.p.mustInt("stream_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.AddDefaultChannel(c.ctx(), id)
}

func removeDefaultChannel(c *call) (any, error) {
	id, err := c.p.mustInt("stream_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.RemoveDefaultChannel(c.ctx(), id)
}
