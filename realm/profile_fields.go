package realm

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// Custom profile field types, Zulip's numbers (see package user).
const (
	FieldShortText       = user.FieldShortText
	FieldLongText        = user.FieldLongText
	FieldSelect          = user.FieldSelect
	FieldDate            = user.FieldDate
	FieldURL             = user.FieldURL
	FieldUser            = user.FieldUser
	FieldExternalAccount = user.FieldExternalAccount
	FieldPronouns        = user.FieldPronouns
)

// CustomProfileField is a realm's custom profile field definition.
type CustomProfileField struct {
	ID                      int    `json:"id"`
	Name                    string `json:"name"`
	Type                    int    `json:"type"`
	Hint                    string `json:"hint"`
	FieldData               string `json:"field_data"`
	Order                   int    `json:"order"`
	DisplayInProfileSummary bool   `json:"display_in_profile_summary,omitempty"`
	Required                bool   `json:"required"`
	EditableByUser          bool   `json:"editable_by_user"`
}

// renderable reports whether values of this field type carry Markdown.
func (f CustomProfileField) renderable() bool { return user.Renderable(f.Type) }

// devProfileFields are the dev realm's fields, IDs 1-9 in this order.
var devProfileFields = []CustomProfileField{
	{Name: "Phone number", Type: FieldShortText},
	{Name: "Biography", Type: FieldLongText, Hint: "What are you known for?"},
	{Name: "Favorite food", Type: FieldShortText, Hint: "Or drink, if you'd prefer", DisplayInProfileSummary: true},
	{Name: "Favorite editor", Type: FieldSelect, FieldData: `{"0":{"text":"Vim","order":"1"},"1":{"text":"Emacs","order":"2"}}`, DisplayInProfileSummary: true},
	{Name: "Birthday", Type: FieldDate},
	{Name: "Favorite website", Type: FieldURL, Hint: "Or your personal blog's URL"},
	{Name: "Mentor", Type: FieldUser},
	{Name: "GitHub username", Type: FieldExternalAccount, FieldData: `{"subtype":"github"}`},
	{Name: "Pronouns", Type: FieldPronouns, Hint: "What pronouns should people use to refer to you?"},
}

// devProfileValues are the seeded values of Iago and Hamlet, by field ID.
var devProfileValues = map[string]map[int]string{
	"hamlet@zulip.com": {1: "+0-11-23-456-7890", 2: "I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius",
		3: "Dark chocolate", 4: "0", 5: "1900-01-01", 6: "https://blog.zulig.org", 7: "[11]", 8: "zulipbot", 9: "he/him"},
	"iago@zulip.com": {1: "+1-234-567-8901", 2: "Betrayer of Othello.", 3: "Apples", 4: "1", 5: "2000-01-01",
		6: "https://zulip.readthedocs.io/en/latest/", 7: "[10]", 8: "zulip", 9: "he/him"},
}

// seedProfileFields stores the dev realm's fields and values.
func (r *Realm) seedProfileFields() {
	for i, f := range devProfileFields {
		f.ID, f.Order, f.EditableByUser = i+1, i+1, true
		r.profileFields.list = append(r.profileFields.list, f)
	}
	r.profileFields.nextID = len(devProfileFields) + 1
	for email, values := range devProfileValues {
		u := r.users.byEmail[user.NormalizeEmail(email)]
		u.ProfileData = map[int]user.ProfileValue{}
		for id, v := range values {
			u.ProfileData[id] = r.profileValue(r.profileField(id), v)
		}
	}
}

// profileField is the field with that ID, or nil.
func (r *Realm) profileField(id int) *CustomProfileField {
	i := slices.IndexFunc(r.profileFields.list, func(f CustomProfileField) bool { return f.ID == id })
	if i < 0 {
		return nil
	}
	return &r.profileFields.list[i]
}

// profileValue is a stored value of field f, rendered when f is Markdown.
func (r *Realm) profileValue(f *CustomProfileField, v string) user.ProfileValue {
	pv := user.ProfileValue{Value: v}
	if f.renderable() {
		pv.RenderedValue = r.renderer.Render(v)
	}
	return pv
}

