package httpapi

import (
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/realm"
)

// patchRealm sends PATCH /realm as email.
func (e *apiEnv) patchRealm(email string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	return e.do(email, "PATCH", "/realm", form)
}

// realmSection is the realm section of email's register answer.
func (e *apiEnv) realmSection(email string) map[string]any {
	e.t.Helper()
	_, body := e.register(email, url.Values{"fetch_event_types": {`["realm"]`}})
	return body
}

// realmEvents are the realm events of queue qid after last.
func (e *apiEnv) realmEvents(email, qid string, last int) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	for _, ev := range e.events(email, qid, last, false) {
		out = append(out, ev.(map[string]any))
	}
	return out
}

// mergedRealmSettings merges realm setting events as a correct client
// does (an update's property and value as a one-key update_dict), and
// lists each event's form, "op:key,key", in the order sent.
func mergedRealmSettings(t *testing.T, evs []map[string]any) (map[string]any, []string) {
	t.Helper()
	merged, forms := map[string]any{}, []string(nil)
	for _, ev := range evs {
		switch {
		case ev["type"] == "realm" && ev["op"] == "update":
			merged[ev["property"].(string)] = ev["value"]
			forms = append(forms, "update:"+ev["property"].(string))
		case ev["type"] == "realm" && ev["op"] == "update_dict" && ev["property"] == "default":
			data := ev["data"].(map[string]any)
			maps.Copy(merged, data)
			forms = append(forms, "update_dict:"+strings.Join(slices.Sorted(maps.Keys(data)), ","))
		default:
			t.Fatalf("event %v", ev)
		}
	}
	return merged, forms
}

func TestHTTPUpdateRealmNeedsAnAdministrator(t *testing.T) {
	e := newChanEnv(t)
	before := e.realm.Settings()
	for _, email := range []string{"hamlet@zulip.com", "shiva@zulip.com", "polonius@zulip.com"} {
		status, body := e.patchRealm(email, url.Values{"name": {"Mine"}})
		e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
		// The role is checked before the parameters are.
		status, body = e.patchRealm(email, url.Values{"allow_message_editing": {"maybe"}, "can_resolve_topics_group": {"12"}})
		e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	}
	status, body := e.patchRealm("iago@zulip.com", url.Values{"allow_message_editing": {"maybe"}})
	e.fail(status, body, 400, "BAD_REQUEST", "allow_message_editing is not a boolean")
	if diff := cmp.Diff(before, e.realm.Settings()); diff != "" {
		t.Fatalf("settings changed (-before +after):\n%s", diff)
	}
}

