package realm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/user"
)

// Channel answers GET /streams/{stream_id}: the channel, for anyone who
// may know it exists.
func (a *Actor) Channel(ctx context.Context, channelID int) (ans Stream, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ch, err := r.channelWithMetadataAccess(me, channelID)
		if err != nil {
			return err
		}
		ans = r.streamView(ch)
		return nil
	})
	return ans, err
}

// ChannelSubscribers answers GET /streams/{stream_id}/members: the IDs of
// the channel's active subscribers, sorted, for anyone who may know the
// channel exists (guests only for channels they are in or web-public
// ones).
func (a *Actor) ChannelSubscribers(ctx context.Context, channelID int) (ans []int, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ch, err := r.channelWithMetadataAccess(me, channelID)
		if err != nil {
			return err
		}
		ans = r.activeSubscriberIDs(ch.ID)
		return nil
	})
	return ans, err
}

// IsSubscribed answers GET /users/{user_id}/subscriptions/{stream_id}:
// whether an active, non-bot user the caller may access is subscribed to
// a channel the caller may know exists.
func (a *Actor) IsSubscribed(ctx context.Context, userID, channelID int) (ans bool, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		target, err := r.readableUser(me, userID, false, false)
		if err != nil {
			return err
		}
		ch, err := r.channelWithMetadataAccess(me, channelID)
		if err != nil {
			return err
		}
		ans = r.isSubscribed(ch.ID, target.ID)
		return nil
	})
	return ans, err
}

// ChannelEmailAddress answers GET /streams/{stream_id}/email_address: the
// address that posts to the channel through the email gateway, as sender
// senderID (0: the Email Gateway bot; else the caller or one of the
// caller's bots). The address is well formed but no mail reaches it.
func (a *Actor) ChannelEmailAddress(ctx context.Context, channelID, senderID int) (ans string, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ch := r.channels.byID[channelID]
		if ch == nil || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		gateway := r.userByEmail(emailGatewayBotEmail)
		sender := gateway
		if senderID != 0 {
			if sender = r.users.byID[senderID]; sender == nil || !sender.IsActive {
				return noSuchUser()
			}
			ownBot := sender.IsBot() && !sender.IsSystemBot && sender.BotOwnerID == me.ID
			if sender != me && sender != gateway && !ownBot {
				return BadRequest("Insufficient permission")
			}
		}
		ans = channelEmailAddress(ch, senderKey(sender))
		return nil
	})
	return ans, err
}

// emailGatewayBotEmail is the system bot that sends mail-gateway messages.
const emailGatewayBotEmail = "emailgateway@zulip.com"

// nonWordRuns are the runs Zulip turns into one hyphen in a channel's
// email address.
var nonWordRuns = regexp.MustCompile(`[^\p{L}\p{N}_]+`)

// channelEmailAddress builds the gateway address of a channel for one
// sender, in Zulip's shape: <slug>.<token>.show-sender@<domain>, the slug
// left out when the name does not survive as ASCII.
func channelEmailAddress(ch *storedChannel, senderID int) string {
	name := nonWordRuns.ReplaceAllString(ch.Name, "-")
	slug := strings.Trim(strings.ToLower(name), "-_")
	sum := sha256.Sum256([]byte("channel-email:" + strconv.Itoa(ch.ID) + ":" + strconv.Itoa(senderID)))
	token := hex.EncodeToString(sum[:16])
	local := token
	if slug != "" && len(slug) == utf8.RuneCountInString(name) && utf8.RuneCountInString(slug) == len(slug) {
		local = slug + "." + token
	}
	return local + ".show-sender@" + user.FakeEmailDomain
}

// senderKey is the sender an address is built for: 0 in a realm
// without system bots.
func senderKey(sender *user.User) int {
	if sender == nil {
		return 0
	}
	return sender.ID
}

// legacyEmailAddress is the email_address subscription objects carried
// below changeStreamEmailRemoved: the channel's address as GET
// /streams/{id}/email_address gives it without sender_id, for users
// with content access to the channel; "" for the others.
func (r *Realm) legacyEmailAddress(u *user.User, c *storedChannel) string {
	if r.has(changeStreamEmailRemoved) || u == nil || !r.hasContentAccess(u, c) {
		return ""
	}
	return channelEmailAddress(c, senderKey(r.userByEmail(emailGatewayBotEmail)))
}

// channelWithMetadataAccess is the channel of a read that needs only to
// know the channel exists (Zulip's access without content access).
func (r *Realm) channelWithMetadataAccess(me *user.User, channelID int) (*storedChannel, error) {
	ch := r.channels.byID[channelID]
	if ch == nil || !r.hasMetadataAccess(me, ch) {
		return nil, BadRequest("Invalid channel ID")
	}
	return ch, nil
}
