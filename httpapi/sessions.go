package httpapi

import (
	"crypto/subtle"
	"net/http"
	"sync"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

// session is a browser-style login, as a Zulip dev server creates on dev
// login: a session ID for the sessionid cookie and the CSRF token that
// unsafe /json requests must echo in X-CSRFToken.
type session struct {
	id        string
	csrfToken string
	userID    int
}

// sessionStore holds the browser sessions of one Server. Sessions are an
// HTTP matter: the realm only vouches that their user is still active.
type sessionStore struct {
	mu   sync.Mutex
	byID map[string]session
}

// start logs a user in for /json requests.
func (st *sessionStore) start(userID int) session {
	s := session{id: user.NewAPIKey(), csrfToken: user.NewAPIKey(), userID: userID}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.byID == nil {
		st.byID = map[string]session{}
	}
	st.byID[s.id] = s
	return s
}

// lookup finds a session by its ID.
func (st *sessionStore) lookup(id string) (session, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.byID[id]
	return s, ok && id != ""
}

// setCookies logs the client's browser session in: the sessionid and
// csrftoken cookies Zulip's web app and go-zulip's suite read.
func (s session) setCookies(w http.ResponseWriter) {
	// The CSRF token stays readable by the page's scripts, which echo it;
	// the session ID does not. Both stay on same-site requests.
	http.SetCookie(w, &http.Cookie{Name: "csrftoken", Value: s.csrfToken, Path: "/", SameSite: http.SameSiteLaxMode})
	http.SetCookie(w, &http.Cookie{Name: "sessionid", Value: s.id, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// errCSRF is Zulip's answer to an unsafe /json request without the
// session's CSRF token.
var errCSRF = &realm.Error{Code: realm.CodeCSRFFailed, Msg: "CSRF error: CSRF token missing or incorrect.", Status: http.StatusForbidden}

// authenticateSession checks a /json request's session cookie and, for
// methods that change state, its X-CSRFToken header. Failures carry
// Zulip's codes: UNAUTHORIZED without a valid session, CSRF_FAILED (403)
// with a missing or wrong token.
func (s *Server) authenticateSession(req *http.Request) (*realm.Actor, error) {
	var sessionID string
	if c, err := req.Cookie("sessionid"); err == nil {
		sessionID = c.Value
	}
	sess, ok := s.sessions.lookup(sessionID)
	if !ok {
		return nil, realm.Unauthorized("Not logged in: API authentication or user session required")
	}
	actor, err := s.realm.ActiveActor(sess.userID)
	if err != nil {
		return nil, err
	}
	unsafe := req.Method != http.MethodGet && req.Method != http.MethodHead && req.Method != http.MethodOptions
	token := req.Header.Get("X-CSRFToken")
	if unsafe && (token == "" || subtle.ConstantTimeCompare([]byte(token), []byte(sess.csrfToken)) != 1) {
		return nil, errCSRF
	}
	return actor, nil
}
