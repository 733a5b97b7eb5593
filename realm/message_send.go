package realm

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/user"
)

// SendRequest is a message to send (POST /messages).
type SendRequest struct {
	// Type is "channel", "stream", "direct" or "private".
	Type string
	// To names the recipients: a channel by name or ID, or users by ID or email.
	To message.To
	// Topic is required for channel messages (nil means absent).
	Topic   *string
	Content string
	// QueueID and LocalID pair the message with the sender's event queue
	// for local echo; both or neither.
	QueueID, LocalID *string
	// ReadBySender overrides the client-name heuristic when set.
	ReadBySender *bool
	// Client is the sending client's name; empty means "Internal". It is
	// cut to Zulip's 30 characters.
	Client string
	// WidgetContent is a bot's interactive widget (widget_content: a
	// zform of choices, as JSON), which becomes the message's first
	// submessage; nil for none.
	WidgetContent *string
	// serviceReply marks an outgoing-webhook bot's answer, which Zulip
	// sends without checking the bot's access to the channel.
	serviceReply bool
}

// SendResult is the answer to a send.
type SendResult struct {
	ID int64 `json:"id"`
	// AutomaticNewVisibilityPolicy is set only when sending changed the
	// sender's visibility policy for the topic.
	AutomaticNewVisibilityPolicy *int `json:"automatic_new_visibility_policy,omitempty"`
}

// SendChannelMessage sends a message to a channel by name.
func (a *Actor) SendChannelMessage(ctx context.Context, channel, topicName, content string) (SendResult, error) {
	return a.SendMessage(ctx, SendRequest{Type: "stream", To: message.To{ChannelName: channel}, Topic: &topicName, Content: content})
}

// SendDirectMessage sends a direct message to the given users.
func (a *Actor) SendDirectMessage(ctx context.Context, userIDs []int, content string) (SendResult, error) {
	return a.SendMessage(ctx, SendRequest{Type: "direct", To: message.To{UserIDs: userIDs, IsList: true}, Content: content})
}

// messageType reads a request's message type (sending, scheduling) as a
// server of the realm's level does: "channel" is one from feature level
// 248 on.
func (r *Realm) messageType(s string) (message.Type, bool) {
	if s == "channel" && !r.has(changeChannelMessageType) {
		return 0, false
	}
	return message.ParseType(s)
}

// SendMessage sends a message as the actor, applying every rule of
// POST /messages. On error nothing is stored.
func (a *Actor) SendMessage(ctx context.Context, req SendRequest) (ans SendResult, err error) {
	// The send is prepared (recipients resolved, Markdown rendered) under the
	// read lock, so readers and other senders go on meanwhile, and committed
	// under the write lock, which then lasts only as long as storing and
	// delivering. A write between the two (a renamed user, a new linkifier…)
	// may change what the preparation read, so the commit checks the realm's
	// state generation and prepares again when it moved; after
	// maxSendPreparations tries the send is prepared under the write lock, so
	// a busy realm cannot starve it.
	kind, ok := a.r.messageType(req.Type)
	if !ok {
		return SendResult{}, BadRequest("Invalid type")
	}
	if (req.QueueID == nil) != (req.LocalID == nil) {
		if req.QueueID == nil {
			return SendResult{}, VariableMissing("queue_id")
		}
		return SendResult{}, VariableMissing("local_id")
	}
	content, err := message.NormalizeContent(req.Content, a.r.opts.Limits.MaxMessageLength)
	if err != nil {
		return SendResult{}, BadRequest("%s", err.Error())
	}
	r := a.r
	var record *opRecord
	if r.dur != nil { // encoded once, outside the lock
		record = a.sendRecord(req)
	}
	var p *preparedSend
	defer func() { p.release() }()
	for try := 1; ; try++ {
		p.release()
		p = nil
		if try <= maxSendPreparations {
			err = a.prepare(ctx, func(sender *user.User) (err error) {
				p, err = r.prepareSend(sender, kind, req, content)
				return err
			})
			if err != nil {
				return SendResult{}, err
			}
			if hook := r.sendPrepared; hook != nil {
				hook()
			}
		}
		stale := false
		var durable syncPoint
		err = a.commit(ctx, func(sender *user.User) (err error) {
			switch {
			case p == nil:
				if p, err = r.prepareSend(sender, kind, req, content); err != nil {
					return err
				}
			case p.generation != r.generation:
				stale = true
				return nil
			}
			if r.dur != nil { // with a data directory, the send is journaled (durable_ops.go)
				durable, err = r.dur.mutate(r, record.fresh(), func() (err error) {
					ans, err = r.commitSend(sender, p, req)
					return err
				})
				return err
			}
			ans, err = r.commitSend(sender, p, req)
			return err
		})
		if err == nil && !stale {
			err = durable.wait()
		}
		if !stale {
			return ans, err
		}
	}
}

