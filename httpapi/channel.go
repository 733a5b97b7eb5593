package httpapi

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/realm"
)

func channelRoutes() []route {
	return []route{
		{method: "POST", path: "/users/me/subscriptions", h: subscribe},
		{method: "GET", path: "/users/me/subscriptions", h: listSubscriptions},
		{method: "DELETE", path: "/users/me/subscriptions", h: unsubscribe},
		{method: "GET", path: "/streams", h: listChannels},
		{method: "GET", path: "/get_stream_id", h: getChannelID},
	}
}

// channelGroupSettingParams are the group settings a new channel accepts.
var channelGroupSettingParams = realm.ChannelGroupSettingNames()

func subscribe(c *call) (any, error) {
	var req realm.SubscribeRequest
	var err error
	if req.Channels, err = channelSpecsParam(c, "subscriptions"); err != nil {
		return nil, err
	}
	if req.Principals, err = principals(c); err != nil {
		return nil, err
	}
	if err := newChannelSettings(c, &req); err != nil {
		return nil, err
	}
	if v, set, err := c.p.optBoolSet("authorization_errors_fatal"); err != nil {
		return nil, err
	} else if set {
		req.AuthorizationErrorsFatal = &v
	}
	return c.actor.Subscribe(c.ctx(), req)
}

// newChannelSettings reads the settings of channels a request creates
// (subscribe, POST /channels/create).
func newChannelSettings(c *call, req *realm.SubscribeRequest) error {
	var err error
	for _, f := range []struct {
		name string
		dst  *bool
	}{
		{"invite_only", &req.InviteOnly}, {"is_web_public", &req.IsWebPublic},
		{"is_default_stream", &req.IsDefaultStream}, {"announce", &req.Announce},
	} {
		if *f.dst, err = c.p.optBool(f.name, false); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{
		{"history_public_to_subscribers", &req.HistoryPublicToSubscribers},
		{"send_new_subscription_messages", &req.SendNewSubscriptionMessages},
	} {
		v, set, err := c.p.optBoolSet(f.name)
		if err != nil {
			return err
		}
		if set {
			*f.dst = &v
		}
	}
	if req.MessageRetentionDays, err = retentionDays(c); err != nil {
		return err
	}
	if raw, ok := c.p.str("topics_policy"); ok {
		req.TopicsPolicy = unquote(raw)
	}
	if err := legacyPostPolicyParams(c, &req.StreamPostPolicy); err != nil {
		return err
	}
	for _, name := range channelGroupSettingParams {
		raw, ok := c.p.str(name)
		if !ok {
			continue
		}
		var v realm.GroupSetting
		if !json.Valid([]byte(raw)) {
			return realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
		}
		if name == "can_remove_subscribers_group" && !c.srv.realm.Has(realm.ChangeRemoveSubscribersAnyGroup) {
			change, _, err := groupIDParam(c, name)
			if err != nil {
				return err
			}
			v = change.New
		} else if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return realm.BadRequest("%s is not an integer or a dict of direct members and subgroups", name)
		}
		if req.GroupSettings == nil {
			req.GroupSettings = map[string]realm.GroupSetting{}
		}
		req.GroupSettings[name] = v
	}
	if id, set, err := c.p.optInt("folder_id"); err != nil {
		return err
	} else if set {
		req.FolderID = &id
	}
	return nil
}

// channelSpecsParam reads a required list of {name, description?,
// color?} objects (subscribe's `subscriptions`, PATCH's `add`).
func channelSpecsParam(c *call, param string) ([]realm.ChannelSpec, error) {
	items, err := jsonList(c, param)
	if err != nil {
		return nil, err
	}
	specs := make([]realm.ChannelSpec, len(items))
	for i, raw := range items {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || obj == nil {
			return nil, realm.BadRequest("%s[%d] is not a dict", param, i)
		}
		fields := []struct {
			key      string
			dst      *string
			required bool
		}{{"name", &specs[i].Name, true}, {"description", &specs[i].Description, false}, {"color", &specs[i].Color, false}}
		for _, f := range fields {
			v, ok := obj[f.key]
			if !ok || (!f.required && string(v) == "null") {
				if f.required {
					return nil, realm.BadRequest(`%s[%d]["%s"] is missing`, param, i, f.key)
				}
				continue
			}
			if json.Unmarshal(v, f.dst) != nil {
				return nil, realm.BadRequest(`%s[%d]["%s"] is not a string`, param, i, f.key)
			}
		}
	}
	return specs, nil
}

