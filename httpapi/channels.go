package httpapi

import (
	"encoding/json"

	"github.com/minizulip/minizulip/realm"
)

func (s *Server) channelRoutes() []route {
	return []route{
		{method: "POST", path: "/users/me/subscriptions", h: subscribe},
		{method: "GET", path: "/users/me/subscriptions", h: listSubscriptions},
		{method: "DELETE", path: "/users/me/subscriptions", h: unsubscribe},
		{method: "GET", path: "/streams", h: listChannels},
		{method: "GET", path: "/get_stream_id", h: getChannelID},
	}
}

// principals reads the optional `principals` list: emails or user IDs.
func principals(c *call) (realm.Principals, error) {
	var p realm.Principals
	raw, ok := c.p.str("principals")
	if !ok {
		return p, nil
	}
	var ids []int
	if json.Unmarshal([]byte(raw), &ids) == nil {
		p.IDs = ids
		return p, nil
	}
	if err := json.Unmarshal([]byte(raw), &p.Emails); err != nil {
		if !json.Valid([]byte(raw)) {
			return p, realm.BadRequest("Argument \"principals\" is not valid JSON.")
		}
		return p, realm.BadRequest("principals is not a list of user IDs or emails")
	}
	return p, nil
}

func subscribe(c *call) (any, error) {
	var req realm.SubscribeRequest
	raw, err := c.p.mustStr("subscriptions")
	if err != nil {
		return nil, err
	}
	if !json.Valid([]byte(raw)) {
		return nil, realm.BadRequest("Argument \"subscriptions\" is not valid JSON.")
	}
	if err := json.Unmarshal([]byte(raw), &req.Channels); err != nil {
		return nil, realm.BadRequest("subscriptions is not a list of objects with a name")
	}
	if req.Principals, err = principals(c); err != nil {
		return nil, err
	}
	if req.InviteOnly, err = c.p.optBool("invite_only", false); err != nil {
		return nil, err
	}
	if v, set, err := c.p.optBoolSet("history_public_to_subscribers"); err != nil {
		return nil, err
	} else if set {
		req.HistoryPublicToSubscribers = &v
	}
	if req.IsWebPublic, err = c.p.optBool("is_web_public", false); err != nil {
		return nil, err
	}
	if req.Announce, err = c.p.optBool("announce", false); err != nil {
		return nil, err
	}
	if req.AuthorizationErrorsFatal, err = c.p.optBool("authorization_errors_fatal", true); err != nil {
		return nil, err
	}
	return c.actor.Subscribe(c.ctx(), req)
}

// subscriptionsAnswer is the body of GET /users/me/subscriptions.
type subscriptionsAnswer struct {
	Subscriptions []realm.SubscriptionView `json:"subscriptions"`
}

func listSubscriptions(c *call) (any, error) {
	include, err := c.p.optBool("include_subscribers", false)
	if err != nil {
		return nil, err
	}
	subs, err := c.actor.Subscriptions(c.ctx(), include)
	if err != nil {
		return nil, err
	}
	return subscriptionsAnswer{Subscriptions: subs}, nil
}

func unsubscribe(c *call) (any, error) {
	raw, err := c.p.mustStr("subscriptions")
	if err != nil {
		return nil, err
	}
	var names []string
	if !json.Valid([]byte(raw)) {
		return nil, realm.BadRequest("Argument \"subscriptions\" is not valid JSON.")
	}
	if err := json.Unmarshal([]byte(raw), &names); err != nil {
		return nil, realm.BadRequest("subscriptions is not a list")
	}
	p, err := principals(c)
	if err != nil {
		return nil, err
	}
	return c.actor.Unsubscribe(c.ctx(), names, p)
}

// streamsAnswer is the body of GET /streams.
type streamsAnswer struct {
	Streams []realm.Stream `json:"streams"`
}

func listChannels(c *call) (any, error) {
	q := realm.DefaultChannelsQuery()
	flags := []struct {
		name string
		dst  *bool
	}{
		{"include_public", &q.IncludePublic}, {"include_web_public", &q.IncludeWebPublic},
		{"include_subscribed", &q.IncludeSubscribed}, {"include_all", &q.IncludeAll},
		{"include_all_active", &q.IncludeAll}, {"include_default", &q.IncludeDefault},
		{"exclude_archived", &q.ExcludeArchived},
	}
	for _, f := range flags {
		v, err := c.p.optBool(f.name, *f.dst)
		if err != nil {
			return nil, err
		}
		*f.dst = v
	}
	if _, err := c.p.optBool("include_owner_subscribed", false); err != nil {
		return nil, err
	}
	streams, err := c.actor.Channels(c.ctx(), q)
	if err != nil {
		return nil, err
	}
	return streamsAnswer{Streams: streams}, nil
}

// streamIDAnswer is the body of GET /get_stream_id.
type streamIDAnswer struct {
	StreamID int `json:"stream_id"`
}

func getChannelID(c *call) (any, error) {
	name, err := c.p.mustStr("stream")
	if err != nil {
		return nil, err
	}
	id, err := c.actor.ChannelID(c.ctx(), name)
	if err != nil {
		return nil, err
	}
	return streamIDAnswer{StreamID: id}, nil
}
