package realm

import (
	"slices"
	"strconv"
	"sync"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/user"
)

// Outgoing-webhook bots, as Zulip runs them: a committed message that
// mentions such a bot in a channel, or is a direct message it receives,
// is posted to the bot's service (outgoing_call.go) once the realm's
// locks are released; the answer, if any, is sent back as the bot through
// the ordinary send path.

// Triggers of an outgoing-webhook call, as the payload names them.
const (
	triggerMention       = "mention"
	triggerDirectMessage = "direct_message"
	// triggerPrivateMessage is a direct message's trigger below feature
	// level 201.
	triggerPrivateMessage = "private_message"
)

// serviceCall is one call a committed message triggers, with everything
// the call, the reply and the failure notices need, copied under the lock.
type serviceCall struct {
	botID       int
	ownerID     int
	botEmail    string
	botFullName string
	service     user.Service
	trigger     string
	message     OutgoingWebhookMessage
	// messageURL is the message's "near" link, for the owner's notices.
	messageURL string
	// reply addresses an answer to the triggering conversation.
	reply SendRequest
	// realmHost is the realm's host, the Slack interface's team_domain.
	realmHost string
}

// OutgoingWebhookMessage is the message object of an outgoing webhook's
// payload: the message as the bot sees it, in Markdown, with its HTML.
type OutgoingWebhookMessage struct {
	Message
	RenderedContent string `json:"rendered_content"`
}

// OutgoingWebhookPayload is the JSON body posted to a generic (interface
// 1) service.
type OutgoingWebhookPayload struct {
	Data        string                 `json:"data"`
	Message     OutgoingWebhookMessage `json:"message"`
	BotEmail    string                 `json:"bot_email"`
	BotFullName string                 `json:"bot_full_name"`
	Token       string                 `json:"token"`
	Trigger     string                 `json:"trigger"`
}

// triggerServices starts the outgoing-webhook calls the just-committed
// message m triggers: none for a bot's message (so bots never loop); for
// a channel message, one per active outgoing-webhook bot it mentions
// (personally or through a group); for a direct message, one per such
// bot among its recipients. Wildcard and silent mentions trigger nothing.
// The calls run in their own goroutines, after the caller, which holds
// the commit lock or the write lock, releases it. A realm with no
// ServiceCaller calls nothing.
func (r *Realm) triggerServices(sender *user.User, m *message.Message, rendered markdown.Result) {
	if sender.IsBot() || r.opts.OutgoingWebhookCaller == nil || r.dur != nil && r.dur.replaying {
		return // (a replayed send's services were called when it first ran)
	}
	var bots []int
	trigger := triggerDirectMessage
	if !r.has(changeDirectMessageTrigger) {
		trigger = triggerPrivateMessage
	}
	if m.Type == message.Channel {
		trigger = triggerMention
		bots = slices.Clone(rendered.MentionedUserIDs)
		for _, gid := range rendered.MentionedGroupIDs {
			if r.groups.byID[gid] != nil {
				bots = append(bots, groupMemberIDs(r, gid)...)
			}
		}
		slices.Sort(bots)
		bots = slices.Compact(bots)
	} else {
		bots = m.DMUserIDs
	}
	for _, id := range bots {
		bot := r.users.byID[id]
		if bot == nil || !bot.IsActive || !bot.HasService() {
			continue
		}
		call := r.serviceCallFor(bot, m, trigger)
		r.serviceCalls.add()
		go func() {
			defer r.serviceCalls.done()
			r.runServiceCall(call)
		}()
	}
}

// serviceCallFor copies what a call to bot's service about m needs; the
// caller holds the lock. The message is shown as the bot sees it, whether
// or not it could read the channel: Zulip posts a mention in a private
// channel to a bot that is not subscribed as well.
func (r *Realm) serviceCallFor(bot *user.User, m *message.Message, trigger string) *serviceCall {
	c := &serviceCall{
		botID: bot.ID, ownerID: bot.BotOwnerID, botEmail: r.apiEmail(bot), botFullName: bot.FullName,
		service: bot.Service, trigger: trigger, realmHost: urlHost(r.opts.URL),
		message: OutgoingWebhookMessage{
			Message:         r.messageView(bot, m, 0, false, ViewOptions{AllowEmptyTopicName: true}),
			RenderedContent: m.Rendered,
		},
		reply: SendRequest{Client: "OutgoingWebhookResponse", serviceReply: true},
	}
	id := strconv.FormatInt(m.ID, 10)
	if m.Type == message.Channel {
		ch := r.channels.byID[m.ChannelID]
		topicName := m.Topic
		c.messageURL = r.opts.URL + r.narrows().Near(ch.ID, ch.Name, m.Topic, m.ID)
		c.reply.Type, c.reply.To, c.reply.Topic = "stream", message.To{ChannelID: ch.ID}, &topicName
	} else {
		c.messageURL = r.opts.URL + "/" + markdown.DirectNarrow(m.DMUserIDs) + "/near/" + id
		c.reply.Type, c.reply.To = "private", message.To{UserIDs: slices.Clone(m.DMUserIDs), IsList: true}
	}
	return c
}

// WaitForOutgoingWebhooks waits until the outgoing-webhook calls under
// way, with their replies and failure notices, are over: tests call it
// before checking what a bot answered.
func (r *Realm) WaitForOutgoingWebhooks() { r.serviceCalls.wait() }

// callCounter counts calls under way; its zero value is ready.
type callCounter struct {
	mu   sync.Mutex
	n    int
	idle *sync.Cond
}

func (c *callCounter) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *callCounter) done() {
	c.mu.Lock()
	if c.n--; c.n == 0 && c.idle != nil {
		c.idle.Broadcast()
	}
	c.mu.Unlock()
}

func (c *callCounter) wait() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idle == nil {
		c.idle = sync.NewCond(&c.mu)
	}
	for c.n > 0 {
		c.idle.Wait()
	}
}
