package httpapi

import "github.com/minizulip/minizulip/realm"

// serverRoutes are the routes that need no login: server_settings and the
// dev server's login helpers.
func serverRoutes() []route {
	return []route{
		// Zulip serves it with require_safe: GET (and HEAD) only.
		{method: "GET", path: "/server_settings", h: serverSettings, public: true},
		// dev_fetch_api_key is POST only; dev_list_users takes any method.
		{method: "POST", path: "/dev_fetch_api_key", h: devFetchAPIKey, public: true, apiOnly: true},
		// Password login, as the mobile and terminal apps use it.
		{method: "POST", path: "/fetch_api_key", h: fetchAPIKey, public: true, apiOnly: true},
		{method: "GET", path: "/dev_list_users", h: devListUsers, public: true, apiOnly: true},
		{method: "POST", path: "/dev_list_users", h: devListUsers, public: true, apiOnly: true},
	}
}

// Zulip's server_settings and dev_list_users declare no parameters, so
// they never report ignored ones.
func serverSettings(c *call) (any, error) {
	s := c.srv
	c.p.acceptAll()
	return s.realm.ServerSettings(realm.ServerSettingsRequest{ClientName: userAgentClient(c.req.UserAgent()), DevLogin: s.devMode}), nil
}

// errNotDevServer is what a production Zulip answers on the dev endpoints.
func errNotDevServer() error { return realm.BadRequest("Endpoint not available in production.") }

func devFetchAPIKey(c *call) (any, error) {
	s := c.srv
	if err := checkOrigin(c.req); err != nil {
		return nil, err
	}
	username, err := c.p.mustStr("username")
	if err != nil {
		return nil, err
	}
	if !s.devMode {
		return nil, errNotDevServer()
	}
	login, err := s.realm.DevFetchAPIKey(username)
	if err != nil {
		return nil, err
	}
	// A dev login also logs the browser session in, for /json routes.
	s.sessions.start(login.UserID, s.realm.Now()).setCookies(c.w)
	return login, nil
}

func fetchAPIKey(c *call) (any, error) {
	s := c.srv
	if err := checkOrigin(c.req); err != nil {
		return nil, err
	}
	username, err := c.p.mustStr("username")
	if err != nil {
		return nil, err
	}
	password, err := c.p.mustStr("password")
	if err != nil {
		return nil, err
	}
	login, err := s.realm.FetchAPIKey(username, password)
	if err == nil && s.ui {
		// The web client's password form logs its browser session in.
		s.sessions.start(login.UserID, s.realm.Now()).setCookies(c.w)
	}
	return login, err
}

func devListUsers(c *call) (any, error) {
	s := c.srv
	c.p.acceptAll()
	if err := checkOrigin(c.req); err != nil {
		return nil, err
	}
	if !s.devMode {
		return nil, errNotDevServer()
	}
	return s.realm.DevListUsers(), nil
}
