package httpapi

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"strings"
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

// csrfError is Zulip's answer to an unsafe /json request whose CSRF token
// Django's middleware refuses, with Django's reason.
func csrfError(reason string) *realm.Error {
	return &realm.Error{Code: realm.CodeCSRFFailed, Msg: "CSRF error: " + reason, Status: http.StatusForbidden}
}

// csrfFormField is the form field Django reads a POST's CSRF token from
// before it looks at the X-CSRFToken header.
const csrfFormField = "csrfmiddlewaretoken"

// csrfTokenLength and csrfSecretLength are Django's: a token is the
// secret itself, or masked as 32 characters of mask then 32 of cipher.
const (
	csrfSecretLength = 32
	csrfTokenLength  = 2 * csrfSecretLength
	csrfAlphabet     = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

// checkCSRFToken checks token, read from source ("POST" or the header),
// against the session's secret as Django's CsrfViewMiddleware does: a
// 32-character secret or a 64-character masked token of letters and
// digits, with Django's reasons for each refusal.
func checkCSRFToken(token, source, secret string) error {
	if source != "POST" {
		source = "the 'X-Csrftoken' HTTP header"
	}
	if len(token) != csrfSecretLength && len(token) != csrfTokenLength {
		return csrfError("CSRF token from " + source + " has incorrect length.")
	}
	if strings.Trim(token, csrfAlphabet) != "" {
		return csrfError("CSRF token from " + source + " has invalid characters.")
	}
	if len(token) == csrfTokenLength {
		mask, cipher := token[:csrfSecretLength], token[csrfSecretLength:]
		plain := make([]byte, csrfSecretLength)
		n := len(csrfAlphabet)
		for i := range plain {
			x := strings.IndexByte(csrfAlphabet, cipher[i]) - strings.IndexByte(csrfAlphabet, mask[i])
			plain[i] = csrfAlphabet[((x%n)+n)%n]
		}
		token = string(plain)
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(secret)) != 1 {
		return csrfError("CSRF token from " + source + " incorrect.")
	}
	return nil
}

// csrfFromForm is authenticateSession's answer to a POST without the
// X-CSRFToken header whose body is a form: Django reads the token from
// its csrfmiddlewaretoken field, so the check waits for the body
// (checkFormCSRF).
type csrfFromForm struct {
	actor  *realm.Actor
	secret string
}

func (*csrfFromForm) Error() string { return "CSRF token to be read from the form" }

// checkFormCSRF checks the csrfmiddlewaretoken field of a parsed body,
// which is then not an API parameter.
func (f *csrfFromForm) checkFormCSRF(p *params) error {
	token, ok := p.str(csrfFormField)
	if !ok || token == "" {
		return csrfError("CSRF token missing.")
	}
	return checkCSRFToken(token, "POST", f.secret)
}

// authenticateSession checks a /json request's session cookie and, for
// methods that change state, its CSRF token: the X-CSRFToken header or,
// for a POST form, its csrfmiddlewaretoken field (see csrfFromForm), as
// Django reads them. Failures carry Zulip's codes: UNAUTHORIZED without a
// valid session, CSRF_FAILED (403) with Django's reason otherwise.
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
	if !unsafe {
		return actor, nil
	}
	if token, ok := req.Header["X-Csrftoken"]; ok {
		if err := checkCSRFToken(token[0], "header", sess.csrfToken); err != nil {
			return nil, err
		}
		return actor, nil
	}
	if ct, _ := formContentType(req.Header.Get("Content-Type")); req.Method == http.MethodPost &&
		(ct == "application/x-www-form-urlencoded" || ct == "multipart/form-data") {
		return nil, &csrfFromForm{actor: actor, secret: sess.csrfToken}
	}
	return nil, csrfError("CSRF token missing.")
}

// hasSession reports whether a /json request carries a live session
// cookie; without one Django's request.user is anonymous.
func (s *Server) hasSession(req *http.Request) bool {
	c, err := req.Cookie("sessionid")
	if err != nil {
		return false
	}
	_, ok := s.sessions.lookup(c.Value, s.realm.Now())
	return ok
}

// spectatorLanguage is a logged-out visitor's language: Django's
// language cookie (LANGUAGE_COOKIE_NAME, django_language), "" when none.
func spectatorLanguage(req *http.Request) string {
	if c, err := req.Cookie("django_language"); err == nil {
		return c.Value
	}
	return ""
}