// One request changing every plain setting: the answer lists the changes
// as Zulip's does, register shows them, and every user gets one event per
// setting in Zulip's form for it (the contract check validates shapes).
func TestHTTPUpdateRealmPlainSettings(t *testing.T) {
	e := newChanEnv(t)
	hamletQ, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	guestQ, _ := e.register("polonius@zulip.com", url.Values{"event_types": {`["realm"]`}})
	status, body := e.patchRealm("iago@zulip.com", url.Values{
		"name": {"Elsinore"}, "description": {"Something is **rotten**"}, "default_language": {"fr"},
		"allow_message_editing": {"false"}, "enable_spectator_access": {"false"}, "topics_policy": {"disable_empty_topic"},
		"message_content_edit_limit_seconds":          {"3600"},
		"message_content_delete_limit_seconds":        {`"unlimited"`},
		"move_messages_within_stream_limit_seconds":   {"60"},
		"move_messages_between_streams_limit_seconds": {`"unlimited"`},
	})
	got := e.ok(status, body)
	want := map[string]any{"result": "success", "msg": "",
		"name": "updated", "description": "updated", "default_language": "updated",
		"allow_message_editing": false, "enable_spectator_access": false, "topics_policy": float64(3),
		"message_content_edit_limit_seconds": float64(3600), "message_content_delete_limit_seconds": nil,
		"move_messages_within_stream_limit_seconds": float64(60), "move_messages_between_streams_limit_seconds": nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	wantData := map[string]any{
		"name": "Elsinore", "description": "Something is **rotten**", "default_language": "fr",
		"allow_message_editing": false, "enable_spectator_access": false,
		"mandatory_topics": true, "topics_policy": "disable_empty_topic",
		"message_content_edit_limit_seconds": float64(3600), "message_content_delete_limit_seconds": nil,
		"move_messages_within_stream_limit_seconds": float64(60), "move_messages_between_streams_limit_seconds": nil,
	}
	lastSeen := -1
	for _, q := range []struct{ email, id string }{{"hamlet@zulip.com", hamletQ}, {"polonius@zulip.com", guestQ}} {
		evs := e.realmEvents(q.email, q.id, -1)
		lastSeen = int(evs[len(evs)-1]["id"].(float64))
		data, forms := mergedRealmSettings(t, evs)
		if diff := cmp.Diff(wantData, data); diff != "" {
			t.Fatalf("%s: event data (-want +got):\n%s", q.email, diff)
		}
		wantForms := []string{"update:message_content_delete_limit_seconds", "update:move_messages_between_streams_limit_seconds",
			"update:name", "update:description", "update_dict:allow_message_editing", "update_dict:mandatory_topics,topics_policy",
			"update:default_language", "update:enable_spectator_access", "update_dict:message_content_edit_limit_seconds",
			"update:move_messages_within_stream_limit_seconds"}
		if diff := cmp.Diff(wantForms, forms); diff != "" {
			t.Fatalf("%s: events (-want +got):\n%s", q.email, diff)
		}
	}
	st := e.realmSection("othello@zulip.com")
	for key, v := range map[string]any{
		"realm_name": "Elsinore", "realm_description": "Something is **rotten**", "realm_default_language": "fr",
		"realm_allow_message_editing": false, "realm_enable_spectator_access": false,
		"realm_mandatory_topics": true, "realm_topics_policy": "disable_empty_topic",
		"realm_message_content_edit_limit_seconds": float64(3600), "realm_message_content_delete_limit_seconds": nil,
		"realm_move_messages_within_stream_limit_seconds": float64(60), "realm_move_messages_between_streams_limit_seconds": nil,
	} {
		if got, ok := st[key]; !ok || !cmp.Equal(got, v) {
			t.Errorf("register %s = %v, want %v", key, got, v)
		}
	}

	// Nothing to change, or the same values: success, no changes, no event.
	for _, form := range []url.Values{{}, {"name": {"Elsinore"}, "allow_message_editing": {"false"}}} {
		status, body := e.patchRealm("iago@zulip.com", form)
		if diff := cmp.Diff(map[string]any{"result": "success", "msg": ""}, e.ok(status, body)); diff != "" {
			t.Fatalf("answer (-want +got):\n%s", diff)
		}
	}
	if evs := e.realmEvents("hamlet@zulip.com", hamletQ, lastSeen); len(evs) != 0 {
		t.Fatalf("events for no change: %v", evs)
	}
}

// Group-valued settings take {"new": value, "old": value}; value is a
// group ID or an anonymous group. Events and register carry the
// group-setting value.
func TestHTTPUpdateRealmGroupSettings(t *testing.T) {
	e := newChanEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	form := url.Values{}
	for _, name := range realm.RealmGroupSettingNames() {
		form.Set(name, `{"new": 12}`)
	}
	form.Set("can_access_all_users_group", `{"new": 14}`)          // role:everyone or role:members only
	form.Set("can_set_delete_message_policy_group", `{"new": 11}`) // role:moderators by default
	form.Set("can_resolve_topics_group", `{"new": {"direct_members": [12, 8], "direct_subgroups": [17]}, "old": 15}`)
	form.Set("can_mention_many_users_group", `{"new": {"direct_members": [], "direct_subgroups": [14]}, "old": 11}`)
	status, body := e.patchRealm("desdemona@zulip.com", form)
	got := e.ok(status, body)
	anon := map[string]any{"direct_members": []any{float64(12), float64(8)}, "direct_subgroups": []any{float64(17)}}
	if got["can_resolve_topics_group"] == nil || !cmp.Equal(got["can_resolve_topics_group"], anon) ||
		got["can_mention_many_users_group"] != float64(14) || got["can_create_groups"] != float64(12) {
		t.Fatalf("answer %v", got)
	}
	evs := e.realmEvents("hamlet@zulip.com", qid, -1)
	if len(evs) != len(realm.RealmGroupSettingNames()) {
		t.Fatalf("events %v, want one update_dict per setting", evs)
	}
	data, _ := mergedRealmSettings(t, evs)
	if len(data) != len(realm.RealmGroupSettingNames()) {
		t.Fatalf("event data %v", data)
	}
	stored := map[string]any{"direct_members": []any{float64(8), float64(12)}, "direct_subgroups": []any{float64(17)}}
	if !cmp.Equal(data["can_resolve_topics_group"], stored) || data["can_mention_many_users_group"] != float64(14) ||
		data["can_manage_all_groups"] != float64(12) {
		t.Fatalf("event data %v", data)
	}
	st := e.realmSection("othello@zulip.com")
	if !cmp.Equal(st["realm_can_resolve_topics_group"], stored) || st["realm_can_mention_many_users_group"] != float64(14) ||
		st["realm_wildcard_mention_policy"] != float64(2) || st["realm_can_create_groups"] != float64(12) ||
		st["realm_can_manage_all_groups"] != float64(12) || st["realm_can_delete_any_message_group"] != float64(12) {
		t.Fatalf("register %v", st)
	}
}

// Every refused request answers Zulip's error and changes nothing.
func TestHTTPUpdateRealmRefusals(t *testing.T) {
	e := newChanEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	before := e.realm.Settings()
	ok := url.Values{"name": {"Changed"}, "allow_message_editing": {"false"}}
	with := func(k, v string) url.Values {
		f := url.Values{}
		for key, vals := range ok {
			f[key] = vals
		}
		f.Set(k, v)
		return f
	}
	for _, c := range []struct {
		email string
		form  url.Values
		code  string
		msg   string
	}{
		{"iago@zulip.com", with("name", strings.Repeat("n", 41)), "BAD_REQUEST", "name is too long (limit: 40 characters)"},
		{"iago@zulip.com", with("description", strings.Repeat("d", 1001)), "BAD_REQUEST", "description is too long (limit: 1000 characters)"},
		{"iago@zulip.com", with("default_language", "klingon"), "BAD_REQUEST", "Invalid language 'klingon'"},
		{"iago@zulip.com", with("topics_policy", "inherit"), "BAD_REQUEST", "Invalid topics_policy"},
		{"iago@zulip.com", with("enable_spectator_access", "maybe"), "BAD_REQUEST", "enable_spectator_access is not a boolean"},
		{"iago@zulip.com", with("message_content_edit_limit_seconds", "unlimited"), "BAD_REQUEST", `Argument "message_content_edit_limit_seconds" is not valid JSON.`},
		{"iago@zulip.com", with("message_content_edit_limit_seconds", "1.5"), "BAD_REQUEST", "message_content_edit_limit_seconds is not an integer"},
		{"iago@zulip.com", with("message_content_delete_limit_seconds", "null"), "BAD_REQUEST", "message_content_delete_limit_seconds is not an integer"},
		{"iago@zulip.com", with("move_messages_within_stream_limit_seconds", `"forever"`), "REQUEST_VARIABLE_INVALID", "Bad value for 'move_messages_within_stream_limit_seconds': forever"},
		{"iago@zulip.com", with("move_messages_between_streams_limit_seconds", "0"), "REQUEST_VARIABLE_INVALID", "Bad value for 'move_messages_between_streams_limit_seconds': 0"},
		{"iago@zulip.com", with("can_resolve_topics_group", "12"), "BAD_REQUEST", "can_resolve_topics_group is not a dict"},
		{"iago@zulip.com", with("can_resolve_topics_group", "{"), "BAD_REQUEST", `Argument "can_resolve_topics_group" is not valid JSON.`},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"old": 15}`), "BAD_REQUEST", `can_resolve_topics_group["new"] is missing`},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": "12"}`), "BAD_REQUEST", `can_resolve_topics_group["new"] is not an integer or a dict of direct members and subgroups`},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": 12, "old": [15]}`), "BAD_REQUEST", `can_resolve_topics_group["old"] is not an integer or a dict of direct members and subgroups`},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": 0}`), "BAD_REQUEST", "Invalid user group"},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": 999}`), "BAD_REQUEST", "Invalid user group"},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": 16}`), "BAD_REQUEST", "'can_resolve_topics_group' setting cannot be set to 'role:internet' group."},
		{"iago@zulip.com", with("can_add_subscribers_group", `{"new": 15}`), "BAD_REQUEST", "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group."},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": {"direct_members": [999], "direct_subgroups": []}}`), "BAD_REQUEST", "Invalid user ID: 999"},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": {"direct_members": [10], "direct_subgroups": [999]}}`), "BAD_REQUEST", "Invalid user group ID: 999"},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": 12, "old": 14}`), "EXPECTATION_MISMATCH", "'old' value does not match the expected value."},
		{"iago@zulip.com", with("can_resolve_topics_group", `{"new": 12, "old": 0}`), "EXPECTATION_MISMATCH", "'old' value does not match the expected value."},
		{"iago@zulip.com", with("can_create_groups", `{"new": 11}`), "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"iago@zulip.com", with("can_manage_all_groups", `{"new": 11}`), "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"desdemona@zulip.com", with("can_manage_all_groups", `{"new": 9}`), "BAD_REQUEST", "'can_manage_all_groups' setting cannot be set to 'role:nobody' group."},
	} {
		status, body := e.patchRealm(c.email, c.form)
		e.fail(status, body, 400, c.code, c.msg)
		if diff := cmp.Diff(before, e.realm.Settings()); diff != "" {
			t.Fatalf("%v changed settings (-before +after):\n%s", c.form, diff)
		}
	}
	status, body := e.patchRealm("iago@zulip.com", with("message_content_edit_limit_seconds", "-1"))
	e.fail(status, body, 400, "REQUEST_VARIABLE_INVALID", "Bad value for 'message_content_edit_limit_seconds': -1")
	if body["var_name"] != "message_content_edit_limit_seconds" || body["bad_value"] != float64(-1) {
		t.Fatalf("error %v", body)
	}
	if evs := e.realmEvents("hamlet@zulip.com", qid, -1); len(evs) != 0 {
		t.Fatalf("events after refusals: %v", evs)
	}
}

