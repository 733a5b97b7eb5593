package realm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// Propagate modes of a topic or channel move (PATCH /messages/{id}).
const (
	ChangeOne   = "change_one"   // the target message only
	ChangeLater = "change_later" // the target and every later message of its topic
	ChangeAll   = "change_all"   // the whole topic
)

// editGraceSeconds is the grace Zulip adds to the edit and move time limits.
const editGraceSeconds = 20

// UpdateMessageRequest is an edit or move (PATCH /messages/{message_id}).
// Nil fields are absent.
type UpdateMessageRequest struct {
	MessageID int64
	// Content is the new Markdown content.
	Content *string
	// Topic is the new topic (channel messages only).
	Topic *string
	// ChannelID is the channel to move to (channel messages only).
	ChannelID *int
	// PropagateMode is ChangeOne (the default when empty), ChangeLater or
	// ChangeAll.
	PropagateMode string
	// SendNotificationToOldThread defaults to false,
	// SendNotificationToNewThread to true.
	SendNotificationToOldThread, SendNotificationToNewThread *bool
	// PrevContentSHA256 is the hex SHA-256 of the content the client
	// edited; a mismatch with the stored content refuses the edit.
	PrevContentSHA256 *string
}

// UpdateMessageResult is the answer of an edit: the acting user's
// attachments whose only references the edit removed.
type UpdateMessageResult struct {
	DetachedUploads []Attachment `json:"detached_uploads"`
}

// editPlan is a validated edit: everything applyEdit needs, worked out
// before anything changes.
type editPlan struct {
	target  *message.Message
	oldChan *storedChannel // nil for direct messages
	mode    string

	content  *string // normalized new content, nil when unchanged
	rendered markdown.Result
	mentions mentionFlags

	newTopic *string // stored new topic, nil when unchanged
	// newChanID is the channel to move to, 0 when unchanged; newChan is
	// that channel once checkChannelMove has found and checked it.
	newChanID  int
	newChan    *storedChannel
	resolution topic.Resolution
	// moved are the messages changing channel or topic, ascending, the
	// target among them; nil for content-only edits.
	moved []*message.Message

	notifyOld, notifyNew bool
}

// moves reports whether the edit changes channel or topic.
func (p *editPlan) moves() bool { return p.newTopic != nil || p.newChanID != 0 }

// pureResolution reports whether the edit only resolves or unresolves
// the topic: such edits need only can_resolve_topics_group, are not
// bound by the move time limits and do not count as moves.
func (p *editPlan) pureResolution() bool {
	return p.newChanID == 0 && p.resolution != topic.NotResolution
}

// UpdateMessage edits a message's content and/or moves it (and, by
// PropagateMode, others of its topic) to another topic or channel,
// applying every rule of PATCH /messages/{message_id}. On error nothing
// changes.
func (a *Actor) UpdateMessage(ctx context.Context, req UpdateMessageRequest) (UpdateMessageResult, error) {
	mode := req.PropagateMode
	switch mode {
	case "":
		mode = ChangeOne
	case ChangeOne, ChangeLater, ChangeAll:
	default:
		return UpdateMessageResult{}, BadRequest("Invalid propagate_mode")
	}
	var content *string
	if req.Content != nil {
		c := "(deleted)" // whitespace-only content is stored so, not refused
		if strings.TrimSpace(*req.Content) != "" {
			var err error
			if c, err = message.NormalizeContent(*req.Content, a.r.opts.Limits.MaxMessageLength); err != nil {
				return UpdateMessageResult{}, BadRequest("%s", err.Error())
			}
		}
		content = &c
	}
	r := a.r
	res := UpdateMessageResult{DetachedUploads: []Attachment{}}
	err := a.logged("update_message", req).write(ctx, func(me *user.User) error {
		p, err := r.planEdit(me, req, mode, content)
		if err != nil {
			return err
		}
		oldContent := p.target.Content
		r.applyEdit(me, p)
		if p.content != nil {
			res.DetachedUploads = r.relinkUploads(me, p.target, oldContent)
		}
		return nil
	})
	if err != nil {
		return UpdateMessageResult{}, err
	}
	return res, nil
}

