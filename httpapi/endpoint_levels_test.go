package httpapi

import (
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// An endpoint newer than the advertised feature level answers exactly as
// an unknown endpoint does: 404 when its path has nothing at the level,
// 405 with the methods the level has otherwise; at its own level and
// after, it is served.
func TestEndpointsNewerThanTheLevelAreUnknown(t *testing.T) {
	old := newChanEnv(t, realm.WithFeatureLevel(300, ""))
	_, unknown := old.do("iago@zulip.com", "GET", "/no_such_endpoint", nil)
	for _, c := range []struct{ method, path string }{
		{"GET", "/navigation_views"},      // 390
		{"POST", "/navigation_views"},     // 390
		{"GET", "/reminders"},             // 399
		{"POST", "/channels/create"},      // 417
		{"GET", "/channel_folders"},       // 389
		{"POST", "/messages/1/typing"},    // 351
		{"DELETE", "/navigation_views/x"}, // 390: a method the level lacks on a path it lacks
	} {
		st, body := old.do("iago@zulip.com", c.method, c.path, url.Values{"name": {"x"}})
		if st != 404 || !reflect.DeepEqual(body, unknown) {
			t.Errorf("level 300: %s %s answered %d %v; an unknown endpoint answers 404 %v", c.method, c.path, st, body, unknown)
		}
	}
	// PATCH /saved_snippets/{id} came at 368, DELETE at 297.
	if st, body := old.do("iago@zulip.com", "PATCH", "/saved_snippets/1", nil); st != 405 || !reflect.DeepEqual(body["allowed_methods"], []any{"DELETE"}) {
		t.Errorf("level 300: PATCH /saved_snippets/1 answered %d %v, want 405 allowing DELETE", st, body)
	}
	// Endpoints at or below the level are served.
	for _, path := range []string{"/streams/3/email_address", "/saved_snippets"} { // 226, 297
		if st, body := old.do("iago@zulip.com", "GET", path, nil); st != 200 {
			t.Errorf("level 300: GET %s answered %d %v", path, st, body)
		}
	}
	// A path with an older method answers 405 with the methods of the
	// level: PATCH /channel_folders came at 414, GET at 389.
	mid := newChanEnv(t, realm.WithFeatureLevel(400, ""))
	st, body := mid.do("iago@zulip.com", "PATCH", "/channel_folders", url.Values{"order": {"[]"}})
	if st != 405 || !reflect.DeepEqual(body["allowed_methods"], []any{"GET", "HEAD"}) {
		t.Errorf("level 400: PATCH /channel_folders answered %d %v, want 405 allowing GET", st, body)
	}
	if st, body := mid.do("iago@zulip.com", "GET", "/channel_folders", nil); st != 200 {
		t.Errorf("level 400: GET /channel_folders answered %d %v", st, body)
	}
	// At the default level, every one is served.
	now := newChanEnv(t)
	for _, path := range []string{"/navigation_views", "/reminders", "/channel_folders"} {
		if st, body := now.do("iago@zulip.com", "GET", path, nil); st != 200 {
			t.Errorf("default level: GET %s answered %d %v", path, st, body)
		}
	}
	if st, body := now.do("iago@zulip.com", "POST", "/channels/create", url.Values{"name": {"new one"}, "subscribers": {"[11]"}}); st != 200 {
		t.Errorf("default level: POST /channels/create answered %d %v", st, body)
	}
}

// A level advertises the version of the release it belongs to, as a
// server of that release does; the default level keeps the fake's own.
func TestVersionFollowsTheLevel(t *testing.T) {
	for _, c := range []struct {
		level              int
		version, mergeBase string
	}{
		{185, "7.0", "7.0"},
		{237, "8.0", "8.0"},
		{277, "9.0", "9.0"},
		{278, "9.2", "9.2"},
		{279, "10.0-dev+minizulip", "10.0-dev"},
		{300, "10.0-dev+minizulip", "10.0-dev"},
		{371, "10.0", "10.0"},
		{372, "10.1", "10.1"},
		{373, "11.0-dev+minizulip", "11.0-dev"},
		{421, "11.0", "11.0"},
		{realm.DefaultFeatureLevel, realm.DefaultVersion, realm.DefaultMergeBase},
	} {
		e := newChanEnv(t, realm.WithFeatureLevel(c.level, ""))
		_, settings := e.do("", "GET", "/server_settings", nil)
		_, reg := e.do("iago@zulip.com", "POST", "/register", url.Values{"fetch_event_types": {`["realm_user"]`}})
		for what, got := range map[string]map[string]any{"server_settings": settings, "register": reg} {
			if got["zulip_version"] != c.version || got["zulip_merge_base"] != c.mergeBase || got["zulip_feature_level"] != float64(c.level) {
				t.Errorf("level %d: %s says version %v, merge base %v, level %v; want %s, %s", c.level, what,
					got["zulip_version"], got["zulip_merge_base"], got["zulip_feature_level"], c.version, c.mergeBase)
			}
		}
	}
	// An explicit version is kept.
	e := newChanEnv(t, realm.WithFeatureLevel(277, "9.3"))
	if _, s := e.do("", "GET", "/server_settings", nil); s["zulip_version"] != "9.3" {
		t.Errorf("explicit version: %v", s["zulip_version"])
	}
}

// Register's fields newer than the level are absent (the table's
// "register gate" rows), older ones present.
func TestRegisterFieldsNewerThanTheLevelAreAbsent(t *testing.T) {
	for _, c := range []struct {
		level         int
		absent, there []string
	}{
		{300, []string{"realm_can_mention_many_users_group", "realm_can_resolve_topics_group", "realm_empty_topic_display_name"},
			[]string{"realm_can_delete_any_message_group", "saved_snippets", "realm_date_created"}},
		{realm.DefaultFeatureLevel, nil,
			[]string{"realm_can_mention_many_users_group", "realm_can_resolve_topics_group", "realm_empty_topic_display_name"}},
	} {
		e := newChanEnv(t, realm.WithFeatureLevel(c.level, ""))
		st, reg := e.do("iago@zulip.com", "POST", "/register", url.Values{"fetch_event_types": {`["realm", "saved_snippets", "realm_user"]`}})
		if st != 200 {
			t.Fatalf("level %d: register %d %v", c.level, st, reg)
		}
		for _, k := range c.absent {
			if _, ok := reg[k]; ok {
				t.Errorf("level %d: register has %s", c.level, k)
			}
		}
		for _, k := range c.there {
			if _, ok := reg[k]; !ok {
				t.Errorf("level %d: register lacks %s", c.level, k)
			}
		}
	}
}

// An event type newer than the level is not sent: message-edit typing
// (351) at 340, while channel typing is.
func TestEventsNewerThanTheLevelAreNotSent(t *testing.T) {
	e := newChanEnv(t, realm.WithFeatureLevel(340, ""))
	q, _ := e.register("hamlet@zulip.com", url.Values{})
	_, sent := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"x"}})
	mid := strconv.Itoa(int(sent["id"].(float64)))
	e.do("iago@zulip.com", "POST", "/messages/"+mid+"/typing", url.Values{"op": {"start"}})
	e.do("iago@zulip.com", "POST", "/typing", url.Values{"op": {"start"}, "to": {"[10]"}})
	got := eventOps(e.events("hamlet@zulip.com", q, -1, false))
	if slices.Contains(got, "typing_edit_message:start") || !slices.Contains(got, "typing:start") {
		t.Errorf("level 340: events %v; want typing but no typing_edit_message", got)
	}
}

