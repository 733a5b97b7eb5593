package realm

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/user"
)

// Anchor values of GET /messages, as Zulip maps them.
const (
	AnchorOldest int64 = 0
	AnchorNewest int64 = 10_000_000_000_000_000
)

// Anchor is the anchor of a fetch: an ID, or one of the named anchors.
type Anchor struct {
	ID          int64
	FirstUnread bool
}

// ParseAnchor reads the anchor parameter: an integer, "newest", "oldest"
// or "first_unread". Negative IDs mean oldest; IDs past 10^16 mean newest.
func ParseAnchor(s string) (Anchor, error) {
	switch s {
	case "newest":
		return Anchor{ID: AnchorNewest}, nil
	case "oldest":
		return Anchor{ID: AnchorOldest}, nil
	case "first_unread":
		return Anchor{FirstUnread: true}, nil
	}
	s = strings.Trim(s, `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if len(s) > 0 && strings.Trim(s, "0123456789") == "" {
			return Anchor{ID: AnchorNewest}, nil // overflow: a huge id
		}
		return Anchor{}, BadRequest("Invalid anchor")
	}
	return Anchor{ID: min(max(n, AnchorOldest), AnchorNewest)}, nil
}

// FetchRequest is a GET /messages query.
type FetchRequest struct {
	Anchor        Anchor
	NumBefore     int
	NumAfter      int
	IncludeAnchor bool
	Narrow        []message.Term
	View          ViewOptions
	// NoAnchor reports a request that named no anchor (and did not ask
	// for the first unread one): a range needs one ("Missing 'anchor'
	// argument.").
	NoAnchor bool
	// MessageIDs, when not nil, asks for these messages rather than a
	// range (GET /messages's message_ids, feature level 300): those of
	// them the viewer may read and the narrow matches, ascending, with
	// no anchor and found_anchor, found_oldest and found_newest false. An
	// empty, non-nil list asks for none. It cannot be combined with an
	// anchor or a nonzero NumBefore or NumAfter.
	MessageIDs []int64
}

// FetchResult is the answer of GET /messages.
type FetchResult struct {
	Messages       []Message `json:"messages"`
	Anchor         int64     `json:"anchor"`
	FoundAnchor    bool      `json:"found_anchor"`
	FoundOldest    bool      `json:"found_oldest"`
	FoundNewest    bool      `json:"found_newest"`
	HistoryLimited bool      `json:"history_limited"`
	// ByMessageIDs reports an answer to MessageIDs, which Zulip sends
	// without anchor.
	ByMessageIDs bool `json:"-"`
}

// fetchRangeParameters are the parameters message_ids excludes, as
// Zulip names them when refusing the combination.
const fetchRangeParameters = "num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor"

// checkFetch refuses a malformed fetch, in Zulip's order: negative IDs,
// message_ids beside a range, a range without an anchor, too many
// messages, an anchor excluded inside a range.
func (req *FetchRequest) checkFetch(maxPerFetch int) error {
	for i, id := range req.MessageIDs {
		if id < 0 {
			return BadRequest("message_ids[%d] is too small", i)
		}
	}
	if req.NumBefore < 0 || req.NumAfter < 0 {
		return BadRequest("num_before and num_after must not be negative")
	}
	count := req.NumBefore + req.NumAfter
	if req.MessageIDs != nil {
		if req.NumBefore != 0 || req.NumAfter != 0 || !req.NoAnchor {
			return &Error{Code: CodeBadRequest, Status: statusBadRequest,
				Msg:   "Unsupported parameter combination: " + fetchRangeParameters,
				Extra: map[string]any{"parameters": fetchRangeParameters}}
		}
		count = len(req.MessageIDs)
	} else if req.NoAnchor {
		return BadRequest("Missing 'anchor' argument.")
	}
	if count > maxPerFetch {
		return BadRequest("Too many messages requested (maximum %d).", maxPerFetch)
	}
	if req.MessageIDs == nil && !req.IncludeAnchor && req.NumBefore > 0 && req.NumAfter > 0 {
		return BadRequest("The anchor can only be excluded at an end of the range")
	}
	return nil
}

// Messages answers GET /messages: the messages around an anchor that
// match a narrow, walking only the index the narrow names, or the listed
// messages (MessageIDs).
func (a *Actor) Messages(ctx context.Context, req FetchRequest) (ans FetchResult, err error) {
	if err := req.checkFetch(a.r.opts.Limits.MaxMessagesPerFetch); err != nil {
		return FetchResult{}, err
	}
	// Under the lock, select the messages and copy their flags and what
	// their views read of the realm; build the views after releasing it
	// (stored messages never change: see message_cow.go).
	r := a.r
	var msgs []*message.Message
	var flags []message.Flags
	var d *messageDirectory
	var search []string
	err = a.read(ctx, func(me *user.User) error {
		q, err := r.compileNarrow(me, req.Narrow)
		if err != nil {
			return err
		}
		search = q.search
		if req.MessageIDs != nil {
			msgs = r.selectIDs(me, q, req.MessageIDs)
			ans = FetchResult{ByMessageIDs: true}
		} else {
			fr := r.selectRange(me, q, req.Anchor, req.NumBefore, req.NumAfter, req.IncludeAnchor)
			msgs = fr.ascending()
			ans = FetchResult{Anchor: fr.anchor, FoundAnchor: fr.foundAnchor,
				FoundOldest: fr.foundOldest, FoundNewest: fr.foundNewest}
		}
		flags = r.fetchedFlagsOf(me, msgs)
		d = r.messageDirectory(me)
		for _, m := range msgs {
			d.add(r, m)
		}
		return nil
	})
	if err != nil {
		return FetchResult{}, err
	}
	ans.Messages = make([]Message, len(msgs))
	for i, m := range msgs {
		ans.Messages[i] = d.messageView(m, flags[i], true, req.View)
		ans.Messages[i].highlightSearch(m, search)
	}
	return ans, nil
}

// fetchRange is the messages of a range around an anchor, as GET /messages
// selects them (POST /messages/flags/narrow selects the same way).
type fetchRange struct {
	anchor    int64              // the resolved anchor ID
	before    []*message.Message // newest first
	anchorMsg *message.Message   // nil unless it matches and is included
	after     []*message.Message // oldest first
	// found* are GET /messages's found_anchor, found_oldest, found_newest.
	foundAnchor, foundOldest, foundNewest bool
}

// selectRange walks the narrow's index around the anchor: the last
// numBefore matches below it, the anchor itself, the first numAfter
// matches above it. The caller holds the realm's lock.
func (r *Realm) selectRange(me *user.User, q *narrowQuery, a Anchor, numBefore, numAfter int, includeAnchor bool) fetchRange {
	anchor := a.ID
	if a.FirstUnread {
		anchor = r.firstUnread(me, q)
	}
	fr := fetchRange{anchor: anchor}
	// One array for the whole range, so that ascending reuses it.
	fr.before = make([]*message.Message, 0, min(numBefore+numAfter+1, maxPresizedRange))
	w := q.walker(r, me)
	if numBefore > 0 {
		w.Down(anchor, func(m *message.Message) bool {
			if q.match(r, me, m) {
				fr.before = append(fr.before, m)
			}
			return len(fr.before) < numBefore
		})
	}
	if anchor != AnchorNewest && anchor != AnchorOldest {
		w.Up(anchor, func(m *message.Message) bool {
			if m.ID == anchor && q.match(r, me, m) {
				fr.anchorMsg = m
			}
			return false
		})
	}
	if numAfter > 0 && anchor != AnchorNewest {
		w.Up(anchor+1, func(m *message.Message) bool {
			if q.match(r, me, m) {
				fr.after = append(fr.after, m)
			}
			return len(fr.after) < numAfter
		})
	}
	fr.foundAnchor = fr.anchorMsg != nil
	fr.foundOldest = anchor == AnchorOldest || len(fr.before) < numBefore
	fr.foundNewest = anchor == AnchorNewest || len(fr.after) < numAfter
	if !includeAnchor {
		fr.anchorMsg = nil
	}
	return fr
}

// selectIDs is the messages of ids that q matches (which checks that the
// viewer received them, or reads their channel's history in a channel
// narrow, as Zulip's query does), ascending, each once. The caller holds
// the realm's lock.
func (r *Realm) selectIDs(me *user.User, q *narrowQuery, ids []int64) []*message.Message {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	var out []*message.Message
	for _, id := range slices.Compact(sorted) {
		if m, ok := r.messages.store.Message(id); ok && q.match(r, me, m) {
			out = append(out, m)
		}
	}
	return out
}

// maxPresizedRange bounds the room selectRange makes for a range before
// walking it.
const maxPresizedRange = 1024

// ascending lists the range's messages in ID order, in before's array
// (fr.before is reversed).
func (fr *fetchRange) ascending() []*message.Message {
	out := fr.before
	slices.Reverse(out)
	if fr.anchorMsg != nil {
		out = append(out, fr.anchorMsg)
	}
	return append(out, fr.after...)
}

// fetchedView is a message with the viewer's flags (see fetchedFlags).
func (r *Realm) fetchedView(me *user.User, m *message.Message, o ViewOptions) Message {
	return r.messageView(me, m, r.fetchedFlags(me, m), true, o)
}

// fetchedFlagsOf is fetchedFlags for each of msgs, ascending by ID: one
// walk down the viewer's copies over the range, as long as the copies in
// it are not many more than the messages (else a lookup a message).
func (r *Realm) fetchedFlagsOf(me *user.User, msgs []*message.Message) []message.Flags {
	flags := make([]message.Flags, len(msgs))
	i := len(msgs) - 1
	if i < 0 {
		return flags
	}
	budget := 2*len(msgs) + 16 // copies walked before falling back to lookups
	r.messages.store.CopiesDescending(me.ID, msgs[i].ID+1, func(c store.Copy) bool {
		for ; i >= 0 && msgs[i].ID > c.Message.ID; i-- {
			flags[i] = notReceivedFlags // walked past: no copy
		}
		if i >= 0 && msgs[i].ID == c.Message.ID {
			flags[i] = c.Flags
			i--
		}
		budget--
		return i >= 0 && budget > 0
	})
	for ; i >= 0; i-- {
		flags[i] = r.fetchedFlags(me, msgs[i])
	}
	return flags
}

// notReceivedFlags are the flags of channel history the viewer never
// received.
const notReceivedFlags = message.Read | message.Historical

// fetchedFlags are the viewer's flags of m; channel history the viewer
// never received is flagged read and historical.
func (r *Realm) fetchedFlags(me *user.User, m *message.Message) message.Flags {
	if um, ok := r.messages.store.Copy(me.ID, m.ID); ok {
		return um.Flags
	}
	return notReceivedFlags
}

// firstUnread is the ID of the oldest unread message matching q, or
// AnchorNewest when there is none. As in Zulip, muted topics are skipped,
// and so are muted channels (but not their unmuted or followed topics)
// unless the narrow names a channel.
func (r *Realm) firstUnread(me *user.User, q *narrowQuery) int64 {
	found := AnchorNewest
	r.messages.store.Unread(me.ID).Up(0, func(m *message.Message) bool {
		if r.skippedAsFirstUnread(me, q, m) {
			return true
		}
		if q.match(r, me, m) {
			found = m.ID
			return false
		}
		return true
	})
	return found
}

// skippedAsFirstUnread reports whether muting hides m from the
// first_unread anchor of q.
func (r *Realm) skippedAsFirstUnread(me *user.User, q *narrowQuery, m *message.Message) bool {
	if m.Type != message.Channel {
		return false
	}
	if q.mutingScope == nil {
		return r.mutedFor(me.ID, m)
	}
	return m.ChannelID == q.mutingScope.ID && r.userTopicPolicy(me.ID, m.ChannelID, m.Topic) == PolicyMuted
}

// Message answers GET /messages/{id}: the message with the viewer's
// flags, and its raw Markdown.
func (a *Actor) Message(ctx context.Context, id int64, o ViewOptions) (view Message, raw string, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		m := r.accessibleMessage(me, id)
		if m == nil {
			return invalidMessage()
		}
		view, raw = r.fetchedView(me, m, o), m.Content
		return nil
	})
	return view, raw, err
}

// accessibleMessage returns message id if the user received it or may read
// its channel's history; nil otherwise.
func (r *Realm) accessibleMessage(me *user.User, id int64) *message.Message {
	m, ok := r.messages.store.Message(id)
	if !ok {
		return nil
	}
	if r.messages.store.HasCopy(me.ID, id) {
		return m
	}
	if m.Type == message.Channel {
		if ch := r.channels.byID[m.ChannelID]; ch != nil && r.historyReadableBy(ch, me.ID) {
			return m
		}
	}
	return nil
}
