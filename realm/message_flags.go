package realm

import (
	"context"
	"slices"
	"strconv"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// Personal message flags: POST /messages/flags, POST /messages/flags/narrow
// and the deprecated mark_topic_as_read, mark_stream_as_read and
// mark_all_as_read, as zerver/actions/message_flags.py does them.

// editableFlags are the flags a user may add or remove.
var editableFlags = map[string]message.Flags{
	message.FlagRead:      message.Read,
	message.FlagStarred:   message.Starred,
	message.FlagCollapsed: message.Collapsed,
}

// nonEditableFlags are the other flag names Zulip knows: changing one is
// "Flag not editable", any other name "Invalid flag". wildcard_mentioned
// is the name this realm reports.
var nonEditableFlags = []string{
	message.FlagMentioned, message.FlagWildcardMentioned, "stream_wildcard_mentioned", "topic_wildcard_mentioned",
	"group_mentioned", message.FlagHasAlertWord, message.FlagHistorical, "force_expand", "force_collapse",
}

// splitWildcardFlags are the names Zulip split wildcard_mentioned into at
// feature level 224: below it, unknown flags.
var splitWildcardFlags = []string{"stream_wildcard_mentioned", "topic_wildcard_mentioned"}

// historicalFlags are the flags a channel message the user never received
// has: what fetches show for it, and what a copy created for it starts from.
const historicalFlags = message.Read | message.Historical

// maxFlagsPerNarrowUpdate bounds the range of POST /messages/flags/narrow
// (Zulip's MAX_MESSAGES_PER_UPDATE).
const maxFlagsPerNarrowUpdate = 5000

// FlagsRequest is POST /messages/flags: add or remove one flag on the
// listed messages.
type FlagsRequest struct {
	Messages []int64
	Op       string // "add" or "remove"
	Flag     string
}

// FlagsResult is the answer of POST /messages/flags: the IDs as sent, and
// when marking unread, the channels whose messages were skipped.
type FlagsResult struct {
	Messages                            []int64 `json:"messages"`
	IgnoredBecauseNotSubscribedChannels *[]int  `json:"ignored_because_not_subscribed_channels,omitempty"`
}

// FlagsNarrowRequest is POST /messages/flags/narrow: a GET /messages range
// whose messages get one flag added or removed.
type FlagsNarrowRequest struct {
	Anchor        Anchor
	IncludeAnchor bool
	NumBefore     int
	NumAfter      int
	Narrow        []message.Term
	Op            string
	Flag          string
}

// FlagsNarrowResult is the answer of POST /messages/flags/narrow.
type FlagsNarrowResult struct {
	ProcessedCount                      int    `json:"processed_count"`
	UpdatedCount                        int    `json:"updated_count"`
	FirstProcessedID                    *int64 `json:"first_processed_id"`
	LastProcessedID                     *int64 `json:"last_processed_id"`
	FoundOldest                         bool   `json:"found_oldest"`
	FoundNewest                         bool   `json:"found_newest"`
	IgnoredBecauseNotSubscribedChannels *[]int `json:"ignored_because_not_subscribed_channels,omitempty"`
}

// MarkAllResult is the answer of POST /mark_all_as_read; Complete is
// false when the request stopped before every message was marked.
type MarkAllResult struct {
	Complete bool `json:"complete"`
}

// UpdateMessageFlagsEvent reports flags the user added or removed.
// Messages lists only the messages whose flag changed; All is true only
// when mark_all_as_read marked everything read (Messages is then empty).
// Removing read adds MessageDetails, what clients need to put the
// messages back in their unread_msgs.
type UpdateMessageFlagsEvent struct {
	Op             string                           `json:"op"`
	Operation      string                           `json:"operation"` // deprecated name of op
	Flag           string                           `json:"flag"`
	Messages       []int64                          `json:"messages"`
	All            bool                             `json:"all"`
	MessageDetails *map[string]UnreadMessageDetails `json:"message_details,omitempty"`
}

// UnreadMessageDetails describes a message marked unread: its channel and
// topic, or the other participants of its direct-message conversation.
type UnreadMessageDetails struct {
	Type             string  `json:"type"` // "stream" or "private"
	StreamID         int     `json:"stream_id,omitempty"`
	Topic            *string `json:"topic,omitempty"`
	UnmutedStreamMsg *bool   `json:"unmuted_stream_msg,omitempty"`
	UserIDs          *[]int  `json:"user_ids,omitempty"`
	Mentioned        bool    `json:"mentioned,omitempty"`
}

// UpdateMessageFlags adds or removes a flag on the listed messages (POST
// /messages/flags). Messages the caller has no copy of get one, flagged
// historical, when the channel's history is readable to them; otherwise
// the whole request fails with "Invalid message(s)", unless the change
// would leave such a message as it is (adding read). Removing read skips
// messages of channels the caller is not subscribed to.
func (a *Actor) UpdateMessageFlags(ctx context.Context, req FlagsRequest) (ans FlagsResult, err error) {
	r := a.r
	err = a.logged("flags", req).write(ctx, func(me *user.User) error {
		p, err := r.planFlags(me, req.Messages, req.Op, req.Flag)
		if err != nil {
			return err
		}
		r.applyFlags(me, p)
		ans = FlagsResult{Messages: req.Messages, IgnoredBecauseNotSubscribedChannels: r.ignoredChannels(p)}
		if ans.Messages == nil {
			ans.Messages = []int64{}
		}
		return nil
	})
	return ans, err
}

// UpdateMessageFlagsForNarrow adds or removes a flag on the messages of a
// GET /messages range (POST /messages/flags/narrow). The range is clamped
// to 5000 messages, the side before the anchor keeping at least 2500 of
// what it asked for.
func (a *Actor) UpdateMessageFlagsForNarrow(ctx context.Context, req FlagsNarrowRequest) (ans FlagsNarrowResult, err error) {
	if req.NumBefore < 0 || req.NumAfter < 0 {
		return FlagsNarrowResult{}, BadRequest("num_before and num_after must not be negative")
	}
	if !req.IncludeAnchor && req.NumBefore > 0 && req.NumAfter > 0 {
		return FlagsNarrowResult{}, BadRequest("The anchor can only be excluded at an end of the range")
	}
	numBefore := min(req.NumBefore, max(maxFlagsPerNarrowUpdate-req.NumAfter, maxFlagsPerNarrowUpdate/2))
	numAfter := min(req.NumAfter, maxFlagsPerNarrowUpdate-numBefore)
	r := a.r
	err = a.logged("flags_narrow", req).write(ctx, func(me *user.User) error {
		q, err := r.compileNarrow(me, req.Narrow)
		if err != nil {
			return err
		}
		fr := r.selectRange(me, q, req.Anchor, numBefore, numAfter, req.IncludeAnchor)
		msgs := fr.ascending()
		ids := make([]int64, len(msgs))
		for i, m := range msgs {
			ids[i] = m.ID
		}
		p, err := r.planFlags(me, ids, req.Op, req.Flag)
		if err != nil {
			return err
		}
		r.applyFlags(me, p)
		ans = FlagsNarrowResult{ProcessedCount: len(ids), UpdatedCount: len(p.changed),
			FoundOldest: fr.foundOldest, FoundNewest: fr.foundNewest,
			IgnoredBecauseNotSubscribedChannels: r.ignoredChannels(p)}
		if len(ids) > 0 {
			ans.FirstProcessedID, ans.LastProcessedID = &ids[0], &ids[len(ids)-1]
		}
		return nil
	})
	return ans, err
}

// MarkTopicAsRead marks the caller's unread messages of a topic read (POST
// /mark_topic_as_read). The topic is matched case-insensitively; the
// realm's name for the empty topic means the empty topic. A named topic
// the caller has no message in is "No such topic".
func (a *Actor) MarkTopicAsRead(ctx context.Context, channelID int, topicName string) error {
	r := a.r
	return a.logged("mark_topic_read", markTopicArgs{channelID, topicName}).write(ctx, func(me *user.User) error {
		ch, err := r.channelForMarking(me, channelID)
		if err != nil {
			return err
		}
		name := r.topicRules().Operand(topicName)
		if topicName != "" && !r.holdsTopicMessage(me, ch.ID, name) {
			return BadRequest("No such topic '%s'", name)
		}
		inTopic := topicMatcher(name)
		if topicName == "" && !r.has(changeEmptyTopic) {
			// Before the empty topic existed, an empty topic_name
			// marked the whole channel read (Zulip 9's
			// do_mark_stream_messages_as_read with no topic).
			inTopic = func(string) bool { return true }
		}
		r.markRead(me, func(m *message.Message) bool {
			return m.Type == message.Channel && m.ChannelID == ch.ID && inTopic(m.Topic)
		})
		return nil
	})
}

// MarkChannelAsRead marks the caller's unread messages of a channel read
// (POST /mark_stream_as_read).
func (a *Actor) MarkChannelAsRead(ctx context.Context, channelID int) error {
	r := a.r
	return a.logged("mark_channel_read", channelID).write(ctx, func(me *user.User) error {
		ch, err := r.channelForMarking(me, channelID)
		if err != nil {
			return err
		}
		r.markRead(me, func(m *message.Message) bool { return m.Type == message.Channel && m.ChannelID == ch.ID })
		return nil
	})
}

// markAllBatch is how many messages mark-all-as-read marks at a time.
const markAllBatch = 2000

// MarkAllAsRead marks every unread message of the caller read (POST
// /mark_all_as_read), in batches starting with the newest, as Zulip does.
// When ctx has ended once a batch is done, or is FirstBatchOnly's, the
// answer is incomplete (the client
// repeats the call) and, as in Zulip, no event is sent for what was
// marked; a complete run sends one event that lists no messages and says
// all.
func (a *Actor) MarkAllAsRead(ctx context.Context) (ans MarkAllResult, err error) {
	return a.markAllAsRead(ctx, batchLimit(ctx))
}

// markAllArgs are mark-all-as-read's record: Batches is how many batches
// the run marked when it stopped part way (0: it ran to the end), which
// the replay marks again, and no more.
type markAllArgs struct {
	Batches int `json:"batches,omitempty"`
}

// markAllAsRead is MarkAllAsRead marking at most limit batches (0: all).
func (a *Actor) markAllAsRead(ctx context.Context, limit int) (ans MarkAllResult, err error) {
	r := a.r
	args := &markAllArgs{}
	logged := a.logged("mark_all_read", args)
	// The first batch is marked whatever ctx says, as Zulip marks one
	// before it looks at the time: ctx only ends the run between batches.
	err = logged.write(context.WithoutCancel(ctx), func(me *user.User) error {
		var ids []int64
		r.messages.store.Unread(me.ID).Down(AnchorNewest, func(m *message.Message) bool {
			ids = append(ids, m.ID)
			return true
		})
		for start := 0; start < len(ids); start += markAllBatch {
			if done := start / markAllBatch; stopBefore(ctx, done, limit) {
				// The batches marked so far stay marked; the record says
				// how many, for the replay.
				args.Batches = done
				logged.op.rewrite()
				return nil
			}
			batch := slices.Clone(ids[start:min(start+markAllBatch, len(ids))])
			slices.Sort(batch)
			r.messages.store.SetFlag(me.ID, batch, message.Read, true)
		}
		r.emit("update_message_flags", UpdateMessageFlagsEvent{Op: "add", Operation: "add", Flag: message.FlagRead,
			Messages: []int64{}, All: true}, me.ID)
		ans.Complete = true
		return nil
	})
	return ans, err
}

// channelForMarking is the channel a mark-as-read names, if the caller may
// read it (Zulip's access_stream_by_id).
func (r *Realm) channelForMarking(me *user.User, channelID int) (*storedChannel, error) {
	ch := r.channels.byID[channelID]
	if ch == nil || !r.hasContentAccess(me, ch) {
		return nil, BadRequest("Invalid channel ID")
	}
	return ch, nil
}

// topicMatcher matches topic names case-insensitively against name (as
// topic.Key folds them), folding each distinct stored spelling once: the
// messages of a walk share a few spellings, so matching allocates nothing
// per message.
func topicMatcher(name string) func(string) bool {
	key := topic.Key(name)
	seen := map[string]bool{}
	return func(s string) bool {
		match, ok := seen[s]
		if !ok {
			match = topic.Key(s) == key
			seen[s] = match
		}
		return match
	}
}

// holdsTopicMessage reports whether the user has a copy of any message of
// the topic.
func (r *Realm) holdsTopicMessage(me *user.User, channelID int, name string) bool {
	found := false
	r.messages.store.Topic(channelID, name).Up(0, func(m *message.Message) bool {
		found = r.messages.store.HasCopy(me.ID, m.ID)
		return !found
	})
	return found
}

// markRead marks the user's unread messages that match read, walking only
// the user's unread index (as Zulip's partial index on unread rows does),
// and sends one event listing them, when there are any.
func (r *Realm) markRead(me *user.User, match func(*message.Message) bool) {
	var ids []int64
	r.messages.store.Unread(me.ID).Up(0, func(m *message.Message) bool {
		if match(m) {
			ids = append(ids, m.ID)
		}
		return true
	})
	if len(ids) == 0 {
		return
	}
	r.messages.store.SetFlag(me.ID, ids, message.Read, true)
	r.emit("update_message_flags", UpdateMessageFlagsEvent{Op: "add", Operation: "add", Flag: message.FlagRead,
		Messages: ids}, me.ID)
}

// flagPlan is a validated flag update, ready to apply.
type flagPlan struct {
	op, flag string
	bit      message.Flags
	add      bool
	// changed are the messages whose flag changes, in request order
	// (repeats kept, as Zulip lists them): the event's messages.
	changed []int64
	// held are the changed messages the user has a copy of, ascending.
	held []int64
	// historical are the changed messages that get a new copy, ascending.
	historical []*message.Message
	// ignored are the channels skipped for not being subscribed, when
	// marking unread (nil otherwise).
	ignored []int
}

// parseFlagOp checks a flag name, then the operation, with Zulip's
// messages and in its order.
func (r *Realm) parseFlagOp(op, flag string) (bit message.Flags, add bool, err error) {
	bit, ok := editableFlags[flag]
	if !ok {
		known := r.has(changeWildcardMentionFlags) || !slices.Contains(splitWildcardFlags, flag)
		if known && slices.Contains(nonEditableFlags, flag) {
			return 0, false, BadRequest("Flag not editable: '%s'", flag)
		}
		return 0, false, BadRequest("Invalid flag: '%s'", flag)
	}
	if op != "add" && op != "remove" {
		return 0, false, BadRequest("Invalid message flag operation: '%s'", op)
	}
	return bit, op == "add", nil
}

// planFlags validates a flag update of the listed messages and works out
// what it changes, changing nothing. The caller holds the write lock.
func (r *Realm) planFlags(me *user.User, ids []int64, op, flag string) (*flagPlan, error) {
	bit, add, err := r.parseFlagOp(op, flag)
	if err != nil {
		return nil, err
	}
	p := &flagPlan{op: op, flag: flag, bit: bit, add: add, changed: []int64{}}
	var target message.Flags
	if add {
		target = bit
	}
	markUnread := bit == message.Read && !add
	if markUnread {
		p.ignored = []int{}
	}
	var missing []int64
	for _, id := range ids {
		m, exists := r.messages.store.Message(id)
		if markUnread && exists && m.Type == message.Channel && !r.isSubscribed(m.ChannelID, me.ID) {
			// Unread messages are only ever in subscribed channels.
			if !slices.Contains(p.ignored, m.ChannelID) {
				p.ignored = append(p.ignored, m.ChannelID)
			}
			continue
		}
		cur := historicalFlags // what a message without a copy counts as
		c, held := r.messages.store.Copy(me.ID, id)
		if held {
			cur = c.Flags
		}
		if cur&bit == target {
			continue
		}
		p.changed = append(p.changed, id)
		if held {
			p.held = append(p.held, id)
		} else {
			missing = append(missing, id)
		}
	}
	slices.Sort(p.ignored)
	slices.Sort(p.held)
	p.held = slices.Compact(p.held)
	slices.Sort(missing)
	for _, id := range slices.Compact(missing) {
		m := r.accessibleMessage(me, id)
		if m == nil {
			return nil, invalidMessage()
		}
		p.historical = append(p.historical, m)
	}
	return p, nil
}

// applyFlags carries out a plan and sends the user the event, which Zulip
// sends even when no flag changed.
func (r *Realm) applyFlags(me *user.User, p *flagPlan) {
	r.messages.store.SetFlag(me.ID, p.held, p.bit, p.add)
	created := historicalFlags &^ p.bit
	if p.add {
		created |= p.bit
	}
	for _, m := range p.historical {
		r.messages.store.Deliver(me.ID, m, created)
	}
	ev := UpdateMessageFlagsEvent{Op: p.op, Operation: p.op, Flag: p.flag, Messages: p.changed}
	if p.bit != message.Read || p.add {
		r.emit("update_message_flags", ev, me.ID)
		return
	}
	details, emptyTopic := r.unreadDetails(me, p.changed)
	ev.MessageDetails = &details
	if !emptyTopic {
		r.emit("update_message_flags", ev, me.ID)
		return
	}
	// The empty topic is named for each queue as its client can show it.
	legacy := make(map[string]UnreadMessageDetails, len(details))
	display := r.topicRules().Display("", false)
	for k, d := range details {
		if d.Topic != nil && *d.Topic == "" {
			d.Topic = &display
		}
		legacy[k] = d
	}
	old := ev
	old.MessageDetails = &legacy
	r.emitChange(&change{typ: "update_message_flags", payload: ev,
		filter: func(q *Queue) bool { return q.Config().opts.Capabilities.EmptyTopicName }}, []int{me.ID})
	r.emitChange(&change{typ: "update_message_flags", payload: old,
		filter: func(q *Queue) bool { return !q.Config().opts.Capabilities.EmptyTopicName }}, []int{me.ID})
}

// unreadDetails describes messages just marked unread, keyed by ID, as
// Zulip's format_unread_message_details does, and reports whether one is
// in the empty topic.
func (r *Realm) unreadDetails(me *user.User, ids []int64) (map[string]UnreadMessageDetails, bool) {
	out := make(map[string]UnreadMessageDetails, len(ids))
	emptyTopic := false
	for _, id := range ids {
		c, ok := r.messages.store.Copy(me.ID, id)
		if !ok {
			continue
		}
		m := c.Message
		if m.Type == message.Channel {
			unmuted := !r.mutedFor(me.ID, m)
			t := m.Topic
			emptyTopic = emptyTopic || t == ""
			out[strconv.FormatInt(id, 10)] = UnreadMessageDetails{Type: "stream", StreamID: m.ChannelID, Topic: &t,
				UnmutedStreamMsg: &unmuted,
				Mentioned:        c.Flags&message.Mentioned != 0 || (c.Flags&message.WildcardMentioned != 0 && unmuted)}
			continue
		}
		others := make([]int, 0, len(m.DMUserIDs))
		for _, uid := range m.DMUserIDs {
			if uid != me.ID {
				others = append(others, uid)
			}
		}
		out[strconv.FormatInt(id, 10)] = UnreadMessageDetails{Type: "private", UserIDs: &others,
			Mentioned: c.Flags&(message.Mentioned|message.WildcardMentioned) != 0}
	}
	return out, emptyTopic
}

// ignoredChannels is the ignored_because_not_subscribed_channels of an
// answer: present only when marking unread, from feature level 355.
func (r *Realm) ignoredChannels(p *flagPlan) *[]int {
	if p.ignored == nil || !r.has(changeIgnoredChannels) {
		return nil
	}
	return &p.ignored
}

// flagNames lists a copy's flags as a server of the realm's level does:
// with the split wildcard flags (stream_wildcard_mentioned,
// topic_wildcard_mentioned, and the deprecated wildcard_mentioned after
// them) when split, wildcard_mentioned alone before feature level 224.
func flagNames(f message.Flags, split bool) []string {
	if split {
		return f.Names()
	}
	return f.LegacyNames()
}
