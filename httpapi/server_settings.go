package httpapi

func (s *Server) serverRoutes() []route {
	routes := []route{
		{method: "GET", path: "/server_settings", h: s.serverSettings, public: true},
	}
	if s.devMode {
		routes = append(routes,
			route{method: "POST", path: "/dev_fetch_api_key", h: s.devFetchAPIKey, public: true},
			route{method: "GET", path: "/dev_list_users", h: s.devListUsers, public: true},
		)
	}
	return routes
}

func (s *Server) serverSettings(c *call) (any, error) { return s.realm.ServerSettings(), nil }

func (s *Server) devFetchAPIKey(c *call) (any, error) {
	username, err := c.p.mustStr("username")
	if err != nil {
		return nil, err
	}
	return s.realm.DevFetchAPIKey(username)
}

func (s *Server) devListUsers(c *call) (any, error) { return s.realm.DevListUsers(), nil }
