package httpapi

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// refused asserts a 400 refusal with code and msg.
func refused(e *apiEnv) func(int, map[string]any) func(code, msg string) {
	return func(status int, body map[string]any) func(code, msg string) {
		return func(code, msg string) {
			e.t.Helper()
			e.wantError(status, body, http.StatusBadRequest, code, msg)
		}
	}
}

// hasKey reports whether a decoded object has the member.
func hasKey(v any, key string) bool {
	m, _ := v.(map[string]any)
	_, ok := m[key]
	return ok
}

// Below feature level 197 a channel's can_remove_subscribers_group is
// sent (in channel and subscription objects and in stream update
// events) as can_remove_subscribers_group_id; below 198 a user group's
// can_mention_group as can_mention_group_id.
func TestGroupSettingNamesFollowFeatureLevel(t *testing.T) {
	for _, c := range []struct {
		level        int
		channel, grp string
	}{
		{196, "can_remove_subscribers_group_id", "can_mention_group_id"},
		{197, "can_remove_subscribers_group", "can_mention_group_id"},
		{198, "can_remove_subscribers_group", "can_mention_group"},
	} {
		e := newChanEnv(t, realm.WithFeatureLevel(c.level, ""))
		qid, reg := e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["subscription","stream","realm_user_groups"]`}})
		for _, list := range []string{"subscriptions"} {
			item := reg[list].([]any)[0]
			if !hasKey(item, c.channel) || hasKey(item, map[string]string{"can_remove_subscribers_group": "can_remove_subscribers_group_id", "can_remove_subscribers_group_id": "can_remove_subscribers_group"}[c.channel]) {
				t.Errorf("level %d: register's %s carry %v", c.level, list, item)
			}
		}
		for _, g := range reg["realm_user_groups"].([]any) {
			other := map[string]string{"can_mention_group": "can_mention_group_id", "can_mention_group_id": "can_mention_group"}[c.grp]
			if !hasKey(g, c.grp) || hasKey(g, other) {
				t.Fatalf("level %d: register's group %v", c.level, g)
			}
		}
		stream := e.ok(e.do("iago@zulip.com", "GET", "/streams/2", nil))["stream"]
		if !hasKey(stream, c.channel) {
			t.Errorf("level %d: GET /streams/2 %v", c.level, stream)
		}
		param := map[bool]string{true: "can_remove_subscribers_group", false: "can_remove_subscribers_group_id"}[c.level >= 197]
		e.ok(e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{param: {"12"}}))
		e.ok(e.do("desdemona@zulip.com", "PATCH", "/user_groups/17", groupSettingForm(e.realm, "can_mention_group", 12)))
		var streamProperty string
		var groupData map[string]any
		for _, ev := range e.eventsOf("iago@zulip.com", qid, -1) {
			switch ev["type"] {
			case "stream":
				streamProperty, _ = ev["property"].(string)
			case "user_group":
				groupData, _ = ev["data"].(map[string]any)
			}
		}
		if streamProperty != c.channel || groupData[c.grp] != float64(12) || len(groupData) != 1 {
			t.Errorf("level %d: stream update of %q, user_group update of %v", c.level, streamProperty, groupData)
		}
	}
}

// From feature level 260 PATCH /user_groups/{id} takes a group setting as
// {"new", "old"} only, "old" checked; below it as a plain group ID only.
func TestGroupSettingChangeFormFollowsFeatureLevel(t *testing.T) {
	for _, level := range []int{259, 260} {
		e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		patch := func(v string) (int, map[string]any) {
			return e.do("desdemona@zulip.com", "PATCH", "/user_groups/17", url.Values{"can_mention_group": {v}})
		}
		if level < 260 {
			refused(e)(patch(`{"new": 12}`))("BAD_REQUEST", "can_mention_group is not an integer")
			e.ok(patch("12"))
			continue
		}
		refused(e)(patch("12"))("BAD_REQUEST", "can_mention_group is not a dict")
		refused(e)(patch(`{"old": 12}`))("BAD_REQUEST", `can_mention_group["new"] is missing`)
		refused(e)(patch(`{"new": 12, "old": 11}`))("EXPECTATION_MISMATCH", "'old' value does not match the expected value.")
		e.ok(patch(`{"new": 12}`))
		e.ok(patch(`{"new": 11, "old": 12}`))
	}
}

// Below feature level 320 a channel's can_remove_subscribers_group is the
// plain ID of a system group, in PATCH /streams and in new channels.
func TestRemoveSubscribersGroupParamFollowsFeatureLevel(t *testing.T) {
	for _, level := range []int{319, 320} {
		e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		patch := func(v string) (int, map[string]any) {
			return e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"can_remove_subscribers_group": {v}})
		}
		create := func(v string) (int, map[string]any) {
			return e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{
				"subscriptions": {`[{"name":"new one"}]`}, "can_remove_subscribers_group": {v}})
		}
		anonymous := `{"direct_members": [10], "direct_subgroups": []}`
		if level < 320 {
			refused(e)(patch(`{"new": 12}`))("BAD_REQUEST", "can_remove_subscribers_group is not an integer")
			refused(e)(patch("17"))("BAD_REQUEST", "'can_remove_subscribers_group' must be a system user group.")
			refused(e)(create(anonymous))("BAD_REQUEST", "can_remove_subscribers_group is not an integer")
			refused(e)(create("17"))("BAD_REQUEST", "'can_remove_subscribers_group' must be a system user group.")
			e.ok(patch("12"))
			e.ok(create("12"))
			continue
		}
		refused(e)(patch("12"))("BAD_REQUEST", "can_remove_subscribers_group is not a dict")
		e.ok(patch(`{"new": ` + anonymous + `}`))
		e.ok(create(anonymous))
	}
}

// From feature level 258 POST /user_groups/create and PATCH
// /user_groups/{id} take can_mention_group as an anonymous group, and GET
// /user_groups, register's realm_user_groups and user_group events send
// it as one; below it only group IDs are taken and sent.
func TestUserGroupAnonymousMentionSettingFollowsFeatureLevel(t *testing.T) {
	anonymous := `{"direct_members": [12, 12], "direct_subgroups": [11]}`
	want := map[string]any{"direct_members": []any{float64(12)}, "direct_subgroups": []any{float64(11)}}
	for _, level := range []int{257, 258} {
		e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["user_group"]`}})
		create := func(v string) (int, map[string]any) {
			return e.do("iago@zulip.com", "POST", "/user_groups/create", url.Values{
				"name": {"anon"}, "description": {""}, "members": {"[]"}, "can_mention_group": {v}})
		}
		patch := func(v string) (int, map[string]any) {
			return e.do("desdemona@zulip.com", "PATCH", "/user_groups/17", url.Values{"can_mention_group": {v}})
		}
		mentionOf := func(key string, id any) any {
			for _, g := range e.ok(e.do("iago@zulip.com", "GET", "/user_groups", nil))["user_groups"].([]any) {
				if g := g.(map[string]any); g[key] == id {
					return g["can_mention_group"]
				}
			}
			return nil
		}
		if level < 258 {
			refused(e)(create(anonymous))("BAD_REQUEST", "can_mention_group is not an integer")
			refused(e)(patch(anonymous))("BAD_REQUEST", "can_mention_group is not an integer")
			e.ok(patch("12"))
			if got := mentionOf("id", float64(17)); got != float64(12) {
				t.Errorf("level %d: can_mention_group %v", level, got)
			}
			continue
		}
		refused(e)(create(`{"direct_members": [12]}`))("BAD_REQUEST", "can_mention_group is not an integer or a dict of direct members and subgroups")
		e.ok(create(anonymous))
		e.ok(patch(anonymous))
		if got := mentionOf("name", "anon"); !reflect.DeepEqual(got, want) {
			t.Errorf("level %d: the new group's can_mention_group %v", level, got)
		}
		if got := mentionOf("id", float64(17)); !reflect.DeepEqual(got, want) {
			t.Errorf("level %d: group 17's can_mention_group %v", level, got)
		}
		_, reg := e.register("iago@zulip.com", url.Values{"fetch_event_types": {`["realm_user_groups"]`}})
		for _, g := range reg["realm_user_groups"].([]any) {
			if g := g.(map[string]any); g["id"] == float64(17) && !reflect.DeepEqual(g["can_mention_group"], want) {
				t.Errorf("register's group 17: %v", g)
			}
		}
		var updates []any
		for _, ev := range e.eventsOf("iago@zulip.com", qid, -1) {
			if ev["type"] == "user_group" && ev["op"] == "update" {
				updates = append(updates, ev["data"].(map[string]any)["can_mention_group"])
			}
		}
		if len(updates) != 1 || !reflect.DeepEqual(updates[0], want) {
			t.Errorf("update events carry %v", updates)
		}
	}
}
