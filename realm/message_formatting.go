package realm

import (
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/user"
)

// Message formatting by feature level (Zulip's api_docs/message-formatting.md):
// the realm's renderer renders as a server of its advertised level. The
// level is fixed per realm, so the renderer is built once; a message keeps
// the HTML it was rendered with.

// formattingOptions are the renderer's options for the realm's level.
func (r *Realm) formattingOptions() []markdown.Option {
	var opts []markdown.Option
	if !r.has(changeChannelNarrowLinks) {
		opts = append(opts, markdown.WithStreamNarrows())
	}
	if !r.has(changeMessageLinkSyntax) {
		opts = append(opts, markdown.WithoutMessageLinks())
	}
	if !r.has(changeEmptyTopicLinks) {
		opts = append(opts, markdown.WithoutEmptyTopicLinks())
	}
	switch {
	case r.has(changeTopicLinkWithLatest):
		opts = append(opts, markdown.WithTopicLinkWith(markdown.TopicWithLatest))
	case r.has(changeTopicLinkWith):
		opts = append(opts, markdown.WithTopicLinkWith(markdown.TopicWithOldest))
	default:
		opts = append(opts, markdown.WithTopicLinkWith(markdown.TopicWithNone))
	}
	if !r.has(changeInvalidTimestampText) {
		opts = append(opts, markdown.WithTimestampErrors())
	}
	if !r.has(changeChannelWildcardMention) {
		opts = append(opts, markdown.WithoutChannelWildcard())
	}
	if !r.has(changeAudioPlayers) {
		opts = append(opts, markdown.WithoutAudioPlayers())
	}
	if !r.has(changeImageSyntax) {
		opts = append(opts, markdown.WithoutImageSyntax())
	}
	return opts
}

// uploadContentType is the content type of the uploaded file at pathID,
// for the renderer's audio players. The caller holds the lock.
func (l markdownLookup) uploadContentType(pathID string) string {
	if att := l.r.files.byPath[pathID]; att != nil {
		return att.contentType
	}
	return ""
}

// narrows writes the narrow links the realm generates (notices,
// notifications, outgoing webhooks, reminders) as its level's server
// does.
func (r *Realm) narrows() markdown.Narrows {
	return markdown.Narrows{Stream: !r.has(changeChannelNarrowLinks)}
}

// TopicMessage is the latest (or oldest) message of a channel's topic the
// rendering sender can read, for topic links' /with/: none when the
// sender has no content access to the channel; in a channel whose history
// is not public to subscribers, only messages the sender received. The
// caller holds the lock.
func (l markdownLookup) TopicMessage(channelID int, topicName string, latest bool) (int64, bool) {
	r, u := l.r, l.sender
	ch := r.channels.byID[channelID]
	if ch == nil || u == nil || !r.hasContentAccess(u, ch) {
		return 0, false
	}
	readable := func(m *message.Message) bool {
		return ch.HistoryPublicToSubscribers || r.messages.store.HasCopy(u.ID, m.ID)
	}
	var found int64
	pick := func(m *message.Message) bool {
		if readable(m) {
			found = m.ID
			return false
		}
		return true
	}
	scan := r.messages.store.Topic(channelID, topicName)
	if latest {
		scan.Down(AnchorNewest, pick)
	} else {
		scan.Up(0, pick)
	}
	return found, found != 0
}

// lookupFor is the renderer's view of the realm for a message sender.
func (r *Realm) lookupFor(sender *user.User) markdownLookup {
	return markdownLookup{r: r, sender: sender}
}
