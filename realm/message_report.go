package realm

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// MaxReportDescriptionLength is the longest description a message report
// may carry, in characters (Zulip's MAX_REPORT_MESSAGE_EXPLANATION_LENGTH).
const MaxReportDescriptionLength = 1000

// reportSnippetSlack is the room Zulip keeps in a report's notice for
// everything but the reported message: the description and the template.
const reportSnippetSlack = 500

// moderationRequestChannelProperty is the setting's API name.
const moderationRequestChannelProperty = "moderation_request_channel_id"

// reportReasons maps each report_type Zulip accepts to the reason its
// notice names.
var reportReasons = map[string]string{
	"spam":          "Spam",
	"harassment":    "Harassment",
	"inappropriate": "Inappropriate content",
	"norms":         "Violates community norms",
	"other":         "Other reason",
}

// moderationRequestChannelValue is the setting as the API gives it: the
// channel's ID, or -1 when message reporting is off.
func (s *Settings) moderationRequestChannelValue() int {
	if s.ModerationRequestChannelID == 0 {
		return -1
	}
	return s.ModerationRequestChannelID
}

// setModerationRequestChannel checks a new moderation request channel
// (a negative ID turns reporting off) and puts it in s, noting the change
// in changes. As on Zulip, the channel must exist and be private.
func (r *Realm) setModerationRequestChannel(s *Settings, id int, changes RealmChanges) error {
	stored := 0
	if id >= 0 {
		ch := r.channels.byID[id]
		if ch == nil {
			return BadRequest("Invalid channel ID")
		}
		if !ch.InviteOnly {
			return BadRequest("Moderation request channel must be private.")
		}
		stored = id
	}
	if stored != s.ModerationRequestChannelID {
		s.ModerationRequestChannelID = stored
		changes[moderationRequestChannelProperty] = s.moderationRequestChannelValue()
	}
	return nil
}

// ReportMessage answers POST /messages/{message_id}/report: the
// Notification Bot posts a report of a message the caller may read to the
// realm's moderation request channel, in the topic "<sender's name>
// moderation". Checks come in Zulip's order: report_type, the
// description's length, a description for "other", reporting being on,
// then access to the message.
func (a *Actor) ReportMessage(ctx context.Context, messageID int64, reportType, description string) error {
	r := a.r
	reason, ok := reportReasons[reportType]
	if !ok {
		return BadRequest("Invalid report_type")
	}
	if utf8.RuneCountInString(description) > MaxReportDescriptionLength {
		return BadRequest("description is too long (limit: %d characters)", MaxReportDescriptionLength)
	}
	if reportType == "other" && description == "" {
		return BadRequest("An explanation is required.")
	}
	if err := noNull("description", description); err != nil {
		return err
	}
	return a.write(ctx, func(me *user.User) error {
		ch := r.channels.byID[r.settings.ModerationRequestChannelID]
		if ch == nil {
			return BadRequest("Message reporting is not enabled in this organization.")
		}
		m := r.accessibleMessage(me, messageID)
		if m == nil {
			return invalidMessage()
		}
		reported := r.users.byID[m.SenderID]
		content, err := message.NormalizeContent(r.reportContent(me, m, reason, description), r.opts.Limits.MaxMessageLength)
		if err != nil {
			return err
		}
		topicName := reported.FullName + " moderation"
		if ch.TopicsPolicy == "empty_topic_only" {
			topicName = ""
		}
		r.sendNotice(ch, topic.Normalize(topicName, r.opts.Limits.MaxTopicLength), content, nil)
		return nil
	})
}

// reportContent is the notice reporting m: who reported whose message,
// when and where; the reason and description, quoted; the message itself
// behind a spoiler.
func (r *Realm) reportContent(me *user.User, m *message.Message, reason, description string) string {
	reported := r.users.byID[m.SenderID]
	when := "<time:" + time.Unix(m.Timestamp, 0).UTC().Format("2006-01-02T15:04:05+00:00") + ">"
	header := silentMention(me) + " reported a message sent by " + silentMention(reported)
	var original string
	switch {
	case m.Type == message.Channel:
		ch := r.channels.byID[m.ChannelID]
		original = "Original message at " + r.topicLinkSyntax(ch, m.Topic, m.ID, r.settings.EmptyTopicDisplayName)
	case len(m.DMUserIDs) <= 2 && m.SenderID == me.ID:
		// Reporting one's own 1:1 message names its recipient.
		to := me
		for _, id := range m.DMUserIDs {
			if id != me.ID {
				to = r.users.byID[id]
			}
		}
		header += " to " + silentMention(to)
	case len(m.DMUserIDs) > 2:
		var others []*user.User
		for _, id := range m.DMUserIDs {
			if id != m.SenderID {
				others = append(others, r.users.byID[id])
			}
		}
		slices.SortFunc(others, func(a, b *user.User) int { return strings.Compare(silentMention(a), silentMention(b)) })
		header += " to " + mentionList(others)
	}
	header += " at " + when + "."
	if m.Type != message.Channel {
		original = "[Original message](" + r.opts.URL + "/" + markdown.DirectNarrow(m.DMUserIDs) + "/near/" +
			strconv.FormatInt(m.ID, 10) + ")"
	}
	snippet := message.Truncate(m.Content, r.opts.Limits.MaxMessageLength-MaxReportDescriptionLength-reportSnippetSlack)
	fence := unusedFence(snippet)
	return header + "\n```quote\n**" + reason + "**. " + description + "\n```\n\n" +
		fence + " spoiler " + original + "\n" + snippet + "\n" + fence + "\n"
}
