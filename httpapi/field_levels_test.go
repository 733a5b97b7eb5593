package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// exchange is one answer of a representative levelRun: the request, its
// status and body, and the answer's name (the endpoint, path wildcards
// unnamed: "GET /streams/{}").
type exchange struct {
	req    *http.Request
	status int
	header http.Header
	body   []byte
	answer string
}

// levelRun is what a representative set of requests answered at one
// feature level: every exchange, and every answer (or event) decoded
// under its name.
type levelRun struct {
	level     int
	realm     *realm.Realm
	exchanges []exchange
	answers   map[string][]map[string]any
}

// runAtLevel drives a representative set of requests through a realm
// advertising level, as the owner: register with every event
// type, the reads of messages, users, channels, subscriptions, groups,
// profile fields and invitations, and the changes that send channel,
// subscription, group, playground, profile field, bot and realm setting
// events, read back over GET /events.
func runAtLevel(t *testing.T, level int) *levelRun {
	t.Helper()
	// Channels of two subscribers or more are large enough for
	// partial_subscribers (include_subscribers "partial", 412).
	limits := realm.DefaultLimits()
	limits.PartialSubscribersAt = 2
	ts := RunT(t, realm.WithFeatureLevel(level, ""), realm.WithLimits(limits))
	s := &levelRun{level: level, realm: ts.Realm, answers: map[string][]map[string]any{}}
	const me = "desdemona@zulip.com"
	// trying: a change a level may lack (its parameter refused or ignored).
	trying := false
	do := func(method, path, pattern string, form url.Values) map[string]any {
		t.Helper()
		req := ts.NewRequest(me, method, path, form)
		resp, body := rawDo(t, req)
		answer := method + " " + pattern
		s.exchanges = append(s.exchanges, exchange{req: req, status: resp.StatusCode, header: resp.Header, body: body, answer: answer})
		var out map[string]any
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("level %d: %s %s: %q", level, method, path, body)
		}
		if resp.StatusCode != 200 && !trying {
			t.Errorf("level %d: %s %s: %d %s", level, method, path, resp.StatusCode, body)
		}
		s.answers[answer] = append(s.answers[answer], out)
		return out
	}
	caps := `{"notification_settings_null":true,"bulk_message_deletion":true,"user_avatar_url_field_optional":false,
"stream_typing_notifications":true,"user_settings_object":true,"linkifier_url_template":true,"user_list_incomplete":true,
"include_deactivated_groups":true,"archived_channels":true,"empty_topic_name":true}`
	// The owner starts the onboarding (the dev realm's users have seen
	// every step): register lists the steps in the level's shape.
	if err := ts.Realm.SetOnboardingStepsSeen(9, nil); err != nil {
		t.Fatal(err)
	}
	reg := do("POST", "/register", "/register", url.Values{"client_capabilities": {caps}, "include_subscribers": {"true"}})
	queue, _ := reg["queue_id"].(string)

	do("GET", "/messages", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"5"}, "num_after": {"0"}, "apply_markdown": {"false"}})
	do("GET", "/users", "/users", nil)
	do("GET", "/users/me", "/users/me", nil)
	streams := do("GET", "/streams", "/streams", nil)
	if list, _ := streams["streams"].([]any); len(list) > 0 {
		id := int(list[0].(map[string]any)["stream_id"].(float64))
		do("GET", "/streams/"+strconv.Itoa(id), "/streams/{}", nil)
	}
	do("GET", "/users/me/subscriptions", "/users/me/subscriptions", nil)
	trying = true // "partial" is not a boolean below 412
	do("GET", "/users/me/subscriptions", "/users/me/subscriptions", url.Values{"include_subscribers": {"partial"}})
	do("POST", "/register", "/register", url.Values{"fetch_event_types": {`["subscription"]`}, "include_subscribers": {"partial"}})
	trying = false
	groups := do("GET", "/user_groups", "/user_groups", nil)
	system := map[string]int{}
	for _, g := range groups["user_groups"].([]any) {
		g := g.(map[string]any)
		system[fmt.Sprint(g["name"])] = int(g["id"].(float64))
	}
	do("GET", "/realm/profile_fields", "/realm/profile_fields", nil)
	do("POST", "/invites", "/invites", url.Values{"invitee_emails": {"newcomer@example.com"}, "stream_ids": {"[]"}})
	do("GET", "/invites", "/invites", nil)

	// Changes, read back as events.
	do("POST", "/users/me/subscriptions", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"levels"}]`}})
	created := do("POST", "/user_groups/create", "/user_groups/create", url.Values{"name": {"crew"}, "members": {"[11]"}, "description": {"the crew"}})
	gid := 0
	if id, ok := created["group_id"].(float64); ok {
		gid = int(id)
	} else {
		gid = groupID(t, ts, "crew")
	}
	// Each group setting the table gates is changed at every level: a
	// level without it does not announce it.
	// (to two values in turn, one of which changes it).
	trying = true
	for _, c := range realm.FeatureChanges() {
		if !strings.HasPrefix(c.Honour, "field gate") {
			continue
		}
		values := []string{"role:administrators", "role:moderators"}
		if c.Field == "can_access_all_users_group" { // role:everyone or role:members only
			values = []string{"role:members", "role:everyone"}
		}
		for _, g := range values {
			setting := fmt.Sprintf(`{"new":%d}`, system[g])
			switch {
			case c.Where == "event user_group update data" && strings.Contains(c.Field, "_group"):
				do("PATCH", "/user_groups/"+strconv.Itoa(gid), "/user_groups/{}", groupSettingForm(ts.Realm, c.Field, system[g]))
			case c.Where == "event realm update_dict data" && strings.Contains(c.Field, "_group"):
				do("PATCH", "/realm", "/realm", url.Values{c.Field: {setting}})
			}
		}
	}
	do("PATCH", "/realm", "/realm", url.Values{"jitsi_server_url": {`"https://jitsi.example.com"`}})
	// The realm's plain settings, each changed and changed back (a
	// level without one ignores it), and the edit history policy under
	// its two names.
	for _, set := range []struct{ name, value, back string }{
		{"enable_guest_user_indicator", "false", "true"},
		{"enable_guest_user_dm_warning", "false", "true"},
		{"require_unique_names", "true", "false"},
		{"require_e2ee_push_notifications", "true", "false"},
		{"welcome_message_custom_text", "Welcome aboard!", ""},
		{"message_edit_history_visibility_policy", "moves", "all"},
		{"allow_edit_history", "false", "true"},
	} {
		do("PATCH", "/realm", "/realm", url.Values{set.name: {set.value}})
		do("PATCH", "/realm", "/realm", url.Values{set.name: {set.back}})
	}
	// Push notifications turned on by the server, with an end in view.
	end := int64(1900000000)
	if err := ts.Realm.SetPushNotificationsEnabled(true, &end); err != nil {
		t.Fatal(err)
	}
	trying = false
	if level >= 290 { // the endpoint's level
		do("POST", "/user_groups/"+strconv.Itoa(gid)+"/deactivate", "/user_groups/{}/deactivate", nil)
	}
	playground := url.Values{"name": {"Go"}, "pygments_language": {"Go"}, "url_template": {"https://go.dev/play/?code={code}"}}
	if level < realm.ChangePlaygroundURLTemplate.Level() {
		playground = url.Values{"name": {"Go"}, "pygments_language": {"Go"}, "url_prefix": {"https://go.dev/play/?code="}}
	}
	do("POST", "/realm/playgrounds", "/realm/playgrounds", playground)
	do("POST", "/realm/profile_fields", "/realm/profile_fields", url.Values{"name": {"Shoe size"}, "field_type": {"1"}})
	do("POST", "/bots", "/bots", url.Values{"full_name": {"Helper"}, "short_name": {"helper"}})
	sent := do("POST", "/messages", "/messages", url.Values{"type": {"stream"}, "to": {"levels"}, "topic": {"a new topic"}, "content": {"first"}})
	// A new topic in a muted channel, unmuted on initiation (the one
	// automatic visibility change before followed topics, 219).
	trying = true
	do("PATCH", "/settings", "/settings", url.Values{"automatically_unmute_topics_in_muted_streams_policy": {"1"}})
	trying = false
	do("POST", "/users/me/subscriptions", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name":"quiet"}]`}})
	for _, sub := range do("GET", "/users/me/subscriptions", "/users/me/subscriptions", nil)["subscriptions"].([]any) {
		if sub := sub.(map[string]any); sub["name"] == "quiet" {
			do("POST", "/users/me/subscriptions/properties", "/users/me/subscriptions/properties", url.Values{"subscription_data": {
				fmt.Sprintf(`[{"stream_id":%v,"property":"is_muted","value":true}]`, sub["stream_id"])}})
		}
	}
	do("POST", "/messages", "/messages", url.Values{"type": {"stream"}, "to": {"quiet"}, "topic": {"hushed"}, "content": {"first"}})
	if id, ok := sent["id"].(float64); ok {
		do("PATCH", "/messages/"+strconv.Itoa(int(id)), "/messages/{}", url.Values{"content": {"edited"}})
	}
	// An onboarding step seen: the event of the level tells what is left.
	if level < 233 {
		do("POST", "/users/me/hotspots", "/users/me/hotspots", url.Values{"hotspot": {"intro_streams"}})
	} else {
		do("POST", "/users/me/onboarding_steps", "/users/me/onboarding_steps", url.Values{"onboarding_step": {"intro_inbox_view_modal"}})
	}
	do("GET", "/users/me/subscriptions", "/users/me/subscriptions", nil)
	do("GET", "/user_groups", "/user_groups", nil)
	do("GET", "/realm/profile_fields", "/realm/profile_fields", nil)
	do("GET", "/streams", "/streams", nil)
	// The realm moved to Zulip Cloud's Free plan, as billing would: a
	// realm update (with extra_data) below 306, an update_dict from it.
	if err := ts.Realm.SetPlanType(realm.PlanTypeLimited); err != nil {
		t.Fatal(err)
	}

	events := do("GET", "/events", "/events", url.Values{"queue_id": {queue}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	list, _ := events["events"].([]any)
	if len(list) < 10 {
		t.Errorf("level %d: only %d events", level, len(list))
	}
	for _, e := range list {
		ev := e.(map[string]any)
		name := "event " + fmt.Sprint(ev["type"])
		if op, ok := ev["op"].(string); ok {
			name += " " + op
		}
		s.answers[name] = append(s.answers[name], ev)
	}
	return s
}

// groupID is the ID of the named user group.
func groupID(t *testing.T, ts *TestServer, name string) int {
	t.Helper()
	_, body := rawDo(t, ts.NewRequest("iago@zulip.com", "GET", "/user_groups", nil))
	for _, g := range srvDecode(t, body)["user_groups"].([]any) {
		if g := g.(map[string]any); g["name"] == name {
			return int(g["id"].(float64))
		}
	}
	t.Fatalf("no group %q", name)
	return 0
}

// has reports whether the levelRun's answers carry the field at one of
// the places; sends reports whether they carry it by the name the level
// sends it by (an older one, for a field renamed since).
func (s *levelRun) has(places []realm.FieldPlace) bool { return s.carries(places, false) }

func (s *levelRun) sends(places []realm.FieldPlace) bool { return s.carries(places, true) }

func (s *levelRun) carries(places []realm.FieldPlace, byLevelName bool) bool {
	for _, p := range places {
		name := p.Field
		if byLevelName {
			name = s.realm.WireFieldName(p.Kind, p.Field)
		}
		for _, a := range s.answers[p.Answer] {
			if objectsHave(a, p.Path, name) {
				return true
			}
		}
	}
	return false
}

// objectsHave reports whether a JSON value has the field in one of the
// objects at path.
func objectsHave(v any, path []string, field string) bool {
	if len(path) == 0 || path[0] == "" {
		m, ok := v.(map[string]any)
		_, has := m[field]
		return ok && has
	}
	if path[0] == "=property" {
		m, _ := v.(map[string]any)
		return m["property"] == field
	}
	if path[0] == "[]" {
		list, _ := v.([]any)
		for _, item := range list {
			if objectsHave(item, path[1:], field) {
				return true
			}
		}
		return false
	}
	m, _ := v.(map[string]any)
	return objectsHave(m[path[0]], path[1:], field)
}

// levelRuns caches the representative levelRuns by level.
type levelRuns map[int]*levelRun

func (ss levelRuns) at(t *testing.T, level int) *levelRun {
	if s := ss[level]; s != nil {
		return s
	}
	ss[level] = runAtLevel(t, level)
	return ss[level]
}

// Every field the table's "field gate" rows name is absent from every
// answer and event one level below the row's and, for the rows honoured,
// sent at the row's level; a row still todo names a field the fake does
// not send at all.
func TestFieldGateRowsAtTheirLevels(t *testing.T) {
	// TestContractAtEachRelease validates these sessions at the
	// releases' levels; here only the fields are looked at.
	saved := responseObserver
	responseObserver = nil
	t.Cleanup(func() { responseObserver = saved })
	ss := levelRuns{}
	var wrong []string
	for _, c := range realm.FeatureChanges() {
		places := realm.FieldPlaces(c)
		if places == nil {
			continue
		}
		at := ss.at(t, max(c.Level, 185))
		if c.Level > 185 {
			if below := ss.at(t, c.Level-1); below.has(places) {
				wrong = append(wrong, fmt.Sprintf("%d %s %s: sent at level %d", c.Level, c.Where, c.Field, c.Level-1))
			}
		}
		switch sent := at.sends(places); {
		case c.Status == realm.StatusHonoured && !sent:
			wrong = append(wrong, fmt.Sprintf("%d %s %s: honoured, but not sent at its level", c.Level, c.Where, c.Field))
		case c.Status == realm.StatusTodo && sent:
			wrong = append(wrong, fmt.Sprintf("%d %s %s: todo, but sent", c.Level, c.Where, c.Field))
		}
	}
	sort.Strings(wrong)
	for _, w := range wrong {
		t.Error(w)
	}
	t.Logf("%d levelRuns", len(ss))
}

// contractReleases are the last feature levels of Zulip's releases from
// 7.0 on, with the version a server of each advertises.
var contractReleases = []struct {
	level   int
	version string
}{{185, "7.0"}, {237, "8.0"}, {277, "9.0"}, {371, "10.0"}, {421, "11.0"}}

// At the last level of each release from Zulip 7.0 on, and at the
// default level, every answer and event of the representative requests
// validates against Zulip's description as a server of that level
// documents it: the fields the description notes as new after the level
// are left out of its schemas (which refuse unknown fields), so that the
// answer must not have them; fields the description says had another
// shape before a later level take any value. The log says, per level,
// how many answers were validated and how many of the table's field
// rows the requests exercised.
func TestContractAtEachRelease(t *testing.T) {
	loadProbe()
	if probe.contract == nil {
		t.Skip("the contract description is not available")
	}
	def := runAtLevel(t, realm.DefaultFeatureLevel)
	levels := []int{realm.DefaultFeatureLevel}
	for _, rel := range contractReleases {
		if v := realm.VersionForLevel(rel.level); v != rel.version {
			t.Errorf("level %d advertises %s, want %s", rel.level, v, rel.version)
		}
		levels = append(levels, rel.level)
	}
	for _, level := range levels {
		c, err := newContract(level, false)
		if err != nil {
			t.Fatal(err)
		}
		run := def
		if level != realm.DefaultFeatureLevel {
			run = runAtLevel(t, level)
		}
		validated := 0
		for _, e := range run.exchanges {
			probe.mu.Lock()
			before := probe.n
			probe.mu.Unlock()
			for _, f := range c.check(e.req, e.status, e.header, e.body) {
				t.Errorf("level %d: %s", level, f)
			}
			probe.mu.Lock()
			validated += probe.n - before
			probe.mu.Unlock()
		}
		gated, kept := exercisedRows(def, run, level)
		t.Logf("level %d: %d answers validated (%d events), %d fields of the description pruned or relaxed; table rows exercised: %d newer than the level and left out, %d at or below it and sent",
			level, validated, len(run.events()), c.pruned, gated, kept)
	}
}

// events lists the events of a run's GET /events answers.
func (s *levelRun) events() []map[string]any {
	var out []map[string]any
	for name, list := range s.answers {
		if strings.HasPrefix(name, "event ") {
			out = append(out, list...)
		}
	}
	return out
}

// exercisedRows counts the table's honoured field rows a run at level
// shows: newer rows whose field the default run sends and this one does
// not, and older ones it sends (a field gate row where its objects are;
// any other row wherever its field is a member).
func exercisedRows(def, run *levelRun, level int) (gated, kept int) {
	for _, c := range realm.FeatureChanges() {
		if c.Status != realm.StatusHonoured || c.Field == "" || strings.ContainsAny(c.Field, "? ") {
			continue
		}
		switch c.Kind {
		case "field added", "field renamed":
		default:
			continue
		}
		sent := func(s *levelRun) bool {
			if places := realm.FieldPlaces(c); places != nil {
				return s.has(places)
			}
			for _, list := range s.answers {
				for _, a := range list {
					if hasMember(a, c.Field) {
						return true
					}
				}
			}
			return false
		}
		switch {
		case c.Level > level && level != realm.DefaultFeatureLevel:
			if sent(def) && !sent(run) {
				gated++
			}
		case sent(run):
			kept++
		}
	}
	return gated, kept
}

// hasMember reports whether a JSON value has an object member named
// name at any depth.
func hasMember(v any, name string) bool {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v[name]; ok {
			return true
		}
		for _, x := range v {
			if hasMember(x, name) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasMember(x, name) {
				return true
			}
		}
	}
	return false
}

// groupSettingForm is PATCH /user_groups/{id}'s parameter setting field
// to the group id as the realm's level takes it: by the name it knows,
// as a plain ID before {"new", "old"} objects (260).
func groupSettingForm(r *realm.Realm, field string, id int) url.Values {
	name := field
	for _, rn := range realm.ParamRenames("PATCH", "/user_groups/{user_group_id}") {
		if rn.New == field && r.ParamName(rn) != "" {
			name = r.ParamName(rn)
		}
	}
	if !r.Has(realm.ChangeGroupSettingChangeObjects) {
		return url.Values{name: {strconv.Itoa(id)}}
	}
	return url.Values{name: {fmt.Sprintf(`{"new":%d}`, id)}}
}
