package realm

import (
	"context"

	"github.com/minizulip/minizulip/user"
)

// BotUpdate is PATCH /bots/{bot_id}: the fields to change, nil for those
// left alone. Only the outgoing-webhook service is modelled.
type BotUpdate struct {
	// ServicePayloadURL is the service's new payload URL.
	ServicePayloadURL *string
	// ServiceInterface is the service's new interface (1 generic, 2 Slack).
	ServiceInterface *int
}

// UpdatedBot is the answer of PATCH /bots/{bot_id}.
type UpdatedBot struct {
	FullName                    string            `json:"full_name"`
	AvatarURL                   string            `json:"avatar_url"`
	ServiceInterface            *int              `json:"service_interface"`
	ServicePayloadURL           *string           `json:"service_payload_url"`
	ConfigData                  map[string]string `json:"config_data"`
	DefaultSendingStream        *string           `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string           `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool              `json:"default_all_public_streams"`
	BotOwner                    string            `json:"bot_owner,omitempty"`
}

// RealmBotUpdateEvent is the realm_bot event telling a bot's owner and the
// administrators that some of its fields changed.
type RealmBotUpdateEvent struct {
	Op  string        `json:"op"`
	Bot BotServiceSet `json:"bot"`
}

// BotServiceSet is a bot's user ID with its new services list.
type BotServiceSet struct {
	UserID   int          `json:"user_id"`
	Services []BotService `json:"services"`
}

// UpdateBot changes a bot the caller may administer (its owner or an
// administrator). A new payload URL must be a URL and a new interface one
// Zulip knows; a bot with no outgoing-webhook service ignores them. The
// owner and the administrators get a realm_bot update event when the
// service changed.
func (a *Actor) UpdateBot(ctx context.Context, botID int, req BotUpdate) (ans UpdatedBot, err error) {
	if req.ServicePayloadURL != nil && !user.ValidURL(*req.ServicePayloadURL) {
		return ans, BadRequest("service_payload_url is not a URL")
	}
	if req.ServiceInterface != nil && !user.ValidInterface(*req.ServiceInterface) {
		return ans, BadRequest("Invalid interface type")
	}
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		bot, err := r.accessBot(me, botID)
		if err != nil {
			return err
		}
		if bot.HasService() {
			s := bot.Service
			if req.ServicePayloadURL != nil {
				s.BaseURL = *req.ServicePayloadURL
			}
			if req.ServiceInterface != nil {
				s.Interface = *req.ServiceInterface
			}
			if s != bot.Service {
				bot.Service = s
				r.emit("realm_bot", RealmBotUpdateEvent{Op: "update",
					Bot: BotServiceSet{UserID: bot.ID, Services: botServices(bot)}}, r.botAudience(bot)...)
			}
		}
		ans = UpdatedBot{FullName: bot.FullName, AvatarURL: bot.AvatarURL,
			ServiceInterface: req.ServiceInterface, ServicePayloadURL: req.ServicePayloadURL}
		if o := r.users.byID[bot.BotOwnerID]; o != nil {
			ans.BotOwner = r.apiEmail(o)
		}
		return nil
	})
	return ans, err
}

// accessBot finds a bot of the realm that me may administer, with Zulip's
// errors; the caller holds the lock.
func (r *Realm) accessBot(me *user.User, botID int) (*user.User, error) {
	if me.IsGuest() {
		return nil, BadRequest("Not allowed for guest users")
	}
	bot := r.users.byID[botID]
	if bot == nil || !bot.IsBot() || bot.IsSystemBot {
		return nil, BadRequest("No such bot")
	}
	if !me.Role.IsAdmin() && bot.BotOwnerID != me.ID {
		return nil, BadRequest("Insufficient permission")
	}
	return bot, nil
}

// botAudience are the users told about changes to bot: its owner and the
// active human administrators; the caller holds the lock.
func (r *Realm) botAudience(bot *user.User) []int {
	var ids []int
	for _, v := range r.users.sorted() {
		if v.IsActive && !v.IsBot() && (v.ID == bot.BotOwnerID || v.Role.IsAdmin()) {
			ids = append(ids, v.ID)
		}
	}
	return ids
}
