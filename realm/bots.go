package realm

import (
	"cmp"
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/user"
)

// BotRequest is POST /bots: a bot owned by the caller.
type BotRequest struct {
	FullName  string
	ShortName string
	BotType   user.BotType // default generic
	// PayloadURL is where an outgoing-webhook bot's service posts (Zulip
	// defaults it to ""); checked as a URL when not empty.
	PayloadURL string
	// InterfaceType is the service's interface: 0 means generic (1),
	// else user.GenericInterface or user.SlackInterface.
	InterfaceType int
	// ServiceName names the service; empty means the short name.
	ServiceName string
}

// CreatedBot is the answer of POST /bots.
type CreatedBot struct {
	UserID                      int     `json:"user_id"`
	APIKey                      string  `json:"api_key"`
	AvatarURL                   string  `json:"avatar_url"`
	DefaultSendingStream        *string `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool    `json:"default_all_public_streams"`
}

// botShortName is what Zulip accepts before "-bot@".
var botShortName = regexp.MustCompile(`^[a-zA-Z0-9_.\-]+$`)

// CreateBot creates a bot owned by the caller; its email is
// <short_name>-bot@<the realm's fake email domain>, as clients assume.
func (a *Actor) CreateBot(ctx context.Context, req BotRequest) (ans CreatedBot, err error) {
	r := a.r
	if req.InterfaceType == 0 {
		req.InterfaceType = user.GenericInterface
	}
	if req.PayloadURL != "" && !user.ValidURL(req.PayloadURL) {
		return ans, BadRequest("payload_url is not a URL")
	}
	err = a.write(ctx, func(me *user.User) error {
		if me.IsGuest() {
			return BadRequest("Not allowed for guest users")
		}
		if req.BotType == user.NotABot {
			req.BotType = user.GenericBot
		}
		if req.BotType < user.GenericBot || req.BotType > user.EmbeddedBot || !r.mayCreateBot(me, req.BotType) {
			return BadRequest("Invalid bot type")
		}
		short := strings.TrimSpace(req.ShortName)
		if !botShortName.MatchString(short) {
			return BadRequest("Bad name or username")
		}
		name, err := r.checkFullName(req.FullName, 0)
		if err != nil {
			return err
		}
		email := short + "-bot@" + user.FakeEmailDomain
		if utf8.RuneCountInString(email) > user.MaxEmailLength {
			// Zulip's account form takes it, its email column does not.
			return BadRequest("Bad name or username")
		}
		if err := r.checkEmailFree(email); err != nil {
			return BadRequest("Username already in use")
		}
		if !user.ValidInterface(req.InterfaceType) {
			return BadRequest("Invalid interface type")
		}
		if utf8.RuneCountInString(req.ServiceName) > user.MaxFullNameLength { // Zulip's Service.name column
			return BadRequest("service_name is too long (limit: %d characters)", user.MaxFullNameLength)
		}
		if err := noNull("service_name", req.ServiceName); err != nil {
			return err
		}
		bot := &user.User{DeliveryEmail: email, FullName: name, Role: user.RoleMember,
			BotType: req.BotType, BotOwnerID: me.ID}
		if req.BotType == user.OutgoingWebhook {
			bot.Service = user.Service{Name: cmp.Or(req.ServiceName, short), BaseURL: req.PayloadURL,
				Interface: req.InterfaceType, Token: user.NewAPIKey()}
		}
		u := r.addUser(bot)
		r.announceNewUser(u)
		ans = CreatedBot{UserID: u.ID, APIKey: u.APIKey, AvatarURL: u.AvatarURL}
		return nil
	})
	return ans, err
}

// mayCreateBot reports whether u may create a bot of type t: from feature
// level 344, members of can_create_bots_group any bot, members of
// can_create_write_only_bots_group incoming webhook bots (Zulip's
// allowed_bot_types); before, bot_creation_policy's default let every
// user but guests create any bot.
func (r *Realm) mayCreateBot(u *user.User, t user.BotType) bool {
	if !r.has(changeBotCreationGroups) {
		return true
	}
	s := r.settings
	return r.hasRealmPermission("can_create_bots_group", s.CanCreateBotsGroup, u) ||
		t == user.IncomingWebhook && r.hasRealmPermission("can_create_write_only_bots_group", s.CanCreateWriteOnlyBotsGroup, u)
}
