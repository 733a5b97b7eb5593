package httpapi

import (
	"net/url"
	"reflect"
	"testing"
)

// profileFields is GET /realm/profile_fields as email sees it.
func (e *apiEnv) profileFields(email string) []map[string]any {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/realm/profile_fields", nil))
	var out []map[string]any
	for _, f := range body["custom_fields"].([]any) {
		out = append(out, f.(map[string]any))
	}
	return out
}

// fieldIDs lists the fields' IDs in their order.
func fieldIDs(fields []map[string]any) []float64 {
	var ids []float64
	for _, f := range fields {
		ids = append(ids, f["id"].(float64))
	}
	return ids
}

func TestHTTPProfileFieldsList(t *testing.T) {
	e := newUsersEnv(t)
	fields := e.profileFields("polonius@zulip.com")
	if !reflect.DeepEqual(fieldIDs(fields), []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("ids %v", fieldIDs(fields))
	}
	editor := fields[3]
	if editor["name"] != "Favorite editor" || editor["type"] != 3.0 || editor["display_in_profile_summary"] != true ||
		editor["field_data"] != `{"0":{"text":"Vim","order":"1"},"1":{"text":"Emacs","order":"2"}}` || editor["required"] != false ||
		editor["editable_by_user"] != true {
		t.Fatalf("field 4 %v", editor)
	}
	if _, ok := fields[0]["display_in_profile_summary"]; ok {
		t.Fatal("display_in_profile_summary sent while false")
	}
}

func TestHTTPProfileFieldsAdministratorsOnly(t *testing.T) {
	e := newUsersEnv(t)
	for _, c := range []struct{ method, path string }{
		{"POST", "/realm/profile_fields"}, {"PATCH", "/realm/profile_fields"},
		{"PATCH", "/realm/profile_fields/1"}, {"DELETE", "/realm/profile_fields/1"},
	} {
		status, body := e.do("shiva@zulip.com", c.method, c.path, url.Values{"name": {"X"}, "field_type": {"1"}, "order": {"[1]"}})
		e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	}
	if len(e.profileFields("iago@zulip.com")) != 9 || e.profileFields("iago@zulip.com")[0]["name"] != "Phone number" {
		t.Fatal("a refused change changed the fields")
	}
}

