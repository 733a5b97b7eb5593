package markdown

// Formatting options: what Zulip servers rendered differently over time
// (Zulip's api_docs/message-formatting.md). A Renderer without them
// renders as today's server; each option turns one change back, for a
// realm advertising a level before it.

// TopicWith is which message a topic link's /with/ operand names.
type TopicWith int

const (
	// TopicWithLatest: the latest message of the topic the sender can
	// read (Zulip 11.0 on).
	TopicWithLatest TopicWith = iota
	// TopicWithOldest: the oldest such message (Zulip 10.0).
	TopicWithOldest
	// TopicWithNone: topic links carry no /with/ (before Zulip 10.0).
	TopicWithNone
)

// formatting is a Renderer's set of older renderings; the zero value is
// today's server.
type formatting struct {
	streamNarrows     bool
	noMessageLinks    bool
	noEmptyTopicLinks bool
	topicWith         TopicWith
	timestampErrors   bool
	noChannelWildcard bool
	noAudioPlayers    bool
	noImageSyntax     bool
}

// WithStreamNarrows writes the links the renderer generates with the
// "stream" operator (#narrow/stream/…), as servers did before Zulip
// 10.0's development switched to "channel".
func WithStreamNarrows() Option {
	return func(r *Renderer) { r.fmt.streamNarrows = true }
}

// WithoutMessageLinks leaves out the #**channel>topic@id** syntax of
// links to one message: the text is a link to the topic "topic@id", as
// before Zulip 10.0 (feature level 319).
func WithoutMessageLinks() Option {
	return func(r *Renderer) { r.fmt.noMessageLinks = true }
}

// WithoutEmptyTopicLinks leaves out links to the empty topic
// (#**channel>** and #**channel>@id**), as before Zulip 10.0 (feature
// level 346): the text stays as written unless a channel has that name.
func WithoutEmptyTopicLinks() Option {
	return func(r *Renderer) { r.fmt.noEmptyTopicLinks = true }
}

// WithTopicLinkWith sets which message a topic link's /with/ operand
// names (TopicWithLatest when not set). The message is found through a
// Lookup that is also a TopicMessages; without one, links carry none.
func WithTopicLinkWith(w TopicWith) Option {
	return func(r *Renderer) { r.fmt.topicWith = w }
}

// WithTimestampErrors renders a global time that is not a time as the
// timestamp-error span, as before Zulip 12.0 (feature level 451); without
// it the text is shown as written.
func WithTimestampErrors() Option {
	return func(r *Renderer) { r.fmt.timestampErrors = true }
}

// WithoutChannelWildcard leaves @**channel** out of the wildcard
// mentions, as before Zulip 9.0 (feature level 247): it is a mention of a
// user named "channel", if any.
func WithoutChannelWildcard() Option {
	return func(r *Renderer) { r.fmt.noChannelWildcard = true }
}

// WithoutAudioPlayers leaves ![name](/user_uploads/…) of an uploaded
// audio file as "!" and a link, as before Zulip 11.0 (feature level 405)
// rendered it; without it, an <audio> player.
func WithoutAudioPlayers() Option {
	return func(r *Renderer) { r.fmt.noAudioPlayers = true }
}

// WithoutImageSyntax leaves ![alt](/user_uploads/…) of an uploaded image
// as "!" and a link (previewed as any image link), as before Zulip 12.0
// (feature level 437); without it, an <img class="inline-image">.
func WithoutImageSyntax() Option {
	return func(r *Renderer) { r.fmt.noImageSyntax = true }
}

// TopicMessages is what a Lookup may also offer: the messages of a
// topic, for the /with/ operand of topic links.
type TopicMessages interface {
	// TopicMessage is the latest (or oldest) message of the channel's
	// topic (matched ignoring case) that the sender can read; false when
	// there is none.
	TopicMessage(channelID int, topic string, latest bool) (id int64, ok bool)
}
