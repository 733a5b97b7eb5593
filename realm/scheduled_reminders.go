package realm

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/user"
)

// MaxReminderNoteLength bounds a reminder's note, in code points (Zulip's
// MAX_REMINDER_NOTE_LENGTH).
const MaxReminderNoteLength = 1000

// Reminder is a message reminder as the API returns it: a direct message
// the Notification Bot will send the user about one of their messages.
type Reminder struct {
	ID int `json:"reminder_id"`
	// Type is always "private".
	Type string `json:"type"`
	// To holds the user's own ID.
	To              []int  `json:"to"`
	Content         string `json:"content"`
	RenderedContent string `json:"rendered_content"`
	// ScheduledDeliveryTimestamp is in Unix seconds.
	ScheduledDeliveryTimestamp int64 `json:"scheduled_delivery_timestamp"`
	Failed                     bool  `json:"failed"`
	ReminderTargetMessageID    int64 `json:"reminder_target_message_id"`
}

// RemindersEvent is a reminders event, sent to the owner only: op "add"
// with Reminders, "remove" with ReminderID.
type RemindersEvent struct {
	Op         string     `json:"op"`
	Reminders  []Reminder `json:"reminders,omitempty"`
	ReminderID int        `json:"reminder_id,omitempty"`
}

// reminderView is the item as a reminder.
func (it *scheduledItem) reminderView() Reminder {
	return Reminder{ID: it.id, Type: "private", To: it.audience().UserIDs, Content: it.content,
		RenderedContent: it.rendered, ScheduledDeliveryTimestamp: it.deliverAt, Failed: it.failed,
		ReminderTargetMessageID: it.targetMessageID}
}

// Reminders answers GET /reminders: the caller's undelivered reminders
// (failed ones included), by delivery time.
func (a *Actor) Reminders(ctx context.Context) (list []Reminder, err error) {
	err = a.read(ctx, func(me *user.User) error {
		list = a.r.reminderList(me.ID)
		return nil
	})
	return list, err
}

func (r *Realm) reminderList(userID int) []Reminder {
	out := []Reminder{}
	for _, it := range r.itemsOf(userID, true) {
		out = append(out, it.reminderView())
	}
	return out
}

// CreateReminder answers POST /reminders: at deliverAt (Unix seconds, in
// the future) the Notification Bot sends the caller a direct message
// quoting message messageID, which the caller must have access to, with
// the note when one is given.
func (a *Actor) CreateReminder(ctx context.Context, messageID int64, deliverAt int64, note string) (id int, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if deliverAt <= r.clock.Now().Unix() {
			return errDeliveryNotInFuture()
		}
		m := r.accessibleMessage(me, messageID)
		if m == nil {
			return invalidMessage()
		}
		content, err := r.reminderContent(me, m, note)
		if err != nil {
			return err
		}
		it := &scheduledItem{kind: message.Direct, dmUserIDs: []int{me.ID}, content: content,
			rendered: r.renderAs(me, content).HTML, deliverAt: deliverAt, client: "Internal",
			reminder: true, targetMessageID: messageID, note: note}
		r.addScheduled(me, it)
		r.emit("reminders", RemindersEvent{Op: "add", Reminders: []Reminder{it.reminderView()}}, me.ID)
		id = it.id
		return nil
	})
	return id, err
}

// DeleteReminder answers DELETE /reminders/{id}.
func (a *Actor) DeleteReminder(ctx context.Context, id int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		it := r.scheduled.byID[id]
		if it == nil || it.senderID != me.ID || !it.reminder {
			return NotFound("Reminder does not exist")
		}
		delete(r.scheduled.byID, id)
		if it.deliverAt == r.delivery.at {
			r.armDelivery()
		}
		r.emit("reminders", RemindersEvent{Op: "remove", ReminderID: id}, me.ID)
		return nil
	})
}

