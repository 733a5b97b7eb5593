package httpapi

import (
	"github.com/minizulip/minizulip/realm"
)

func eventRoutes() []route {
	return []route{
		{method: "GET", path: "/events", h: getEvents},
		{method: "DELETE", path: "/events", h: deleteQueue},
		{method: "POST", path: "/typing", h: setTyping},
		{method: "POST", path: "/messages/{message_id}/typing", h: setEditTyping},
		// The name the endpoint had at feature levels 351 to 360 (unknown
		// from 361 on: realm.HasEndpoint).
		{method: "POST", path: "/message_edit_typing", h: setEditTyping},
	}
}

// eventsAnswer is the body of GET /events; queue_id is there when the
// poll waited, as Zulip sends it.
type eventsAnswer struct {
	Events  []realm.Event `json:"events"`
	QueueID string        `json:"queue_id,omitempty"`
}

func getEvents(c *call) (any, error) {
	dontBlock, err := c.p.optBool("dont_block", false)
	if err != nil {
		return nil, err
	}
	queueID, ok := c.p.str("queue_id")
	if !ok {
		return nil, realm.BadRequest("Missing 'queue_id' argument")
	}
	lastID, set, err := c.p.optInt("last_event_id")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.BadRequest("Missing 'last_event_id' argument")
	}
	poll, err := c.actor.PollEvents(c.ctx(), realm.GetEventsRequest{QueueID: queueID, LastEventID: lastID, DontBlock: dontBlock})
	if err != nil {
		return nil, err
	}
	return eventsAnswer{Events: poll.Events, QueueID: poll.QueueID}, nil
}

func deleteQueue(c *call) (any, error) {
	queueID, err := c.p.mustStr("queue_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteQueue(c.ctx(), queueID)
}

func setTyping(c *call) (any, error) {
	var req realm.TypingRequest
	var err error
	req.Type, _ = c.p.str("type")
	if req.Op, err = c.p.mustStr("op"); err != nil {
		return nil, err
	}
	if req.To, _, err = c.p.optIntList("to"); err != nil {
		return nil, err
	}
	if req.StreamID, _, err = c.p.optInt("stream_id"); err != nil {
		return nil, err
	}
	if t, ok := c.p.str("topic"); ok {
		req.Topic = &t
	}
	return nil, c.actor.SetTyping(c.ctx(), req)
}

// setEditTyping is POST /messages/{message_id}/typing, and the older
// /message_edit_typing with message_id in the body.
func setEditTyping(c *call) (any, error) {
	var id int
	var err error
	if c.req.PathValue("message_id") != "" {
		id, err = c.pathInt("message_id")
	} else {
		id, err = c.p.mustInt("message_id")
	}
	if err != nil {
		return nil, err
	}
	op, err := c.p.mustStr("op")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.SetEditTyping(c.ctx(), int64(id), op)
}
