package httpapi

import (
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

func messageRoutes() []route {
	return []route{
		{method: "POST", path: "/messages", h: sendMessage, sends: true},
		{method: "GET", path: "/messages", h: getMessages, spectators: true},
		{method: "GET", path: "/messages/{message_id}", h: getMessage, spectators: true},
		{method: "DELETE", path: "/messages/{message_id}", h: deleteMessage},
		{method: "POST", path: "/messages/render", h: renderMessage},
		{method: "GET", path: "/messages/matches_narrow", h: messagesMatchNarrow},
		{method: "GET", path: "/messages/{message_id}/read_receipts", h: readReceipts},
	}
}

func sendMessage(c *call) (any, error) {
	typ, err := c.p.mustStr("type")
	if err != nil {
		return nil, err
	}
	rawTo, err := c.p.mustStr("to")
	if err != nil {
		return nil, err
	}
	to, ok := message.ParseTo(rawTo)
	if !ok {
		return nil, realm.BadRequest("Invalid recipient: %s", rawTo)
	}
	content, err := c.p.mustStr("content")
	if err != nil {
		return nil, err
	}
	req := realm.SendRequest{Type: typ, To: to, Content: content}
	if t, ok := c.p.str("topic"); ok {
		req.Topic = &t
	} else if t, ok := c.p.str("subject"); ok {
		req.Topic = &t
	}
	if v, ok := c.p.str("queue_id"); ok {
		req.QueueID = &v
	}
	if v, ok := c.p.str("local_id"); ok {
		req.LocalID = &v
	}
	if v, set, err := c.p.optBoolSet("read_by_sender"); err != nil {
		return nil, err
	} else if set {
		req.ReadBySender = &v
	}
	req.WidgetContent = c.p.optString("widget_content")
	clientParam, _ := c.p.str("client")
	req.Client = clientName(clientParam, c.req)
	return c.actor.SendMessage(c.ctx(), req)
}

// viewOptions reads apply_markdown, client_gravatar and
// allow_empty_topic_name.
func viewOptions(c *call) (realm.ViewOptions, error) {
	var o realm.ViewOptions
	var err error
	if o.ApplyMarkdown, err = c.p.optBool("apply_markdown", true); err != nil {
		return o, err
	}
	if o.ClientGravatar, err = c.p.optBool("client_gravatar", true); err != nil {
		return o, err
	}
	o.AllowEmptyTopicName, err = c.p.optBool("allow_empty_topic_name", false)
	return o, err
}

func getMessages(c *call) (any, error) {
	var req realm.FetchRequest
	var err error
	if req.View, err = viewOptions(c); err != nil {
		return nil, err
	}
	useFirstUnread, err := c.p.optBool("use_first_unread_anchor", false)
	if err != nil {
		return nil, err
	}
	byIDs := false
	if c.srv.realm.Has(realm.ChangeMessageIDsFetch) {
		if byIDs, err = messageIDsParam(c, &req); err != nil {
			return nil, err
		}
	}
	// The legacy use_first_unread_anchor=true wins over any anchor sent
	// with it (zulip-terminal sends anchor=0 beside it), as in Zulip. An
	// anchor beside message_ids is refused before it is read.
	raw, ok := c.p.str("anchor")
	switch {
	case useFirstUnread:
		req.Anchor = realm.Anchor{FirstUnread: true}
	case ok && !byIDs:
		if req.Anchor, err = realm.ParseAnchor(raw); err != nil {
			return nil, err
		}
	case !ok:
		req.NoAnchor = true
	}
	// num_before and num_after are required for a range, optional (and
	// then refused unless zero) beside message_ids; a range without an
	// anchor is refused for that first.
	for _, n := range []struct {
		name string
		dst  *int
	}{{"num_before", &req.NumBefore}, {"num_after", &req.NumAfter}} {
		if (byIDs || req.NoAnchor) && !c.p.has(n.name) {
			continue
		}
		if *n.dst, err = c.p.nonNegInt(n.name); err != nil {
			return nil, err
		}
	}
	if req.IncludeAnchor, err = c.p.optBool("include_anchor", true); err != nil {
		return nil, err
	}
	if raw, ok := c.p.str("narrow"); ok && raw != "" {
		if req.Narrow, err = message.ParseNarrow(raw); err != nil {
			return nil, realm.VariableInvalid("narrow", raw)
		}
	}
	res, err := c.reader().Messages(c.ctx(), req)
	if err != nil || !res.ByMessageIDs {
		return res, err
	}
	return messagesByIDAnswer{Messages: res.Messages, HistoryLimited: res.HistoryLimited}, nil
}

// messageIDsParam reads message_ids into req; null is no list, as in
// Zulip.
func messageIDsParam(c *call, req *realm.FetchRequest) (bool, error) {
	if raw, ok := c.p.str("message_ids"); !ok || strings.TrimSpace(raw) == "null" {
		return false, nil
	}
	ids, _, err := c.p.optIntList("message_ids")
	if err != nil {
		return false, err
	}
	req.MessageIDs = make([]int64, len(ids))
	for i, id := range ids {
		req.MessageIDs[i] = int64(id)
	}
	return true, nil
}

// messagesByIDAnswer is GET /messages's answer to message_ids: no anchor,
// and nothing found at either end.
type messagesByIDAnswer struct {
	Messages       []realm.Message `json:"messages"`
	FoundAnchor    bool            `json:"found_anchor"`
	FoundOldest    bool            `json:"found_oldest"`
	FoundNewest    bool            `json:"found_newest"`
	HistoryLimited bool            `json:"history_limited"`
}

// singleMessage is the answer of GET /messages/{id}.
type singleMessage struct {
	Message    realm.Message `json:"message"`
	RawContent string        `json:"raw_content"`
}

func getMessage(c *call) (any, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	o, err := viewOptions(c)
	if err != nil {
		return nil, err
	}
	m, raw, err := c.reader().Message(c.ctx(), int64(id), o)
	if err != nil {
		return nil, err
	}
	return singleMessage{Message: m, RawContent: raw}, nil
}

func deleteMessage(c *call) (any, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteMessage(c.ctx(), int64(id))
}

func renderMessage(c *call) (any, error) {
	content, err := c.p.mustStr("content")
	if err != nil {
		return nil, err
	}
	return c.actor.RenderMessage(c.ctx(), content)
}

// matchesNarrow is the answer of GET /messages/matches_narrow.
type matchesNarrow struct {
	Messages map[string]realm.NarrowMatch `json:"messages"`
}

func messagesMatchNarrow(c *call) (any, error) {
	if !c.p.has("msg_ids") {
		return nil, realm.VariableMissing("msg_ids")
	}
	ids, _, err := c.p.optIntList("msg_ids")
	if err != nil {
		return nil, err
	}
	raw, err := c.p.mustStr("narrow")
	if err != nil {
		return nil, err
	}
	narrow, err := message.ParseNarrow(raw)
	if err != nil {
		return nil, realm.VariableInvalid("narrow", raw)
	}
	msgIDs := make([]int64, len(ids))
	for i, id := range ids {
		msgIDs[i] = int64(id)
	}
	found, err := c.actor.MessagesMatchingNarrow(c.ctx(), msgIDs, narrow)
	return matchesNarrow{Messages: found}, err
}

// readReceiptsAnswer is the answer of GET /messages/{message_id}/read_receipts.
type readReceiptsAnswer struct {
	UserIDs []int `json:"user_ids"`
}

func readReceipts(c *call) (any, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	ids, err := c.actor.ReadReceipts(c.ctx(), int64(id))
	return readReceiptsAnswer{UserIDs: ids}, err
}
