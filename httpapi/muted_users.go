package httpapi

func mutedUserRoutes() []route {
	return []route{
		{method: "POST", path: "/users/me/muted_users/{muted_user_id}", h: muteUser},
		{method: "DELETE", path: "/users/me/muted_users/{muted_user_id}", h: unmuteUser},
	}
}

func muteUser(c *call) (any, error) {
	id, err := c.pathInt("muted_user_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.MuteUser(c.ctx(), id)
}

func unmuteUser(c *call) (any, error) {
	id, err := c.pathInt("muted_user_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.UnmuteUser(c.ctx(), id)
}
