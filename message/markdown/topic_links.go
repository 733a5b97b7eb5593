package markdown

import (
	"net/url"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/linkifier"
)

// TopicLink is a link Zulip shows beside a topic name (a message's
// topic_links).
type TopicLink struct {
	Text string
	URL  string
}

// topicLinkSplitters are the characters that end a bare URL in a topic
// name: Zulip looks for one at the start of each run between them.
const topicLinkSplitters = " !;),'\""

// TopicLinks returns the links Zulip makes of a topic name: the matches
// of each linkifier, the first linkifier taking precedence, then the
// bare URLs (those without a scheme get https://). A link that overlaps
// one already taken is left out, and the links come in the order they
// appear in the name.
func TopicLinks(linkifiers []*linkifier.Linkifier, topic string) []TopicLink {
	type span struct {
		start, end int
		link       TopicLink
	}
	var taken []span
	take := func(start, end int, link TopicLink) {
		if !slices.ContainsFunc(taken, func(s span) bool { return start < s.end && s.start < end }) {
			taken = append(taken, span{start, end, link})
		}
	}
	for _, l := range linkifiers {
		for _, found := range l.Links(topic) {
			take(found.Start, found.End, TopicLink{Text: found.Text, URL: found.URL})
		}
	}
	for pos := 0; pos < len(topic); {
		end := strings.IndexAny(topic[pos:], topicLinkSplitters)
		if end < 0 {
			end = len(topic)
		} else {
			end += pos
		}
		if n := matchURL([]byte(topic[pos:end])); n > 0 {
			text := topic[pos : pos+n]
			take(pos, pos+n, TopicLink{Text: text, URL: topicLinkURL(text)})
		}
		pos = end + 1
	}
	slices.SortFunc(taken, func(a, b span) int { return a.start - b.start })
	out := make([]TopicLink, len(taken))
	for i, s := range taken {
		out[i] = s.link
	}
	return out
}

// topicLinkURL is where a bare URL in a topic name leads: itself when it
// has a scheme, otherwise https:// and what Zulip takes for its host
// (everything before the first slash) and path.
func topicLinkURL(text string) string {
	if u, err := url.Parse(text); err == nil && u.Scheme != "" {
		return text
	}
	host, path, _ := strings.Cut(text, "/")
	if path != "" || strings.HasSuffix(text, "/") {
		path = "/" + path
	}
	return "https://" + host + path
}
