package httpapi

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"sync"
	"time"

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
	created   time.Time // by the realm's clock
}

// Session bounds: a login lasts as long as Django's default session age,
// and the oldest logins give way when there are too many.
const (
	sessionLifetime = 14 * 24 * time.Hour
	maxSessions     = 10000
)

// sessionStore holds the browser sessions of one Server. Sessions are an
// HTTP matter: the realm only vouches that their user is still active.
type sessionStore struct {
	mu    sync.Mutex
	byID  map[string]session
	order []string // session IDs, oldest first
}

// start logs a user in for /json requests at now, forgetting the oldest
// sessions past maxSessions.
func (st *sessionStore) start(userID int, now time.Time) session {
	s := session{id: user.NewAPIKey(), csrfToken: user.NewAPIKey(), userID: userID, created: now}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.byID == nil {
		st.byID = map[string]session{}
	}
	st.byID[s.id] = s
	st.order = append(st.order, s.id)
	for len(st.byID) > maxSessions {
		delete(st.byID, st.order[0])
		st.order = st.order[1:]
	}
	if len(st.order) > 2*maxSessions { // drop the IDs of expired sessions
		st.order = slices.DeleteFunc(st.order, func(id string) bool { _, ok := st.byID[id]; return !ok })
	}
	return s
}

// lookup finds a live session by its ID; one past its lifetime at now is
// gone.
func (st *sessionStore) lookup(id string, now time.Time) (session, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.byID[id]
	if ok && now.Sub(s.created) > sessionLifetime {
		delete(st.byID, id)
		ok = false
	}
	return s, ok && id != ""
}

// end forgets a session (logout).
func (st *sessionStore) end(id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.byID, id)
}

// count is the number of sessions kept.
func (st *sessionStore) count() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.byID)
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
	sess, ok := s.sessions.lookup(sessionID, s.realm.Now())
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
