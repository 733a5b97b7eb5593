// Package message holds the types and pure rules of chat messages: the
// message record, recipient types, parsing of the `to` parameter, content
// normalization and Markdown rendering. It holds no lock and knows no realm.
package message

// Type is a message's recipient type as stored: a channel or a direct message.
type Type uint8

// The two stored recipient types. Responses spell them "stream"/"private".
const (
	Channel Type = iota + 1
	Direct
)

// String gives the spelling Zulip uses in message objects.
func (t Type) String() string {
	if t == Direct {
		return "private"
	}
	return "stream"
}

// ParseType reads the `type` parameter of a send request: "stream" and
// "channel" mean a channel message, "private" and "direct" a direct message.
func ParseType(s string) (Type, bool) {
	switch s {
	case "stream", "channel":
		return Channel, true
	case "private", "direct":
		return Direct, true
	}
	return 0, false
}

// Flag names of a user's personal copy of a message.
const (
	FlagRead                    = "read"
	FlagStarred                 = "starred"
	FlagCollapsed               = "collapsed"
	FlagMentioned               = "mentioned"
	FlagWildcardMentioned       = "wildcard_mentioned"
	FlagStreamWildcardMentioned = "stream_wildcard_mentioned"
	FlagTopicWildcardMentioned  = "topic_wildcard_mentioned"
	FlagHasAlertWord            = "has_alert_word"
	FlagHistorical              = "historical"
)

// Flags is a bit set of a user's message flags.
type Flags uint16

// Bits of Flags. TopicWildcardMentioned came last, after the stored
// layout was fixed: a copy stored with the older single wildcard bit
// reads as a channel wildcard mention.
const (
	Read Flags = 1 << iota
	Starred
	Collapsed
	Mentioned
	StreamWildcardMentioned // @**all**, @**everyone**, @**channel**, @**stream**
	HasAlertWord
	Historical
	TopicWildcardMentioned // @**topic**

	// WildcardMentioned is either wildcard mention: Zulip's deprecated
	// wildcard_mentioned flag, set when either split flag is.
	WildcardMentioned = StreamWildcardMentioned | TopicWildcardMentioned
	// LastFlag is the highest bit.
	LastFlag = TopicWildcardMentioned
)

// flagOrder lists the flags in Zulip's order (UserMessage.ALL_FLAGS),
// each with its bit.
var flagOrder = []struct {
	bit  Flags
	name string
}{{Read, FlagRead}, {Starred, FlagStarred}, {Collapsed, FlagCollapsed}, {Mentioned, FlagMentioned},
	{StreamWildcardMentioned, FlagStreamWildcardMentioned}, {TopicWildcardMentioned, FlagTopicWildcardMentioned},
	{HasAlertWord, FlagHasAlertWord}, {Historical, FlagHistorical}}

const flagCount = 8

// flagNameSets and legacyFlagNameSets hold the name lists of every flag
// combination, so that listing flags allocates nothing.
var flagNameSets, legacyFlagNameSets = func() (modern, legacy [1 << flagCount][]string) {
	for f := range modern {
		names := make([]string, 0, flagCount+1)
		old := make([]string, 0, flagCount)
		for _, o := range flagOrder {
			if Flags(f)&o.bit == 0 {
				continue
			}
			switch o.bit {
			case StreamWildcardMentioned:
				old = append(old, FlagWildcardMentioned)
			case TopicWildcardMentioned:
				if Flags(f)&StreamWildcardMentioned == 0 {
					old = append(old, FlagWildcardMentioned)
				}
			default:
				old = append(old, o.name)
			}
			names = append(names, o.name)
		}
		if Flags(f)&WildcardMentioned != 0 {
			// Zulip appends the deprecated flag for older clients.
			names = append(names, FlagWildcardMentioned)
		}
		modern[f], legacy[f] = names, old
	}
	return
}()

// Names lists the set flags by name, in Zulip's order, with the
// deprecated wildcard_mentioned last when either wildcard flag is set;
// never nil. The slice is shared: callers must not modify it.
func (f Flags) Names() []string {
	return flagNameSets[f&(1<<flagCount-1)]
}

// LegacyNames lists the set flags as a server before the split wildcard
// flags (Zulip 8.0, feature level 224) did: wildcard_mentioned for
// either wildcard mention. Shared, as Names.
func (f Flags) LegacyNames() []string {
	return legacyFlagNameSets[f&(1<<flagCount-1)]
}

// FlagBit is the bit of a flag name, 0 for an unknown name;
// wildcard_mentioned is read as a channel wildcard mention.
func FlagBit(name string) Flags {
	if name == FlagWildcardMentioned {
		return StreamWildcardMentioned
	}
	for _, o := range flagOrder {
		if o.name == name {
			return o.bit
		}
	}
	return 0
}

