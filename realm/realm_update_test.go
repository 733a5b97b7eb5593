package realm

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/minizulip/minizulip/group"
)

// System group IDs of the dev realm.
const (
	gidNobody         = 9
	gidOwners         = 10
	gidAdministrators = 11
	gidModerators     = 12
	gidFullMembers    = 13
	gidMembers        = 14
	gidEveryone       = 15
	gidInternet       = 16
	gidHamletChars    = 17
)

func boolPtr(v bool) *bool { return &v }

// realmUpdateEnv is a dev realm with a realm-events queue for hamlet (a
// member) and one for polonius (a guest).
type realmUpdateEnv struct {
	t       *testing.T
	r       *Realm
	hamletQ *Queue
	guestQ  *Queue
	// seen is the last event ID read from each queue.
	seen map[*Queue]int
	// lastForms: see lastData.
	lastForms []string
}

func newRealmUpdateEnv(t *testing.T, opts ...Option) *realmUpdateEnv {
	r, _ := newTestRealm(t, opts...)
	return &realmUpdateEnv{t: t, r: r,
		hamletQ: mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}}),
		guestQ:  mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"realm"}}),
		seen:    map[*Queue]int{},
	}
}

// next returns the events of q not read yet, and marks them read.
func (e *realmUpdateEnv) next(userID int, q *Queue) []Event {
	e.t.Helper()
	last, ok := e.seen[q]
	if !ok {
		last = -1
	}
	evs := pending(e.t, e.r, userID, q, last)
	if len(evs) > 0 {
		e.seen[q] = evs[len(evs)-1].ID
	}
	return evs
}

// update runs UpdateRealm as userID and wants success.
func (e *realmUpdateEnv) update(userID int, req RealmUpdate) RealmChanges {
	e.t.Helper()
	changes, err := e.r.As(userID).UpdateRealm(bg, req)
	if err != nil {
		e.t.Fatalf("UpdateRealm %+v: %v", req, err)
	}
	return changes
}

// refused runs UpdateRealm as userID, wants the error, and checks that
// nothing changed and nobody was told anything.
func (e *realmUpdateEnv) refused(userID int, req RealmUpdate, code Code, msg string) *Error {
	e.t.Helper()
	before := e.r.Settings()
	_, err := e.r.As(userID).UpdateRealm(bg, req)
	re := wantCode(e.t, err, code, msg)
	if re.Msg != msg {
		e.t.Fatalf("message %q, want %q", re.Msg, msg)
	}
	if diff := cmp.Diff(before, e.r.Settings()); diff != "" {
		e.t.Fatalf("a refused update changed settings (-before +after):\n%s", diff)
	}
	e.noEvents()
	return re
}

// lastData is what the realm events each user got since the previous call
// report, merged as a correct client merges them (an update event's
// property and value as a one-key update_dict); every user must have been
// told the same. lastForms holds each event's form, "op:key,key", in
// the order sent.
func (e *realmUpdateEnv) lastData() map[string]any {
	e.t.Helper()
	var data []map[string]any
	var forms [][]string
	for _, q := range []struct {
		id int
		q  *Queue
	}{{idHamlet, e.hamletQ}, {idPolonius, e.guestQ}} {
		evs := e.next(q.id, q.q)
		if len(evs) == 0 {
			e.t.Fatalf("user %d got no event", q.id)
		}
		merged, form := map[string]any{}, []string(nil)
		for _, ev := range evs {
			j := eventJSON(e.t, ev)
			switch {
			case j["type"] == "realm" && j["op"] == "update" && j["property"] != "default":
				if _, ok := j["value"]; !ok {
					e.t.Fatalf("update event without a value: %v", j)
				}
				merged[j["property"].(string)] = j["value"]
				form = append(form, "update:"+j["property"].(string))
			case j["type"] == "realm" && j["op"] == "update_dict" && j["property"] == "default":
				d := j["data"].(map[string]any)
				for k, v := range d {
					merged[k] = v
				}
				form = append(form, "update_dict:"+strings.Join(slices.Sorted(maps.Keys(d)), ","))
			default:
				e.t.Fatalf("event %v", j)
			}
		}
		data, forms = append(data, merged), append(forms, form)
	}
	if diff := cmp.Diff(data[0], data[1]); diff != "" {
		e.t.Fatalf("users were told different things:\n%s", diff)
	}
	e.lastForms = forms[0]
	return data[0]
}

