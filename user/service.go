package user

// Interfaces an outgoing-webhook service posts in, as Zulip numbers them.
const (
	// GenericInterface posts Zulip's own JSON payload.
	GenericInterface = 1
	// SlackInterface posts form data shaped like Slack's outgoing webhooks.
	SlackInterface = 2
)

// Service is an outgoing-webhook bot's service: where the messages that
// trigger the bot are posted, in which interface, with which token. The
// zero value means the bot has none.
type Service struct {
	// Name is the service's name (the bot's short name unless given).
	Name string
	// BaseURL is the payload URL the messages are posted to.
	BaseURL string
	// Interface is GenericInterface or SlackInterface.
	Interface int
	// Token lets the receiving server check that a request comes from us.
	Token string
}

// ValidInterface reports whether i is an interface Zulip accepts.
func ValidInterface(i int) bool { return i == GenericInterface || i == SlackInterface }

// HasService reports whether the account is a bot with an outgoing-webhook
// service.
func (u *User) HasService() bool { return u.BotType == OutgoingWebhook && u.Service.Token != "" }
