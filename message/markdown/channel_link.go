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
	st := getState(pc)
	var n *channelLinkNode
	if channel, topic, ok := strings.Cut(body, ">"); ok && channel != "" && topic != "" {
		c, found := st.lookup().ChannelByName(channel)
		if !found {
			return nil
		}
		base := "/#narrow/channel/" + encodeChannel(c.ID, channel) + "/topic/"
		if at := strings.LastIndexByte(topic, '@'); at > 0 && isDigits(topic[at+1:]) {
			t := topic[:at]
			n = &channelLinkNode{Class: "message-link", Href: base + hashEncode(t) + "/near/" + topic[at+1:], Label: "#" + channel + " > " + t + " @ 💬"}
		} else {
			n = &channelLinkNode{Class: "stream-topic", StreamID: c.ID, Href: base + hashEncode(topic), Label: "#" + channel + " > " + topic}
		}
	} else {
		c, found := st.lookup().ChannelByName(body)
		if !found {
			return nil
		}
		n = &channelLinkNode{Class: "stream", StreamID: c.ID, Href: "/#narrow/channel/" + encodeChannel(c.ID, body), Label: "#" + body}
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
	_, _ = w.WriteString(escapeText(n.Label) + "</a>")
	return ast.WalkSkipChildren, nil
}

// NarrowNearURL is the path-and-fragment of a link to one message in its
// topic, as Zulip writes it: /#narrow/channel/<id>-<name>/topic/<topic>/near/<message id>.
func NarrowNearURL(channelID int, channelName, topicName string, messageID int64) string {
	return "/#narrow/channel/" + encodeChannel(channelID, channelName) + "/topic/" + hashEncode(topicName) +
		"/near/" + strconv.FormatInt(messageID, 10)
}