// maxSendPreparations is how many times a send is prepared under the read
// lock before it is prepared under the write lock.
const maxSendPreparations = 2

// preparedSend is a validated, rendered message waiting for its commit,
// with the realm generation it was prepared at.
type preparedSend struct {
	generation uint64
	m          *message.Message
	ch         *storedChannel // nil for a direct message
	recipients []int
	rendered   markdown.Result
	// delivered are the users who get a copy (the active recipients and
	// the sender) with their flags, all but those of a topic wildcard
	// mention, which depend on the messages already sent.
	delivered      []messageRecipient
	mayMentionMany bool
	// widget is the content of the message's widget submessage (/poll,
	// /todo or WidgetContent); "" for none.
	widget string
	// groupMentionErr refuses a message that also mentions its topic:
	// its commit reports it once the topic wildcard passes (Zulip's order).
	groupMentionErr error
	// mustHaveMessages: the sender may not start a direct message
	// conversation (direct_message_permissions.go), which its commit
	// checks against the messages already sent.
	mustHaveMessages bool
}

// preparedSends recycles preparedSends and their delivery lists, which
// live only as long as a send: every send would otherwise leave them to
// the garbage collector, whose work then competes with concurrent sends.
var preparedSends = sync.Pool{New: func() any { return new(preparedSend) }}

// release gives p back to preparedSends once its send is over; p may be
// nil. Its message is not released: the store keeps it.
func (p *preparedSend) release() {
	if p == nil {
		return
	}
	delivered := p.delivered[:0]
	*p = preparedSend{delivered: delivered}
	preparedSends.Put(p)
}

// prepareSend checks a send, renders it and works out who gets a copy
// with which flags, changing nothing: the caller holds the realm's lock,
// for reading at least.
func (r *Realm) prepareSend(sender *user.User, kind message.Type, req SendRequest, content string) (_ *preparedSend, err error) {
	m := &message.Message{Type: kind, SenderID: sender.ID, Content: content, Client: message.NormalizeClientName(req.Client)}
	if m.Client == "" {
		m.Client = "Internal"
	}
	p := preparedSends.Get().(*preparedSend)
	p.generation, p.m = r.generation, m
	defer func() {
		if err != nil {
			p.release()
		}
	}()
	if kind == message.Channel {
		ch, err := r.channelForSend(sender, req.To, req.serviceReply)
		if err != nil {
			return nil, err
		}
		if m.Topic, err = r.topicForSend(req.Topic); err != nil {
			return nil, err
		}
		m.ChannelID, m.RecipientID = ch.ID, ch.RecipientID
		p.ch, p.recipients = ch, r.activeSubscribers(ch.ID)
	} else {
		ids, err := r.directRecipients(sender, req.To)
		if err != nil {
			return nil, err
		}
		if err := r.checkRecipientsAccessible(sender, ids); err != nil {
			return nil, err
		}
		if p.mustHaveMessages, err = r.checkDirectMessagePermission(sender, ids); err != nil {
			return nil, err
		}
		m.DMUserIDs, p.recipients = ids, ids
	}
	// Rendering reads realm state (mentioned users, groups, channels,
	// emoji, linkifiers): a write to any of them moves the generation.
	p.rendered = r.renderAs(sender, content)
	m.Rendered = p.rendered.HTML
	m.Facts = factsOf(p.rendered)
	p.mayMentionMany = r.settingHas(r.settings.CanMentionManyUsersGroup, sender.ID)
	mentions, err := r.mentionsBeforeHistory(p.rendered, p.ch, p.recipients, p.mayMentionMany)
	if err != nil {
		return nil, err
	}
	if err := r.checkGroupMentions(p.rendered, sender.ID); err != nil {
		// Zulip checks a topic wildcard mention before group mentions, and
		// that check reads the messages already sent: only the commit may.
		if !p.rendered.TopicWildcard || p.ch == nil {
			return nil, err
		}
		p.groupMentionErr = err
	}
	mentions.alerted = r.alertedUsers(m.Content, p.recipients, sender.ID)
	readBySender := message.IsHumanClient(m.Client)
	if req.ReadBySender != nil {
		readBySender = *req.ReadBySender
	}
	p.delivered = r.appendDeliveries(p.delivered, m.SenderID, p.recipients, func(uid int) message.Flags {
		flags := mentions.of(uid)
		if uid == sender.ID && readBySender || uid != sender.ID && r.hasMuted(uid, sender.ID) {
			flags |= message.Read
		}
		return flags
	})
	if p.widget, err = widgetOf(content, req.WidgetContent); err != nil {
		return nil, err
	}
	return p, nil
}

