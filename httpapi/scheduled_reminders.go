package httpapi

import "github.com/minizulip/minizulip/realm"

func reminderRoutes() []route {
	return []route{
		{method: "GET", path: "/reminders", h: listReminders},
		{method: "POST", path: "/reminders", h: createReminder},
		{method: "DELETE", path: "/reminders/{reminder_id}", h: deleteReminder},
	}
}

// remindersAnswer is the body of GET /reminders.
type remindersAnswer struct {
	Reminders []realm.Reminder `json:"reminders"`
}

func listReminders(c *call) (any, error) {
	list, err := c.actor.Reminders(c.ctx())
	if err != nil {
		return nil, err
	}
	return remindersAnswer{Reminders: list}, nil
}

// reminderID is the body of POST /reminders.
type reminderID struct {
	ReminderID int `json:"reminder_id"`
}

func createReminder(c *call) (any, error) {
	messageID, err := c.p.mustInt("message_id")
	if err != nil {
		return nil, err
	}
	at, err := c.p.mustInt("scheduled_delivery_timestamp")
	if err != nil {
		return nil, err
	}
	note, _ := c.p.str("note")
	id, err := c.actor.CreateReminder(c.ctx(), int64(messageID), int64(at), note)
	if err != nil {
		return nil, err
	}
	return reminderID{ReminderID: id}, nil
}

func deleteReminder(c *call) (any, error) {
	id, err := c.pathInt("reminder_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteReminder(c.ctx(), id)
}
