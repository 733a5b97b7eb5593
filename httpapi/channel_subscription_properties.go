package httpapi

import (
	"encoding/json"

	"github.com/minizulip/minizulip/realm"
)

func subscriptionPropertyRoutes() []route {
	return []route{
		{method: "POST", path: "/users/me/subscriptions/properties", h: updateSubscriptionProperties},
		{method: "PATCH", path: "/users/me/subscriptions", h: updateSubscriptions},
	}
}

// updateSubscriptionProperties reads subscription_data: a list of
// {stream_id, property, value} objects, value a string or a boolean.
func updateSubscriptionProperties(c *call) (any, error) {
	items, err := jsonList(c, "subscription_data")
	if err != nil {
		return nil, err
	}
	changes := make([]realm.SubscriptionPropertyChange, len(items))
	for i, raw := range items {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || obj == nil {
			return nil, realm.BadRequest("subscription_data[%d] is not a dict", i)
		}
		for _, key := range []string{"stream_id", "property", "value"} {
			if _, ok := obj[key]; !ok {
				return nil, realm.BadRequest("%s key is missing from subscription_data[%d]", key, i)
			}
		}
		if json.Unmarshal(obj["stream_id"], &changes[i].ChannelID) != nil {
			return nil, realm.BadRequest(`subscription_data[%d]["stream_id"] is not an integer`, i)
		}
		if json.Unmarshal(obj["property"], &changes[i].Property) != nil {
			return nil, realm.BadRequest(`subscription_data[%d]["property"] is not a string`, i)
		}
		var str string
		var b bool
		switch {
		case json.Unmarshal(obj["value"], &str) == nil:
			changes[i].Value = str
		case json.Unmarshal(obj["value"], &b) == nil:
			changes[i].Value = b
		default:
			return nil, realm.BadRequest(`subscription_data[%d]["value"] is not an allowed_type`, i)
		}
	}
	return nil, c.actor.UpdateSubscriptionProperties(c.ctx(), changes)
}

// updateSubscriptions reads the optional add (objects as in subscribe)
// and delete (channel names) lists.
func updateSubscriptions(c *call) (any, error) {
	var req realm.UpdateSubscriptionsRequest
	var err error
	if c.p.has("add") {
		if req.Add, err = channelSpecsParam(c, "add"); err != nil {
			return nil, err
		}
	}
	if c.p.has("delete") {
		items, err := jsonList(c, "delete")
		if err != nil {
			return nil, err
		}
		req.Delete = make([]string, len(items))
		for i, raw := range items {
			if json.Unmarshal(raw, &req.Delete[i]) != nil {
				return nil, realm.BadRequest("delete[%d] is not a string", i)
			}
		}
	}
	return c.actor.UpdateSubscriptions(c.ctx(), req)
}
