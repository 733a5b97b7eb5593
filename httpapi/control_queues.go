package httpapi

import (
	"net/http"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

// queueEntry is one live event queue as GET /minizulip/queues lists it.
type queueEntry struct {
	QueueID string `json:"queue_id"`
	UserID  int    `json:"user_id"`
	User    string `json:"user"`
	// EventTypes is null for a queue taking every type.
	EventTypes []string      `json:"event_types"`
	Narrow     []narrowEntry `json:"narrow"`
	// LastPoll is in Unix seconds, 0 if the queue was never polled.
	LastPoll int64 `json:"last_poll"`
	Pending  int   `json:"pending"`
}

// narrowEntry is one term of a queue's narrow, in Zulip's object form.
type narrowEntry struct {
	Operator string `json:"operator"`
	Operand  any    `json:"operand"`
	Negated  bool   `json:"negated"`
}

func narrowEntries(terms []message.Term) []narrowEntry {
	out := make([]narrowEntry, len(terms))
	for i, t := range terms {
		var operand any = t.Operand
		switch {
		case t.OperandIsList:
			operand = t.OperandIDs
		case t.Operand == "" && len(t.OperandIDs) == 1:
			operand = t.OperandIDs[0]
		}
		out[i] = narrowEntry{Operator: t.Operator, Operand: operand, Negated: t.Negated}
	}
	return out
}

// listQueues answers GET /minizulip/queues: the live event queues, of one
// user with `user` (an email).
func (s *Server) listQueues(_ *http.Request, p *params) (any, error) {
	userID := 0
	if email, ok := p.str("user"); ok {
		id, found := s.realm.UserIDByEmail(email)
		if !found {
			return nil, realm.BadRequest("No user with email %q", email)
		}
		userID = id
	}
	infos := s.realm.EventQueues(userID)
	out := make([]queueEntry, len(infos))
	for i, q := range infos {
		email, _ := s.realm.UserEmail(q.UserID)
		out[i] = queueEntry{QueueID: q.QueueID, UserID: q.UserID, User: email, EventTypes: q.EventTypes,
			Narrow: narrowEntries(q.Narrow), Pending: q.Pending}
		if !q.LastPoll.IsZero() {
			out[i].LastPoll = q.LastPoll.Unix()
		}
	}
	return map[string]any{"queues": out}, nil
}

// announceRestart answers POST /minizulip/restart: every live queue gets
// the restart event of a Zulip server whose event server restarted, and
// the answer says how many did.
func (s *Server) announceRestart(_ *http.Request, _ *params) (any, error) {
	return map[string]any{"queues": s.realm.AnnounceRestart()}, nil
}
