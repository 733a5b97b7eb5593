package user

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

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

// Limits of custom profile fields, in characters (values: Zulip's short
// and long strings).
const (
	MaxProfileFieldNameLength   = 40
	MaxProfileFieldHintLength   = 80
	MaxProfileSummaryFields     = 2
	maxShortProfileValueLength  = 50
	maxLongProfileValueLength   = 500
	externalAccountURLParameter = "%(username)s"
)

// ExternalAccount is one of the external account kinds a field of type
// FieldExternalAccount may name by its subtype without a URL pattern.
type ExternalAccount struct {
	Name, Hint, URLPattern string
}

// DefaultExternalAccounts are Zulip's built-in external account subtypes.
var DefaultExternalAccounts = map[string]ExternalAccount{
	"twitter": {Name: "Twitter username", URLPattern: "https://twitter.com/%(username)s"},
	"github":  {Name: "GitHub username", URLPattern: "https://github.com/%(username)s"},
}

// ProfileFieldError is a refused custom profile field or value, with
// Zulip's message.
type ProfileFieldError string

func (e ProfileFieldError) Error() string { return string(e) }

func fieldErr(format string, args ...any) error {
	return ProfileFieldError(fmt.Sprintf(format, args...))
}

// ValidFieldType reports whether t is one of the eight field types.
func ValidFieldType(t int) bool { return t >= FieldShortText && t <= FieldPronouns }

// Renderable reports whether values of a field type are Markdown.
func Renderable(fieldType int) bool { return fieldType == FieldShortText || fieldType == FieldLongText }

// IsDefaultExternalAccount reports whether a field is one of the built-in
// external accounts, whose name and hint come from
// DefaultExternalAccounts.
func IsDefaultExternalAccount(fieldType int, fieldData string) bool {
	if fieldType != FieldExternalAccount {
		return false
	}
	_, ok := DefaultExternalAccounts[ExternalSubtype(fieldData)]
	return ok
}

// ExternalSubtype is the subtype of an external account field's data.
func ExternalSubtype(fieldData string) string {
	var d struct {
		Subtype string `json:"subtype"`
	}
	_ = json.Unmarshal([]byte(fieldData), &d)
	return d.Subtype
}

// CheckFieldData checks a field's field_data (a JSON object) for its type
// and returns it as stored: compact JSON for select and external-account
// fields, "" for the others.
func CheckFieldData(fieldType int, raw string) (string, error) {
	if fieldType != FieldSelect && fieldType != FieldExternalAccount {
		return "", nil
	}
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &data); err != nil || data == nil {
		return "", fieldErr("field_data is not a dict")
	}
	if fieldType == FieldSelect {
		if err := checkSelectData(data); err != nil {
			return "", err
		}
	} else if err := checkExternalAccountData(data); err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		return "", fieldErr("field_data is not a dict")
	}
	return b.String(), nil
}

// checkSelectData checks a select field's choices: at least one, each
// {"text", "order"} non-blank strings under a non-blank key, no text twice.
func checkSelectData(data map[string]json.RawMessage) error {
	if len(data) == 0 {
		return fieldErr("Field must have at least one choice.")
	}
	texts := map[string]bool{}
	for key, raw := range data {
		if strings.TrimSpace(key) == "" {
			return fieldErr("'value' cannot be blank.")
		}
		var choice map[string]json.RawMessage
		if json.Unmarshal(raw, &choice) != nil || choice == nil {
			return fieldErr("field_data is not a dict")
		}
		vals := map[string]string{}
		for _, k := range []string{"text", "order"} {
			v, ok := choice[k]
			if !ok {
				return fieldErr("%s key is missing from field_data", k)
			}
			var s string
			if json.Unmarshal(v, &s) != nil {
				return fieldErr("field_data[\"%s\"] is not a string", k)
			}
			if strings.TrimSpace(s) == "" {
				return fieldErr("field_data[\"%s\"] cannot be blank.", k)
			}
			if err := noNull(fmt.Sprintf("field_data[\"%s\"]", k), s); err != nil {
				return err
			}
			vals[k] = s
		}
		if len(choice) != 2 {
			return fieldErr("Unexpected arguments in field_data")
		}
		if texts[vals["text"]] {
			return fieldErr("Field must not have duplicate choices.")
		}
		texts[vals["text"]] = true
	}
	return nil
}

