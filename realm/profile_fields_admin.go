package realm

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// ProfileFieldSpec is a new custom profile field (POST
// /realm/profile_fields). FieldData is a JSON object ("" is {}), used by
// select and external-account fields.
type ProfileFieldSpec struct {
	Name, Hint              string
	Type                    int
	FieldData               string
	DisplayInProfileSummary bool
	Required                bool
	EditableByUser          bool
}

// ProfileFieldUpdate changes a field (PATCH /realm/profile_fields/{id});
// nil fields stay as they are. The type never changes.
type ProfileFieldUpdate struct {
	Name, Hint, FieldData                       *string
	DisplayInProfileSummary, Required, Editable *bool
}

// CustomProfileFieldsEvent is the realm's full list of fields after any
// change to them.
type CustomProfileFieldsEvent struct {
	Fields []CustomProfileField `json:"fields"`
}

// ProfileFields answers GET /realm/profile_fields: every field, in order.
func (a *Actor) ProfileFields(ctx context.Context) (ans []CustomProfileField, err error) {
	err = a.read(ctx, func(*user.User) error {
		ans = a.r.profileFieldList()
		return nil
	})
	return ans, err
}

// CreateProfileField adds a custom profile field (administrators only) and
// returns its ID. A built-in external account (subtype github or twitter)
// takes its name and hint from user.DefaultExternalAccounts.
func (a *Actor) CreateProfileField(ctx context.Context, spec ProfileFieldSpec) (id int, err error) {
	r := a.r
	err = a.writeAdmin(ctx, func(me *user.User) error {
		if spec.DisplayInProfileSummary && r.summaryFieldCount(0) >= user.MaxProfileSummaryFields {
			return summaryLimitError()
		}
		f := CustomProfileField{Name: strings.TrimSpace(spec.Name), Type: spec.Type, Hint: spec.Hint,
			DisplayInProfileSummary: spec.DisplayInProfileSummary, Required: spec.Required, EditableByUser: spec.EditableByUser}
		if err := r.checkProfileField(&f, spec.FieldData); err != nil {
			return err
		}
		if user.IsDefaultExternalAccount(f.Type, f.FieldData) {
			def := user.DefaultExternalAccounts[user.ExternalSubtype(f.FieldData)]
			f.Name, f.Hint = def.Name, def.Hint
		}
		if r.profileFieldNamed(f.Name, 0) {
			return BadRequest("A field with that label already exists.")
		}
		f.ID = r.profileFields.nextID
		f.Order = f.ID
		r.profileFields.nextID++
		r.profileFields.list = append(r.profileFields.list, f)
		r.sortProfileFields()
		r.emitProfileFields()
		id = f.ID
		return nil
	})
	return id, err
}

// UpdateProfileField changes a field (administrators only). Choices a
// select field loses are cleared from every user who had chosen them.
// Built-in external account fields only change their summary display,
// required and editable flags.
func (a *Actor) UpdateProfileField(ctx context.Context, id int, up ProfileFieldUpdate) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		cur := r.profileField(id)
		if cur == nil {
			return BadRequest("Field id %d not found.", id)
		}
		f := *cur
		display := f.DisplayInProfileSummary
		if up.DisplayInProfileSummary != nil {
			display = *up.DisplayInProfileSummary
		}
		if display && r.summaryFieldCount(id) >= user.MaxProfileSummaryFields {
			return summaryLimitError()
		}
		if user.IsDefaultExternalAccount(f.Type, f.FieldData) &&
			(up.Name != nil && strings.TrimSpace(*up.Name) != f.Name || up.Hint != nil && *up.Hint != f.Hint ||
				up.FieldData != nil && !sameJSON(*up.FieldData, f.FieldData)) {
			return BadRequest("Default custom field cannot be updated.")
		}
		if up.Name != nil {
			f.Name = strings.TrimSpace(*up.Name)
		}
		if up.Hint != nil {
			f.Hint = *up.Hint
		}
		f.DisplayInProfileSummary = display
		if up.Required != nil {
			f.Required = *up.Required
		}
		if up.Editable != nil {
			f.EditableByUser = *up.Editable
		}
		data := f.FieldData
		if up.FieldData != nil {
			data = *up.FieldData
		}
		if err := r.checkProfileField(&f, data); err != nil {
			return err
		}
		if r.profileFieldNamed(f.Name, id) {
			return BadRequest("A field with that label already exists.")
		}
		if f.Type == FieldSelect {
			r.clearRemovedChoices(id, f.FieldData)
		}
		*cur = f
		r.emitProfileFields()
		return nil
	})
}

