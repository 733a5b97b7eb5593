package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPUserGroups(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("hamlet@zulip.com", "POST", "/user_groups/create", url.Values{
		"name": {"inner"}, "description": {"d"}, "members": {"[12]"},
	})
	e.wantSuccess(status, body)
	inner := jsonNumber(body["group_id"])
	status, body = e.do("hamlet@zulip.com", "POST", "/user_groups/create", url.Values{
		"name": {"outer"}, "members": {"[10]"}, "subgroups": {"[" + inner + "]"},
	})
	e.wantSuccess(status, body)
	outer := jsonNumber(body["group_id"])
	status, body = e.do("cordelia@zulip.com", "GET", "/user_groups/"+outer+"/members/12", nil)
	e.wantSuccess(status, body)
	if body["is_user_group_member"] != true {
		t.Fatalf("recursive membership %v", body)
	}
	_, body = e.do("cordelia@zulip.com", "GET", "/user_groups/"+outer+"/members/12", url.Values{"direct_member_only": {"true"}})
	if body["is_user_group_member"] != false {
		t.Fatalf("direct membership %v", body)
	}
	_, body = e.do("cordelia@zulip.com", "GET", "/user_groups/"+outer+"/members", nil)
	if m := body["members"].([]any); len(m) != 2 {
		t.Fatalf("members %v", body)
	}
	_, body = e.do("cordelia@zulip.com", "GET", "/user_groups/"+outer+"/subgroups", nil)
	if s := body["subgroups"].([]any); len(s) != 1 || jsonNumber(s[0]) != inner {
		t.Fatalf("subgroups %v", body)
	}
	// A cycle is refused and changes nothing.
	status, body = e.do("hamlet@zulip.com", "POST", "/user_groups/"+inner+"/subgroups", url.Values{"add": {"[" + outer + "]"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "User group "+inner+" is already a subgroup of one of the passed subgroups.")
	_, body = e.do("cordelia@zulip.com", "GET", "/user_groups/"+inner+"/subgroups", nil)
	if len(body["subgroups"].([]any)) != 0 {
		t.Fatal("a cycle was stored")
	}
	// In use as a subgroup: deactivation is refused with objections.
	status, body = e.do("hamlet@zulip.com", "POST", "/user_groups/"+inner+"/deactivate", nil)
	e.wantError(status, body, 400, "CANNOT_DEACTIVATE_GROUP_IN_USE", "")
	objs := body["objections"].([]any)
	if o := objs[0].(map[string]any); o["type"] != "subgroup" || jsonNumber(o["supergroup_ids"].([]any)[0]) != outer {
		t.Fatalf("objections %v", objs)
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/user_groups/"+outer+"/members", url.Values{"delete_subgroups": {"[" + inner + "]"}, "add": {"[8]"}})
	e.wantSuccess(status, body)
	status, body = e.do("hamlet@zulip.com", "POST", "/user_groups/"+inner+"/deactivate", nil)
	e.wantSuccess(status, body)
	_, body = e.do("hamlet@zulip.com", "GET", "/user_groups", nil)
	for _, g := range body["user_groups"].([]any) {
		if jsonNumber(g.(map[string]any)["id"]) == inner {
			t.Fatal("deactivated groups are hidden by default")
		}
	}
	_, body = e.do("hamlet@zulip.com", "GET", "/user_groups", url.Values{"include_deactivated_groups": {"true"}})
	found := false
	for _, g := range body["user_groups"].([]any) {
		found = found || (jsonNumber(g.(map[string]any)["id"]) == inner && g.(map[string]any)["deactivated"] == true)
	}
	if !found {
		t.Fatal("include_deactivated_groups shows it")
	}
	status, body = e.do("hamlet@zulip.com", "PATCH", "/user_groups/"+inner, url.Values{"name": {"inner v2"}, "deactivated": {"false"}})
	e.wantSuccess(status, body)

	cases := []struct {
		email, method, path string
		form                url.Values
		code, msg           string
	}{
		{"hamlet@zulip.com", "POST", "/user_groups/create", url.Values{"name": {"role:x"}}, "BAD_REQUEST", "User group name cannot start with 'role:'."},
		{"hamlet@zulip.com", "POST", "/user_groups/create", nil, "REQUEST_VARIABLE_MISSING", "Missing 'name' argument"},
		{"hamlet@zulip.com", "POST", "/user_groups/create", url.Values{"name": {"x"}, "members": {"[999]"}}, "BAD_REQUEST", "Invalid user ID: 999"},
		{"hamlet@zulip.com", "POST", "/user_groups/create", url.Values{"name": {"x"}, "members": {"[1,"}}, "BAD_REQUEST", `Argument "members" is not valid JSON.`},
		{"hamlet@zulip.com", "GET", "/user_groups/999/members/10", nil, "BAD_REQUEST", "Invalid user group"},
		{"hamlet@zulip.com", "GET", "/user_groups/" + outer + "/members/999", nil, "BAD_REQUEST", "No such user"},
		{"hamlet@zulip.com", "POST", "/user_groups/999/subgroups", url.Values{"add": {"[1]"}}, "BAD_REQUEST", "Invalid user group"},
		{"hamlet@zulip.com", "POST", "/user_groups/" + outer + "/subgroups", url.Values{"add": {"[999]"}}, "BAD_REQUEST", "Invalid user group"},
		{"cordelia@zulip.com", "PATCH", "/user_groups/" + outer, url.Values{"name": {"mine"}}, "BAD_REQUEST", "Insufficient permission"},
		{"iago@zulip.com", "PATCH", "/user_groups/11", url.Values{"name": {"renamed"}}, "BAD_REQUEST", "Insufficient permission"},
	}
	for _, c := range cases {
		status, body := e.do(c.email, c.method, c.path, c.form)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	// Bots may ask about membership at feature level 496.
	status, body = e.do("default-bot@zulip.com", "GET", "/user_groups/"+outer+"/members/10", nil)
	e.wantSuccess(status, body)
}