func (e *realmUpdateEnv) noEvents() {
	e.t.Helper()
	if evs := e.next(idHamlet, e.hamletQ); len(evs) != 0 {
		e.t.Fatalf("unexpected events %+v", evs)
	}
}

// Only administrators may change realm settings.
func TestUpdateRealmNeedsAnAdministrator(t *testing.T) {
	e := newRealmUpdateEnv(t)
	for _, id := range []int{idHamlet, idShiva, idPolonius} {
		e.refused(id, RealmUpdate{Name: str("Mine")}, CodeUnauthorizedPrincipal, "Must be an organization administrator")
		wantCode(t, e.r.As(id).CheckRealmAdmin(bg), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	}
	for _, id := range []int{idIago, idDesdemona} {
		if err := e.r.As(id).CheckRealmAdmin(bg); err != nil {
			t.Fatalf("user %d: %v", id, err)
		}
	}
	if ch := e.update(idIago, RealmUpdate{Name: str("Iago's")}); ch["name"] != "updated" {
		t.Fatalf("changes %v", ch)
	}
	if ch := e.update(idDesdemona, RealmUpdate{Name: str("Desdemona's")}); ch["name"] != "updated" {
		t.Fatalf("changes %v", ch)
	}
}

// Each plain setting changes the settings, register's realm state, the
// answer and the event, and only the changed keys are reported.
func TestUpdateRealmPlainSettings(t *testing.T) {
	e := newRealmUpdateEnv(t)
	long := strings.Repeat("é", 40)
	desc := strings.Repeat("d", 1000)
	ch := e.update(idIago, RealmUpdate{
		Name: &long, Description: &desc, DefaultLanguage: str("de"),
		AllowMessageEditing: boolPtr(false), EnableSpectatorAccess: boolPtr(false), TopicsPolicy: str("disable_empty_topic"),
	})
	want := RealmChanges{"name": "updated", "description": "updated", "default_language": "updated",
		"allow_message_editing": false, "enable_spectator_access": false, "topics_policy": 3}
	if diff := cmp.Diff(want, ch); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	wantData := map[string]any{"name": long, "description": desc, "default_language": "de",
		"allow_message_editing": false, "enable_spectator_access": false,
		"mandatory_topics": true, "topics_policy": "disable_empty_topic"}
	if diff := cmp.Diff(wantData, e.lastData()); diff != "" {
		t.Fatalf("event data (-want +got):\n%s", diff)
	}
	wantForms := []string{"update:name", "update:description", "update_dict:allow_message_editing",
		"update_dict:mandatory_topics,topics_policy", "update:default_language", "update:enable_spectator_access"}
	if diff := cmp.Diff(wantForms, e.lastForms); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	st := realmState(t, e.r, idHamlet)
	if st.RealmName != long || st.RealmDescription != desc || st.RealmDefaultLanguage != "de" || st.RealmAllowMessageEditing ||
		st.RealmEnableSpectatorAccess || !st.RealmMandatoryTopics || st.RealmTopicsPolicy != "disable_empty_topic" {
		t.Fatalf("register after the update: %+v", st)
	}

	// The same values again, and nothing at all, change nothing.
	for _, req := range []RealmUpdate{
		{Name: &long, AllowMessageEditing: boolPtr(false), TopicsPolicy: str("disable_empty_topic")},
		{},
	} {
		if ch := e.update(idIago, req); len(ch) != 0 {
			t.Fatalf("unchanged values reported %v", ch)
		}
		e.noEvents()
	}

	ch = e.update(idIago, RealmUpdate{TopicsPolicy: str("allow_empty_topic")})
	if diff := cmp.Diff(RealmChanges{"topics_policy": 2}, ch); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"mandatory_topics": false, "topics_policy": "allow_empty_topic"}, e.lastData()); diff != "" {
		t.Fatalf("event data (-want +got):\n%s", diff)
	}
}