// planEdit checks an edit in Zulip's order and works out what it does.
// It changes nothing. The caller holds the write lock.
func (r *Realm) planEdit(me *user.User, req UpdateMessageRequest, mode string, content *string) (*editPlan, error) {
	m := r.accessibleMessage(me, req.MessageID)
	if m == nil {
		return nil, invalidMessage()
	}
	p := &editPlan{target: m, mode: mode, content: content,
		notifyOld: req.SendNotificationToOldThread != nil && *req.SendNotificationToOldThread,
		notifyNew: req.SendNotificationToNewThread == nil || *req.SendNotificationToNewThread}
	if m.Type == message.Channel {
		p.oldChan = r.channels.byID[m.ChannelID]
	}
	if content != nil && !r.settings.AllowMessageEditing {
		return nil, BadRequest("Your organization has turned off message editing")
	}
	if err := r.planPlace(p, req); err != nil {
		return nil, err
	}
	if req.PrevContentSHA256 != nil && !contentMatches(m.Content, *req.PrevContentSHA256) {
		return nil, BadRequest("'prev_content_sha256' value does not match the expected value.")
	}
	if content != nil {
		if err := r.checkContentEditor(me, m, editGraceSeconds); err != nil {
			return nil, err
		}
	}
	if p.newTopic != nil && !r.mayRetopic(me, p) {
		return nil, BadRequest("You don't have permission to edit this message")
	}
	now := r.clock.Now().Unix()
	age := now - m.Timestamp
	exempt := me.Role.IsAdmin() || me.Role == user.RoleModerator
	if limit := r.settings.MoveMessagesWithinStreamLimitSeconds; p.newTopic != nil && !p.pureResolution() && !exempt &&
		limit != nil && age > int64(*limit)+editGraceSeconds {
		return nil, BadRequest("The time limit for editing this message's topic has passed.")
	}
	if content != nil {
		if err := r.planContent(p); err != nil {
			return nil, err
		}
	}
	if p.newChanID != 0 {
		if err := r.checkChannelMove(me, p, age, exempt); err != nil {
			return nil, err
		}
	}
	if p.moves() {
		p.moved = r.messagesToMove(me, p)
		if mode == ChangeAll && !exempt {
			if err := r.checkTopicMoveLimit(me, p, now); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// checkContentEditor checks that me may edit m's content now: only its
// sender, within the realm's edit time limit plus grace seconds.
func (r *Realm) checkContentEditor(me *user.User, m *message.Message, grace int64) error {
	if m.SenderID != me.ID {
		return BadRequest("You don't have permission to edit this message")
	}
	age := r.clock.Now().Unix() - m.Timestamp
	if limit := r.settings.MessageContentEditLimitSeconds; limit != nil && age > int64(*limit)+grace {
		return BadRequest("The time limit for editing this message has passed")
	}
	return nil
}

// planPlace reads the new topic and channel and checks the payload's
// shape: something to change, no topic or channel for direct messages,
// propagate_mode only with a move, content never with a channel move.
func (r *Realm) planPlace(p *editPlan, req UpdateMessageRequest) error {
	m := p.target
	if req.Topic != nil && m.Type == message.Channel {
		name, err := r.topicForSend(req.Topic)
		if err != nil {
			return err
		}
		if name != m.Topic {
			p.newTopic = &name
			p.resolution = topic.ResolutionOf(m.Topic, name)
		}
	}
	if req.ChannelID != nil && m.Type == message.Channel && *req.ChannelID != m.ChannelID {
		p.newChanID = *req.ChannelID
	}
	switch {
	case p.content == nil && !p.moves() && !(m.Type == message.Direct && (req.Topic != nil || req.ChannelID != nil)):
		return BadRequest("Nothing to change")
	case m.Type == message.Direct && req.ChannelID != nil:
		return BadRequest("Direct messages cannot be moved to channels.")
	case m.Type == message.Direct && req.Topic != nil:
		return BadRequest("Direct messages cannot have topics.")
	case p.mode != ChangeOne && !p.moves():
		return BadRequest("Invalid propagate_mode without topic edit")
	case p.newChanID != 0 && p.content != nil:
		return BadRequest("Cannot change message content while changing stream")
	case p.content != nil && isWidget(m):
		return BadRequest("Widgets cannot be edited.")
	case p.newTopic != nil && r.topicRules().ResolvesEmpty(m.Topic, *p.newTopic):
		return BadRequest("General chat cannot be marked as resolved")
	}
	return nil
}

// contentMatches compares content with a client's hex SHA-256 of it.
func contentMatches(content, sum string) bool {
	h := sha256.Sum256([]byte(content))
	return strings.EqualFold(hex.EncodeToString(h[:]), strings.TrimSpace(sum))
}

// mayRetopic: a pure resolve needs can_resolve_topics_group (from
// feature level 367; before, resolving was a rename like any other), any
// other rename can_move_messages_between_topics_group, each granted
// realm-wide or by the channel's own setting.
func (r *Realm) mayRetopic(me *user.User, p *editPlan) bool {
	ch := p.oldChan
	if p.resolution != topic.NotResolution && r.has(changeResolveTopicsGroup) {
		return r.settingHas(r.settings.CanResolveTopicsGroup, me.ID) ||
			(ch != nil && r.channelAllows(ch, "can_resolve_topics_group", me.ID))
	}
	return r.settingHas(r.settings.CanMoveMessagesBetweenTopicsGroup, me.ID) ||
		(ch != nil && r.channelAllows(ch, "can_move_messages_within_channel_group", me.ID))
}

// planContent renders the new content and re-checks the wildcard-mention
// rules against it, as the sender.
func (r *Realm) planContent(p *editPlan) error {
	m := p.target
	p.rendered = r.renderAs(r.users.byID[m.SenderID], *p.content)
	recipients := m.DMUserIDs
	topicName := m.Topic
	if p.newTopic != nil {
		topicName = *p.newTopic
	}
	if p.oldChan != nil {
		recipients = r.subscriberIDs(p.oldChan.ID)
	}
	var err error
	p.mentions, err = r.checkMentions(p.rendered, m.SenderID, p.oldChan, topicName, recipients)
	var holders []int
	r.messages.store.Holders(m.ID, func(uid int, _ message.Flags) { holders = append(holders, uid) })
	p.mentions.alerted = r.alertedUsers(*p.content, holders)
	return err
}

// checkChannelMove applies the rules of moving to another channel: the
// permission, the destination's existence and posting rights, and the
// time limit.
func (r *Realm) checkChannelMove(me *user.User, p *editPlan, age int64, exempt bool) error {
	if !r.settingHas(r.settings.CanMoveMessagesBetweenChannelsGroup, me.ID) &&
		!r.channelAllows(p.oldChan, "can_move_messages_out_of_channel_group", me.ID) {
		return BadRequest("You don't have permission to move this message")
	}
	dest := r.channels.byID[p.newChanID]
	if dest == nil || dest.IsArchived || !r.canAccessChannelForSend(me, dest) {
		return BadRequest("Invalid channel ID")
	}
	p.newChan = dest
	if !r.inGroup(dest.CanSendMessageGroup, me.ID) {
		return BadRequest("You do not have permission to post in this channel.")
	}
	if limit := r.settings.MoveMessagesBetweenStreamsLimitSeconds; !exempt && limit != nil && age > int64(*limit)+editGraceSeconds {
		return BadRequest("The time limit for editing this message's stream has passed")
	}
	return nil
}

// messagesToMove lists the messages a move takes along, ascending: the
// target alone (change_one), with the later messages of its topic
// (change_later) or with the whole topic (change_all). A channel move
// takes only messages the actor may read, so that no one gains access by
// moving; a topic move within a channel keeps the topic together.
func (r *Realm) messagesToMove(me *user.User, p *editPlan) []*message.Message {
	m := p.target
	if p.mode == ChangeOne {
		return []*message.Message{m}
	}
	from := int64(0)
	if p.mode == ChangeLater {
		from = m.ID
	}
	readable := r.historyReadableBy(p.oldChan, me.ID)
	var out []*message.Message
	r.messages.store.Topic(m.ChannelID, m.Topic).Up(from, func(x *message.Message) bool {
		if x.ID == m.ID || p.newChan == nil || readable || r.messages.store.HasCopy(me.ID, x.ID) {
			out = append(out, x)
		}
		return true
	})
	return out
}

// moveLimitCounts are the figures of MOVE_MESSAGES_TIME_LIMIT_EXCEEDED.
type moveLimitCounts struct {
	firstAllowed   int64 // 0 when none
	total, allowed int
}

// checkTopicMoveLimit refuses a change_all move by a user bound by the
// move time limits when the topic holds messages older than the stricter
// applicable limit, with the counts Zulip reports. Users who cannot read
// the channel's history are counted over the messages they received.
func (r *Realm) checkTopicMoveLimit(me *user.User, p *editPlan, now int64) error {
	deadline := int64(-1)
	consider := func(limit *int) {
		if limit != nil && (deadline < 0 || int64(*limit)+editGraceSeconds < deadline) {
			deadline = int64(*limit) + editGraceSeconds
		}
	}
	if p.newTopic != nil && !p.pureResolution() {
		consider(r.settings.MoveMessagesWithinStreamLimitSeconds)
	}
	if p.newChan != nil {
		consider(r.settings.MoveMessagesBetweenStreamsLimitSeconds)
	}
	if deadline < 0 {
		return nil
	}
	m := p.target
	readable := r.historyReadableBy(p.oldChan, me.ID)
	var c moveLimitCounts
	r.messages.store.Topic(m.ChannelID, m.Topic).Up(0, func(x *message.Message) bool {
		if !readable && !r.messages.store.HasCopy(me.ID, x.ID) {
			return true
		}
		c.total++
		if now-x.Timestamp < deadline {
			c.allowed++
			if c.firstAllowed == 0 {
				c.firstAllowed = x.ID
			}
		}
		return true
	})
	if c.total == c.allowed {
		return nil
	}
	var first any
	if c.firstAllowed != 0 {
		first = c.firstAllowed
	}
	return &Error{Code: CodeMoveMessagesTimeLimitExceeded, Status: statusBadRequest,
		Msg: "You only have permission to move the " + strconv.Itoa(c.allowed) + "/" + strconv.Itoa(c.total) + " most recent messages in this topic.",
		Extra: map[string]any{
			"first_message_id_allowed_to_move": first,
			"total_messages_in_topic":          c.total,
			"total_messages_allowed_to_move":   c.allowed,
		}}
}