// Reaction is one user's emoji reaction on a message.
type Reaction struct {
	EmojiName    string
	EmojiCode    string
	ReactionType string
	UserID       int
}

// Message is a stored message. The realm owns it: once indexed, a Message
// is never changed; the realm changes a copy and stores it in its place,
// so readers may keep reading a version after releasing the realm's lock. Its fields are ordered
// and typed to keep it small (144 bytes), since a realm may hold millions:
// what only some messages ever get (reactions, edits) lives behind one
// pointer, nil until the first.
type Message struct {
	ID          int64
	SenderID    int
	ChannelID   int // channel messages only
	RecipientID int // the channel's or conversation's recipient id
	Timestamp   int64
	Topic       string // channel messages only; "" is the empty topic
	// DMUserIDs are the participants of a direct message, sender included,
	// sorted ascending. Nil for channel messages.
	DMUserIDs []int
	Content   string // raw Markdown
	Rendered  string // HTML
	Client    string
	changes   *Changes
	Type      Type
	Facts
}

// Changes are what may happen to a message after it is sent: reactions,
// submessages and edits.
type Changes struct {
	Reactions []Reaction
	// Submessages are the message's submessages (widget.go), oldest
	// first; like Reactions, the slice may be shared.
	Submessages []Submessage
	// LastEditTS is when the content was last edited (any edit or move
	// below feature level 365); 0 if never.
	LastEditTS int64
	// LastMovedTS is when the message last changed channel or topic, not
	// counting resolving and unresolving; 0 if never.
	LastMovedTS int64
	// Edits is the edit history, newest first; nil if never edited.
	Edits *EditLog
}

// Changes returns the message's reactions and edits, all zero if it has
// none. The Reactions slice may be shared with other messages: callers
// must not modify it.
func (m *Message) Changes() Changes {
	if m.changes == nil {
		return Changes{}
	}
	return *m.changes
}

// SetChanges replaces the message's reactions, submessages and edits. Messages may
// share one Changes, so it is never changed in place: callers change a
// copy (and a copy of its Reactions slice) and set it.
func (m *Message) SetChanges(c Changes) {
	if len(c.Reactions) == 0 && len(c.Submessages) == 0 && c.LastEditTS == 0 && c.LastMovedTS == 0 && c.Edits == nil {
		m.changes = nil
		return
	}
	m.changes = &c
}

// UpdateChanges applies update to the reactions and edits of each of
// msgs, once per distinct Changes they hold: messages that shared theirs
// (as messages sent and moved together without reactions do) share the
// result, so moving a whole topic allocates one Changes, not one a
// message. update gets a copy; it must not modify the Reactions slice in
// place.
func UpdateChanges(msgs []*Message, update func(*Changes)) {
	done := map[*Changes]*Changes{}
	for _, m := range msgs {
		next, ok := done[m.changes]
		if !ok {
			c := m.Changes()
			update(&c)
			next = &c
			done[m.changes] = next
		}
		m.changes = next
	}
}

// Edit is one entry of a message's edit history: who changed it when,
// and what each changed field was before and after.
type Edit struct {
	UserID    int
	Timestamp int64
	// Content edits: the raw and rendered content before the edit.
	PrevContent, PrevRendered string
	ContentChanged            bool
	// Topic moves.
	PrevTopic, Topic string
	TopicChanged     bool
	// Channel moves; both 0 when the channel did not change.
	PrevChannelID, ChannelID int
}

// ChannelChanged reports whether the edit moved the message to another
// channel.
func (e Edit) ChannelChanged() bool { return e.ChannelID != 0 }

// Facts are what rendering found in a message's content, stored with it
// so that narrows and views never parse the HTML again.
type Facts struct {
	IsMeMessage   bool
	HasLink       bool
	HasImage      bool
	HasAttachment bool
}

// Has answers a has: narrow operand ("link", "image", "attachment") from
// the stored facts; other operands are false.
func (f Facts) Has(operand string) bool {
	switch operand {
	case "link":
		return f.HasLink
	case "image":
		return f.HasImage
	case "attachment":
		return f.HasAttachment
	}
	return false
}

// EditLog is a message's edit history, newest first, as a persistent
// list: messages moved together share one entry for that move, and the
// history they had in common before it.
type EditLog struct {
	Edit Edit
	// Prev is the history before Edit; nil at the first edit.
	Prev *EditLog
	n    int
}

// Push returns the history l followed by e. l is not changed.
func (l *EditLog) Push(e Edit) *EditLog { return &EditLog{Edit: e, Prev: l, n: l.Len() + 1} }

// Len is the number of edits.
func (l *EditLog) Len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// NewestFirst lists the edits, newest first.
func (l *EditLog) NewestFirst() []Edit {
	out := make([]Edit, 0, l.Len())
	for ; l != nil; l = l.Prev {
		out = append(out, l.Edit)
	}
	return out
}