// Below feature level 392 the setting is mandatory_topics, and events
// know no topics_policy.
func TestUpdateRealmMandatoryTopicsBeforeTopicsPolicy(t *testing.T) {
	e := newRealmUpdateEnv(t, WithFeatureLevel(391, "11.0-dev"))
	ch := e.update(idIago, RealmUpdate{MandatoryTopics: boolPtr(true)})
	if diff := cmp.Diff(RealmChanges{"mandatory_topics": true}, ch); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"mandatory_topics": true}, e.lastData()); diff != "" {
		t.Fatalf("event data (-want +got):\n%s", diff)
	}
	if !e.r.Settings().MandatoryTopics {
		t.Fatal("mandatory_topics not set")
	}
}

// Time limits take a positive number of seconds or no limit (null).
func TestUpdateRealmTimeLimits(t *testing.T) {
	e := newRealmUpdateEnv(t)
	ch := e.update(idIago, RealmUpdate{
		MessageContentEditLimitSeconds:         &TimeLimit{Seconds: 3600},
		MessageContentDeleteLimitSeconds:       &TimeLimit{Unlimited: true},
		MoveMessagesWithinStreamLimitSeconds:   &TimeLimit{Seconds: 1},
		MoveMessagesBetweenStreamsLimitSeconds: &TimeLimit{Unlimited: true},
	})
	want := RealmChanges{"message_content_edit_limit_seconds": 3600, "message_content_delete_limit_seconds": nil,
		"move_messages_within_stream_limit_seconds": 1, "move_messages_between_streams_limit_seconds": nil}
	if diff := cmp.Diff(want, ch); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	wantData := map[string]any{"message_content_edit_limit_seconds": float64(3600), "message_content_delete_limit_seconds": nil,
		"move_messages_within_stream_limit_seconds": float64(1), "move_messages_between_streams_limit_seconds": nil}
	if diff := cmp.Diff(wantData, e.lastData()); diff != "" {
		t.Fatalf("event data (-want +got):\n%s", diff)
	}
	s := e.r.Settings()
	if *s.MessageContentEditLimitSeconds != 3600 || s.MessageContentDeleteLimitSeconds != nil ||
		*s.MoveMessagesWithinStreamLimitSeconds != 1 || s.MoveMessagesBetweenStreamsLimitSeconds != nil {
		t.Fatalf("settings %+v", s)
	}
	st := realmState(t, e.r, idHamlet)
	if *st.RealmMessageContentEditLimitSeconds != 3600 || st.RealmMessageContentDeleteLimitSeconds != nil ||
		*st.RealmMoveMessagesWithinStreamLimitSeconds != 1 || st.RealmMoveMessagesBetweenStreamsLimitSeconds != nil {
		t.Fatalf("register %+v", st)
	}
	// Unlimited again is no change; a number again is.
	if ch := e.update(idIago, RealmUpdate{MessageContentDeleteLimitSeconds: &TimeLimit{Unlimited: true}}); len(ch) != 0 {
		t.Fatalf("changes %v", ch)
	}
	e.noEvents()
	e.update(idIago, RealmUpdate{MessageContentDeleteLimitSeconds: &TimeLimit{Seconds: 600}})
	if diff := cmp.Diff(map[string]any{"message_content_delete_limit_seconds": float64(600)}, e.lastData()); diff != "" {
		t.Fatalf("event data (-want +got):\n%s", diff)
	}
}

