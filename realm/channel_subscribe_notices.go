package realm

import (
	"slices"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// The Notification Bot messages a subscribe request sends, as Zulip's
// send_messages_for_new_subscribers (zerver/views/streams.py) does, in its
// order: a direct message to each other human it subscribed to channels
// that already existed, the announcement of the new channels in the
// realm's new channel announcements channel when the request asks for one,
// then a notice in each new channel's "channel events" topic. The
// requester's own copies are read.

// newChannelsTopic is the topic new channels are announced in.
const newChannelsTopic = "new channels"

// sendSubscribeNotices sends them; subscribed lists the channels each
// target was newly subscribed to (by target index), created the channels
// the request made. dms says whether the direct messages go out
// (send_new_subscription_messages and its bulk limit). The caller holds
// the write lock and has sent the subscription events.
func (r *Realm) sendSubscribeNotices(me *user.User, targets []*user.User, subscribed [][]*storedChannel,
	created []*storedChannel, announce, dms bool) {
	if dms {
		for i, u := range targets {
			if u.ID == me.ID || u.IsBot() {
				continue
			}
			var names []string
			for _, c := range subscribed[i] {
				if !slices.Contains(created, c) {
					names = append(names, c.Name)
				}
			}
			if len(names) > 0 {
				r.sendDirectFrom(notificationBotEmail, u, subscribedYouMessage(me, names))
			}
		}
	}
	if len(created) == 0 {
		return
	}
	if ch := r.channels.byID[r.settings.NewStreamAnnouncementsStreamID]; announce && ch != nil && !ch.IsArchived {
		r.sendNotice(ch, newChannelsTopic, r.newChannelsMessage(me, created), r.allButReader(ch, me.ID))
	}
	for _, c := range created {
		r.sendNotice(c, channelEventsTopicName(c), channelCreatedNotice(me, c), r.allButReader(c, me.ID))
	}
}

// allButReader is every subscriber of ch but readerID, for whom a notice
// stays unread (see sendNotice).
func (r *Realm) allButReader(ch *storedChannel, readerID int) map[int]bool {
	unread := map[int]bool{}
	for _, id := range r.subscriberIDs(ch.ID) {
		if id != readerID {
			unread[id] = true
		}
	}
	return unread
}

// subscribedYouMessage tells a user who subscribed them to which
// channels (Zulip's you_were_just_subscribed_message): one channel in a
// sentence, several as a sorted list.
func subscribedYouMessage(me *user.User, names []string) string {
	names = slices.Sorted(slices.Values(names))
	if len(names) == 1 {
		return silentMention(me) + " subscribed you to #**" + names[0] + "**."
	}
	var b strings.Builder
	b.WriteString(silentMention(me) + " subscribed you to the following channels:\n\n")
	for _, n := range names {
		b.WriteString("* #**" + n + "**\n")
	}
	return b.String()
}

// newChannelsMessage announces new channels, each linked as Zulip's
// get_stream_link_syntax links it.
func (r *Realm) newChannelsMessage(me *user.User, created []*storedChannel) string {
	links := make([]string, len(created))
	for i, c := range created {
		links[i] = r.channelLinkSyntax(c)
	}
	if len(created) > 1 {
		return silentMention(me) + " created the following channels: " + strings.Join(links, ", ") + "."
	}
	return silentMention(me) + " created a new channel " + links[0] + "."
}

// channelCreatedNotice opens a new channel's "channel events" topic: its
// access policy, its creator and its description quoted.
func channelCreatedNotice(me *user.User, c *storedChannel) string {
	desc := c.Description
	if desc == "" {
		desc = "*No description.*"
	}
	policy := permissionPolicyName(c.InviteOnly, c.HistoryPublicToSubscribers, c.IsWebPublic)
	return "**" + policy + "** channel created by " + silentMention(me) + ". **Description:**\n```` quote\n" + desc + "\n````"
}
