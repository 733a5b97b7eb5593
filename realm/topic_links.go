package realm

import (
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
)

// topicLinks are the links Zulip shows beside topic name under the
// realm's linkifiers. The caller holds the lock.
func (r *Realm) topicLinks(name string) []TopicLink { return topicLinksOf(r.linkifiers.list, name) }

// topicLinksOf are the links linkifiers and bare URLs make of a topic
// name, as the API shows them.
func topicLinksOf(linkifiers []*linkifier.Linkifier, name string) []TopicLink {
	links := markdown.TopicLinks(linkifiers, name)
	out := make([]TopicLink, len(links))
	for i, l := range links {
		out[i] = TopicLink{Text: l.Text, URL: l.URL}
	}
	return out
}

// topicLinks are the topic links of m's view, found once per topic name
// in a directory; a direct message has none.
func (d *messageDirectory) topicLinks(m *message.Message) []TopicLink {
	if m.Type != message.Channel || m.Topic == "" {
		return noTopicLinks
	}
	if links, ok := d.topicLinksFound[m.Topic]; ok {
		return links
	}
	links := topicLinksOf(d.linkifiers, m.Topic)
	if len(links) == 0 {
		links = noTopicLinks
	}
	if d.topicLinksFound == nil {
		d.topicLinksFound = map[string][]TopicLink{}
	}
	d.topicLinksFound[m.Topic] = links
	return links
}