// reminderContent is the Markdown of a reminder about m for me, worded as
// Zulip words it: a header (with the note, quoted), who said it where with
// a link, then the message quoted (truncated to fit), or for a poll or a
// todo list a line naming the widget.
func (r *Realm) reminderContent(me *user.User, m *message.Message, note string) (string, error) {
	if note != "" {
		note = strings.TrimLeft(strings.TrimRightFunc(note, unicode.IsSpace), "\n")
		if utf8.RuneCountInString(note) > MaxReminderNoteLength {
			return "", BadRequest("Maximum reminder note length: %d characters", MaxReminderNoteLength)
		}
		if err := noNull("note", note); err != nil {
			return "", err
		}
	}
	sender := r.users.byID[m.SenderID]
	senderMention := silentMention(sender)
	id := strconv.FormatInt(m.ID, 10)
	var b strings.Builder
	widget := ""
	switch {
	case strings.HasPrefix(m.Content, "/poll"):
		widget = "poll"
	case strings.HasPrefix(m.Content, "/todo"):
		widget = "todo list"
	}
	if m.Type == message.Channel {
		ch := r.channels.byID[m.ChannelID]
		b.WriteString("You requested a reminder for the following message.")
		writeNote(&b, note)
		url := r.opts.URL + r.narrows().Near(ch.ID, ch.Name, m.Topic, m.ID)
		shown := m.Topic
		if shown == "" {
			shown = r.settings.EmptyTopicDisplayName
		}
		where := "[#" + ch.Name + " > " + shown + "](" + r.narrows().Topic(ch.ID, ch.Name, m.Topic) + "/with/" + id + ")"
		if widget != "" {
			b.WriteString(senderMention + " [sent](" + url + ") a " + widget + " in " + where + ".")
			return b.String(), nil
		}
		b.WriteString(senderMention + " [said](" + url + ") in " + where + ":\n")
	} else {
		b.WriteString("You requested a reminder for the following direct message.")
		writeNote(&b, note)
		url := r.opts.URL + "/" + markdown.DirectNarrow(m.DMUserIDs) + "/near/" + id
		if len(m.DMUserIDs) == 1 {
			if widget != "" {
				b.WriteString("You [sent](" + url + ") yourself a " + widget + ".")
				return b.String(), nil
			}
			b.WriteString("You [sent](" + url + ") a note to yourself:\n")
		} else {
			var others []*user.User
			for _, uid := range m.DMUserIDs {
				if uid != m.SenderID {
					others = append(others, r.users.byID[uid])
				}
			}
			to := mentionList(others)
			if widget != "" {
				b.WriteString(senderMention + " [sent](" + url + ") a " + widget + " to " + to + ".")
				return b.String(), nil
			}
			b.WriteString(senderMention + " [said](" + url + ") to " + to + ":\n")
		}
	}
	fence := unusedFence(m.Content)
	room := r.opts.Limits.MaxMessageLength - utf8.RuneCountInString(b.String()) - utf8.RuneCountInString(fence+"quote\n\n"+fence)
	b.WriteString(fence + "quote\n" + message.Truncate(m.Content, max(room, 0)) + "\n" + fence)
	return b.String(), nil
}

// writeNote adds a reminder's note to its header, quoted.
func writeNote(b *strings.Builder, note string) {
	if note != "" {
		b.WriteString(" Note:\n > " + note)
	}
	b.WriteString("\n\n")
}

// mentionList is silent mentions of the users in a list: "A", "A and B",
// "A, B, and C".
func mentionList(users []*user.User) string {
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = silentMention(u)
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
}

// fenceLine finds fences of backticks at the start of lines.
var fenceLine = regexp.MustCompile("(?m)^ {0,3}(`{3,})")

// unusedFence is a backtick fence longer than any in content, so quoting
// content inside it cannot end the quote early.
func unusedFence(content string) string {
	n := 3
	for _, f := range fenceLine.FindAllStringSubmatch(content, -1) {
		n = max(n, len(f[1])+1)
	}
	return strings.Repeat("`", n)
}
