package httpapi

import (
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

func flagRoutes() []route {
	return []route{
		{method: "POST", path: "/messages/flags", h: updateMessageFlags},
		{method: "POST", path: "/messages/flags/narrow", h: updateMessageFlagsForNarrow},
		{method: "POST", path: "/mark_all_as_read", h: markAllAsRead, batched: true},
		{method: "POST", path: "/mark_stream_as_read", h: markStreamAsRead},
		{method: "POST", path: "/mark_topic_as_read", h: markTopicAsRead},
	}
}

// flagOp reads the op and flag parameters, which the realm checks.
func flagOp(c *call) (op, flag string, err error) {
	if op, err = c.p.mustStr("op"); err != nil {
		return "", "", err
	}
	flag, err = c.p.mustStr("flag")
	return op, flag, err
}

func updateMessageFlags(c *call) (any, error) {
	ids, set, err := c.p.optIntList("messages")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("messages")
	}
	req := realm.FlagsRequest{Messages: make([]int64, len(ids))}
	for i, id := range ids {
		req.Messages[i] = int64(id)
	}
	if req.Op, req.Flag, err = flagOp(c); err != nil {
		return nil, err
	}
	return c.actor.UpdateMessageFlags(c.ctx(), req)
}

func updateMessageFlagsForNarrow(c *call) (any, error) {
	var req realm.FlagsNarrowRequest
	raw, ok := c.p.str("anchor")
	if !ok {
		return nil, realm.VariableMissing("anchor")
	}
	var err error
	if req.Anchor, err = realm.ParseAnchor(raw); err != nil {
		return nil, err
	}
	if req.IncludeAnchor, err = c.p.optBool("include_anchor", true); err != nil {
		return nil, err
	}
	if req.NumBefore, err = c.p.nonNegInt("num_before"); err != nil {
		return nil, err
	}
	if req.NumAfter, err = c.p.nonNegInt("num_after"); err != nil {
		return nil, err
	}
	rawNarrow, ok := c.p.str("narrow")
	if !ok {
		return nil, realm.VariableMissing("narrow")
	}
	if req.Narrow, err = message.ParseNarrow(rawNarrow); err != nil {
		return nil, realm.VariableInvalid("narrow", rawNarrow)
	}
	if req.Op, req.Flag, err = flagOp(c); err != nil {
		return nil, err
	}
	return c.actor.UpdateMessageFlagsForNarrow(c.ctx(), req)
}

func markAllAsRead(c *call) (any, error) {
	res, err := c.actor.MarkAllAsRead(c.ctx())
	if err != nil {
		return nil, err
	}
	return batchedAnswer(c, res.Complete, res), nil
}

// batchedAnswer is the answer of a batched request (mark_all_as_read,
// delete_topic) as a server of the advertised level sends it: from
// feature level 211 res, which says whether it is complete; below, a
// bare success, or Zulip's "partially_completed" result with code
// REQUEST_TIMEOUT when it stopped part way.
func batchedAnswer(c *call, complete bool, res any) any {
	switch {
	case c.actor.Realm().Has(realm.ChangeCompleteField):
		return res
	case complete:
		return nil
	}
	return partiallyCompleted{}
}

// partiallyCompleted is the answer of a batched request that stopped
// part way below feature level 211 (batchedAnswer).
type partiallyCompleted struct{}

func markStreamAsRead(c *call) (any, error) {
	id, err := c.p.mustInt("stream_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.MarkChannelAsRead(c.ctx(), id)
}

func markTopicAsRead(c *call) (any, error) {
	id, err := c.p.mustInt("stream_id")
	if err != nil {
		return nil, err
	}
	name, err := c.p.mustStr("topic_name")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.MarkTopicAsRead(c.ctx(), id, name)
}
