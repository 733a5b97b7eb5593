package httpapi

import (
	"net/url"
	"strings"
	"testing"
)

func TestHTTPChannelFolders(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["channel_folder","stream"]`}})
	frontend := url.Values{"name": {"Frontend"}, "description": {"Channels for **frontend** discussions"}}
	status, body := e.do("hamlet@zulip.com", "POST", "/channel_folders/create", frontend)
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	body = e.ok(e.do("iago@zulip.com", "POST", "/channel_folders/create", frontend))
	if body["channel_folder_id"] != float64(1) {
		t.Fatalf("created %v", body)
	}
	e.ok(e.do("iago@zulip.com", "POST", "/channel_folders/create", url.Values{"name": {"Backend"}, "description": {""}}))
	for _, c := range []struct {
		form url.Values
		code string
		msg  string
	}{
		{url.Values{"name": {"x"}}, "REQUEST_VARIABLE_MISSING", "Missing 'description' argument"},
		{url.Values{"description": {""}}, "REQUEST_VARIABLE_MISSING", "Missing 'name' argument"},
		{url.Values{"name": {" "}, "description": {""}}, "BAD_REQUEST", "Channel folder name can't be empty."},
		{url.Values{"name": {"FRONTEND"}, "description": {""}}, "BAD_REQUEST", "Channel folder name already in use"},
		{url.Values{"name": {strings.Repeat("x", 61)}, "description": {""}}, "BAD_REQUEST", "name is too long (limit: 60 characters)"},
	} {
		status, body := e.do("iago@zulip.com", "POST", "/channel_folders/create", c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}

	// Updates: a rename, a description, archiving; errors change nothing.
	status, body = e.do("hamlet@zulip.com", "PATCH", "/channel_folders/1", url.Values{"name": {"Web"}})
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.do("iago@zulip.com", "PATCH", "/channel_folders/999", url.Values{"name": {"Web"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel folder ID")
	status, body = e.do("iago@zulip.com", "PATCH", "/channel_folders/1", url.Values{"is_archived": {"maybe"}})
	e.fail(status, body, 400, "BAD_REQUEST", "is_archived is not a boolean")
	e.ok(e.do("iago@zulip.com", "PATCH", "/channel_folders/1", url.Values{"name": {"Web frontend"}, "description": {"New"}}))
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/3", url.Values{"folder_id": {"1"}}))
	status, body = e.do("iago@zulip.com", "PATCH", "/channel_folders/1", url.Values{"is_archived": {"true"}})
	e.fail(status, body, 400, "BAD_REQUEST", "You need to remove all the channels from this folder to archive it.")
	e.ok(e.do("iago@zulip.com", "PATCH", "/streams/3", url.Values{"folder_id": {"null"}}))
	e.ok(e.do("iago@zulip.com", "PATCH", "/channel_folders/2", url.Values{"is_archived": {"true"}}))

	// Listing: archived folders only when asked, for every user.
	list := e.ok(e.do("polonius@zulip.com", "GET", "/channel_folders", nil))["channel_folders"].([]any)
	if len(list) != 1 {
		t.Fatalf("folders %v", list)
	}
	if f := list[0].(map[string]any); f["id"] != float64(1) || f["name"] != "Web frontend" || f["description"] != "New" ||
		f["rendered_description"] != "<p>New</p>" || f["creator_id"] != float64(11) || f["order"] != float64(1) || f["is_archived"] != false {
		t.Fatalf("folder %v", f)
	}
	all := e.ok(e.do("hamlet@zulip.com", "GET", "/channel_folders", url.Values{"include_archived": {"true"}}))["channel_folders"].([]any)
	if len(all) != 2 || all[1].(map[string]any)["is_archived"] != true {
		t.Fatalf("all folders %v", all)
	}

	// Reordering.
	for _, c := range []struct {
		form url.Values
		code string
		msg  string
	}{
		{nil, "REQUEST_VARIABLE_MISSING", "Missing 'order' argument"},
		{url.Values{"order": {"[1]"}}, "BAD_REQUEST", "Invalid order mapping."},
		{url.Values{"order": {"1,2"}}, "BAD_REQUEST", `Argument "order" is not valid JSON.`},
	} {
		status, body := e.do("iago@zulip.com", "PATCH", "/channel_folders", c.form)
		e.fail(status, body, 400, c.code, c.msg)
	}
	status, body = e.do("hamlet@zulip.com", "PATCH", "/channel_folders", url.Values{"order": {"[2,1]"}})
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	e.ok(e.do("iago@zulip.com", "PATCH", "/channel_folders", url.Values{"order": {"[2,1]"}}))
	all = e.ok(e.do("hamlet@zulip.com", "GET", "/channel_folders", url.Values{"include_archived": {"true"}}))["channel_folders"].([]any)
	if all[0].(map[string]any)["id"] != float64(2) || all[0].(map[string]any)["order"] != float64(0) {
		t.Fatalf("reordered %v", all)
	}

	// A channel created in a folder, and register's state.
	e.ok(e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"web"}]`}, "folder_id": {"1"}}))
	status, body = e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"api"}]`}, "folder_id": {"7"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid channel folder ID")
	_, state := e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["channel_folders","subscription","realm"]`}})
	if folders := state["channel_folders"].([]any); len(folders) != 2 {
		t.Fatalf("register folders %v", folders)
	}
	if state["max_channel_folder_name_length"] != float64(60) || state["max_channel_folder_description_length"] != float64(1024) {
		t.Fatal("register limits")
	}
	found := false
	for _, s := range state["subscriptions"].([]any) {
		if s := s.(map[string]any); s["name"] == "web" {
			found = s["folder_id"] == float64(1)
		}
	}
	if !found {
		t.Fatal("web is not in its folder")
	}

	var ops []string
	for _, ev := range e.events("hamlet@zulip.com", qid, -1, false) {
		ev := ev.(map[string]any)
		op := ev["type"].(string) + ":" + ev["op"].(string)
		if ev["type"] == "stream" && ev["op"] == "update" {
			op += ":" + ev["property"].(string)
		}
		ops = append(ops, op)
	}
	want := "channel_folder:add channel_folder:add channel_folder:update channel_folder:update stream:update:folder_id " +
		"stream:update:folder_id channel_folder:update channel_folder:reorder stream:create"
	if strings.Join(ops, " ") != want {
		t.Fatalf("events %v", ops)
	}
}