// ProfileFieldValue is one value in a user's profile_data.
type ProfileFieldValue struct {
	Value         string  `json:"value"`
	RenderedValue *string `json:"rendered_value,omitempty"`
}

// profileData is the profile_data object of a user: field ID (as a
// string key) to value.
func (r *Realm) profileData(u *user.User) map[string]ProfileFieldValue {
	out := make(map[string]ProfileFieldValue, len(u.ProfileData))
	for id, v := range u.ProfileData {
		f := r.profileField(id)
		if f == nil {
			continue
		}
		pv := ProfileFieldValue{Value: v.Value}
		if f.renderable() {
			rv := v.RenderedValue
			pv.RenderedValue = &rv
		}
		out[strconv.Itoa(id)] = pv
	}
	return out
}

// profileFieldTypes is custom_profile_field_types of POST /register.
var profileFieldTypes = map[string]ProfileFieldType{
	"SHORT_TEXT":       {ID: FieldShortText, Name: "Text (short)"},
	"LONG_TEXT":        {ID: FieldLongText, Name: "Text (long)"},
	"SELECT":           {ID: FieldSelect, Name: "List of options"},
	"DATE":             {ID: FieldDate, Name: "Date picker"},
	"URL":              {ID: FieldURL, Name: "Link"},
	"USER":             {ID: FieldUser, Name: "Users"},
	"EXTERNAL_ACCOUNT": {ID: FieldExternalAccount, Name: "External account"},
	"PRONOUNS":         {ID: FieldPronouns, Name: "Pronouns"},
}

// profileFieldList is a copy of the fields, in their order.
func (r *Realm) profileFieldList() []CustomProfileField {
	return append([]CustomProfileField{}, r.profileFields.list...)
}

// profileFieldTable holds the realm's custom profile fields, by order; nextID
// numbers new ones (IDs are never reused). The users' values are on
// their accounts, and in this table's part of fixtures.
type profileFieldTable struct {
	list   []CustomProfileField
	nextID int
}

func (t *profileFieldTable) clone() profileFieldTable {
	return profileFieldTable{list: slices.Clone(t.list), nextID: t.nextID}
}

// dump adds the custom profile fields (by ID) and the users' values
// of them (by user, then field) to f.
func (t *profileFieldTable) dump(r *Realm, f *fixture.Document) error {
	for _, pf := range slices.SortedFunc(slices.Values(r.profileFields.list), func(a, b CustomProfileField) int { return a.ID - b.ID }) {
		order, editable := pf.Order, pf.EditableByUser
		f.CustomProfileFields = append(f.CustomProfileFields, fixture.ProfileField{ID: pf.ID, Type: pf.Type, Name: pf.Name,
			Hint: pf.Hint, FieldData: pf.FieldData, Order: &order, DisplayInProfileSummary: pf.DisplayInProfileSummary,
			Required: pf.Required, EditableByUser: &editable})
	}
	for _, u := range r.users.sorted() {
		for _, id := range slices.Sorted(maps.Keys(u.ProfileData)) {
			pf := r.profileField(id)
			if pf == nil {
				continue
			}
			var v any = u.ProfileData[id].Value
			if pf.Type == FieldUser {
				var ids []int
				_ = json.Unmarshal([]byte(u.ProfileData[id].Value), &ids)
				v = ids
			}
			f.ProfileData = append(f.ProfileData, fixture.ProfileValue{UserID: u.ID, FieldID: id, Value: v})
		}
	}
	return nil
}

// load adds the document's custom profile fields, then the users' values.
func (t *profileFieldTable) load(r *Realm, f *fixture.Document) error {
	if err := t.loadFields(r, f); err != nil {
		return err
	}
	return r.loadProfileData(f)
}

