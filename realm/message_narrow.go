package realm

import (
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// narrowQuery is a compiled narrow: the positive terms that pick an index
// to walk, and one predicate per term.
type narrowQuery struct {
	channel    *storedChannel // positive channel term
	topicName  *string        // positive topic term
	conv       *conversation
	noConv     bool // a positive dm term names a conversation that never existed
	senderID   int  // positive sender term
	unreadOnly bool // positive is:unread
	// history is true when the narrow reads the whole history of channel
	// rather than the viewer's own messages.
	history bool
	// mutingScope is the channel of the narrow's first channel term,
	// negated or not: first_unread then skips only that channel's muted
	// topics, not muted channels (Zulip's exclude_muting_conditions).
	mutingScope *storedChannel
	// spectator scopes the narrow to what a logged-out visitor may read:
	// the messages of the web-public channels (Realm.spectatorChannel),
	// whoever received them.
	spectator bool
	// search are the operands of the positive search terms: a fetch
	// highlights them in match_content and match_subject.
	search []string
	preds  []func(*message.Message) bool
}

// compileNarrow resolves the names in a narrow and builds its predicates.
func (r *Realm) compileNarrow(me *user.User, terms []message.Term) (*narrowQuery, error) {
	q := &narrowQuery{}
	hasIs := false
	for _, t := range terms {
		pred, err := r.compileTerm(me, q, t)
		if err != nil {
			return nil, err
		}
		if t.Operator == "is" {
			hasIs = true
		}
		if t.Negated {
			inner := pred
			pred = func(m *message.Message) bool { return !inner(m) }
		}
		q.preds = append(q.preds, pred)
	}
	if q.channel != nil && !hasIs && r.historyReadableBy(q.channel, me.ID) {
		q.history = true
	}
	return q, nil
}

func (r *Realm) compileTerm(me *user.User, q *narrowQuery, t message.Term) (func(*message.Message) bool, error) {
	switch t.Operator {
	case "channel":
		ch := r.channelByNameOrID(t.Operand)
		if ch == nil {
			return nil, BadNarrow("unknown stream " + t.Operand)
		}
		if q.spectator && !r.spectatorChannel(ch) {
			// Zulip's NarrowBuilder.by_channel for a web-public query.
			return nil, BadNarrow("unknown web-public channel " + t.Operand)
		}
		if !t.Negated {
			q.channel = ch
		}
		if q.mutingScope == nil {
			q.mutingScope = ch
		}
		id := ch.ID
		return func(m *message.Message) bool { return m.Type == message.Channel && m.ChannelID == id }, nil
	case "channels":
		if t.Operand != "public" && t.Operand != "web-public" {
			return nil, BadNarrow("unknown streams operand " + t.Operand)
		}
		webOnly := t.Operand == "web-public"
		return func(m *message.Message) bool {
			ch := r.channels.byID[m.ChannelID]
			return m.Type == message.Channel && ch != nil && !ch.InviteOnly && (!webOnly || ch.IsWebPublic)
		}, nil
	case "topic":
		name := r.topicRules().Operand(t.Operand)
		if !t.Negated {
			q.topicName = &name
		}
		key := topic.Key(name)
		return func(m *message.Message) bool { return m.Type == message.Channel && topic.Key(m.Topic) == key }, nil
	case "dm", "group-pm-with", "dm-including":
		ids, err := r.narrowUserIDs(t)
		if err != nil {
			return nil, err
		}
		return r.compileDMTerm(me, q, t, ids)
	case "sender":
		u := r.narrowUser(t.Operand)
		if u == nil {
			return nil, BadNarrow("unknown user " + t.Operand)
		}
		if !t.Negated {
			q.senderID = u.ID
		}
		id := u.ID
		return func(m *message.Message) bool { return m.SenderID == id }, nil
	case "is":
		return r.compileIsTerm(me, q, t)
	case "id":
		id, err := strconv.ParseInt(t.Operand, 10, 64)
		if err != nil {
			return nil, BadNarrow("Invalid message ID")
		}
		return func(m *message.Message) bool { return m.ID == id }, nil
	case "search":
		if !t.Negated {
			q.search = append(q.search, strings.Trim(t.Operand, `"`))
		}
		needle := strings.ToLower(strings.Trim(t.Operand, `"`))
		return func(m *message.Message) bool {
			return strings.Contains(strings.ToLower(m.Content), needle) || strings.Contains(strings.ToLower(m.Topic), needle)
		}, nil
	case "has":
		switch t.Operand {
		case "reaction":
			return func(m *message.Message) bool { return len(m.Changes().Reactions) > 0 }, nil
		case "link", "attachment", "image":
			op := t.Operand
			return func(m *message.Message) bool { return m.Has(op) }, nil
		}
		return nil, BadNarrow("unknown 'has' operand " + t.Operand)
	case "in":
		if t.Operand != "home" && t.Operand != "all" {
			return nil, BadNarrow("unknown 'in' operand " + t.Operand)
		}
		if t.Operand == "all" {
			return func(*message.Message) bool { return true }, nil
		}
		return func(m *message.Message) bool { return !r.mutedFor(me.ID, m) }, nil
	case "near", "with":
		return func(*message.Message) bool { return true }, nil
	}
	return nil, BadNarrow("unknown operator " + t.Operator)
}

func (r *Realm) compileDMTerm(me *user.User, q *narrowQuery, t message.Term, ids []int) (func(*message.Message) bool, error) {
	switch t.Operator {
	case "dm":
		set := append([]int{me.ID}, ids...)
		slices.Sort(set)
		set = slices.Compact(set)
		key := conversationKey(set)
		conv := r.recipients.conversations[key]
		if !t.Negated {
			q.conv, q.noConv = conv, conv == nil
		}
		return func(m *message.Message) bool {
			return m.Type == message.Direct && conv != nil && slices.Equal(m.DMUserIDs, conv.userIDs)
		}, nil
	case "group-pm-with":
		id := ids[0]
		return func(m *message.Message) bool {
			return m.Type == message.Direct && len(m.DMUserIDs) > 2 && slices.Contains(m.DMUserIDs, id)
		}, nil
	default: // dm-including
		id := ids[0]
		return func(m *message.Message) bool {
			return m.Type == message.Direct && slices.Contains(m.DMUserIDs, id)
		}, nil
	}
}

func (r *Realm) compileIsTerm(me *user.User, q *narrowQuery, t message.Term) (func(*message.Message) bool, error) {
	flag := func(f message.Flags) func(*message.Message) bool {
		return func(m *message.Message) bool {
			um, ok := r.messages.store.Copy(me.ID, m.ID)
			return ok && um.Flags&f != 0
		}
	}
	switch t.Operand {
	case "dm", "private":
		return func(m *message.Message) bool { return m.Type == message.Direct }, nil
	case "unread":
		if !t.Negated {
			q.unreadOnly = true
		}
		return func(m *message.Message) bool {
			um, ok := r.messages.store.Copy(me.ID, m.ID)
			return ok && um.Flags&message.Read == 0
		}, nil
	case "starred":
		return flag(message.Starred), nil
	case "mentioned":
		return flag(message.Mentioned | message.WildcardMentioned), nil
	case "alerted":
		return flag(message.HasAlertWord), nil
	case "resolved":
		return func(m *message.Message) bool { return m.Type == message.Channel && topic.IsResolved(m.Topic) }, nil
	case "followed":
		return func(m *message.Message) bool {
			return m.Type == message.Channel && r.userTopicPolicy(me.ID, m.ChannelID, m.Topic) == PolicyFollowed
		}, nil
	case "muted":
		return func(m *message.Message) bool { return r.mutedFor(me.ID, m) }, nil
	}
	return nil, BadNarrow("unknown 'is' operand " + t.Operand)
}

// mutedFor reports whether m is in a muted channel (and not an unmuted or
// followed topic) or a muted topic, for userID.
func (r *Realm) mutedFor(userID int, m *message.Message) bool {
	if m.Type != message.Channel {
		return false
	}
	policy := r.userTopicPolicy(userID, m.ChannelID, m.Topic)
	if policy == PolicyMuted {
		return true
	}
	s := r.channels.subs[m.ChannelID][userID]
	return s != nil && s.IsMuted && policy != PolicyUnmuted && policy != PolicyFollowed
}

// narrowUserIDs resolves a user operand: a list of IDs, or comma-separated
// emails or IDs.
func (r *Realm) narrowUserIDs(t message.Term) ([]int, error) {
	if t.OperandIsList {
		for _, id := range t.OperandIDs {
			if r.users.byID[id] == nil {
				return nil, BadNarrow("unknown user in " + t.Operand)
			}
		}
		if len(t.OperandIDs) == 0 && t.Operator != "dm" {
			return nil, BadNarrow("unknown user in " + t.Operand)
		}
		return t.OperandIDs, nil
	}
	var ids []int
	for _, part := range strings.Split(t.Operand, ",") {
		u := r.narrowUser(strings.TrimSpace(part))
		if u == nil {
			return nil, BadNarrow("unknown user in " + t.Operand)
		}
		ids = append(ids, u.ID)
	}
	return ids, nil
}

// narrowUser finds a user named by email or ID in a narrow.
func (r *Realm) narrowUser(operand string) *user.User {
	if id, err := strconv.Atoi(operand); err == nil {
		return r.users.byID[id]
	}
	return r.userByEmail(operand)
}

// channelByNameOrID finds a channel by case-insensitive name or by ID.
func (r *Realm) channelByNameOrID(operand string) *storedChannel {
	if ch := r.channels.byName[channelKey(operand)]; ch != nil {
		return ch
	}
	if id, err := strconv.Atoi(operand); err == nil {
		return r.channels.byID[id]
	}
	return nil
}

// walker picks the smallest index the narrow allows walking.
func (q *narrowQuery) walker(r *Realm, me *user.User) store.Scan {
	ix := r.messages.store
	switch {
	case q.noConv:
		return store.Empty()
	case q.channel != nil && q.topicName != nil:
		return ix.Topic(q.channel.ID, *q.topicName)
	case q.spectator && q.channel == nil && q.senderID == 0:
		// Every web-public channel: the whole store, filtered by match.
		return ix.All()
	case q.channel != nil:
		return ix.Channel(q.channel.ID)
	case q.conv != nil:
		return ix.Conversation(q.conv.id)
	case q.unreadOnly:
		return ix.Unread(me.ID)
	case q.senderID != 0:
		return ix.Sender(q.senderID)
	}
	return ix.Received(me.ID)
}

// match reports whether m is visible to me in this narrow's scope and
// satisfies every term.
func (q *narrowQuery) match(r *Realm, me *user.User, m *message.Message) bool {
	if q.spectator {
		if m.Type != message.Channel || !r.spectatorChannel(r.channels.byID[m.ChannelID]) {
			return false
		}
	} else if q.history && m.Type == message.Channel && m.ChannelID == q.channel.ID {
		// whole channel history is readable
	} else if !r.messages.store.HasCopy(me.ID, m.ID) {
		return false
	}
	for _, p := range q.preds {
		if !p(m) {
			return false
		}
	}
	return true
}
