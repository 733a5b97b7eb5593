package httpapi

import (
	"encoding/json"
	"strconv"

	"github.com/minizulip/minizulip/realm"
)

func profileFieldRoutes() []route {
	return []route{
		{method: "GET", path: "/realm/profile_fields", h: listProfileFields},
		{method: "POST", path: "/realm/profile_fields", h: createProfileField},
		{method: "PATCH", path: "/realm/profile_fields", h: reorderProfileFields},
		{method: "PATCH", path: "/realm/profile_fields/{field_id}", h: updateProfileField},
		{method: "DELETE", path: "/realm/profile_fields/{field_id}", h: deleteProfileField},
		{method: "PATCH", path: "/users/me/profile_data", h: updateProfileData},
		{method: "DELETE", path: "/users/me/profile_data", h: removeProfileData},
	}
}

// profileFieldsAnswer is the body of GET /realm/profile_fields.
type profileFieldsAnswer struct {
	CustomFields []realm.CustomProfileField `json:"custom_fields"`
}

func listProfileFields(c *call) (any, error) {
	fields, err := c.actor.ProfileFields(c.ctx())
	if err != nil {
		return nil, err
	}
	return profileFieldsAnswer{CustomFields: fields}, nil
}

// createdProfileField is the body of POST /realm/profile_fields.
type createdProfileField struct {
	ID int `json:"id"`
}

func createProfileField(c *call) (any, error) {
	spec := realm.ProfileFieldSpec{EditableByUser: true}
	var err error
	if spec.Type, err = c.p.mustInt("field_type"); err != nil {
		return nil, err
	}
	spec.Name, _ = c.p.str("name")
	spec.Hint, _ = c.p.str("hint")
	if spec.FieldData, _, err = fieldDataParam(c); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{
		{"display_in_profile_summary", &spec.DisplayInProfileSummary}, {"required", &spec.Required},
		{"editable_by_user", &spec.EditableByUser},
	} {
		if *f.dst, err = c.p.optBool(f.name, *f.dst); err != nil {
			return nil, err
		}
	}
	id, err := c.actor.CreateProfileField(c.ctx(), spec)
	if err != nil {
		return nil, err
	}
	return createdProfileField{ID: id}, nil
}

// fieldDataParam reads field_data, a JSON object of strings or objects of
// strings, as its JSON text.
func fieldDataParam(c *call) (string, bool, error) {
	raw, ok := c.p.str("field_data")
	if !ok {
		return "", false, nil
	}
	if !json.Valid([]byte(raw)) {
		return "", false, realm.BadRequest("Argument \"field_data\" is not valid JSON.")
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &obj) != nil || obj == nil {
		return "", false, realm.BadRequest("field_data is not a dict")
	}
	return raw, true, nil
}

func updateProfileField(c *call) (any, error) {
	id, err := c.pathInt("field_id")
	if err != nil {
		return nil, err
	}
	var up realm.ProfileFieldUpdate
	if v, ok := c.p.str("name"); ok {
		up.Name = &v
	}
	if v, ok := c.p.str("hint"); ok {
		up.Hint = &v
	}
	if v, set, err := fieldDataParam(c); err != nil {
		return nil, err
	} else if set {
		up.FieldData = &v
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{
		{"display_in_profile_summary", &up.DisplayInProfileSummary}, {"required", &up.Required},
		{"editable_by_user", &up.Editable},
	} {
		v, set, err := c.p.optBoolSet(f.name)
		if err != nil {
			return nil, err
		}
		if set {
			*f.dst = &v
		}
	}
	return nil, c.actor.UpdateProfileField(c.ctx(), id, up)
}

func deleteProfileField(c *call) (any, error) {
	id, err := c.pathInt("field_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteProfileField(c.ctx(), id)
}

func reorderProfileFields(c *call) (any, error) {
	order, set, err := c.p.optIntList("order")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("order")
	}
	return nil, c.actor.ReorderProfileFields(c.ctx(), order)
}

// updateProfileData is PATCH /users/me/profile_data: data is a JSON list
// of {"id": field ID, "value": string or list of user IDs}.
func updateProfileData(c *call) (any, error) {
	data, set, err := profileDataParam(c, "data", false)
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("data")
	}
	return nil, c.actor.UpdateProfileData(c.ctx(), data)
}

// profileDataParam reads a JSON list of profile field values, each
// {"id": field ID, "value": string or list of user IDs}; with nullable, a
// value may also be null (a removal). It reports whether name was sent.
func profileDataParam(c *call, name string, nullable bool) ([]realm.ProfileDataUpdate, bool, error) {
	raw, ok := c.p.str(name)
	if !ok {
		return nil, false, nil
	}
	if !json.Valid([]byte(raw)) {
		return nil, true, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
	}
	var items []map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &items) != nil || items == nil {
		return nil, true, realm.BadRequest("%s is not a list", name)
	}
	out := make([]realm.ProfileDataUpdate, len(items))
	for i, item := range items {
		at := name + "[" + strconv.Itoa(i) + "]"
		if item == nil {
			return nil, true, realm.BadRequest("%s is not a dict", at)
		}
		rawID, ok := item["id"]
		if !ok {
			return nil, true, realm.BadRequest("%s key is missing: id", at)
		}
		rawValue, ok := item["value"]
		if !ok {
			return nil, true, realm.BadRequest("%s key is missing: value", at)
		}
		if len(item) != 2 {
			return nil, true, realm.BadRequest("Unexpected arguments in %s", at)
		}
		if json.Unmarshal(rawID, &out[i].ID) != nil || isJSONNull(rawID) {
			return nil, true, realm.BadRequest("%s[\"id\"] is not an integer", at)
		}
		var s string
		var ids []int
		switch {
		case isJSONNull(rawValue) && nullable:
			out[i].Value = nil
		case json.Unmarshal(rawValue, &s) == nil && !isJSONNull(rawValue):
			out[i].Value = s
		case json.Unmarshal(rawValue, &ids) == nil && !isJSONNull(rawValue):
			if ids == nil {
				ids = []int{}
			}
			out[i].Value = ids
		default:
			return nil, true, realm.BadRequest("%s[\"value\"] is not a string or a list of integers", at)
		}
	}
	return out, true, nil
}

func removeProfileData(c *call) (any, error) {
	ids, set, err := c.p.optIntList("data")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("data")
	}
	return nil, c.actor.RemoveProfileData(c.ctx(), ids)
}
