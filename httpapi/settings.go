package httpapi

import (
	"encoding/json"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

func settingsRoutes() []route {
	return []route{
		{method: "PATCH", path: "/settings", h: updateSettings},
		// Deprecated aliases from before feature level 80.
		{method: "PATCH", path: "/settings/display", h: updateSettings},
		{method: "PATCH", path: "/settings/notifications", h: updateSettings},
		{method: "PATCH", path: "/realm/user_settings_defaults", h: updateUserSettingsDefaults},
	}
}

// updateSettings is PATCH /settings. Parameters it does not know come
// back in ignored_parameters_unsupported.
func updateSettings(c *call) (any, error) {
	req, err := settingsUpdateParams(c)
	if err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateSettings(c.ctx(), req)
}

// updateUserSettingsDefaults is PATCH /realm/user_settings_defaults.
// Parameters it does not know come back in ignored_parameters_unsupported.
func updateUserSettingsDefaults(c *call) (any, error) {
	settings, err := settingValuesParam(c)
	if err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateUserSettingsDefaults(c.ctx(), settings)
}

// settingsUpdateParams reads PATCH /settings's parameters: each setting
// as its kind says (JSON booleans and integers; strings as sent, or in
// JSON quotes), and target_users as a JSON object.
func settingsUpdateParams(c *call) (realm.SettingsUpdate, error) {
	var req realm.SettingsUpdate
	for _, f := range []struct {
		name string
		dst  **string
	}{
		{"full_name", &req.FullName}, {"email", &req.Email}, {"old_password", &req.OldPassword},
		{"new_password", &req.NewPassword}, {"timezone", &req.Timezone},
	} {
		if v, ok := c.p.str(f.name); ok {
			*f.dst = &v
		}
	}
	settings, err := settingValuesParam(c)
	if err != nil {
		return req, err
	}
	req.Settings = settings
	t, err := targetUsersParam(c)
	req.TargetUsers = t
	return req, err
}

// targetUsersParam reads target_users: {"user_ids": [...], "group_ids":
// [...], "skip_if_already_edited": bool}, every key optional.
func targetUsersParam(c *call) (*realm.TargetUsers, error) {
	const name = "target_users"
	raw, ok := c.p.str(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(raw)) {
		return nil, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &obj) != nil || obj == nil {
		return nil, realm.BadRequest("%s is not a dict", name)
	}
	var t realm.TargetUsers
	for key, val := range obj {
		var err error
		switch key {
		case "user_ids":
			err = decodeIDs(val, &t.UserIDs)
		case "group_ids":
			err = decodeIDs(val, &t.GroupIDs)
		case "skip_if_already_edited":
			if json.Unmarshal(val, &t.SkipIfAlreadyEdited) != nil || isJSONNull(val) {
				return nil, realm.BadRequest("%s[\"%s\"] is not a boolean", name, key)
			}
		default:
			return nil, realm.BadRequest("Unexpected arguments: %s", key)
		}
		if err != nil {
			return nil, realm.BadRequest("%s[\"%s\"] is not a list of integers", name, key)
		}
	}
	return &t, nil
}

// decodeIDs decodes a JSON list of integers; null is not a list.
func decodeIDs(raw json.RawMessage, dst *[]int) error {
	if isJSONNull(raw) {
		return &json.UnsupportedValueError{Str: "null"}
	}
	return json.Unmarshal(raw, dst)
}

// settingValuesParam reads the personal settings sent, by their API names:
// each as its kind says (JSON booleans and integers; strings as sent, or
// in JSON quotes). It is nil when none was sent.
func settingValuesParam(c *call) (map[string]any, error) {
	var out map[string]any
	for _, d := range user.SettingDefs {
		var v any
		switch d.Kind {
		case user.BoolSetting:
			b, set, err := c.p.optBoolSet(d.Name)
			if err != nil || !set {
				if err != nil {
					return nil, err
				}
				continue
			}
			v = b
		case user.IntSetting:
			n, set, err := c.p.optInt(d.Name)
			if err != nil || !set {
				if err != nil {
					return nil, err
				}
				continue
			}
			v = n
		default:
			raw, ok := c.p.str(d.Name)
			if !ok {
				continue
			}
			v = unquote(raw)
		}
		if out == nil {
			out = map[string]any{}
		}
		out[d.Name] = v
	}
	return out, nil
}
