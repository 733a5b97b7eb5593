package realm

import (
	"slices"
	"strconv"

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
		r.profileFields = append(r.profileFields, f)
	}
	r.nextProfileFieldID = len(devProfileFields) + 1
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
	i := slices.IndexFunc(r.profileFields, func(f CustomProfileField) bool { return f.ID == id })
	if i < 0 {
		return nil
	}
	return &r.profileFields[i]
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

func fillCustomProfileFields(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.CustomProfileFieldsState = &CustomProfileFieldsState{CustomProfileFields: r.profileFieldList(),
		CustomProfileFieldTypes: profileFieldTypes}
}

// profileFieldList is a copy of the fields, in their order.
func (r *Realm) profileFieldList() []CustomProfileField {
	return append([]CustomProfileField{}, r.profileFields...)
}