// /api/v1/tus came at feature level 296: below it, it is an unknown
// endpoint.
func TestResumableUploadsFollowFeatureLevel(t *testing.T) {
	level := realm.ChangeResumableUploads.Level()
	old := newChanEnv(t, realm.WithFeatureLevel(level-1, ""))
	_, unknown := old.do("iago@zulip.com", "GET", "/no_such_endpoint", nil)
	if got := old.tus("iago@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "3"}, nil); got.status != 404 || !reflect.DeepEqual(got.body, unknown) {
		t.Errorf("level %d: POST /api/v1/tus answered %d %v, want 404 %v", level-1, got.status, got.body, unknown)
	}
	now := newChanEnv(t, realm.WithFeatureLevel(level, ""))
	if got := now.tus("iago@zulip.com", "POST", "/api/v1/tus", map[string]string{"Upload-Length": "3"}, nil); got.status != 201 {
		t.Errorf("level %d: POST /api/v1/tus answered %d %v, want 201", level, got.status, got.body)
	}
}

// Below 333 PATCH /streams/{id} reads stream_post_policy (and
// is_announcement_only) as can_send_message_group; from it they are
// ignored parameters.
func TestStreamPostPolicyFollowsFeatureLevel(t *testing.T) {
	level := realm.ChangeStreamPostPolicyRemoved.Level()
	for _, at := range []int{level - 1, level} {
		e := newChanEnv(t, realm.WithFeatureLevel(at, ""))
		_, idAns := e.do("iago@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {"Denmark"}})
		path := "/streams/" + strconv.Itoa(int(idAns["stream_id"].(float64)))
		st, body := e.do("iago@zulip.com", "PATCH", path, url.Values{"stream_post_policy": {"2"}})
		if st != 200 {
			t.Fatalf("level %d: %d %v", at, st, body)
		}
		ignored, _ := body["ignored_parameters_unsupported"].([]any)
		if (len(ignored) == 1) != (at >= level) {
			t.Errorf("level %d: ignored %v", at, body["ignored_parameters_unsupported"])
		}
		_, got := e.do("iago@zulip.com", "GET", path, nil)
		policy := got["stream"].(map[string]any)["stream_post_policy"]
		if want := map[bool]float64{true: 1, false: 2}[at >= level]; policy != want {
			t.Errorf("level %d: stream_post_policy %v, want %v", at, policy, want)
		}
		if at < level {
			if st, body := e.do("iago@zulip.com", "PATCH", path, url.Values{"stream_post_policy": {"7"}}); st != 400 || body["msg"] != "Invalid stream_post_policy" {
				t.Errorf("level %d: a bad policy answered %d %v", at, st, body)
			}
			if _, body := e.do("iago@zulip.com", "PATCH", path, url.Values{"is_announcement_only": {"false"}}); body["result"] != "success" {
				t.Errorf("level %d: is_announcement_only %v", at, body)
			}
			_, got := e.do("iago@zulip.com", "GET", path, nil)
			if p := got["stream"].(map[string]any)["stream_post_policy"]; p != float64(1) {
				t.Errorf("level %d: after is_announcement_only=false, stream_post_policy %v", at, p)
			}
		}
	}
}

// PATCH /users/{email} came at 313 on the route of the older PATCH
// /users/{user_id}: below it an email answers as the GET-only path of
// those servers did, and an ID is served at every level.
func TestUpdateUserByEmailNewerThanTheLevel(t *testing.T) {
	for _, level := range []int{312, realm.ChangeUpdateUserByEmail.Level()} {
		env := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		_, me := env.do("hamlet@zulip.com", "GET", "/users/me", nil)
		id := strconv.Itoa(int(me["user_id"].(float64)))
		if st, body := env.do("iago@zulip.com", "PATCH", "/users/"+id, url.Values{"full_name": {"Hamlet by ID"}}); st != 200 {
			t.Fatalf("level %d: PATCH /users/%s answered %d %v", level, id, st, body)
		}
		st, body := env.do("iago@zulip.com", "PATCH", "/users/hamlet@zulip.com", url.Values{"full_name": {"Hamlet by email"}})
		_, user := env.do("iago@zulip.com", "GET", "/users/"+id, nil)
		name := user["user"].(map[string]any)["full_name"]
		if level < realm.ChangeUpdateUserByEmail.Level() {
			if st != 405 || !reflect.DeepEqual(body["allowed_methods"], []any{"GET", "HEAD"}) || name != "Hamlet by ID" {
				t.Errorf("level %d: PATCH /users/{email} answered %d %v, name %v; want 405 allowing GET and the name unchanged", level, st, body, name)
			}
		} else if st != 200 || name != "Hamlet by email" {
			t.Errorf("level %d: PATCH /users/{email} answered %d %v, name %v", level, st, body, name)
		}
	}
}
