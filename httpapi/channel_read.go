package httpapi

import "github.com/minizulip/minizulip/realm"

func channelReadRoutes() []route {
	return []route{
		{method: "GET", path: "/streams/{stream_id}", h: getChannel},
		{method: "GET", path: "/streams/{stream_id}/members", h: getChannelSubscribers},
		{method: "GET", path: "/streams/{stream_id}/email_address", h: getChannelEmailAddress},
		{method: "GET", path: "/users/{user_id}/subscriptions/{stream_id}", h: getSubscriptionStatus},
		// Overlaps the subscription-status pattern (/users/me/subscriptions/topics
		// matches both); Zulip's stream IDs are digits, so no real path does.
		{method: "GET", path: "/users/me/{stream_id}/topics", h: getChannelTopics, overlaps: true, spectators: true},
	}
}

// streamAnswer is the body of GET /streams/{stream_id}.
type streamAnswer struct {
	Stream realm.Stream `json:"stream"`
}

func getChannel(c *call) (any, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	st, err := c.actor.Channel(c.ctx(), id)
	if err != nil {
		return nil, err
	}
	return streamAnswer{Stream: st}, nil
}

// subscribersAnswer is the body of GET /streams/{stream_id}/members.
type subscribersAnswer struct {
	Subscribers []int `json:"subscribers"`
}

func getChannelSubscribers(c *call) (any, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	ids, err := c.actor.ChannelSubscribers(c.ctx(), id)
	if err != nil {
		return nil, err
	}
	return subscribersAnswer{Subscribers: ids}, nil
}

// emailAddressAnswer is the body of GET /streams/{stream_id}/email_address.
type emailAddressAnswer struct {
	Email string `json:"email"`
}

func getChannelEmailAddress(c *call) (any, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	sender, _, err := c.p.optInt("sender_id")
	if err != nil {
		return nil, err
	}
	email, err := c.actor.ChannelEmailAddress(c.ctx(), id, sender)
	if err != nil {
		return nil, err
	}
	return emailAddressAnswer{Email: email}, nil
}

// subscriptionStatusAnswer is the body of GET
// /users/{user_id}/subscriptions/{stream_id}.
type subscriptionStatusAnswer struct {
	IsSubscribed bool `json:"is_subscribed"`
}

func getSubscriptionStatus(c *call) (any, error) {
	userID, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	channelID, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	subscribed, err := c.actor.IsSubscribed(c.ctx(), userID, channelID)
	if err != nil {
		return nil, err
	}
	return subscriptionStatusAnswer{IsSubscribed: subscribed}, nil
}

// topicsAnswer is the body of GET /users/me/{stream_id}/topics.
type topicsAnswer struct {
	Topics []realm.ChannelTopic `json:"topics"`
}

func getChannelTopics(c *call) (any, error) {
	req := realm.ChannelTopicsRequest{}
	var err error
	if req.ChannelID, err = c.pathInt("stream_id"); err != nil {
		return nil, err
	}
	if req.AllowEmptyTopicName, err = c.p.optBool("allow_empty_topic_name", false); err != nil {
		return nil, err
	}
	topics, err := c.reader().ChannelTopics(c.ctx(), req)
	if err != nil {
		return nil, err
	}
	return topicsAnswer{Topics: topics}, nil
}