// DeleteProfileField removes a field and every user's value for it
// (administrators only).
func (a *Actor) DeleteProfileField(ctx context.Context, id int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		if r.profileField(id) == nil {
			return BadRequest("Field id %d not found.", id)
		}
		r.profileFields.list = slices.DeleteFunc(r.profileFields.list, func(f CustomProfileField) bool { return f.ID == id })
		for _, u := range r.users.byID {
			delete(u.ProfileData, id)
		}
		r.emitProfileFields()
		return nil
	})
}

// ReorderProfileFields puts the fields in the order of ids, which must
// name every field (administrators only): each field's order becomes its
// index in ids.
func (a *Actor) ReorderProfileFields(ctx context.Context, ids []int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		pos := map[int]int{}
		for i, id := range ids {
			pos[id] = i
		}
		for _, f := range r.profileFields.list {
			if _, ok := pos[f.ID]; !ok {
				return BadRequest("Invalid order mapping.")
			}
		}
		for i := range r.profileFields.list {
			r.profileFields.list[i].Order = pos[r.profileFields.list[i].ID]
		}
		r.sortProfileFields()
		r.emitProfileFields()
		return nil
	})
}

// checkProfileField checks f's definition with its new field_data, as
// Zulip does in this order: the data, the label (but for built-in
// external accounts), the type, the summary display. f.FieldData becomes
// the data as stored.
func (r *Realm) checkProfileField(f *CustomProfileField, fieldData string) error {
	data, err := user.CheckFieldData(f.Type, fieldData)
	if err != nil {
		return BadRequest("%s", err.Error())
	}
	if !user.IsDefaultExternalAccount(f.Type, data) {
		if err := user.CheckFieldLabel(f.Name, f.Hint); err != nil {
			return BadRequest("%s", err.Error())
		}
	}
	if !user.ValidFieldType(f.Type) {
		return BadRequest("Invalid field type.")
	}
	if err := user.CheckSummaryDisplay(f.Type, f.DisplayInProfileSummary); err != nil {
		return BadRequest("%s", err.Error())
	}
	f.FieldData = data
	return nil
}

func summaryLimitError() *Error {
	return BadRequest("Only 2 custom profile fields can be displayed in the profile summary.")
}

// summaryFieldCount counts the fields shown in profile summaries, but the
// field except.
func (r *Realm) summaryFieldCount(except int) int {
	n := 0
	for _, f := range r.profileFields.list {
		if f.DisplayInProfileSummary && f.ID != except {
			n++
		}
	}
	return n
}

// profileFieldNamed reports whether a field other than except has name.
func (r *Realm) profileFieldNamed(name string, except int) bool {
	return slices.ContainsFunc(r.profileFields.list, func(f CustomProfileField) bool { return f.Name == name && f.ID != except })
}

// clearRemovedChoices removes users' values of select field id that are
// no choice of its new field data.
func (r *Realm) clearRemovedChoices(id int, fieldData string) {
	for _, u := range r.users.byID {
		v, ok := u.ProfileData[id]
		if !ok {
			continue
		}
		if _, err := user.CheckProfileValue("", FieldSelect, fieldData, v.Value, nil); err != nil {
			delete(u.ProfileData, id)
		}
	}
}

func (r *Realm) sortProfileFields() {
	slices.SortStableFunc(r.profileFields.list, func(a, b CustomProfileField) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		return a.ID - b.ID
	})
}

// emitProfileFields sends every active user the fields as they are now.
func (r *Realm) emitProfileFields() {
	r.emit("custom_profile_fields", CustomProfileFieldsEvent{Fields: r.profileFieldList()}, r.activeUserIDs()...)
}

// sameJSON reports whether two JSON texts hold the same value ("" is {}).
func sameJSON(a, b string) bool {
	var va, vb any
	if strings.TrimSpace(a) == "" {
		a = "{}"
	}
	if strings.TrimSpace(b) == "" {
		b = "{}"
	}
	return json.Unmarshal([]byte(a), &va) == nil && json.Unmarshal([]byte(b), &vb) == nil && reflect.DeepEqual(va, vb)
}

func (CustomProfileFieldsEvent) isEventPayload() {}
