package realm

import "github.com/minizulip/minizulip/user"

// Custom profile field types, Zulip's numbers.
const (
	FieldShortText       = 1
	FieldLongText        = 2
	FieldSelect          = 3
	FieldDate            = 4
	FieldURL             = 5
	FieldUser            = 6
	FieldExternalAccount = 7
	FieldPronouns        = 8
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
func (f CustomProfileField) renderable() bool {
	return f.Type == FieldShortText || f.Type == FieldLongText
}

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
	for email, values := range devProfileValues {
		u := r.usersByEmail[user.NormalizeEmail(email)]
		u.ProfileData = map[int]user.ProfileValue{}
		for id, v := range values {
			pv := user.ProfileValue{Value: v}
			if r.profileFields[id-1].renderable() {
				pv.RenderedValue = r.renderer.Render(v)
			}
			u.ProfileData[id] = pv
		}
	}
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
		pv := ProfileFieldValue{Value: v.Value}
		if id >= 1 && id <= len(r.profileFields) && r.profileFields[id-1].renderable() {
			rv := v.RenderedValue
			pv.RenderedValue = &rv
		}
		out[itoa(id)] = pv
	}
	return out
}

func fillCustomProfileFields(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	fields := append([]CustomProfileField{}, r.profileFields...)
	out.CustomProfileFieldsState = &CustomProfileFieldsState{CustomProfileFields: fields, CustomProfileFieldTypes: map[string]ProfileFieldType{
		"SHORT_TEXT":       {ID: FieldShortText, Name: "Text (short)"},
		"LONG_TEXT":        {ID: FieldLongText, Name: "Text (long)"},
		"SELECT":           {ID: FieldSelect, Name: "List of options"},
		"DATE":             {ID: FieldDate, Name: "Date picker"},
		"URL":              {ID: FieldURL, Name: "Link"},
		"USER":             {ID: FieldUser, Name: "Users"},
		"EXTERNAL_ACCOUNT": {ID: FieldExternalAccount, Name: "External account"},
		"PRONOUNS":         {ID: FieldPronouns, Name: "Pronouns"},
	}}
}
