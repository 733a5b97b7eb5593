package realm

import (
	"context"
	"strconv"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// NarrowMatch is one message of GET /messages/matches_narrow: its
// rendered content and its topic, as a fetch of the narrow gives them, so
// a client can splice them into a message it got from an event.
type NarrowMatch struct {
	MatchContent string `json:"match_content"`
	MatchSubject string `json:"match_subject"`
}

// MessagesMatchingNarrow answers GET /messages/matches_narrow: which of
// the given messages the narrow matches, keyed by message ID, with the
// narrow's search terms highlighted as GET /messages does. Messages
// the caller may not read, or that do not exist, are left out, as
// messages the narrow does not match are.
func (a *Actor) MessagesMatchingNarrow(ctx context.Context, ids []int64, narrow []message.Term) (map[string]NarrowMatch, error) {
	r := a.r
	out := map[string]NarrowMatch{}
	err := a.read(ctx, func(me *user.User) error {
		q, err := r.compileNarrow(me, narrow)
		if err != nil {
			return err
		}
		for _, id := range ids {
			m := r.accessibleMessage(me, id)
			if m == nil || !q.match(r, me, m) {
				continue
			}
			out[strconv.FormatInt(id, 10)] = NarrowMatch{MatchContent: message.HighlightHTML(m.Rendered, q.search),
				MatchSubject: message.HighlightTopic(m.Topic, q.search)}
		}
		return nil
	})
	return out, err
}
