package httpapi

import (
	"encoding/json"
	"strconv"

	"github.com/minizulip/minizulip/realm"
)

func channelAdminRoutes() []route {
	return []route{
		{method: "POST", path: "/channels/create", h: createChannel},
		{method: "PATCH", path: "/streams/{stream_id}", h: updateChannel},
		{method: "DELETE", path: "/streams/{stream_id}", h: archiveChannel},
	}
}

// channelCreated is the body of POST /channels/create.
type channelCreated struct {
	ID int `json:"id"`
}

func createChannel(c *call) (any, error) {
	var req realm.CreateChannelRequest
	var err error
	if req.Name, err = c.p.mustStr("name"); err != nil {
		return nil, err
	}
	req.Description, _ = c.p.str("description")
	ids, set, err := c.p.optIntList("subscribers")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("subscribers")
	}
	req.Subscribers = ids
	if err := newChannelSettings(c, &req.Settings); err != nil {
		return nil, err
	}
	id, err := c.actor.CreateChannel(c.ctx(), req)
	if err != nil {
		return nil, err
	}
	return channelCreated{ID: id}, nil
}

func updateChannel(c *call) (any, error) {
	req := realm.ChannelUpdate{}
	var err error
	if req.ChannelID, err = c.pathInt("stream_id"); err != nil {
		return nil, err
	}
	if v, ok := c.p.str("new_name"); ok {
		req.NewName = &v
	}
	if v, ok := c.p.str("description"); ok {
		req.Description = &v
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{
		{"is_private", &req.IsPrivate}, {"is_web_public", &req.IsWebPublic},
		{"history_public_to_subscribers", &req.HistoryPublicToSubscribers},
		{"is_default_stream", &req.IsDefaultStream}, {"is_archived", &req.IsArchived},
	} {
		v, set, err := c.p.optBoolSet(f.name)
		if err != nil {
			return nil, err
		}
		if set {
			*f.dst = &v
		}
	}
	if c.p.has("message_retention_days") {
		days, err := retentionDays(c)
		if err != nil {
			return nil, err
		}
		req.MessageRetentionDays = &days
	}
	if raw, ok := c.p.str("topics_policy"); ok {
		policy := unquote(raw)
		req.TopicsPolicy = &policy
	}
	if raw, ok := c.p.str("folder_id"); ok {
		var folder *int
		if !isJSONNull(json.RawMessage(raw)) {
			id, err := strconv.Atoi(unquote(raw))
			if err != nil {
				return nil, realm.BadRequest("folder_id is not an integer")
			}
			folder = &id
		}
		req.FolderID = &folder
	}
	if err := legacyPostPolicyParams(c, &req.StreamPostPolicy); err != nil {
		return nil, err
	}
	for _, name := range channelGroupSettingParams {
		read := groupSettingChangeParam
		if name == "can_remove_subscribers_group" && !c.srv.realm.Has(realm.ChangeRemoveSubscribersAnyGroup) {
			read = groupIDParam
		}
		change, set, err := read(c, name)
		if err != nil {
			return nil, err
		}
		if set {
			if req.GroupSettings == nil {
				req.GroupSettings = map[string]realm.GroupSettingChange{}
			}
			req.GroupSettings[name] = change
		}
	}
	return nil, c.actor.UpdateChannel(c.ctx(), req)
}

// legacyPostPolicyParams reads stream_post_policy (or the older
// is_announcement_only) where the advertised level still has them.
func legacyPostPolicyParams(c *call, dst **int) error {
	if c.srv.realm.Has(realm.ChangeStreamPostPolicyRemoved) {
		return nil
	}
	if v, set, err := c.p.optInt("stream_post_policy"); err != nil {
		return err
	} else if set {
		*dst = &v
		return nil
	}
	only, set, err := c.p.optBoolSet("is_announcement_only")
	if err != nil || !set {
		return err
	}
	v := 1
	if only {
		v = 2
	}
	*dst = &v
	return nil
}

func archiveChannel(c *call) (any, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.ArchiveChannel(c.ctx(), id)
}