// Every group-valued setting takes a named or an anonymous group; the
// event and register carry the group-setting value.
func TestUpdateRealmGroupSettings(t *testing.T) {
	e := newRealmUpdateEnv(t)
	field := map[string]func(Settings) GroupSetting{
		"can_add_custom_emoji_group":               func(s Settings) GroupSetting { return s.CanAddCustomEmojiGroup },
		"can_add_subscribers_group":                func(s Settings) GroupSetting { return s.CanAddSubscribersGroup },
		"can_create_groups":                        func(s Settings) GroupSetting { return s.CanCreateGroups },
		"can_create_private_channel_group":         func(s Settings) GroupSetting { return s.CanCreatePrivateChannelGroup },
		"can_create_public_channel_group":          func(s Settings) GroupSetting { return s.CanCreatePublicChannelGroup },
		"can_delete_any_message_group":             func(s Settings) GroupSetting { return s.CanDeleteAnyMessageGroup },
		"can_delete_own_message_group":             func(s Settings) GroupSetting { return s.CanDeleteOwnMessageGroup },
		"can_invite_users_group":                   func(s Settings) GroupSetting { return s.CanInviteUsersGroup },
		"can_manage_all_groups":                    func(s Settings) GroupSetting { return s.CanManageAllGroups },
		"can_mention_many_users_group":             func(s Settings) GroupSetting { return s.CanMentionManyUsersGroup },
		"can_move_messages_between_channels_group": func(s Settings) GroupSetting { return s.CanMoveMessagesBetweenChannelsGroup },
		"can_move_messages_between_topics_group":   func(s Settings) GroupSetting { return s.CanMoveMessagesBetweenTopicsGroup },
		"can_resolve_topics_group":                 func(s Settings) GroupSetting { return s.CanResolveTopicsGroup },
		"create_multiuse_invite_group":             func(s Settings) GroupSetting { return s.CreateMultiuseInviteGroup },
		"can_access_all_users_group":               func(s Settings) GroupSetting { return s.CanAccessAllUsersGroup },
		"direct_message_initiator_group":           func(s Settings) GroupSetting { return s.DirectMessageInitiatorGroup },
		"direct_message_permission_group":          func(s Settings) GroupSetting { return s.DirectMessagePermissionGroup },
		"can_create_web_public_channel_group":      func(s Settings) GroupSetting { return s.CanCreateWebPublicChannelGroup },
		"can_create_bots_group":                    func(s Settings) GroupSetting { return s.CanCreateBotsGroup },
		"can_create_write_only_bots_group":         func(s Settings) GroupSetting { return s.CanCreateWriteOnlyBotsGroup },
		"can_summarize_topics_group":               func(s Settings) GroupSetting { return s.CanSummarizeTopicsGroup },
		"can_manage_billing_group":                 func(s Settings) GroupSetting { return s.CanManageBillingGroup },
		"can_set_topics_policy_group":              func(s Settings) GroupSetting { return s.CanSetTopicsPolicyGroup },
		"can_set_delete_message_policy_group":      func(s Settings) GroupSetting { return s.CanSetDeleteMessagePolicyGroup },
	}
	if len(field) != len(RealmGroupSettingNames()) {
		t.Fatalf("settings: %v", RealmGroupSettingNames())
	}
	for _, name := range RealmGroupSettingNames() {
		get := field[name]
		if get == nil {
			t.Fatalf("no field for %s", name)
		}
		// A named group: the moderators (administrators where that is
		// the default, role:members where only everyone and members are
		// allowed).
		gid := gidModerators
		switch {
		case name == "can_access_all_users_group":
			gid = gidMembers
		case realmGroupRules[name].def == group.Moderators:
			gid = gidAdministrators
		}
		old := get(e.r.Settings())
		ch := e.update(idDesdemona, RealmUpdate{GroupSettings: map[string]GroupSettingChange{name: {New: NamedGroupSetting(gid), Old: &old}}})
		if diff := cmp.Diff(RealmChanges{name: NamedGroupSetting(gid)}, ch); diff != "" {
			t.Fatalf("%s: answer (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff(map[string]any{name: float64(gid)}, e.lastData()); diff != "" {
			t.Fatalf("%s: event data (-want +got):\n%s", name, diff)
		}
		if got := get(e.r.Settings()); got.GroupID != gid {
			t.Fatalf("%s is %+v", name, got)
		}
		if realmGroupRules[name].systemOnly {
			continue // no anonymous group (TestSystemOnlyRealmGroupSettings)
		}
		// An anonymous group, stored sorted and without repeats.
		anon := GroupSetting{DirectMembers: []int{idOthello, idCordelia, idOthello}, DirectSubgroups: []int{gidHamletChars, gidAdministrators}}
		e.update(idDesdemona, RealmUpdate{GroupSettings: map[string]GroupSettingChange{name: {New: anon}}})
		want := GroupSetting{DirectMembers: []int{idCordelia, idOthello}, DirectSubgroups: []int{gidAdministrators, gidHamletChars}}
		if diff := cmp.Diff(want, get(e.r.Settings())); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", name, diff)
		}
		wantData := map[string]any{name: map[string]any{
			"direct_members":   []any{float64(idCordelia), float64(idOthello)},
			"direct_subgroups": []any{float64(gidAdministrators), float64(gidHamletChars)},
		}}
		if diff := cmp.Diff(wantData, e.lastData()); diff != "" {
			t.Fatalf("%s: event data (-want +got):\n%s", name, diff)
		}
		// old may list the anonymous group in any order; the same value
		// again changes nothing.
		shuffled := GroupSetting{DirectMembers: []int{idOthello, idCordelia}, DirectSubgroups: []int{gidHamletChars, gidAdministrators}}
		if ch := e.update(idDesdemona, RealmUpdate{GroupSettings: map[string]GroupSettingChange{name: {New: shuffled, Old: &shuffled}}}); len(ch) != 0 {
			t.Fatalf("%s: same value reported %v", name, ch)
		}
		e.noEvents()
	}
	st := realmState(t, e.r, idHamlet)
	if len(st.RealmCanResolveTopicsGroup.DirectMembers) != 2 || len(st.RealmCanManageAllGroups.DirectSubgroups) != 2 {
		t.Fatalf("register %+v", st)
	}
}

