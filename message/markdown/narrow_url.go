package markdown

import (
	"slices"
	"strconv"
	"strings"
)

// TopicNarrow is the fragment of a link to a topic, as Zulip writes it:
// #narrow/channel/<id>-<name>/topic/<topic>.
func TopicNarrow(channelID int, channelName, topicName string) string {
	return "#narrow/channel/" + encodeChannel(channelID, channelName) + "/topic/" + hashEncode(topicName)
}

// ChannelNarrow is the fragment of a link to a channel, as Zulip writes
// it: #narrow/channel/<id>-<name>.
func ChannelNarrow(channelID int, channelName string) string {
	return "#narrow/channel/" + encodeChannel(channelID, channelName)
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
