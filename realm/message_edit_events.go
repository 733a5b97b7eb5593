package realm

import (
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// UpdateMessageEvent reports an edit or a move (update_message). Fields
// of the parts an edit did not change are absent.
type UpdateMessageEvent struct {
	UserID        int     `json:"user_id"`
	EditTimestamp int64   `json:"edit_timestamp"`
	MessageID     int64   `json:"message_id"`
	MessageIDs    []int64 `json:"message_ids"`
	// Flags are the receiving user's flags on MessageID.
	Flags         []string `json:"flags"`
	RenderingOnly bool     `json:"rendering_only"`
	// StreamID and StreamName name the original channel (channel messages).
	StreamID   int    `json:"stream_id,omitempty"`
	StreamName string `json:"stream_name,omitempty"`
	// Content edits.
	OrigContent         *string `json:"orig_content,omitempty"`
	OrigRenderedContent *string `json:"orig_rendered_content,omitempty"`
	// PrevRenderedContentVersion is the Markdown processor's version of
	// the content before the edit (always 1), below
	// changePrevRenderedVersionRemoved.
	PrevRenderedContentVersion *int    `json:"prev_rendered_content_version,omitempty"`
	Content                    *string `json:"content,omitempty"`
	RenderedContent            *string `json:"rendered_content,omitempty"`
	IsMeMessage                *bool   `json:"is_me_message,omitempty"`
	// Moves.
	PropagateMode string      `json:"propagate_mode,omitempty"`
	OrigSubject   *string     `json:"orig_subject,omitempty"`
	Subject       *string     `json:"subject,omitempty"`
	TopicLinks    []TopicLink `json:"topic_links,omitzero"`
	NewStreamID   int         `json:"new_stream_id,omitempty"`
}

// emitUpdateMessage sends the update_message event to those who should
// hear of the edit: every holder of a copy of the target message, with
// their flags on it, and, for channels with shared history, the other
// subscribers of the original channel (flagged read), except users who
// lost access by the move. Clients without the empty_topic_name
// capability see the empty topic by its display name.
func (r *Realm) emitUpdateMessage(p *editPlan, ev *UpdateMessageEvent, losing []int) {
	m := p.target
	byFlags := map[message.Flags][]int{}
	held := map[int]bool{}
	for uid, u := range r.users.byID {
		if c, ok := r.messages.store.Copy(uid, m.ID); ok && u.IsActive {
			byFlags[c.Flags] = append(byFlags[c.Flags], uid)
			held[uid] = true
		}
	}
	if ch := p.oldChan; ch != nil && ch.HistoryPublicToSubscribers {
		for _, uid := range r.subscriberIDs(ch.ID) {
			if u := r.users.byID[uid]; u != nil && u.IsActive && !held[uid] && !slices.Contains(losing, uid) {
				byFlags[message.Read] = append(byFlags[message.Read], uid)
			}
		}
	}
	flagSets := make([]message.Flags, 0, len(byFlags))
	for f := range byFlags {
		flagSets = append(flagSets, f)
	}
	slices.Sort(flagSets)
	rules := r.topicRules()
	emptyTopic := (ev.OrigSubject != nil && *ev.OrigSubject == "") || (ev.Subject != nil && *ev.Subject == "")
	for _, f := range flagSets {
		uids := byFlags[f]
		slices.Sort(uids)
		e := *ev
		e.Flags = flagNames(f, r.has(changeWildcardMentionFlags))
		if !emptyTopic {
			r.emit("update_message", e, uids...)
			continue
		}
		legacy := e
		if e.OrigSubject != nil {
			legacy.OrigSubject = ptr(rules.Display(*e.OrigSubject, false))
		}
		if e.Subject != nil {
			legacy.Subject = ptr(rules.Display(*e.Subject, false))
		}
		r.emitChange(&change{typ: "update_message", payload: e,
			filter: func(q *Queue) bool { return q.Config().opts.Capabilities.EmptyTopicName }}, uids)
		r.emitChange(&change{typ: "update_message", payload: legacy,
			filter: func(q *Queue) bool { return !q.Config().opts.Capabilities.EmptyTopicName }}, uids)
	}
}

func ptr[T any](v T) *T { return &v }

// sendMoveNotices posts the Notification Bot's messages about a move, as
// Zulip words them: the resolve/unresolve notice, then the "moved here"
// notice in the new topic and the "moved to" notice in the old one, each
// as the request asked.
func (r *Realm) sendMoveNotices(me *user.User, p *editPlan, oldTopic, newTopic string, movedAll bool) {
	dest := p.oldChan
	if p.newChan != nil {
		dest = p.newChan
	}
	who := silentMention(me)
	resolveNotice := int64(0)
	if p.newTopic != nil && p.content == nil && p.resolution != topic.NotResolution {
		text := who + " has marked this topic as resolved."
		if p.resolution == topic.Unresolves {
			text = who + " has marked this topic as unresolved."
		}
		resolveNotice = r.sendNotice(dest, newTopic, text, r.resolvedNoticeUnreadFor(me, p, dest, oldTopic, newTopic))
	}
	n := len(p.moved)
	count := strconv.Itoa(n)
	if p.notifyNew && (p.newChan != nil || resolveNotice == 0 ||
		strings.TrimLeft(oldTopic, topic.ResolvedPrefix) != strings.TrimLeft(newTopic, topic.ResolvedPrefix)) {
		from := r.topicLinkSyntax(p.oldChan, oldTopic, 0, r.settings.EmptyTopicDisplayName)
		except := map[int64]bool{resolveNotice: true}
		for _, x := range p.moved {
			except[x.ID] = true
		}
		var text string
		switch {
		case movedAll && !r.anyVisibleInTopic(me, dest, newTopic, except):
			text = "This topic was moved here from " + from + " by " + who + "."
		case n == 1:
			link := r.opts.URL + r.narrows().Near(dest.ID, dest.Name, newTopic, p.target.ID)
			text = "[A message](" + link + ") was moved here from " + from + " by " + who + "."
		default:
			text = count + " messages were moved here from " + from + " by " + who + "."
		}
		r.sendNotice(dest, newTopic, text, nil)
	}
	if p.notifyOld {
		to := r.topicLinkSyntax(dest, newTopic, 0, r.settings.EmptyTopicDisplayName)
		var text string
		switch {
		case movedAll:
			text = "This topic was moved to " + to + " by " + who + "."
		case n == 1:
			text = "A message was moved from this topic to " + to + " by " + who + "."
		default:
			text = count + " messages were moved from this topic to " + to + " by " + who + "."
		}
		r.sendNotice(p.oldChan, oldTopic, text, nil)
	}
}

// silentMention mentions a user without notifying them.
func silentMention(u *user.User) string {
	return "@_**" + u.FullName + "|" + strconv.Itoa(u.ID) + "**"
}

// notificationBotEmail is the system bot that posts notices.
const notificationBotEmail = "notification-bot@zulip.com"

// sendNotice posts a Notification Bot message to a topic and returns its
// ID (0 when the realm has no Notification Bot). With unreadFor set, the
// message is unread only for those users; otherwise for every recipient.
// The caller holds the write lock.
func (r *Realm) sendNotice(ch *storedChannel, topicName, content string, unreadFor map[int]bool) int64 {
	bot := r.users.byEmail[user.NormalizeEmail(notificationBotEmail)]
	if bot == nil {
		return 0
	}
	rendered := r.renderer.RenderFor(content, markdown.Context{Lookup: r.lookupFor(bot),
		EmptyTopicName: r.settings.EmptyTopicDisplayName})
	m := &message.Message{
		Type: message.Channel, SenderID: bot.ID, ChannelID: ch.ID, RecipientID: ch.RecipientID,
		Topic: topicName, Content: content, Rendered: rendered.HTML, Facts: factsOf(rendered),
		Timestamp: r.clock.Now().Unix(), Client: "Internal",
	}
	recipients := r.subscriberIDs(ch.ID)
	mentions, _ := r.checkMentions(rendered, bot.ID, ch, topicName, recipients)
	r.storeMessage(m, nil, recipients, func(uid int) message.Flags {
		flags := mentions.of(uid)
		if uid == bot.ID || (unreadFor != nil && !unreadFor[uid]) {
			flags |= message.Read
		}
		return flags
	}, "", "")
	return m.ID
}
