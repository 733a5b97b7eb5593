package httpapi

import "github.com/minizulip/minizulip/realm"

func submessageRoutes() []route {
	return []route{
		{method: "POST", path: "/submessage", h: addSubmessage},
	}
}

// addSubmessage is POST /submessage: content (JSON text), message_id and
// msg_type, all required, checked in Zulip's order.
func addSubmessage(c *call) (any, error) {
	content, err := c.p.mustStr("content")
	if err != nil {
		return nil, err
	}
	id, err := c.p.mustInt("message_id")
	if err != nil {
		return nil, err
	}
	msgType, err := c.p.mustStr("msg_type")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.AddSubmessage(c.ctx(), realm.SubmessageRequest{MessageID: int64(id), MsgType: msgType, Content: content})
}
