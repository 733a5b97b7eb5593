package httpapi

import (
	"net/http"

	"github.com/minizulip/minizulip/realm"
)

// outboxEntry is one recorded email as GET /minizulip/outbox lists it.
type outboxEntry struct {
	To       string `json:"to"`
	Template string `json:"template"`
	UserID   int    `json:"user_id"`
	OldEmail string `json:"old_email"`
	NewEmail string `json:"new_email"`
	// ConfirmationKey is the key of the email's link, for
	// POST /minizulip/confirmations/{key}; empty when it has none.
	ConfirmationKey string `json:"confirmation_key"`
	// Sent is when the realm clock says it went, in Unix seconds with
	// fractions.
	Sent float64 `json:"sent"`
}

// listOutbox answers GET /minizulip/outbox: every email the realm would
// have sent (realm.Realm.Outbox), oldest first.
func (s *Server) listOutbox(*http.Request, *params) (any, error) {
	mails := s.realm.Outbox()
	out := make([]outboxEntry, len(mails))
	for i, m := range mails {
		out[i] = outboxEntry{To: m.To, Template: m.Template, UserID: m.UserID, OldEmail: m.OldEmail,
			NewEmail: m.NewEmail, ConfirmationKey: m.ConfirmationKey, Sent: float64(m.Sent.UnixMicro()) / 1e6}
	}
	return map[string]any{"outbox": out}, nil
}

// clearOutbox answers DELETE /minizulip/outbox; the keys of the emails
// forgotten still work.
func (s *Server) clearOutbox(*http.Request, *params) (any, error) {
	s.realm.ClearOutbox()
	return nil, nil
}

// postConfirmation answers POST /minizulip/confirmations/{key}: following
// the link of a recorded email (realm.Realm.Confirm). An invitation's key
// signs up a new account with full_name, password (optional) and, for an
// invitation link, email; an email change's key confirms the change.
func (s *Server) postConfirmation(req *http.Request, p *params) (any, error) {
	var signup realm.Signup
	signup.FullName, _ = p.str("full_name")
	signup.Password, _ = p.str("password")
	signup.Email, _ = p.str("email")
	return s.realm.Confirm(req.PathValue("key"), signup)
}
