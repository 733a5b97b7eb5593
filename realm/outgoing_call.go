package realm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// OutgoingWebhookTimeout is how long a call to a service may take:
// Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS.
const OutgoingWebhookTimeout = 10 * time.Second

// ServiceCaller makes the HTTP requests of outgoing-webhook calls; the
// realm speaks no HTTP itself. httpapi.NewServiceCaller is the net/http
// one.
type ServiceCaller interface {
	// PostToService posts body to serviceURL with the given content type
	// and user agent, and returns the answer's status and body. An error
	// with a Timeout method reporting true is a timeout; any other, a
	// failure to connect.
	PostToService(ctx context.Context, serviceURL, contentType, userAgent string, body []byte) (status int, answer []byte, err error)
	// Timeout is how long a request may take, for the owner's notice.
	Timeout() time.Duration
}

// statusProxyAuthRequired is the status Zulip's proxy answers for URLs of
// private networks.
const statusProxyAuthRequired = 407

// maxServiceRetries is how many times a call that timed out or could not
// connect is tried again before the bot is declared unavailable (Zulip's
// MAX_REQUEST_RETRIES).
const maxServiceRetries = 3

// runServiceCall posts c to the bot's service and acts on the answer, as
// Zulip's outgoing-webhook worker does. It holds no lock: the replies and
// notices go through SendMessage as the bot.
func (r *Realm) runServiceCall(c *serviceCall) {
	base := c.service.BaseURL
	if u, err := url.Parse(base); err != nil || u.Scheme == "" {
		r.serviceException(c, "MissingSchema", fmt.Sprintf("Invalid URL '%s': No scheme supplied. Perhaps you meant https://%s?", base, base))
		return
	} else if u.Scheme != "http" && u.Scheme != "https" {
		r.serviceException(c, "InvalidSchema", fmt.Sprintf("No connection adapters were found for '%s'", base))
		return
	}
	var failure string
	for try := 0; try <= maxServiceRetries; try++ {
		status, body, err := r.postToService(c)
		if err == errSlackDirect {
			r.failInConversation(c, "Slack outgoing webhooks don't support direct messages.")
			return
		}
		if err == nil {
			r.serviceAnswered(c, status, body)
			return
		}
		var te interface{ Timeout() bool }
		if errors.As(err, &te) && te.Timeout() {
			failure = "Request timed out after " + timeoutSeconds(r.opts.OutgoingWebhookCaller.Timeout()) + " seconds."
		} else {
			failure = "A connection error occurred. Is my bot server down?"
		}
	}
	r.failInConversation(c, "Bot is unavailable")
	r.notifyBotOwner(c, ownerNotice{failure: failure})
}

// errSlackDirect refuses a direct message to a Slack-interface service.
var errSlackDirect = errors.New("slack interface: direct message")

// postToService makes one request to the service through the realm's
// caller and returns the answer's status and body.
func (r *Realm) postToService(c *serviceCall) (int, []byte, error) {
	var body []byte
	contentType := "application/json"
	if c.service.Interface == user.SlackInterface {
		if c.message.Type != message.Channel.String() {
			return 0, nil, errSlackDirect
		}
		body = []byte(slackForm(c).Encode())
		contentType = "application/x-www-form-urlencoded"
	} else {
		data, err := json.Marshal(OutgoingWebhookPayload{
			Data: c.message.Content, Message: c.message, BotEmail: c.botEmail, BotFullName: c.botFullName,
			Token: c.service.Token, Trigger: c.trigger,
		})
		if err != nil {
			return 0, nil, err
		}
		body = data
	}
	return r.opts.OutgoingWebhookCaller.PostToService(context.Background(), c.service.BaseURL, contentType,
		"ZulipOutgoingWebhook/"+r.opts.Version, body)
}

// slackForm is the form Slack's outgoing webhooks post, as Zulip fills it.
func slackForm(c *serviceCall) url.Values {
	m := c.message
	ts := strconv.FormatInt(m.Timestamp, 10)
	form := url.Values{}
	form.Set("token", c.service.Token)
	form.Set("team_id", "T"+strconv.Itoa(UploadRealmID))
	form.Set("team_domain", c.realmHost)
	form.Set("channel_id", "C"+strconv.Itoa(m.StreamID))
	form.Set("channel_name", fmt.Sprint(m.DisplayRecipient))
	form.Set("thread_ts", ts)
	form.Set("timestamp", ts)
	form.Set("user_id", "U"+strconv.Itoa(m.SenderID))
	form.Set("user_name", m.SenderFullName)
	form.Set("text", m.Content)
	form.Set("trigger_word", c.trigger)
	form.Set("service_id", strconv.Itoa(c.botID))
	return form
}

