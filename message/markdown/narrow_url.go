package markdown

import (
	"slices"
	"strconv"
	"strings"
)

// Narrows writes the narrow links a server generates. Stream set writes
// the "stream" operator servers wrote before Zulip 10.0's development
// switched to "channel" (Zulip PR #31906); the zero value is today's.
type Narrows struct{ Stream bool }

// operator is the narrow operator of a channel.
func (n Narrows) operator() string {
	if n.Stream {
		return "#narrow/stream/"
	}
	return "#narrow/channel/"
}

// Channel is the fragment of a link to a channel:
// #narrow/channel/<id>-<name>.
func (n Narrows) Channel(channelID int, channelName string) string {
	return n.operator() + encodeChannel(channelID, channelName)
}

// Topic is the fragment of a link to a topic:
// #narrow/channel/<id>-<name>/topic/<topic>.
func (n Narrows) Topic(channelID int, channelName, topicName string) string {
	return n.Channel(channelID, channelName) + "/topic/" + hashEncode(topicName)
}

// Near is the path-and-fragment of a link to one message in its topic:
// /#narrow/channel/<id>-<name>/topic/<topic>/near/<message id>.
func (n Narrows) Near(channelID int, channelName, topicName string, messageID int64) string {
	return "/" + n.Topic(channelID, channelName, topicName) + "/near/" + strconv.FormatInt(messageID, 10)
}

// TopicNarrow is the fragment of a link to a topic, as today's Zulip
// writes it: #narrow/channel/<id>-<name>/topic/<topic>.
func TopicNarrow(channelID int, channelName, topicName string) string {
	return Narrows{}.Topic(channelID, channelName, topicName)
}

// ChannelNarrow is the fragment of a link to a channel, as today's Zulip
// writes it: #narrow/channel/<id>-<name>.
func ChannelNarrow(channelID int, channelName string) string {
	return Narrows{}.Channel(channelID, channelName)
}

// NarrowNearURL is the path-and-fragment of a link to one message in its
// topic, as today's Zulip writes it:
// /#narrow/channel/<id>-<name>/topic/<topic>/near/<message id>.
func NarrowNearURL(channelID int, channelName, topicName string, messageID int64) string {
	return Narrows{}.Near(channelID, channelName, topicName, messageID)
}

// DirectNarrow is the fragment of a link to a direct-message conversation
// of these users (all of them, the viewer included): #narrow/dm/<sorted
// IDs>, with "-group" after three or more.
func DirectNarrow(userIDs []int) string {
	ids := slices.Clone(userIDs)
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	slug := strings.Join(parts, ",")
	if len(ids) >= 3 {
		slug += "-group"
	}
	return "#narrow/dm/" + slug
}