// jsonList reads a required JSON list parameter into its raw items.
func jsonList(c *call, name string) ([]json.RawMessage, error) {
	raw, err := c.p.mustStr(name)
	if err != nil {
		return nil, err
	}
	if !json.Valid([]byte(raw)) {
		return nil, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
	}
	var items []json.RawMessage
	if json.Unmarshal([]byte(raw), &items) != nil || items == nil {
		return nil, realm.BadRequest("%s is not a list", name)
	}
	return items, nil
}

// principals reads the optional `principals` list: all user IDs or all
// emails.
func principals(c *call) (realm.Principals, error) {
	var p realm.Principals
	raw, ok := c.p.str("principals")
	if !ok {
		return p, nil
	}
	if !json.Valid([]byte(raw)) {
		return p, realm.BadRequest("Argument \"principals\" is not valid JSON.")
	}
	if json.Unmarshal([]byte(raw), &p.IDs) == nil {
		return p, nil
	}
	p.IDs = nil
	if json.Unmarshal([]byte(raw), &p.Emails) == nil {
		return p, nil
	}
	return realm.Principals{}, realm.BadRequest("principals is not a list of user IDs or of emails")
}

// retentionDays reads message_retention_days: "realm_default" (nil),
// "unlimited" (-1) or a positive number of days.
func retentionDays(c *call) (*int, error) {
	raw, ok := c.p.str("message_retention_days")
	if !ok {
		return nil, nil
	}
	switch v := unquote(raw); v {
	case "realm_default":
		return nil, nil
	case "unlimited":
		days := -1
		return &days, nil
	default:
		days, err := strconv.Atoi(v)
		if err != nil || days <= 0 {
			return nil, realm.VariableInvalid("message_retention_days", raw)
		}
		return &days, nil
	}
}

// unquote strips the JSON quotes a client may put around a string value.
func unquote(raw string) string {
	s := strings.TrimSpace(raw)
	var v string
	if len(s) >= 2 && s[0] == '"' && json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	return s
}

// subscriptionsAnswer is the body of GET /users/me/subscriptions.
type subscriptionsAnswer struct {
	Subscriptions []realm.SubscriptionView `json:"subscriptions"`
}

// includeSubscribers reads include_subscribers: a boolean, or from
// feature level 412 "partial" (include, partially for large channels);
// below 412 "partial" is refused as any other non-boolean.
func includeSubscribers(c *call) (include, partial bool, err error) {
	if raw, ok := c.p.str("include_subscribers"); ok && unquote(raw) == "partial" && c.srv.realm.Has(realm.ChangePartialSubscribers) {
		return true, true, nil
	}
	include, err = c.p.optBool("include_subscribers", false)
	return include, false, err
}

func listSubscriptions(c *call) (any, error) {
	var req realm.SubscriptionsRequest
	var err error
	if req.IncludeSubscribers, req.PartialSubscribers, err = includeSubscribers(c); err != nil {
		return nil, err
	}
	subs, err := c.actor.Subscriptions(c.ctx(), req)
	if err != nil {
		return nil, err
	}
	return subscriptionsAnswer{Subscriptions: subs}, nil
}

func unsubscribe(c *call) (any, error) {
	items, err := jsonList(c, "subscriptions")
	if err != nil {
		return nil, err
	}
	names := make([]string, len(items))
	for i, raw := range items {
		if json.Unmarshal(raw, &names[i]) != nil {
			return nil, realm.BadRequest("subscriptions[%d] is not a string", i)
		}
	}
	p, err := principals(c)
	if err != nil {
		return nil, err
	}
	return c.actor.Unsubscribe(c.ctx(), realm.UnsubscribeRequest{Channels: names, Principals: p})
}

// streamsAnswer is the body of GET /streams.
type streamsAnswer struct {
	Streams []realm.Stream `json:"streams"`
}

func listChannels(c *call) (any, error) {
	q := realm.DefaultChannelsQuery()
	allActive := false
	flags := []struct {
		name string
		dst  *bool
	}{
		{"include_public", &q.IncludePublic}, {"include_web_public", &q.IncludeWebPublic},
		{"include_subscribed", &q.IncludeSubscribed}, {"exclude_archived", &q.ExcludeArchived},
		{"include_all", &q.IncludeAll}, {"include_all_active", &allActive},
		{"include_default", &q.IncludeDefault}, {"include_owner_subscribed", &q.IncludeOwnerSubscribed},
		{"include_can_access_content", &q.IncludeCanAccessContent},
	}
	for _, f := range flags {
		v, err := c.p.optBool(f.name, *f.dst)
		if err != nil {
			return nil, err
		}
		*f.dst = v
	}
	q.IncludeAll = q.IncludeAll || allActive
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