// An anonymous group of one subgroup is that group; of nothing,
// role:nobody.
func TestUpdateRealmGroupSettingNormalized(t *testing.T) {
	e := newRealmUpdateEnv(t)
	ch := e.update(idIago, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
		"can_resolve_topics_group":     {New: GroupSetting{DirectSubgroups: []int{gidFullMembers}}},
		"can_mention_many_users_group": {New: GroupSetting{}},
	}})
	want := RealmChanges{"can_resolve_topics_group": NamedGroupSetting(gidFullMembers), "can_mention_many_users_group": NamedGroupSetting(gidNobody)}
	if diff := cmp.Diff(want, ch); diff != "" {
		t.Fatalf("answer (-want +got):\n%s", diff)
	}
	wantData := map[string]any{"can_resolve_topics_group": float64(gidFullMembers), "can_mention_many_users_group": float64(gidNobody)}
	if diff := cmp.Diff(wantData, e.lastData()); diff != "" {
		t.Fatalf("event data (-want +got):\n%s", diff)
	}
	if st := realmState(t, e.r, idHamlet); st.RealmWildcardMentionPolicy != 6 {
		t.Fatalf("realm_wildcard_mention_policy %d, want 6 (nobody)", st.RealmWildcardMentionPolicy)
	}
	// old in anonymous form matches the named value it stands for.
	old := GroupSetting{DirectSubgroups: []int{gidFullMembers}}
	e.update(idIago, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
		"can_resolve_topics_group": {New: NamedGroupSetting(gidEveryone), Old: &old},
	}})
	if got := e.r.Settings().CanResolveTopicsGroup; got.GroupID != gidEveryone {
		t.Fatalf("can_resolve_topics_group %+v", got)
	}
}