// widgetOf is the content of the widget submessage a message gets: from
// the bot's widget_content when given, else from a /poll or /todo
// content.
func widgetOf(content string, widgetContent *string) (string, error) {
	if widgetContent != nil {
		w, err := message.WidgetFromParameter(*widgetContent)
		if err != nil {
			return "", BadRequest("%s", err.Error())
		}
		return w, nil
	}
	w, _ := message.WidgetFromContent(content)
	return w, nil
}

// commitSend applies the rules that depend on the messages already sent
// (a topic wildcard mention counts the topic's participants), then stores
// and delivers p's message. The caller holds the commit lock and p is
// current.
func (r *Realm) commitSend(sender *user.User, p *preparedSend, req SendRequest) (SendResult, error) {
	m := p.m
	if p.mustHaveMessages && !r.conversationHasMessages(m.DMUserIDs) {
		return SendResult{}, errDirectMessageInitiation()
	}
	if p.rendered.TopicWildcard && p.ch != nil {
		participants, err := r.topicWildcardParticipants(p.ch.ID, m.Topic, p.mayMentionMany)
		if err != nil {
			return SendResult{}, err
		}
		if p.groupMentionErr != nil {
			return SendResult{}, p.groupMentionErr
		}
		for i, d := range p.delivered {
			if participants[d.userID] {
				p.delivered[i].flags |= message.TopicWildcardMentioned
			}
		}
	}
	// Everything is valid: store and deliver.
	m.Timestamp = r.clock.Now().Unix()
	var conv *conversation
	if m.Type == message.Direct {
		unknown := r.inaccessiblePairs(m.DMUserIDs)
		conv = r.conversationFor(m.DMUserIDs)
		m.DMUserIDs = conv.userIDs
		m.RecipientID = r.dmRecipientID(conv, sender.ID)
		r.emitAccessGained(unknown)
	}
	var queueID, localID string
	if req.QueueID != nil {
		queueID, localID = *req.QueueID, *req.LocalID
	}
	if p.widget != "" {
		r.messages.lastSubmessageID++
		m.SetChanges(message.Changes{Submessages: []message.Submessage{{
			ID: r.messages.lastSubmessageID, SenderID: m.SenderID, MsgType: message.WidgetMsgType, Content: p.widget}}})
	}
	r.storeDelivered(m, conv, p.delivered, queueID, localID)
	r.triggerServices(sender, m, p.rendered)
	res := SendResult{ID: m.ID}
	if p.ch != nil {
		res.AutomaticNewVisibilityPolicy = r.applyAutomaticTopicPolicy(sender, m)
		if pol := res.AutomaticNewVisibilityPolicy; pol != nil {
			r.emitUserTopic(sender.ID, m.ChannelID, m.Topic, *pol)
		}
	}
	return res, nil
}

