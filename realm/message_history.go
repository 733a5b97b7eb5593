package realm

import (
	"context"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// MessageSnapshot is one version of a message in GET
// /messages/{id}/history: its topic and content at the time, who made
// that version and when, and what the edit that made it changed.
type MessageSnapshot struct {
	UserID          int    `json:"user_id"`
	Timestamp       int64  `json:"timestamp"`
	Topic           string `json:"topic"`
	Content         string `json:"content"`
	RenderedContent string `json:"rendered_content"`
	// Content edits.
	PrevContent         *string `json:"prev_content,omitempty"`
	PrevRenderedContent *string `json:"prev_rendered_content,omitempty"`
	ContentHTMLDiff     *string `json:"content_html_diff,omitempty"`
	// Topic moves.
	PrevTopic *string `json:"prev_topic,omitempty"`
	// Channel moves.
	PrevStream int `json:"prev_stream,omitempty"`
	Stream     int `json:"stream,omitempty"`
}

// MessageHistory answers GET /messages/{message_id}/history: every
// version of a message the caller may read, oldest (as sent) first, as
// the realm's edit history policy shows them (edit_history_policy.go).
func (a *Actor) MessageHistory(ctx context.Context, id int64, allowEmptyTopicName bool) ([]MessageSnapshot, error) {
	r := a.r
	var out []MessageSnapshot
	err := a.read(ctx, func(me *user.User) error {
		if r.settings.EditHistoryPolicy == EditHistoryNone {
			return BadRequest("Message edit history is disabled in this organization")
		}
		m := r.accessibleMessage(me, id)
		if m == nil {
			return invalidMessage()
		}
		rules := r.topicRules()
		if m.Type != message.Channel {
			// A direct message's topic is "" in its history, never
			// the empty topic's display name (Zulip's
			// fill_edit_history_entries renames channel topics only).
			allowEmptyTopicName = true
		}
		topicName, content, rendered := m.Topic, m.Content, m.Rendered
		edits := m.Changes().Edits
		newestFirst := make([]MessageSnapshot, 0, edits.Len()+1)
		for _, e := range edits.NewestFirst() {
			s := MessageSnapshot{UserID: e.UserID, Timestamp: e.Timestamp,
				Topic: rules.Display(topicName, allowEmptyTopicName), Content: content, RenderedContent: rendered}
			if e.TopicChanged {
				topicName = e.PrevTopic
				s.PrevTopic = ptr(rules.Display(topicName, allowEmptyTopicName))
			}
			if e.ContentChanged {
				s.PrevContent, s.PrevRenderedContent = ptr(e.PrevContent), ptr(e.PrevRendered)
				s.ContentHTMLDiff = ptr(message.HTMLDiff(e.PrevRendered, rendered))
				content, rendered = e.PrevContent, e.PrevRendered
			}
			if e.ChannelChanged() {
				s.PrevStream, s.Stream = e.PrevChannelID, e.ChannelID
			}
			newestFirst = append(newestFirst, s)
		}
		newestFirst = append(newestFirst, MessageSnapshot{UserID: m.SenderID, Timestamp: m.Timestamp,
			Topic: rules.Display(topicName, allowEmptyTopicName), Content: content, RenderedContent: rendered})
		out = make([]MessageSnapshot, len(newestFirst))
		for i, s := range newestFirst {
			out[len(out)-1-i] = s
		}
		out = visibleHistory(r.settings.EditHistoryPolicy, out)
		return nil
	})
	return out, err
}
