package httpapi

import "github.com/minizulip/minizulip/realm"

func scheduledMessageRoutes() []route {
	return []route{
		{method: "GET", path: "/scheduled_messages", h: listScheduledMessages},
		{method: "POST", path: "/scheduled_messages", h: createScheduledMessage},
		{method: "PATCH", path: "/scheduled_messages/{scheduled_message_id}", h: editScheduledMessage},
		{method: "DELETE", path: "/scheduled_messages/{scheduled_message_id}", h: deleteScheduledMessage},
	}
}

// scheduledMessagesAnswer is the body of GET /scheduled_messages.
type scheduledMessagesAnswer struct {
	ScheduledMessages []realm.ScheduledMessage `json:"scheduled_messages"`
}

func listScheduledMessages(c *call) (any, error) {
	list, err := c.actor.ScheduledMessages(c.ctx())
	if err != nil {
		return nil, err
	}
	return scheduledMessagesAnswer{ScheduledMessages: list}, nil
}

// scheduledMessageID is the body of POST /scheduled_messages.
type scheduledMessageID struct {
	ScheduledMessageID int `json:"scheduled_message_id"`
}

// scheduledTopic reads topic, or its legacy alias subject.
func scheduledTopic(c *call) *string {
	if t, ok := c.p.str("topic"); ok {
		return &t
	}
	if t, ok := c.p.str("subject"); ok {
		return &t
	}
	return nil
}

func createScheduledMessage(c *call) (any, error) {
	var in realm.ScheduledMessageInput
	var err error
	if in.Type, err = c.p.mustStr("type"); err != nil {
		return nil, err
	}
	if in.To, err = c.p.mustStr("to"); err != nil {
		return nil, err
	}
	if in.Content, err = c.p.mustStr("content"); err != nil {
		return nil, err
	}
	at, err := c.p.mustInt("scheduled_delivery_timestamp")
	if err != nil {
		return nil, err
	}
	in.DeliverAt = int64(at)
	if v, set, err := c.p.optBoolSet("read_by_sender"); err != nil {
		return nil, err
	} else if set {
		in.ReadBySender = &v
	}
	in.Topic = scheduledTopic(c)
	clientParam, _ := c.p.str("client")
	in.Client = clientName(clientParam, c.req)
	id, err := c.actor.CreateScheduledMessage(c.ctx(), in)
	if err != nil {
		return nil, err
	}
	return scheduledMessageID{ScheduledMessageID: id}, nil
}

func editScheduledMessage(c *call) (any, error) {
	id, err := c.pathInt("scheduled_message_id")
	if err != nil {
		return nil, err
	}
	var e realm.ScheduledMessageUpdate
	if v, ok := c.p.str("type"); ok {
		e.Type = &v
	}
	if v, ok := c.p.str("to"); ok {
		e.To = &v
	}
	if v, ok := c.p.str("content"); ok {
		e.Content = &v
	}
	e.Topic = scheduledTopic(c)
	if at, set, err := c.p.optInt("scheduled_delivery_timestamp"); err != nil {
		return nil, err
	} else if set {
		ts := int64(at)
		e.DeliverAt = &ts
	}
	clientParam, _ := c.p.str("client")
	e.Client = clientName(clientParam, c.req)
	return nil, c.actor.UpdateScheduledMessage(c.ctx(), id, e)
}

func deleteScheduledMessage(c *call) (any, error) {
	id, err := c.pathInt("scheduled_message_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteScheduledMessage(c.ctx(), id)
}
