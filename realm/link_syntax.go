package realm

import (
	"regexp"
	"strconv"
)

// brokenLinkChars are what Zulip's #**channel>topic@id** syntax cannot
// hold; names with them are linked with plain Markdown instead.
var brokenLinkChars = regexp.MustCompile("[`>*&\\[\\]]|\\$\\$")

// brokenLinkEscapes are the HTML entities that stand for those characters
// in a plain link's text.
var brokenLinkEscapes = map[string]string{
	"`": "&#96;", ">": "&gt;", "*": "&#42;", "&": "&amp;", "$$": "&#36;&#36;", "[": "&#91;", "]": "&#93;",
}

// channelLinkSyntax is Zulip's Markdown link to a channel
// (get_stream_link_syntax): #**channel**, or a plain Markdown link when
// the name holds a character that syntax cannot.
func (r *Realm) channelLinkSyntax(ch *storedChannel) string {
	if !brokenLinkChars.MatchString(ch.Name) {
		return "#**" + ch.Name + "**"
	}
	return "[#" + escapeBrokenLink(ch.Name) + "](" + r.narrows().Channel(ch.ID, ch.Name) + ")"
}

// escapeBrokenLink writes the characters #** links cannot hold as HTML
// entities, for a plain link's text.
func escapeBrokenLink(s string) string {
	return brokenLinkChars.ReplaceAllStringFunc(s, func(x string) string { return brokenLinkEscapes[x] })
}

// topicLinkSyntax is Zulip's Markdown link to a topic, or with a message
// ID (not 0) to a message in it: #**channel>topic** (@id), or, when a name
// holds a character that syntax cannot, a plain Markdown link whose text
// shows the empty topic under emptyTopicName.
func (r *Realm) topicLinkSyntax(ch *storedChannel, topicName string, id int64, emptyTopicName string) string {
	near := ""
	if id != 0 {
		near = "@" + strconv.FormatInt(id, 10)
	}
	if !brokenLinkChars.MatchString(ch.Name) && !brokenLinkChars.MatchString(topicName) {
		return "#**" + ch.Name + ">" + topicName + near + "**"
	}
	escape := escapeBrokenLink
	shown := topicName
	if shown == "" {
		shown = emptyTopicName
	}
	text, url := "#"+escape(ch.Name)+" > "+escape(shown), r.narrows().Topic(ch.ID, ch.Name, topicName)
	if id != 0 {
		text, url = text+" @ 💬", url+"/near/"+strconv.FormatInt(id, 10)
	}
	return "[" + text + "](" + url + ")"
}