// Every refused value leaves every setting as it was, even with valid
// changes beside it.
func TestUpdateRealmRefusals(t *testing.T) {
	e := newRealmUpdateEnv(t)
	r := e.r
	gid, err := r.As(idHamlet).CreateUserGroup(bg, CreateGroupRequest{Name: "gone", Members: []int{idHamlet}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).DeactivateUserGroup(bg, gid); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).DeactivateUser(bg, idProspero); err != nil {
		t.Fatal(err)
	}
	e.hamletQ = mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})

	group := func(name string, v GroupSetting) RealmUpdate {
		return RealmUpdate{Name: str("Changed"), AllowMessageEditing: boolPtr(false),
			GroupSettings: map[string]GroupSettingChange{name: {New: v}}}
	}
	badLimit := func(v RealmUpdate) RealmUpdate { v.Name = str("Changed"); return v }
	wrongOld := NamedGroupSetting(gidMembers)
	for _, c := range []struct {
		name string
		req  RealmUpdate
		code Code
		msg  string
	}{
		{"long name", RealmUpdate{Name: str(strings.Repeat("n", 41))}, CodeBadRequest, "name is too long (limit: 40 characters)"},
		{"long description", RealmUpdate{Name: str("x"), Description: str(strings.Repeat("d", 1001))}, CodeBadRequest, "description is too long (limit: 1000 characters)"},
		{"bad topics_policy", RealmUpdate{Name: str("x"), TopicsPolicy: str("inherit")}, CodeBadRequest, "Invalid topics_policy"},
		{"bad language", RealmUpdate{Name: str("x"), DefaultLanguage: str("xx")}, CodeBadRequest, "Invalid language 'xx'"},
		{"unknown setting", group("can_fly_group", NamedGroupSetting(gidMembers)), CodeBadRequest, "Invalid realm setting: can_fly_group"},
		{"zero limit", badLimit(RealmUpdate{MessageContentEditLimitSeconds: &TimeLimit{}}), CodeRequestVariableInvalid, "Bad value for 'message_content_edit_limit_seconds': 0"},
		{"negative limit", badLimit(RealmUpdate{MessageContentDeleteLimitSeconds: &TimeLimit{Seconds: -5}}), CodeRequestVariableInvalid, "Bad value for 'message_content_delete_limit_seconds': -5"},
		{"zero move limit", badLimit(RealmUpdate{MoveMessagesWithinStreamLimitSeconds: &TimeLimit{}}), CodeRequestVariableInvalid, "Bad value for 'move_messages_within_stream_limit_seconds': 0"},
		{"zero channel move limit", badLimit(RealmUpdate{MoveMessagesBetweenStreamsLimitSeconds: &TimeLimit{}}), CodeRequestVariableInvalid, "Bad value for 'move_messages_between_streams_limit_seconds': 0"},
		{"unknown group", group("can_resolve_topics_group", NamedGroupSetting(999)), CodeBadRequest, "Invalid user group"},
		{"deactivated group", group("can_resolve_topics_group", NamedGroupSetting(gid)), CodeBadRequest, "User group is deactivated."},
		{"internet", group("can_resolve_topics_group", NamedGroupSetting(gidInternet)), CodeBadRequest, "'can_resolve_topics_group' setting cannot be set to 'role:internet' group."},
		{"everyone", group("can_move_messages_between_channels_group", NamedGroupSetting(gidEveryone)), CodeBadRequest, "'can_move_messages_between_channels_group' setting cannot be set to 'role:everyone' group."},
		{"everyone deletes any", group("can_delete_any_message_group", NamedGroupSetting(gidEveryone)), CodeBadRequest, "'can_delete_any_message_group' setting cannot be set to 'role:everyone' group."},
		{"unknown member", group("can_resolve_topics_group", GroupSetting{DirectMembers: []int{999}}), CodeBadRequest, "Invalid user ID: 999"},
		{"deactivated member", group("can_resolve_topics_group", GroupSetting{DirectMembers: []int{idHamlet, idProspero}}), CodeBadRequest, "Invalid user ID: 14"},
		{"system bot member", group("can_resolve_topics_group", GroupSetting{DirectMembers: []int{1}}), CodeBadRequest, "Invalid user ID: 1"},
		{"unknown subgroup", group("can_resolve_topics_group", GroupSetting{DirectMembers: []int{idHamlet}, DirectSubgroups: []int{999}}), CodeBadRequest, "Invalid user group ID: 999"},
		{"deactivated subgroup", group("can_resolve_topics_group", GroupSetting{DirectMembers: []int{idHamlet}, DirectSubgroups: []int{gid}}), CodeBadRequest, "User group is deactivated."},
		{"wrong old", RealmUpdate{Name: str("x"), GroupSettings: map[string]GroupSettingChange{
			"can_resolve_topics_group": {New: NamedGroupSetting(gidModerators), Old: &wrongOld}}}, CodeExpectationMismatch, "'old' value does not match the expected value."},
		{"owners only: can_create_groups", group("can_create_groups", NamedGroupSetting(gidAdministrators)), CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"owners only: can_manage_all_groups", group("can_manage_all_groups", NamedGroupSetting(gidAdministrators)), CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"owners only: can_invite_users_group", group("can_invite_users_group", NamedGroupSetting(gidAdministrators)), CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"owners only: create_multiuse_invite_group", group("create_multiuse_invite_group", NamedGroupSetting(gidModerators)), CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"owners only: can_manage_billing_group", group("can_manage_billing_group", NamedGroupSetting(gidModerators)), CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"system group only: anonymous", group("can_access_all_users_group", GroupSetting{DirectMembers: []int{idHamlet}}), CodeBadRequest, "'can_access_all_users_group' must be a system user group."},
		{"system group only: named", group("can_create_web_public_channel_group", NamedGroupSetting(gidHamletChars)), CodeBadRequest, "'can_create_web_public_channel_group' must be a system user group."},
		{"system groups allowed", group("can_access_all_users_group", NamedGroupSetting(gidModerators)), CodeBadRequest, "'can_access_all_users_group' setting cannot be set to 'role:moderators' group."},
		{"all users: not nobody", group("can_access_all_users_group", NamedGroupSetting(gidNobody)), CodeBadRequest, "'can_access_all_users_group' setting cannot be set to 'role:nobody' group."},
		{"web-public: not members", group("can_create_web_public_channel_group", NamedGroupSetting(gidMembers)), CodeBadRequest, "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group."},
		{"bots: not everyone", group("can_create_bots_group", NamedGroupSetting(gidEveryone)), CodeBadRequest, "'can_create_bots_group' setting cannot be set to 'role:everyone' group."},
		{"delete policy: not everyone", group("can_set_delete_message_policy_group", NamedGroupSetting(gidEveryone)), CodeBadRequest, "'can_set_delete_message_policy_group' setting cannot be set to 'role:everyone' group."},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.refused(idIago, c.req, c.code, c.msg)
		})
	}
	e.t = t

	// Owners pass the owner check, and meet the value checks.
	e.refused(idDesdemona, group("can_manage_all_groups", NamedGroupSetting(gidNobody)), CodeBadRequest,
		"'can_manage_all_groups' setting cannot be set to 'role:nobody' group.")
	e.refused(idDesdemona, group("can_create_groups", NamedGroupSetting(gidEveryone)), CodeBadRequest,
		"'can_create_groups' setting cannot be set to 'role:everyone' group.")
	e.refused(idDesdemona, group("can_manage_billing_group", NamedGroupSetting(gidNobody)), CodeBadRequest,
		"'can_manage_billing_group' setting cannot be set to 'role:nobody' group.")
	e.refused(idDesdemona, group("can_manage_billing_group", NamedGroupSetting(gidEveryone)), CodeBadRequest,
		"'can_manage_billing_group' setting cannot be set to 'role:everyone' group.")
	// A mismatched old is refused even when new is the current value.
	cur := e.r.Settings().CanResolveTopicsGroup
	e.refused(idIago, RealmUpdate{GroupSettings: map[string]GroupSettingChange{"can_resolve_topics_group": {New: cur, Old: &wrongOld}}},
		CodeExpectationMismatch, "'old' value does not match the expected value.")
	// The refused error of an invalid limit names it.
	re := e.refused(idIago, RealmUpdate{MessageContentEditLimitSeconds: &TimeLimit{Seconds: -1}}, CodeRequestVariableInvalid,
		"Bad value for 'message_content_edit_limit_seconds': -1")
	if re.Extra["var_name"] != "message_content_edit_limit_seconds" || re.Extra["bad_value"] != -1 {
		t.Fatalf("extra %v", re.Extra)
	}
}

// Settings that allow role:everyone and role:nobody take them.
func TestUpdateRealmAllowedSystemGroups(t *testing.T) {
	e := newRealmUpdateEnv(t)
	e.update(idDesdemona, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
		"can_mention_many_users_group":           {New: NamedGroupSetting(gidEveryone)},
		"can_delete_own_message_group":           {New: NamedGroupSetting(gidNobody)},
		"can_move_messages_between_topics_group": {New: NamedGroupSetting(gidNobody)},
		"can_create_groups":                      {New: NamedGroupSetting(gidNobody)},
		"can_manage_all_groups":                  {New: NamedGroupSetting(gidAdministrators)},
	}})
	s := e.r.Settings()
	if s.CanMentionManyUsersGroup.GroupID != gidEveryone || s.CanDeleteOwnMessageGroup.GroupID != gidNobody ||
		s.CanMoveMessagesBetweenTopicsGroup.GroupID != gidNobody || s.CanCreateGroups.GroupID != gidNobody ||
		s.CanManageAllGroups.GroupID != gidAdministrators {
		t.Fatalf("settings %+v", s)
	}
	if data := e.lastData(); len(data) != 5 {
		t.Fatalf("event data %v", data)
	}
}
