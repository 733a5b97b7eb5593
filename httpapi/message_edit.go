package httpapi

import (
	"github.com/minizulip/minizulip/realm"
)

func messageEditRoutes() []route {
	return []route{
		{method: "PATCH", path: "/messages/{message_id}", h: editMessage},
		{method: "GET", path: "/messages/{message_id}/history", h: messageHistory},
		{method: "POST", path: "/streams/{stream_id}/delete_topic", h: deleteTopic, batched: true},
	}
}

func editMessage(c *call) (any, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	req := realm.UpdateMessageRequest{MessageID: int64(id)}
	if v, ok := c.p.str("content"); ok {
		req.Content = &v
	}
	if v, ok := c.p.str("topic"); ok {
		req.Topic = &v
	} else if v, ok := c.p.str("subject"); ok {
		req.Topic = &v
	}
	if v, set, err := c.p.optInt("stream_id"); err != nil {
		return nil, err
	} else if set {
		req.ChannelID = &v
	}
	req.PropagateMode, _ = c.p.str("propagate_mode")
	if v, set, err := c.p.optBoolSet("send_notification_to_old_thread"); err != nil {
		return nil, err
	} else if set {
		req.SendNotificationToOldThread = &v
	}
	if v, set, err := c.p.optBoolSet("send_notification_to_new_thread"); err != nil {
		return nil, err
	} else if set {
		req.SendNotificationToNewThread = &v
	}
	if v, ok := c.p.str("prev_content_sha256"); ok {
		req.PrevContentSHA256 = &v
	}
	return c.actor.UpdateMessage(c.ctx(), req)
}

// messageHistoryResult is the answer of GET /messages/{id}/history.
type messageHistoryResult struct {
	MessageHistory []realm.MessageSnapshot `json:"message_history"`
}

func messageHistory(c *call) (any, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	allowEmpty, err := c.p.optBool("allow_empty_topic_name", false)
	if err != nil {
		return nil, err
	}
	h, err := c.actor.MessageHistory(c.ctx(), int64(id), allowEmpty)
	if err != nil {
		return nil, err
	}
	return messageHistoryResult{MessageHistory: h}, nil
}

func deleteTopic(c *call) (any, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	name, err := c.p.mustStr("topic_name")
	if err != nil {
		return nil, err
	}
	res, err := c.actor.DeleteTopic(c.ctx(), id, name)
	if err != nil {
		return nil, err
	}
	return batchedAnswer(c, res.Complete, res), nil
}