// Parameters PATCH /realm does not take here come back as ignored:
// empty_topic_display_name and email_address_visibility are not realm
// settings on Zulip (the first is fixed, the second is a user setting
// since feature level 163), wildcard_mention_policy went at 352, and
// mandatory_topics gave way to topics_policy at 392, bot_creation_policy
// to can_create_bots_group at 344.
func TestHTTPUpdateRealmIgnoredParameters(t *testing.T) {
	e := newChanEnv(t)
	before := e.realm.Settings()
	status, body := e.patchRealm("iago@zulip.com", url.Values{
		"empty_topic_display_name": {"chat"}, "email_address_visibility": {"1"}, "wildcard_mention_policy": {"1"},
		"mandatory_topics": {"true"}, "bot_creation_policy": {"1"},
	})
	got := e.success(status, body)
	want := []any{"bot_creation_policy", "email_address_visibility", "empty_topic_display_name", "mandatory_topics", "wildcard_mention_policy"}
	if diff := cmp.Diff(want, got["ignored_parameters_unsupported"]); diff != "" {
		t.Fatalf("ignored (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, e.realm.Settings()); diff != "" {
		t.Fatalf("settings changed (-before +after):\n%s", diff)
	}
}

// Below feature level 392 the parameter is mandatory_topics, and
// topics_policy is unknown.
func TestHTTPUpdateRealmMandatoryTopicsBeforeLevel392(t *testing.T) {
	e := newChanEnv(t, realmFeatureLevel(391, "11.0-dev-391"))
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	status, body := e.patchRealm("iago@zulip.com", url.Values{"mandatory_topics": {"true"}, "topics_policy": {"allow_empty_topic"}})
	got := e.success(status, body)
	if got["mandatory_topics"] != true || !cmp.Equal(got["ignored_parameters_unsupported"], []any{"topics_policy"}) {
		t.Fatalf("answer %v", got)
	}
	evs := e.realmEvents("hamlet@zulip.com", qid, -1)
	if len(evs) != 1 || evs[0]["op"] != "update" || evs[0]["property"] != "mandatory_topics" || evs[0]["value"] != true {
		t.Fatalf("events %v", evs)
	}
	if st := e.realmSection("othello@zulip.com"); st["realm_mandatory_topics"] != true || st["realm_topics_policy"] != nil {
		t.Fatalf("register %v", st)
	}
}

// authentication_methods is a JSON object: an owner's change is
// answered, announced and turns password login off over HTTP; bad JSON
// is refused and changes nothing.
func TestHTTPUpdateRealmAuthenticationMethods(t *testing.T) {
	e := newChanEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm"]`}})
	for _, bad := range []struct{ value, msg string }{
		{`{"Email": false`, `Argument "authentication_methods" is not valid JSON.`},
		{`["Email"]`, "authentication_methods is not a dict"},
		{`{"Email": "no"}`, "authentication_methods[Email] is not a boolean"},
	} {
		status, body := e.patchRealm("desdemona@zulip.com", url.Values{"authentication_methods": {bad.value}})
		e.fail(status, body, 400, "BAD_REQUEST", bad.msg)
	}
	status, body := e.patchRealm("iago@zulip.com", url.Values{"authentication_methods": {`{"Email": false, "Dev": true}`}})
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	if got := e.realm.Settings().AuthenticationMethods; !got.Email || !got.Dev {
		t.Fatalf("refused requests changed the methods: %+v", got)
	}
	status, body = e.patchRealm("desdemona@zulip.com", url.Values{"authentication_methods": {`{"Email": false, "Dev": true}`}})
	got := e.ok(status, body)
	if diff := cmp.Diff(map[string]any{"Email": false, "Dev": true}, got["authentication_methods"]); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	merged, forms := mergedRealmSettings(t, e.realmEvents("hamlet@zulip.com", qid, -1))
	wantMethods := map[string]any{"Email": map[string]any{"enabled": false, "available": true}, "Dev": map[string]any{"enabled": true, "available": true}}
	if diff := cmp.Diff(wantMethods, merged["authentication_methods"]); diff != "" || !slices.Equal(forms, []string{"update_dict:authentication_methods"}) {
		t.Errorf("events %v (-want +got):\n%s", forms, diff)
	}
	status, body = e.do("", "POST", "/fetch_api_key", url.Values{"username": {"hamlet@zulip.com"}, "password": {"x"}})
	e.fail(status, body, 401, "PASSWORD_AUTH_DISABLED", "Password authentication is disabled in this organization")
}
