package realm

import (
	"slices"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// Scheduled messages and reminders are delivered by one timer on the
// realm's clock, set for the earliest pending delivery: a manual clock's
// Advance (or POST /minizulip/clock) passing that time delivers
// everything due before it returns; the system clock delivers on time.
// The timer is not state: every change to the scheduled items sets it
// again (armDelivery), and so do Restore and Fork for the items they
// bring.

// deliveryTimer is the pending delivery timer and the time it is set for.
type deliveryTimer struct {
	timer Timer
	at    int64 // Unix seconds
}

// stop cancels the pending timer, if any.
func (d *deliveryTimer) stop() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
}

// armDelivery sets the delivery timer for the earliest item not yet
// failed, or stops it when there is none. The caller holds the write lock.
func (r *Realm) armDelivery() {
	var next *scheduledItem
	for _, it := range r.scheduled.byID {
		if !it.failed && (next == nil || compareDelivery(it, next) < 0) {
			next = it
		}
	}
	if next == nil {
		r.delivery.stop()
		return
	}
	if r.delivery.timer != nil && r.delivery.at == next.deliverAt {
		return
	}
	r.delivery.stop()
	wait := time.Unix(next.deliverAt, 0).Sub(r.clock.Now())
	r.delivery.at, r.delivery.timer = next.deliverAt, r.clock.AfterFunc(wait, r.deliverDue)
}

// deliverDue delivers, in order of delivery time, every item due by the
// realm's clock, then sets the timer for the next. It runs from the
// clock's timer; a late or repeated call delivers only what is due.
func (r *Realm) deliverDue() {
	_ = r.update(func() error {
		r.delivery.stop()
		now := r.clock.Now().Unix()
		var due []*scheduledItem
		for _, it := range r.scheduled.byID {
			if !it.failed && it.deliverAt <= now {
				due = append(due, it)
			}
		}
		slices.SortFunc(due, compareDelivery)
		for _, it := range due {
			r.deliver(it)
		}
		r.armDelivery()
		return nil
	})
}

// deliver sends one due item as its sender. A sent item leaves the list
// (remove event to the sender); a refused one stays, marked failed. For
// a scheduled message whose sender is still active, the failure is told
// as Zulip tells it: an update event and a Notification Bot message
// quoting the error. Reminders fail silently. The caller holds the write
// lock.
func (r *Realm) deliver(it *scheduledItem) {
	sender := r.users.byID[it.senderID]
	var err *Error
	switch {
	case sender == nil || !sender.IsActive:
		err = BadRequest("Account is deactivated")
	case it.reminder:
		err = r.sendReminder(sender, it)
	default:
		err = r.sendScheduled(sender, it)
	}
	if err == nil {
		delete(r.scheduled.byID, it.id)
		if it.reminder {
			r.emit("reminders", RemindersEvent{Op: "remove", ReminderID: it.id}, it.senderID)
		} else {
			r.emit("scheduled_messages", ScheduledMessagesEvent{Op: "remove", ScheduledMessageID: it.id}, it.senderID)
		}
		return
	}
	it.failed, it.failure = true, err.Msg
	if it.reminder || sender == nil || !sender.IsActive {
		return
	}
	v := it.view()
	r.emit("scheduled_messages", ScheduledMessagesEvent{Op: "update", ScheduledMessage: &v}, it.senderID)
	r.sendBotDirect(sender, failedScheduledNotice(it.deliverAt, it.failure))
}

// failedScheduledNotice is the Notification Bot's message about a
// scheduled message that could not be sent, as Zulip's
// send_failed_scheduled_message_notification words it: the delivery time
// as Python prints a datetime (a space before the time), in a <time:>
// tag followed by a space, then the error quoted.
func failedScheduledNotice(deliverAt int64, failure string) string {
	when := time.Unix(deliverAt, 0).UTC().Format("2006-01-02 15:04:05+00:00")
	return "The message you scheduled for <time:" + when + ">  was not sent because of the following error:\n\n> " +
		failure + "\n\n[View scheduled messages](#scheduled)"
}

// sendScheduled sends a scheduled message through the send path, checked
// again as of now (the channel, the recipients, permissions and mentions
// may have changed since it was scheduled).
func (r *Realm) sendScheduled(sender *user.User, it *scheduledItem) *Error {
	req := it.sendRequest()
	p, err := r.checkSendNow(sender, it.kind, req)
	if err == nil {
		_, err = r.commitSend(sender, p, req)
	}
	return asRealmError(err)
}

// sendReminder has the Notification Bot send the reminder: worded anew
// when the user can still see the message, as scheduled otherwise.
func (r *Realm) sendReminder(sender *user.User, it *scheduledItem) *Error {
	content := it.content
	if m := r.accessibleMessage(sender, it.targetMessageID); m != nil {
		if fresh, err := r.reminderContent(sender, m, it.note); err == nil {
			content = fresh
		}
	}
	if r.sendBotDirect(sender, content) == 0 {
		return BadRequest("Reminder could not be sent.")
	}
	return nil
}

// asRealmError is err as a realm error (a generic one for anything else).
func asRealmError(err error) *Error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	return BadRequest("Internal server error")
}

// sendBotDirect has the Notification Bot send a direct message to u,
// unread for u, and returns its ID (0 when the realm has no Notification
// Bot). The caller holds the write lock.
func (r *Realm) sendBotDirect(u *user.User, content string) int64 {
	return r.sendDirectFrom(notificationBotEmail, u, content)
}

// sendDirectFrom has the system bot with botEmail send a direct message
// to u, as sendBotDirect does for the Notification Bot.
func (r *Realm) sendDirectFrom(botEmail string, u *user.User, content string) int64 {
	return r.sendDirectFlagged(botEmail, u, content, 0)
}

// sendDirectFlagged is sendDirectFrom with extra flags (starred…) for u.
func (r *Realm) sendDirectFlagged(botEmail string, u *user.User, content string, extra message.Flags) int64 {
	bot := r.users.byEmail[user.NormalizeEmail(botEmail)]
	if bot == nil {
		return 0
	}
	content, err := message.NormalizeContent(content, r.opts.Limits.MaxMessageLength)
	if err != nil {
		return 0
	}
	ids := []int{bot.ID, u.ID}
	slices.Sort(ids)
	conv := r.conversationFor(slices.Compact(ids))
	rendered := r.renderAs(bot, content)
	m := &message.Message{
		Type: message.Direct, SenderID: bot.ID, DMUserIDs: conv.userIDs, RecipientID: r.dmRecipientID(conv, bot.ID),
		Content: content, Rendered: rendered.HTML, Facts: factsOf(rendered),
		Timestamp: r.clock.Now().Unix(), Client: "Internal",
	}
	mentions, _ := r.checkMentions(rendered, bot.ID, nil, "", conv.userIDs)
	r.storeMessage(m, conv, conv.userIDs, func(uid int) message.Flags {
		flags := mentions.of(uid)
		if uid == bot.ID {
			flags |= message.Read
		} else if uid == u.ID {
			flags |= extra
		}
		return flags
	}, "", "")
	return m.ID
}

// rearmAfterCopy sets the delivery timer for the items a restore or fork
// brought (a restored or forked realm delivers exactly those). The caller
// holds the write lock.
func (r *Realm) rearmAfterCopy() {
	r.delivery.stop()
	r.armDelivery()
	r.armFullMembers()
}
