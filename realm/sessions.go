package realm

import (
	"crypto/subtle"
	"net/http"
)

// Session is a browser-style login, as a Zulip dev server creates on dev
// login: a session ID for the sessionid cookie and the CSRF token that
// unsafe /json requests must echo in X-CSRFToken.
type Session struct {
	ID        string
	CSRFToken string
	userID    int
}

// StartSession logs a user in for /json requests and returns the session.
func (r *Realm) StartSession(userID int) (Session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	u := r.users[userID]
	if u == nil || !u.IsActive {
		return Session{}, noSuchUser()
	}
	s := Session{ID: newAPIKey(), CSRFToken: newAPIKey(), userID: userID}
	if r.sessions == nil {
		r.sessions = map[string]Session{}
	}
	r.sessions[s.ID] = s
	return s, nil
}

// SessionActor authenticates a /json request: its session ID and, for
// methods that change state, the CSRF token it sent. Failures carry
// Zulip's codes: UNAUTHORIZED without a valid session, CSRF_FAILED (403)
// with a missing or wrong token.
func (r *Realm) SessionActor(sessionID, csrfToken string, unsafe bool) (*Actor, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.sessions[sessionID]
	if !ok || sessionID == "" {
		return nil, Unauthorized("Not logged in: API authentication or user session required")
	}
	if u := r.users[s.userID]; u == nil || !u.IsActive {
		return nil, Unauthorized("Account is deactivated")
	}
	if unsafe && (csrfToken == "" || subtle.ConstantTimeCompare([]byte(csrfToken), []byte(s.CSRFToken)) != 1) {
		return nil, &Error{Code: CodeCSRFFailed, Msg: "CSRF error: CSRF token missing or incorrect.", Status: http.StatusForbidden}
	}
	return &Actor{r: r, id: s.userID}, nil
}
