package httpapi

import (
	"net/url"
	"slices"
	"strconv"
	"testing"
)

// TestEventsOfEveryKindOverHTTP drives every kind of change the server
// announces through the HTTP API and reads the events back over GET
// /events, for a modern client and a legacy one, so that the contract
// check validates each event against its schema.
func TestEventsOfEveryKindOverHTTP(t *testing.T) {
	e := newMsgEnv(t)
	modern := `{"notification_settings_null":true,"linkifier_url_template":true,"bulk_message_deletion":true,
"stream_typing_notifications":true,"user_avatar_url_field_optional":true,"empty_topic_name":true}`
	iagoQ, _ := e.register("iago@zulip.com", url.Values{"client_capabilities": {modern}, "apply_markdown": {"true"}})
	hamletQ, _ := e.register("hamlet@zulip.com", url.Values{})

	// Messages, typing, topics.
	_, sent := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"castle"}, "content": {"hi @**Iago**"}})
	e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"direct"}, "to": {"[10]"}, "content": {"psst"}})
	e.do("hamlet@zulip.com", "POST", "/typing", url.Values{"op": {"start"}, "to": {"[11]"}})
	e.do("hamlet@zulip.com", "POST", "/typing", url.Values{"op": {"stop"}, "type": {"stream"}, "stream_id": {"3"}, "topic": {"castle"}})
	e.do("iago@zulip.com", "POST", "/user_topics", url.Values{"stream_id": {"3"}, "topic": {"castle"}, "visibility_policy": {"1"}})
	e.do("hamlet@zulip.com", "POST", "/user_topics", url.Values{"stream_id": {"3"}, "topic": {"castle"}, "visibility_policy": {"1"}})
	// Subscriptions and channels.
	e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"tower"}]`}, "principals": {"[10,11]"}})
	e.do("hamlet@zulip.com", "DELETE", "/users/me/subscriptions", url.Values{"subscriptions": {`["tower"]`}})
	// Users and bots.
	e.do("iago@zulip.com", "POST", "/bots", url.Values{"full_name": {"Helper"}, "short_name": {"helper"}})
	// Groups.
	_, created := e.do("iago@zulip.com", "POST", "/user_groups/create", url.Values{"name": {"crew"}, "members": {"[11]"}})
	gid, _ := created["group_id"].(float64)
	g := "/user_groups/" + strconv.Itoa(int(gid))
	e.do("iago@zulip.com", "PATCH", g, url.Values{"description": {"the crew"}})
	e.do("iago@zulip.com", "POST", g+"/members", url.Values{"add": {"[10]"}})
	e.do("iago@zulip.com", "POST", g+"/members", url.Values{"delete": {"[10]"}})
	_, deck := e.do("iago@zulip.com", "POST", "/user_groups/create", url.Values{"name": {"deck"}, "members": {"[10]"}})
	sub := "[" + strconv.Itoa(int(deck["group_id"].(float64))) + "]"
	e.do("iago@zulip.com", "POST", g+"/subgroups", url.Values{"add": {sub}})
	e.do("iago@zulip.com", "POST", g+"/subgroups", url.Values{"delete": {sub}})
	e.do("iago@zulip.com", "POST", g+"/deactivate", nil)
	// Linkifiers, snippets.
	e.do("iago@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`T(?P<id>[0-9]+)`}, "url_template": {"https://t/{id}"}})
	_, snip := e.do("iago@zulip.com", "POST", "/saved_snippets", url.Values{"title": {"t"}, "content": {"c"}})
	sid, _ := snip["saved_snippet_id"].(float64)
	e.do("iago@zulip.com", "DELETE", "/saved_snippets/"+strconv.Itoa(int(sid)), nil)
	// Reactions and custom emoji.
	mid, _ := sent["id"].(float64)
	reactions := "/messages/" + strconv.Itoa(int(mid)) + "/reactions"
	e.do("hamlet@zulip.com", "POST", reactions, url.Values{"emoji_name": {"zulip"}})
	e.do("hamlet@zulip.com", "DELETE", reactions, url.Values{"emoji_name": {"zulip"}, "reaction_type": {"service_extra_emoji"}})
	e.uploadEmoji("iago@zulip.com", "crab", emojiFile{"f", "crab.png", pngBytes(t)})
	// Navigation views.
	e.do("iago@zulip.com", "POST", "/navigation_views", url.Values{"fragment": {"narrow/is/alerted"}, "is_pinned": {"true"}, "name": {"Alerts"}})
	e.do("iago@zulip.com", "PATCH", "/navigation_views/narrow%2Fis%2Falerted", url.Values{"is_pinned": {"false"}})
	e.do("iago@zulip.com", "DELETE", "/navigation_views/narrow%2Fis%2Falerted", nil)
	e.do("iago@zulip.com", "PATCH", "/realm/user_settings_defaults", url.Values{"enter_sends": {"true"}})
	// Edit typing, and a role change (which moves system groups).
	e.do("hamlet@zulip.com", "POST", "/messages/"+strconv.Itoa(int(mid))+"/typing", url.Values{"op": {"start"}})
	e.do("iago@zulip.com", "PATCH", "/users/12", url.Values{"role": {"300"}, "full_name": {"Othello"}})
	// Deleting the channel's only message changes its first_message_id.
	e.do("iago@zulip.com", "DELETE", "/messages/"+strconv.Itoa(int(mid)), nil)

	got := map[string][]string{
		"iago":   eventOps(e.events("iago@zulip.com", iagoQ, -1, false)),
		"hamlet": eventOps(e.events("hamlet@zulip.com", hamletQ, -1, false)),
	}
	for who, wants := range map[string][]string{
		"iago": {"message:", "typing:start", "typing:stop", "user_topic:", "stream:create", "subscription:add",
			"subscription:peer_remove", "realm_user:add", "realm_bot:add", "user_group:add", "user_group:update",
			"user_group:add_members", "user_group:remove_members", "user_group:add_subgroups",
			"user_group:remove_subgroups", "realm_linkifiers:", "saved_snippets:add", "saved_snippets:remove",
			"reaction:add", "reaction:remove", "realm_emoji:update", "delete_message:", "stream:update",
			"typing_edit_message:start", "realm_user:update", "navigation_view:add", "navigation_view:update", "navigation_view:remove",
			"realm_user_settings_defaults:update"},
		"hamlet": {"message:", "muted_topics:", "user_topic:", "subscription:add", "subscription:remove",
			"realm_user:add", "reaction:add", "reaction:remove", "realm_emoji:update", "delete_message:"},
	} {
		for _, want := range wants {
			if !slices.Contains(got[who], want) {
				t.Errorf("%s lacks %s: %v", who, want, got[who])
			}
		}
	}
}

// Over HTTP, a guest's register with all_public_streams is refused with
// Zulip's answer, and opens no queue.
func TestGuestCannotRegisterAllPublicStreams(t *testing.T) {
	e := newMsgEnv(t)
	st, body := e.do("polonius@zulip.com", "POST", "/register", url.Values{"all_public_streams": {"true"}})
	e.fail(st, body, 400, "BAD_REQUEST", "User not authorized for this query")
	if n := e.realm.QueueCount(); n != 0 {
		t.Fatalf("%d queues after a refused register", n)
	}
	st, body = e.do("othello@zulip.com", "POST", "/register", url.Values{"all_public_streams": {"true"}})
	if st != 200 || body["queue_id"] == nil {
		t.Fatalf("a member's all_public_streams register: %d %v", st, body)
	}
}