// loadFields checks each field as POST /realm/profile_fields
// does (type, label, hint, field data, a label unique, at most two in
// the profile summary); a built-in external account takes its name and
// hint, as there. A field without an order takes its ID.
func (t *profileFieldTable) loadFields(r *Realm, f *fixture.Document) error {
	ids := []int{}
	for i, ff := range f.CustomProfileFields {
		at := fmt.Sprintf("custom_profile_fields[%d]", i)
		if ff.ID <= 0 || r.profileField(ff.ID) != nil {
			return badItem(at+".id", "%s custom profile field ID %d", invalidOrDuplicate(ff.ID <= 0), ff.ID)
		}
		pf := CustomProfileField{ID: ff.ID, Name: strings.TrimSpace(ff.Name), Type: ff.Type, Hint: ff.Hint, Order: ff.ID,
			DisplayInProfileSummary: ff.DisplayInProfileSummary, Required: ff.Required, EditableByUser: true}
		if ff.Order != nil {
			pf.Order = *ff.Order
		}
		if ff.EditableByUser != nil {
			pf.EditableByUser = *ff.EditableByUser
		}
		if pf.DisplayInProfileSummary && r.summaryFieldCount(0) >= user.MaxProfileSummaryFields {
			return badItem(at+".display_in_profile_summary", "%s", summaryLimitError().Msg)
		}
		if err := r.checkProfileField(&pf, ff.FieldData); err != nil {
			return badItem(at, "%s", reason(err))
		}
		if user.IsDefaultExternalAccount(pf.Type, pf.FieldData) {
			def := user.DefaultExternalAccounts[user.ExternalSubtype(pf.FieldData)]
			pf.Name, pf.Hint = def.Name, def.Hint
		}
		if r.profileFieldNamed(pf.Name, 0) {
			return badItem(at+".name", "A field with that label already exists.")
		}
		r.profileFields.list = append(r.profileFields.list, pf)
		ids = append(ids, ff.ID)
	}
	r.sortProfileFields()
	r.profileFields.nextID = nextAfter(1, ids...)
	return nil
}

// loadProfileData checks each value as an administrator's PATCH
// /users/{id} does (a known field, a value of its type; a user field's
// users are humans of the realm, deactivated ones allowed as they keep
// their place in values set before); a user has one value per field.
func (r *Realm) loadProfileData(f *fixture.Document) error {
	for i, fv := range f.ProfileData {
		at := fmt.Sprintf("profile_data[%d]", i)
		u := r.realmUser(fv.UserID)
		if u == nil {
			return badItem(at+".user_id", "no user %d", fv.UserID)
		}
		pf := r.profileField(fv.FieldID)
		if pf == nil {
			return badItem(at+".field_id", "Field id %d not found.", fv.FieldID)
		}
		if _, dup := u.ProfileData[pf.ID]; dup {
			return badItem(at+".field_id", "user %d has another value for field %d", fv.UserID, fv.FieldID)
		}
		value := fv.Value
		if list, ok := value.([]any); ok {
			value = fixtureIntList(list)
		}
		if s, ok := value.(string); value == nil || ok && s == "" {
			return badItem(at+".value", "empty value")
		}
		v, err := user.CheckProfileValue(pf.Name, pf.Type, pf.FieldData, value, r.checkFixtureProfileUser)
		if err != nil {
			return badItem(at+".value", "%s", reason(err))
		}
		if u.ProfileData == nil {
			u.ProfileData = map[int]user.ProfileValue{}
		}
		u.ProfileData[pf.ID] = r.profileValue(pf, v)
	}
	return nil
}

// fixtureIntList is list as user IDs, or list itself when an item is no
// whole number (CheckProfileValue then refuses it).
func fixtureIntList(list []any) any {
	ids := make([]int, 0, len(list))
	for _, x := range list {
		n, ok := x.(float64)
		if !ok || n != math.Trunc(n) || math.Abs(n) > math.MaxInt32 {
			return list
		}
		ids = append(ids, int(n))
	}
	return ids
}

// checkFixtureProfileUser checks a user of a user field's value: a human
// of the realm.
func (r *Realm) checkFixtureProfileUser(id int) error {
	u := r.realmUser(id)
	switch {
	case u == nil:
		return BadRequest("Invalid user ID: %d", id)
	case u.IsBot():
		return BadRequest("User with ID %d is a bot", id)
	}
	return nil
}

func (t *profileFieldTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("custom_profile_fields") {
		fillCustomProfileFields(r, me, req, out)
	}
}

func fillCustomProfileFields(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.CustomProfileFieldsState = &CustomProfileFieldsState{CustomProfileFields: r.profileFieldList(),
		CustomProfileFieldTypes: profileFieldTypes}
}