// storeMessage gives m the next ID, stores it, delivers a copy to each
// active recipient and to the sender with the flags flagsOf gives, and
// emits the message event (local_message_id to queueID). The caller holds
// the write lock and has validated everything.
func (r *Realm) storeMessage(m *message.Message, conv *conversation, recipients []int, flagsOf func(uid int) message.Flags, queueID, localID string) {
	r.storeDelivered(m, conv, r.appendDeliveries(nil, m.SenderID, recipients, flagsOf), queueID, localID)
}

// appendDeliveries appends to delivered the users who get a copy of a
// message from senderID to recipients: the active recipients, then the
// sender if not among them, each with the flags flagsOf gives.
func (r *Realm) appendDeliveries(delivered []messageRecipient, senderID int, recipients []int, flagsOf func(uid int) message.Flags) []messageRecipient {
	delivered = slices.Grow(delivered, len(recipients)+1)
	senderDelivered := false
	for _, uid := range recipients {
		u := r.users.byID[uid]
		if u == nil || !u.IsActive {
			continue
		}
		senderDelivered = senderDelivered || uid == senderID
		delivered = append(delivered, messageRecipient{uid, flagsOf(uid)})
	}
	if !senderDelivered {
		delivered = append(delivered, messageRecipient{senderID, flagsOf(senderID)})
	}
	return delivered
}

// storeDelivered gives m the next ID, stores it, delivers each copy of
// delivered and emits the message event (local_message_id to queueID).
// The caller holds the write lock or the commit lock and has validated
// everything.
func (r *Realm) storeDelivered(m *message.Message, conv *conversation, delivered []messageRecipient, queueID, localID string) {
	m.ID = r.messages.nextID
	r.messages.nextID++
	convID := 0
	if conv != nil {
		convID = conv.id
	}
	r.messages.store.Insert(m, convID)
	for _, d := range delivered {
		r.messages.store.Deliver(d.userID, m, d.flags)
	}
	r.emitMessage(m, delivered, queueID, localID)
	if ch := r.channels.byID[m.ChannelID]; m.Type == message.Channel && ch != nil && ch.FirstMessageID == 0 {
		ch.FirstMessageID = m.ID
	}
	r.claimUploads(m)
}

// channelForSend resolves the channel of a send and checks that the sender
// may post there (but for skipAccess, an outgoing-webhook bot's reply).
func (r *Realm) channelForSend(sender *user.User, to message.To, skipAccess bool) (*storedChannel, error) {
	var ch *storedChannel
	switch {
	case to.IsList && len(to.Emails) == 1:
		ch = r.channels.byName[channelKey(to.Emails[0])]
		if ch == nil {
			return nil, streamNameDoesNotExist(to.Emails[0])
		}
	case to.IsList && len(to.UserIDs) == 1:
		if ch = r.channels.byID[to.UserIDs[0]]; ch == nil {
			return nil, streamIDDoesNotExist(to.UserIDs[0])
		}
	case to.IsList:
		return nil, BadRequest("Invalid recipient: a channel message needs exactly one channel")
	case to.ChannelName != "" && to.ChannelID == 0:
		ch = r.channels.byName[channelKey(strings.TrimSpace(to.ChannelName))]
		if ch == nil {
			return nil, streamNameDoesNotExist(to.ChannelName)
		}
	default:
		if ch = r.channels.byID[to.ChannelID]; ch == nil {
			return nil, streamIDDoesNotExist(to.ChannelID)
		}
	}
	if !skipAccess && !r.canAccessChannelForSend(sender, ch) {
		return nil, BadRequest("Not authorized to send to channel '%s'", ch.Name)
	}
	if ch.IsArchived {
		return nil, BadRequest("Not authorized to send to channel '%s'", ch.Name)
	}
	if !skipAccess && !r.inGroup(ch.CanSendMessageGroup, sender.ID) && !sender.IsSystemBot {
		return nil, BadRequest("You do not have permission to post in this channel.")
	}
	return ch, nil
}