// checkExternalAccountData checks an external account field's data: a
// subtype, one of the defaults or "custom" with a URL pattern holding
// %(username)s once.
func checkExternalAccountData(data map[string]json.RawMessage) error {
	var subtype string
	raw, ok := data["subtype"]
	if !ok {
		return fieldErr("subtype key is missing from field_data")
	}
	if json.Unmarshal(raw, &subtype) != nil {
		return fieldErr("field_data[\"subtype\"] is not a string")
	}
	if strings.TrimSpace(subtype) == "" {
		return fieldErr("field_data[\"subtype\"] cannot be blank.")
	}
	if err := noNull(`field_data["subtype"]`, subtype); err != nil {
		return err
	}
	for k := range data {
		if k != "subtype" && k != "url_pattern" {
			return fieldErr("Unexpected arguments in field_data")
		}
	}
	if raw, ok := data["url_pattern"]; ok {
		var pattern string
		if json.Unmarshal(raw, &pattern) != nil {
			return fieldErr("field_data[\"url_pattern\"] is not a string")
		}
		if strings.Count(pattern, externalAccountURLParameter) != 1 {
			return fieldErr("URL pattern must contain '%s'.", externalAccountURLParameter)
		}
		if !ValidURL(strings.Replace(pattern, externalAccountURLParameter, "username", 1)) {
			return fieldErr("field_data[\"url_pattern\"] is not a URL")
		}
	}
	if _, ok := DefaultExternalAccounts[subtype]; ok {
		return nil
	}
	if subtype != "custom" {
		return fieldErr("Invalid external account type")
	}
	if _, ok := data["url_pattern"]; !ok {
		return fieldErr("Custom external account must define URL pattern")
	}
	return nil
}

// CheckFieldLabel checks a field's name (already trimmed) and hint.
func CheckFieldLabel(name, hint string) error {
	if name == "" {
		return fieldErr("Label cannot be blank.")
	}
	if utf8.RuneCountInString(hint) > MaxProfileFieldHintLength {
		return fieldErr("hint is too long (limit: %d characters)", MaxProfileFieldHintLength)
	}
	if utf8.RuneCountInString(name) > MaxProfileFieldNameLength {
		return fieldErr("name is too long (limit: %d characters)", MaxProfileFieldNameLength)
	}
	if err := noNull("name", name); err != nil {
		return err
	}
	return noNull("hint", hint)
}

// noNull refuses text holding a NUL byte, which Zulip's database cannot
// store, in the words of Zulip's check on messages.
func noNull(what, text string) error {
	if strings.IndexByte(text, 0) >= 0 {
		return fieldErr("%s must not contain null bytes", what)
	}
	return nil
}

// CheckSummaryDisplay refuses display in the profile summary for long
// text and user fields.
func CheckSummaryDisplay(fieldType int, display bool) error {
	if display && (fieldType == FieldLongText || fieldType == FieldUser) {
		return fieldErr("Field type not supported for display in profile summary.")
	}
	return nil
}

// UserCheck checks one user ID of a user field's value.
type UserCheck func(id int) error

// CheckProfileValue checks a user's value for a field named name, of
// fieldType and fieldData, and returns it as stored: the string, or for
// user fields the compact JSON list of IDs. value is a string, or a []int
// for user fields.
func CheckProfileValue(name string, fieldType int, fieldData string, value any, checkUser UserCheck) (string, error) {
	if fieldType == FieldUser {
		ids, ok := value.([]int)
		if !ok {
			return "", fieldErr("User IDs is not a list")
		}
		for _, id := range ids {
			if err := checkUser(id); err != nil {
				return "", err
			}
		}
		b, _ := json.Marshal(ids)
		return string(b), nil
	}
	s, ok := value.(string)
	if !ok {
		return "", fieldErr("%s is not a string", name)
	}
	if err := noNull(name, s); err != nil {
		return "", err
	}
	switch fieldType {
	case FieldShortText, FieldExternalAccount, FieldPronouns:
		if utf8.RuneCountInString(s) > maxShortProfileValueLength {
			return "", fieldErr("%s is too long (limit: %d characters)", name, maxShortProfileValueLength)
		}
	case FieldLongText:
		if utf8.RuneCountInString(s) > maxLongProfileValueLength {
			return "", fieldErr("%s is too long (limit: %d characters)", name, maxLongProfileValueLength)
		}
	case FieldDate:
		t, err := time.Parse("2006-01-02", s)
		if err != nil || t.Format("2006-01-02") != s {
			return "", fieldErr("%s is not a date", name)
		}
	case FieldURL:
		if !ValidURL(s) {
			return "", fieldErr("%s is not a URL", name)
		}
	case FieldSelect:
		var choices map[string]json.RawMessage
		_ = json.Unmarshal([]byte(fieldData), &choices)
		if _, ok := choices[s]; !ok {
			return "", fieldErr("'%s' is not a valid choice for '%s'.", s, name)
		}
	}
	return s, nil
}