// serviceAnswered acts on the service's HTTP answer: a 2xx answer may
// carry a reply; any other status is a failure told in the conversation
// and to the bot's owner.
func (r *Realm) serviceAnswered(c *serviceCall, status int, body []byte) {
	if status < 200 || status > 299 {
		r.failInConversation(c, "Third party responded with "+strconv.Itoa(status))
		r.notifyBotOwner(c, ownerNotice{status: status, payload: pyBytesRepr(body)})
		return
	}
	content, widget, err := serviceReply(c.service.Interface, body)
	if err == nil && strings.TrimSpace(content) != "" {
		err = r.replyAsBot(c, content, widget)
	}
	if err != nil {
		msg := err.Error()
		if e, ok := err.(*Error); ok {
			msg = e.Msg
		}
		r.failInConversation(c, msg)
		r.notifyBotOwner(c, ownerNotice{payload: pyStrRepr(string(body)),
			failure: "The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> " + msg})
	}
}

// serviceReply reads the reply content of a 2xx answer ("" for none),
// and the generic interface's widget_content (a JSON string, nil for
// none). The generic interface takes response_not_required, then
// response_string, then content; the Slack one takes text.
func serviceReply(iface int, body []byte) (string, *string, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return "", nil, BadRequest("Invalid JSON in response")
	}
	if v == "" {
		return "", nil, nil // old botservers' "no response required"
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "", nil, BadRequest("Invalid response format")
	}
	if iface == user.SlackInterface {
		s, _ := obj["text"].(string)
		return s, nil, nil
	}
	if b, _ := obj["response_not_required"].(bool); b {
		return "", nil, nil
	}
	var widget *string
	if w, ok := obj["widget_content"].(string); ok {
		widget = &w
	}
	if s, ok := obj["response_string"]; ok {
		return pyStr(s), widget, nil
	}
	if s, ok := obj["content"]; ok {
		return pyStr(s), widget, nil
	}
	return "", nil, nil
}

// replyAsBot sends content as the bot to the triggering conversation,
// with widget as its widget_content when not nil.
func (r *Realm) replyAsBot(c *serviceCall, content string, widget *string) error {
	req := c.reply
	req.Content, req.WidgetContent = content, widget
	_, err := r.As(c.botID).SendMessage(context.Background(), req)
	return err
}

// failInConversation tells the triggering conversation, as the bot, that
// the call failed; a failure to send it is dropped.
func (r *Realm) failInConversation(c *serviceCall, failure string) {
	_ = r.replyAsBot(c, "Failure! "+failure, nil)
}

// serviceException reports a request that could not be made at all.
func (r *Realm) serviceException(c *serviceCall, kind, text string) {
	r.failInConversation(c, "An exception of type *"+kind+"* occurred for message `"+c.message.Content+
		"`! See the Zulip server logs for more information.")
	r.notifyBotOwner(c, ownerNotice{exceptionKind: kind, exception: text})
}

// ownerNotice is what a notice to a bot's owner says about a failed call.
type ownerNotice struct {
	exceptionKind, exception string
	failure                  string
	status                   int
	payload                  string // the answer, as Python's repr shows it
}

// notifyBotOwner sends the bot's owner, as the bot, Zulip's notice about
// a failed call; a bot with no owner, or a failure to send, drops it.
func (r *Realm) notifyBotOwner(c *serviceCall, n ownerNotice) {
	if c.ownerID == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("[A message](" + c.messageURL + ") to your bot @_**" + c.botFullName + "** triggered an outgoing webhook.")
	switch {
	case n.exceptionKind != "":
		b.WriteString("\nWhen trying to send a request to the webhook service, an exception of type " +
			n.exceptionKind + " occurred:\n```\n" + n.exception + "\n```")
	case n.failure != "":
		b.WriteString("\n" + n.failure)
	case n.status == statusProxyAuthRequired:
		b.WriteString("\nThe URL configured for the webhook is for a private or disallowed network.")
	case n.status != 0:
		b.WriteString("\nThe webhook got a response with status code *" + strconv.Itoa(n.status) + "*.")
	}
	if n.payload != "" && n.payload != "b''" && n.payload != "''" {
		b.WriteString("\nThe response contains the following payload:\n```\n" + n.payload + "\n```")
	}
	req := SendRequest{Type: "private", To: message.To{UserIDs: []int{c.ownerID}, IsList: true},
		Content: b.String(), Client: "OutgoingWebhookResponse"}
	_, _ = r.As(c.botID).SendMessage(context.Background(), req)
}

// timeoutSeconds writes a timeout as Zulip's notice does: whole seconds
// as an integer.
func timeoutSeconds(d time.Duration) string {
	if d <= 0 {
		d = OutgoingWebhookTimeout
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}
