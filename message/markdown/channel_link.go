package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Channel links: #**channel**, #**channel>topic** and
// #**channel>topic@message_id**, linking to the channel's narrow. A
// channel the realm does not know stays text.

// KindChannelLink is the node kind of a channel, topic or message link.
var KindChannelLink = ast.NewNodeKind("ZulipChannelLink")

type channelLinkNode struct {
	ast.BaseInline
	Class    string
	StreamID int // 0 for message links, which carry no data-stream-id
	Href     string
	Label    string
	// EmptyTopic, when set, is the empty topic's display name, shown in
	// <em> after Label; Suffix follows it.
	EmptyTopic, Suffix string
}

func (n *channelLinkNode) Kind() ast.NodeKind { return KindChannelLink }

func (n *channelLinkNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// quoteAll percent-encodes every byte but letters, digits and -_.~*, as
// Python's quote(s, safe="*") does in Zulip's encode_hash_component.
func quoteAll(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' || c == '*' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// hashEncode encodes a narrow URL component as Zulip does: quoteAll, then
// . becomes %2E and % becomes a dot.
func hashEncode(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(quoteAll(s), ".", "%2E"), "%", ".")
}

func encodeChannel(id int, name string) string {
	return strconv.Itoa(id) + "-" + hashEncode(strings.ReplaceAll(name, " ", "-"))
}

type streamLinkParser struct{}

func newStreamLinkParser() parser.InlineParser { return streamLinkParser{} }

func (streamLinkParser) Trigger() []byte { return []byte{'#'} }

func (streamLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if !allowedBefore(block, mentionAllowedBefore) {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 5 || line[1] != '*' || line[2] != '*' {
		return nil
	}
	j := 3
	for j < len(line) && line[j] != '*' {
		j++
	}
	if j == 3 || j+1 >= len(line) || line[j+1] != '*' {
		return nil
	}
	body := string(line[3:j])
	n := getState(pc).channelLink(body)
	if n == nil {
		return nil
	}
	block.Advance(j + 2)
	return n
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func renderChannelLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*channelLinkNode)
	attrs := [][2]string{{"class", n.Class}, {"href", n.Href}}
	if n.StreamID != 0 {
		attrs = append(attrs, [2]string{"data-stream-id", strconv.Itoa(n.StreamID)})
	}
	writeTag(w, "a", attrs)
	_, _ = w.WriteString(escapeText(n.Label))
	if n.EmptyTopic != "" {
		_, _ = w.WriteString("<em>" + escapeText(n.EmptyTopic) + "</em>")
	}
	_, _ = w.WriteString(escapeText(n.Suffix) + "</a>")
	return ast.WalkSkipChildren, nil
}

// channelLink is the link #**body** makes: to a channel, a topic
// ("channel>topic") or a message ("channel>topic@id"), as the renderer's
// formatting has them; nil when the realm has no such channel.
func (s *state) channelLink(body string) *channelLinkNode {
	f := s.fmt
	narrows := Narrows{Stream: f.streamNarrows}
	channel, topic, ok := strings.Cut(body, ">")
	if !ok || channel == "" || topic == "" && f.noEmptyTopicLinks {
		c, found := s.lookup().ChannelByName(body)
		if !found {
			return nil
		}
		return &channelLinkNode{Class: "stream", StreamID: c.ID, Href: "/" + narrows.Channel(c.ID, body), Label: "#" + body}
	}
	c, found := s.lookup().ChannelByName(channel)
	if !found {
		return nil
	}
	minTopic := 1
	if !f.noEmptyTopicLinks {
		minTopic = 0
	}
	n := &channelLinkNode{Class: "stream-topic", StreamID: c.ID}
	if at := strings.LastIndexByte(topic, '@'); !f.noMessageLinks && at >= minTopic && isDigits(topic[at+1:]) {
		id := topic[at+1:]
		topic = topic[:at]
		n = &channelLinkNode{Class: "message-link", Href: "/" + narrows.Topic(c.ID, channel, topic) + "/near/" + id, Suffix: " @ 💬"}
	} else {
		n.Href = "/" + narrows.Topic(c.ID, channel, topic)
		if f.topicWith != TopicWithNone {
			if tm, ok := s.lookup().(TopicMessages); ok {
				if id, ok := tm.TopicMessage(c.ID, topic, f.topicWith == TopicWithLatest); ok {
					n.Href += "/with/" + strconv.FormatInt(id, 10)
				}
			}
		}
	}
	n.Label = "#" + channel + " > " + topic
	if topic == "" {
		n.EmptyTopic = s.ctx.EmptyTopicName
		if n.EmptyTopic == "" {
			n.EmptyTopic = DefaultEmptyTopicName
		}
	}
	return n
}

// DefaultEmptyTopicName is the empty topic's display name when the
// render's Context names none.
const DefaultEmptyTopicName = "general chat"
