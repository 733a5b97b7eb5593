package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/webui"
)

// WithWebUI serves the web pages (package webui) or not: the client at
// "/" with its assets below /static/webui/, POST /accounts/logout/, and
// the inspector for a browser's GET of /minizulip/ (when the control API
// is on and no WithControlPage came first). Off by default for New; the standalone server turns it on
// unless -ui=false.
func WithWebUI(on bool) Option {
	return func(s *Server) {
		s.ui = on
		if on && s.tc.page == nil {
			s.tc.page = webui.Inspector()
		}
	}
}

// serveWebUI answers the web pages' own paths, reporting whether it did.
func (s *Server) serveWebUI(w http.ResponseWriter, req *http.Request) bool {
	if !s.ui {
		return false
	}
	path := req.URL.Path
	switch {
	case webui.Owns(path) && (req.Method == http.MethodGet || req.Method == http.MethodHead):
		if !s.hostAllowed(req) {
			writeBadHost(w)
			return true
		}
		webui.Handler(webui.Config{LoginUsers: s.loginUsers}).ServeHTTP(w, req)
		return true
	case path == "/accounts/logout/" && req.Method == http.MethodPost:
		if !s.hostAllowed(req) {
			writeBadHost(w)
			return true
		}
		s.logout(w, req)
		return true
	}
	return false
}

// loginUsers lists the dev login page's users by full name, in
// dev_list_users' order; ok is false when dev login is off.
func (s *Server) loginUsers() ([]webui.LoginUser, bool) {
	if !s.devMode {
		return nil, false
	}
	list := s.realm.DevListUsers()
	var out []webui.LoginUser
	for _, du := range append(list.DirectAdmins, list.DirectUsers...) {
		id, ok := s.realm.UserIDByEmail(du.Email)
		if !ok {
			continue
		}
		u, err := s.realm.As(id).User(context.Background(), id, realm.UserViewOptions{ClientGravatar: true})
		if err != nil {
			continue
		}
		out = append(out, webui.LoginUser{Email: du.Email, FullName: u.FullName})
	}
	return out, true
}

// logout ends the browser session of the request (Zulip's POST
// /accounts/logout/), with its CSRF token as any unsafe /json request.
func (s *Server) logout(w http.ResponseWriter, req *http.Request) {
	if _, err := s.authenticateSession(req); err != nil {
		writeError(w, err)
		return
	}
	c, _ := req.Cookie("sessionid")
	s.sessions.end(c.Value)
	for _, name := range []string{"sessionid", "csrftoken"} {
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, SameSite: http.SameSiteLaxMode, HttpOnly: !strings.HasPrefix(name, "csrf")})
	}
	writeSuccess(w, map[string]any{}, nil)
}