// canAccessChannelForSend: subscribers always; others only for public
// channels and not as guests; a bot may send where its owner may.
func (r *Realm) canAccessChannelForSend(sender *user.User, ch *storedChannel) bool {
	if sender.IsSystemBot || r.isSubscribed(ch.ID, sender.ID) {
		return true
	}
	if sender.IsBot() && sender.BotOwnerID != 0 {
		if owner := r.users.byID[sender.BotOwnerID]; owner != nil && r.isSubscribed(ch.ID, owner.ID) {
			return true
		}
	}
	return !ch.InviteOnly && !sender.IsGuest()
}

// topicForSend applies the topic rules of a channel message (send, edit,
// scheduled messages): the empty topic is refused where topics are
// mandatory, and before feature level 334, where it did not exist.
func (r *Realm) topicForSend(raw *string) (string, error) {
	if raw == nil {
		return "", BadRequest("Missing topic")
	}
	name, err := r.topicRules().Stored(*raw)
	if err != nil {
		return "", BadRequest("%s", err.Error())
	}
	if name == "" && (r.settings.MandatoryTopics || !r.has(changeEmptyTopic)) {
		return "", BadRequest("Topic can't be empty!")
	}
	return name, nil
}

// directRecipients resolves the `to` of a direct message to the sorted
// user IDs of the conversation, sender included.
func (r *Realm) directRecipients(sender *user.User, to message.To) ([]int, error) {
	set := map[int]bool{}
	switch {
	case len(to.UserIDs) > 0:
		for _, id := range to.UserIDs {
			u := r.users.byID[id]
			if u == nil {
				return nil, BadRequest("Invalid user ID %d", id)
			}
			set[u.ID] = true
		}
	case len(to.Emails) > 0:
		for _, email := range to.Emails {
			u := r.userByEmail(email)
			if u == nil {
				return nil, BadRequest("Invalid email '%s'", email)
			}
			set[u.ID] = true
		}
	default:
		return nil, BadRequest("Message must have recipients")
	}
	for id := range set {
		u := r.users.byID[id]
		if !u.IsActive && id != sender.ID {
			return nil, BadRequest("'%s' is no longer using Zulip.", r.apiEmail(u))
		}
	}
	set[sender.ID] = true
	ids := make([]int, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// conversationFor returns the stored conversation of exactly these users,
// creating it on first use.
func (r *Realm) conversationFor(ids []int) *conversation {
	key := conversationKey(ids)
	if c := r.recipients.conversations[key]; c != nil {
		return c
	}
	c := &conversation{id: len(r.recipients.conversations) + 1, userIDs: ids}
	if len(ids) > 2 || len(ids) == 2 && r.has(changeDMPairRecipient) {
		c.recipientID = r.allocRecipient()
	}
	r.recipients.conversations[key] = c
	return c
}

// dmRecipientID is the recipient_id Zulip reports for a direct message:
// the conversation's own recipient (a group's; from feature level 327 a
// 1:1 conversation's too, shared by both directions), else the other
// user's personal recipient (the sender's own for a message to oneself).
func (r *Realm) dmRecipientID(c *conversation, senderID int) int {
	if c.recipientID != 0 {
		return c.recipientID
	}
	for _, id := range c.userIDs {
		if id != senderID {
			return r.recipients.personal[id]
		}
	}
	return r.recipients.personal[senderID]
}

// RenderResult is the answer of POST /messages/render.
type RenderResult struct {
	Rendered string `json:"rendered"`
}

// RenderMessage renders Markdown as the realm would at send time; content
// over max_message_length is truncated as on send.
func (a *Actor) RenderMessage(ctx context.Context, content string) (RenderResult, error) {
	content = message.Truncate(content, a.r.opts.Limits.MaxMessageLength)
	var ans RenderResult
	err := a.read(ctx, func(me *user.User) error {
		ans.Rendered = a.r.renderAs(me, content).HTML
		return nil
	})
	return ans, err
}

// factsOf is what the engine keeps of a rendering besides the HTML: the
// facts that answer is_me_message and the has: narrows.
func factsOf(res markdown.Result) message.Facts {
	return message.Facts{
		IsMeMessage: res.IsMeMessage, HasLink: res.HasLink, HasImage: res.HasImage,
		HasAttachment: len(res.UploadPaths) > 0,
	}
}
