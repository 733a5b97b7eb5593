package realm

import (
	"slices"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// Message is a message object as the API returns it.
type Message struct {
	ID               int64        `json:"id"`
	SenderID         int          `json:"sender_id"`
	Content          string       `json:"content"`
	RecipientID      int          `json:"recipient_id"`
	Timestamp        int64        `json:"timestamp"`
	Client           string       `json:"client"`
	Subject          string       `json:"subject"`
	TopicLinks       []TopicLink  `json:"topic_links"`
	IsMeMessage      bool         `json:"is_me_message"`
	Reactions        []Reaction   `json:"reactions"`
	Submessages      []Submessage `json:"submessages"`
	Flags            []string     `json:"flags,omitzero"`
	SenderFullName   string       `json:"sender_full_name"`
	SenderEmail      string       `json:"sender_email"`
	SenderRealmStr   string       `json:"sender_realm_str"`
	DisplayRecipient any          `json:"display_recipient"`
	Type             string       `json:"type"`
	StreamID         int          `json:"stream_id,omitempty"`
	AvatarURL        *string      `json:"avatar_url"`
	ContentType      string       `json:"content_type"`
	LastEditTS       *int64       `json:"last_edit_timestamp,omitempty"`
	LastMovedTS      *int64       `json:"last_moved_timestamp,omitempty"`
	// EditHistory lists the edits, newest first; absent if never edited.
	EditHistory []EditHistoryEntry `json:"edit_history,omitempty"`
	// MatchContent and MatchSubject are the rendered content and the
	// HTML-escaped topic with the search terms highlighted: only in
	// answers to a narrow with a search term (highlightSearch).
	MatchContent *string `json:"match_content,omitempty"`
	MatchSubject *string `json:"match_subject,omitempty"`
}

// highlightSearch sets v's match_content and match_subject for a narrow
// searching for terms, as Zulip adds them to every message of a search.
func (v *Message) highlightSearch(m *message.Message, terms []string) {
	if len(terms) == 0 {
		return
	}
	c, s := message.HighlightHTML(m.Rendered, terms), message.HighlightTopic(v.Subject, terms)
	v.MatchContent, v.MatchSubject = &c, &s
}

// EditHistoryEntry is one edit in a message object's edit_history: who
// and when, and the fields the edit changed.
type EditHistoryEntry struct {
	UserID              int     `json:"user_id"`
	Timestamp           int64   `json:"timestamp"`
	PrevContent         *string `json:"prev_content,omitempty"`
	PrevRenderedContent *string `json:"prev_rendered_content,omitempty"`
	// PrevRenderedContentVersion is the Markdown processor's version of
	// prev_rendered_content (Zulip's 1), sent below feature level 284.
	PrevRenderedContentVersion *int    `json:"prev_rendered_content_version,omitempty"`
	PrevTopic                  *string `json:"prev_topic,omitempty"`
	Topic                      *string `json:"topic,omitempty"`
	PrevStream                 int     `json:"prev_stream,omitempty"`
	Stream                     int     `json:"stream,omitempty"`
}

// TopicLink is a link a linkifier found in a topic name.
type TopicLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// Reaction is a reaction as the API returns it. User is the deprecated
// copy of the reacting user, sent below feature level 328.
type Reaction struct {
	EmojiName    string        `json:"emoji_name"`
	EmojiCode    string        `json:"emoji_code"`
	ReactionType string        `json:"reaction_type"`
	UserID       int           `json:"user_id"`
	User         *ReactionUser `json:"user,omitempty"`
}

// ReactionUser is the deprecated user object inside a reaction.
type ReactionUser struct {
	ID       int    `json:"id"`
	Email    string `json:"email"`
	FullName string `json:"full_name"`
}

// DisplayRecipientUser is one participant of a direct message.
type DisplayRecipientUser struct {
	ID            int    `json:"id"`
	Email         string `json:"email"`
	FullName      string `json:"full_name"`
	IsMirrorDummy bool   `json:"is_mirror_dummy"`
}

// ViewOptions choose how message objects are rendered for a client.
type ViewOptions struct {
	ApplyMarkdown       bool
	ClientGravatar      bool
	AllowEmptyTopicName bool
}

// realmStringID is the sender_realm_str of every message.
const realmStringID = "zulip"

// messageView builds the API object of m for viewer; flags are included
// when withFlags is set. The caller holds the lock.
func (r *Realm) messageView(viewer *user.User, m *message.Message, flags message.Flags, withFlags bool, o ViewOptions) Message {
	d := r.messageDirectory(viewer)
	d.add(r, m)
	return d.messageView(m, flags, withFlags, o)
}

// messageView builds the API object of m for the directory's viewer, from
// the directory and the message alone (the lock need not be held: stored
// messages never change). m must have been added to the directory.
func (d *messageDirectory) messageView(m *message.Message, flags message.Flags, withFlags bool, o ViewOptions) Message {
	v := Message{
		ID: m.ID, SenderID: m.SenderID, RecipientID: m.RecipientID, Timestamp: m.Timestamp,
		Client: m.Client, IsMeMessage: m.IsMeMessage, TopicLinks: d.topicLinks(m),
		Reactions: d.reactionViews(m), Submessages: submessageViews(m), SenderRealmStr: realmStringID,
		Type: m.Type.String(),
	}
	if sender := d.card(m.SenderID); sender != nil {
		v.SenderFullName, v.SenderEmail = sender.fullName, d.email(sender)
		v.AvatarURL = d.avatarURL(sender, o.ClientGravatar)
		if d.accessible != nil && !sender.isBot() && !d.accessible[m.SenderID] {
			// A sender the viewer may not access is "Unknown user", as
			// Zulip's MessageDict.finalize_payload shows it.
			avatar := inaccessibleUserAvatar
			v.SenderFullName, v.SenderEmail = InaccessibleUserName, user.FakeEmailIn(m.SenderID, d.env.fakeEmailDomain)
			v.AvatarURL = &avatar
		}
	}
	if o.ApplyMarkdown {
		v.Content, v.ContentType = m.Rendered, "text/html"
	} else {
		v.Content, v.ContentType = m.Content, "text/x-markdown"
	}
	if withFlags {
		v.Flags = flagNames(flags, d.env.has(changeWildcardMentionFlags))
	}
	changes := m.Changes()
	if changes.LastEditTS != 0 {
		ts := changes.LastEditTS
		v.LastEditTS = &ts
	}
	if changes.LastMovedTS != 0 && d.env.has(changeLastMovedTimestamp) {
		ts := changes.LastMovedTS
		v.LastMovedTS = &ts
	}
	if changes.Edits != nil && d.env.editHistoryPolicy != EditHistoryNone {
		// Under "none" Zulip leaves edit_history out of message objects.
		v.EditHistory = d.env.editHistoryView(changes.Edits, o)
	}
	if m.Type == message.Channel {
		v.StreamID = m.ChannelID
		v.DisplayRecipient = d.channelName(m.ChannelID)
		v.Subject = d.env.topics.Display(m.Topic, o.AllowEmptyTopicName)
	} else {
		v.DisplayRecipient = d.displayRecipients(m)
	}
	return v
}

// renderedContentVersion is Zulip's rendered_content_version, the
// version of the Markdown processor messages are rendered by.
var renderedContentVersion = 1

// editHistoryView lists a message's edits newest first, as message objects carry
// them.
func (e *viewEnv) editHistoryView(edits *message.EditLog, o ViewOptions) []EditHistoryEntry {
	out := make([]EditHistoryEntry, 0, edits.Len())
	moves := e.editHistoryPolicy == EditHistoryMoves
	for _, ed := range edits.NewestFirst() {
		if moves && !ed.TopicChanged && ed.PrevChannelID == 0 {
			// Under "moves" an edit of the content alone is left out, and
			// the others lose their content fields (Zulip's
			// visible_edit_history_for_message).
			continue
		}
		v := EditHistoryEntry{UserID: ed.UserID, Timestamp: ed.Timestamp, PrevStream: ed.PrevChannelID, Stream: ed.ChannelID}
		if ed.ContentChanged && !moves {
			v.PrevContent, v.PrevRenderedContent = &ed.PrevContent, &ed.PrevRendered
			if !e.has(changePrevRenderedVersionRemoved) {
				v.PrevRenderedContentVersion = &renderedContentVersion
			}
		}
		if ed.TopicChanged {
			v.PrevTopic = ptr(e.topics.Display(ed.PrevTopic, o.AllowEmptyTopicName))
			v.Topic = ptr(e.topics.Display(ed.Topic, o.AllowEmptyTopicName))
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil // nothing the policy shows: no edit_history
	}
	return out
}

// Shared empty lists: most messages have no links, submessages or reactions.
var (
	noTopicLinks  = []TopicLink{}
	noSubmessages = []Submessage{}
	noReactions   = []Reaction{}
)

// reactionViews lists m's reactions in the order they were made.
func (d *messageDirectory) reactionViews(m *message.Message) []Reaction {
	reactions := m.Changes().Reactions
	if len(reactions) == 0 {
		return noReactions
	}
	out := make([]Reaction, 0, len(reactions))
	for _, re := range reactions {
		rv := Reaction{EmojiName: re.EmojiName, EmojiCode: re.EmojiCode, ReactionType: d.env.reactionTypeName(re.ReactionType),
			UserID: re.UserID}
		if u := d.card(re.UserID); u != nil && d.withReactionUsers() {
			rv.User = &ReactionUser{ID: u.id, Email: d.email(u), FullName: u.fullName}
		}
		out = append(out, rv)
	}
	return out
}

// displayRecipients lists a direct message's participants: a 1:1 pair
// ordered by email, a self message as one entry, a group by user ID.
func (d *messageDirectory) displayRecipients(m *message.Message) []DisplayRecipientUser {
	out := make([]DisplayRecipientUser, 0, len(m.DMUserIDs))
	for _, id := range m.DMUserIDs {
		p := DisplayRecipientUser{ID: id}
		if u := d.card(id); u != nil {
			p.Email, p.FullName = d.email(u), u.fullName
		}
		out = append(out, p)
	}
	if len(out) == 2 {
		slices.SortFunc(out, func(a, b DisplayRecipientUser) int { return strings.Compare(a.Email, b.Email) })
	}
	return out
}

// avatarIsNull is whether avatar_url is null (see avatarIsNull on
// cards), from the users themselves.
func (r *Realm) avatarIsNull(viewer, target *user.User, clientGravatar bool) bool {
	return clientGravatar && target.AvatarSource == "G" && viewer != nil && r.canSeeDeliveryEmail(viewer, target)
}