func TestHTTPCreateProfileFieldRules(t *testing.T) {
	e := newUsersEnv(t)
	for _, c := range []struct {
		form url.Values
		code string
		msg  string
	}{
		{url.Values{"name": {"X"}}, "REQUEST_VARIABLE_MISSING", "Missing 'field_type' argument"},
		{url.Values{"name": {"X"}, "field_type": {"one"}}, "BAD_REQUEST", "field_type is not an integer"},
		{url.Values{"name": {"X"}, "field_type": {"9"}}, "BAD_REQUEST", "Invalid field type."},
		{url.Values{"name": {"  "}, "field_type": {"1"}}, "BAD_REQUEST", "Label cannot be blank."},
		{url.Values{"name": {"12345678901234567890123456789012345678901"}, "field_type": {"1"}}, "BAD_REQUEST", "name is too long (limit: 40 characters)"},
		{url.Values{"name": {"X"}, "hint": {string(make([]rune, 81))}, "field_type": {"1"}}, "BAD_REQUEST", "hint is too long (limit: 80 characters)"},
		{url.Values{"name": {"Phone number"}, "field_type": {"1"}}, "BAD_REQUEST", "A field with that label already exists."},
		{url.Values{"name": {"X"}, "field_type": {"2"}, "display_in_profile_summary": {"true"}}, "BAD_REQUEST", "Only 2 custom profile fields can be displayed in the profile summary."},
		{url.Values{"name": {"X"}, "field_type": {"3"}}, "BAD_REQUEST", "Field must have at least one choice."},
		{url.Values{"name": {"X"}, "field_type": {"3"}, "field_data": {`[]`}}, "BAD_REQUEST", "field_data is not a dict"},
		{url.Values{"name": {"X"}, "field_type": {"3"}, "field_data": {`{`}}, "BAD_REQUEST", `Argument "field_data" is not valid JSON.`},
		{url.Values{"name": {"X"}, "field_type": {"3"}, "field_data": {`{" ": {"text": "a", "order": "1"}}`}}, "BAD_REQUEST", "'value' cannot be blank."},
		{url.Values{"name": {"X"}, "field_type": {"3"}, "field_data": {`{"a": {"text": "a"}}`}}, "BAD_REQUEST", "order key is missing from field_data"},
		{url.Values{"name": {"X"}, "field_type": {"3"}, "field_data": {`{"a": {"text": "", "order": "1"}}`}}, "BAD_REQUEST", `field_data["text"] cannot be blank.`},
		{url.Values{"name": {"X"}, "field_type": {"3"}, "field_data": {`{"a": {"text": "A", "order": "1"}, "b": {"text": "A", "order": "2"}}`}}, "BAD_REQUEST", "Field must not have duplicate choices."},
		{url.Values{"name": {"X"}, "field_type": {"7"}, "field_data": {`{"subtype": "myspace"}`}}, "BAD_REQUEST", "Invalid external account type"},
		{url.Values{"name": {"X"}, "field_type": {"7"}, "field_data": {`{"subtype": "custom"}`}}, "BAD_REQUEST", "Custom external account must define URL pattern"},
		{url.Values{"name": {"X"}, "field_type": {"7"}, "field_data": {`{"subtype": "custom", "url_pattern": "https://x.example/u"}`}}, "BAD_REQUEST", "URL pattern must contain '%(username)s'."},
		{url.Values{"name": {"X"}, "field_type": {"7"}, "field_data": {`{}`}}, "BAD_REQUEST", "subtype key is missing from field_data"},
	} {
		status, body := e.do("iago@zulip.com", "POST", "/realm/profile_fields", c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	if n := len(e.profileFields("iago@zulip.com")); n != 9 {
		t.Fatalf("%d fields after refusals", n)
	}
}

func TestHTTPCreateProfileField(t *testing.T) {
	e := newUsersEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["custom_profile_fields"]`}})
	body := e.ok(e.do("iago@zulip.com", "POST", "/realm/profile_fields", url.Values{
		"name": {" Favorite language "}, "hint": {"Which one?"}, "field_type": {"3"},
		"field_data": {`{"go": {"text": "Go", "order": "1"}, "py": {"text": "Python", "order": "2"}}`},
		"required":   {"true"}, "editable_by_user": {"false"},
	}))
	if body["id"] != 10.0 {
		t.Fatalf("id %v", body["id"])
	}
	fields := e.profileFields("hamlet@zulip.com")
	want := map[string]any{"id": 10.0, "name": "Favorite language", "hint": "Which one?", "type": 3.0, "order": 10.0,
		"field_data": `{"go":{"text":"Go","order":"1"},"py":{"text":"Python","order":"2"}}`, "required": true, "editable_by_user": false}
	if !reflect.DeepEqual(fields[9], want) {
		t.Fatalf("field\n got %v\nwant %v", fields[9], want)
	}
	evs := e.eventsOf("hamlet@zulip.com", qid, -1)
	if len(evs) != 1 || evs[0]["type"] != "custom_profile_fields" || len(evs[0]["fields"].([]any)) != 10 {
		t.Fatalf("events %v", evs)
	}
	// A built-in external account takes its name; a text field keeps no field_data.
	body = e.ok(e.do("iago@zulip.com", "POST", "/realm/profile_fields", url.Values{"field_type": {"7"}, "field_data": {`{"subtype":"twitter"}`}}))
	body2 := e.ok(e.do("iago@zulip.com", "POST", "/realm/profile_fields", url.Values{"name": {"Nick"}, "field_type": {"1"}, "field_data": {`{"x":"y"}`}}))
	fields = e.profileFields("hamlet@zulip.com")
	if fields[10]["id"] != body["id"] || fields[10]["name"] != "Twitter username" || fields[10]["field_data"] != `{"subtype":"twitter"}` {
		t.Fatalf("twitter field %v", fields[10])
	}
	if fields[11]["id"] != body2["id"] || fields[11]["field_data"] != "" || fields[11]["editable_by_user"] != true || fields[11]["required"] != false {
		t.Fatalf("text field %v", fields[11])
	}
}

func TestHTTPUpdateProfileField(t *testing.T) {
	e := newUsersEnv(t)
	status, body := e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/99", url.Values{"name": {"X"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Field id 99 not found.")
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/1", url.Values{"name": {"Biography"}})
	e.fail(status, body, 400, "BAD_REQUEST", "A field with that label already exists.")
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/8", url.Values{"name": {"GH"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Default custom field cannot be updated.")
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/1", url.Values{"display_in_profile_summary": {"true"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Only 2 custom profile fields can be displayed in the profile summary.")
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/7", url.Values{"name": {"Guide"}, "display_in_profile_summary": {"true"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Only 2 custom profile fields can be displayed in the profile summary.")
	if f := e.profileFields("iago@zulip.com")[6]; f["name"] != "Mentor" {
		t.Fatalf("refused update applied: %v", f)
	}
	// Only what is sent changes; built-in external accounts may change flags.
	e.ok(e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/1", url.Values{"hint": {"Mobile"}, "required": {"true"}}))
	e.ok(e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/8", url.Values{"name": {"GitHub username"}, "required": {"true"}}))
	fields := e.profileFields("iago@zulip.com")
	if fields[0]["name"] != "Phone number" || fields[0]["hint"] != "Mobile" || fields[0]["required"] != true || fields[7]["required"] != true {
		t.Fatalf("updated %v %v", fields[0], fields[7])
	}
	// Dropping a choice clears the users who had chosen it: iago chose "1".
	e.ok(e.do("iago@zulip.com", "PATCH", "/realm/profile_fields/4", url.Values{"field_data": {`{"0":{"text":"Vim","order":"1"}}`}}))
	if pd := e.profileData("iago@zulip.com", 11); pd["4"] != nil {
		t.Fatalf("removed choice kept: %v", pd["4"])
	}
	if pd := e.profileData("iago@zulip.com", 10); pd["4"].(map[string]any)["value"] != "0" {
		t.Fatalf("hamlet's choice: %v", pd["4"])
	}
}

// profileData is user id's profile_data as email sees it.
func (e *apiEnv) profileData(email string, id int) map[string]any {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/users/"+jsonNumber(float64(id)), url.Values{"include_custom_profile_fields": {"true"}}))
	return body["user"].(map[string]any)["profile_data"].(map[string]any)
}

func TestHTTPDeleteAndReorderProfileFields(t *testing.T) {
	e := newUsersEnv(t)
	e.ok(e.do("iago@zulip.com", "DELETE", "/realm/profile_fields/2", nil))
	status, body := e.do("iago@zulip.com", "DELETE", "/realm/profile_fields/2", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Field id 2 not found.")
	if pd := e.profileData("iago@zulip.com", 10); pd["2"] != nil || pd["1"] == nil {
		t.Fatalf("values after delete: %v", pd)
	}
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/profile_fields", url.Values{"order": {"[9, 8, 7]"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid order mapping.")
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/profile_fields", nil)
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'order' argument")
	e.ok(e.do("iago@zulip.com", "PATCH", "/realm/profile_fields", url.Values{"order": {"[9, 8, 7, 6, 5, 4, 3, 1, 42]"}}))
	fields := e.profileFields("hamlet@zulip.com")
	if !reflect.DeepEqual(fieldIDs(fields), []float64{9, 8, 7, 6, 5, 4, 3, 1}) || fields[0]["order"] != 0.0 || fields[7]["order"] != 7.0 {
		t.Fatalf("reordered %v", fields)
	}
	// IDs are not reused after a delete.
	body = e.ok(e.do("iago@zulip.com", "POST", "/realm/profile_fields", url.Values{"name": {"New"}, "field_type": {"1"}}))
	if body["id"] != 10.0 {
		t.Fatalf("new id %v", body["id"])
	}
	_, reg := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["custom_profile_fields"]`}})
	if got := reg["custom_profile_fields"].([]any); len(got) != 9 || got[0].(map[string]any)["id"] != 9.0 {
		t.Fatalf("register %v", got)
	}
}
