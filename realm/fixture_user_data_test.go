package realm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/realm/clock"
)

// userStateRealm is the rich realm with users' own state: mutes, alert
// words, topic policies, a custom profile field and values, drafts,
// scheduled messages (channel and direct), navigation views, saved
// snippets and a changed settings default.
func userStateRealm(t *testing.T) (*Realm, *clock.Manual) {
	t.Helper()
	r, clock := richRealm(t)
	hamlet, iago := r.As(idHamlet), r.As(idIago)
	verona := channelID(t, r, "Verona")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(hamlet.MuteUser(bg, idCordelia))
	clock.Advance(time.Second)
	must(hamlet.MuteUser(bg, idOthello))
	_, err := hamlet.AddAlertWords(bg, []string{"Castle", "ghost"})
	must(err)
	must(hamlet.SetUserTopic(bg, UserTopicRequest{ChannelID: verona, Topic: "moat", Policy: PolicyMuted}))
	must(iago.SetUserTopic(bg, UserTopicRequest{ChannelID: verona, Topic: "Castle", Policy: PolicyUnmuted}))
	fieldID, err := iago.CreateProfileField(bg, ProfileFieldSpec{Name: "Team", Type: FieldSelect, Hint: "Where you work",
		FieldData: `{"a":{"text":"Core","order":"1"},"b":{"text":"Apps","order":"2"}}`, EditableByUser: false})
	must(err)
	must(hamlet.UpdateProfileData(bg, []ProfileDataUpdate{{ID: 7, Value: []int{idIago, idCordelia}}, {ID: 2, Value: "To *be*"}}))
	must(iago.UpdateProfileData(bg, []ProfileDataUpdate{{ID: fieldID, Value: "b"}}))
	stamp := 1767323100.25
	_, err = hamlet.CreateDrafts(bg, []DraftInput{{Type: "stream", To: []int{verona}, Topic: "moat", Content: "draft one"},
		{Type: "private", To: []int{idIago}, Content: "draft two", Timestamp: &stamp}})
	must(err)
	at := clock.Now().Add(time.Hour).Unix()
	_, err = hamlet.CreateScheduledMessage(bg, ScheduledMessageInput{Type: "channel", To: fmt.Sprint(verona),
		Topic: str("later"), Content: "scheduled **one**", DeliverAt: at, Client: "website"})
	must(err)
	_, err = hamlet.CreateScheduledMessage(bg, ScheduledMessageInput{Type: "direct", To: fmt.Sprintf("[%d]", idIago),
		Content: "scheduled two", DeliverAt: at + 60})
	must(err)
	must(hamlet.AddNavigationView(bg, "inbox", true, nil))
	must(hamlet.AddNavigationView(bg, "narrow/channel/10-Verona", false, str("Verona")))
	_, err = hamlet.CreateSavedSnippet(bg, "Greeting", "Good morrow")
	must(err)
	_, err = iago.CreateSavedSnippet(bg, "Bye", "Farewell")
	must(err)
	must(iago.UpdateUserSettingsDefaults(bg, map[string]any{"enter_sends": true, "twenty_four_hour_time": true}))
	return r, clock
}

// TestDumpLoadCarriesUserState: users' own state survives Dump → Load →
// Dump unchanged, and the loaded realm answers for it as the original.
func TestDumpLoadCarriesUserState(t *testing.T) {
	r, clock := userStateRealm(t)
	first := mustDump(t, r)
	loadedClock := manualAt(clock.Now())
	loaded, err := Load(first, WithClock(loadedClock))
	if err != nil {
		t.Fatal(err)
	}
	if second := mustDump(t, loaded); !bytes.Equal(first, second) {
		t.Fatalf("dump → load → dump differs:\n%s", cmp.Diff(string(first), string(second)))
	}
	for _, want := range []string{`"muted_user_id": 12`, `"words": [`, `"Castle"`, `"visibility_policy": 1`,
		`"custom_profile_fields"`, `"field_data": "{\"a\":`, `"value": [`, `"editable_by_user": false`,
		`"timestamp": 1767323100.25`, `"scheduled_delivery_timestamp"`, `"read_by_sender": true`,
		`"fragment": "narrow/channel/10-Verona"`, `"title": "Greeting"`, `"realm_user_default": {`, `"twenty_four_hour_time": true`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("the dump lacks %s", want)
		}
	}
	if diff := cmp.Diff(r.mutedUsers.byUser, loaded.mutedUsers.byUser); diff != "" || len(loaded.mutedUsers.byUser[idHamlet]) != 2 {
		t.Errorf("muted users (-original +loaded):\n%s", diff)
	}
	if diff := cmp.Diff(r.userTopics.byUser, loaded.userTopics.byUser, cmp.AllowUnexported(topicRef{})); diff != "" {
		t.Errorf("user topics (-original +loaded):\n%s", diff)
	}
	if loaded.userTopicPolicy(idIago, channelID(t, r, "Verona"), "castle") != PolicyUnmuted {
		t.Error("iago's policy for castle is lost")
	}
	if loaded.settingsDefaults.values != r.settingsDefaults.values || !loaded.settingsDefaults.values.EnterSends {
		t.Error("settings defaults differ")
	}
	// What each user's clients see.
	for _, uid := range []int{idIago, idHamlet} {
		a, b := r.As(uid), loaded.As(uid)
		for name, get := range map[string]func(*Actor) (any, error){
			"alert words":        func(x *Actor) (any, error) { return x.AlertWords(bg) },
			"profile fields":     func(x *Actor) (any, error) { return x.ProfileFields(bg) },
			"drafts":             func(x *Actor) (any, error) { return x.Drafts(bg) },
			"scheduled messages": func(x *Actor) (any, error) { return x.ScheduledMessages(bg) },
			"navigation views":   func(x *Actor) (any, error) { return x.NavigationViews(bg) },
			"saved snippets":     func(x *Actor) (any, error) { return x.SavedSnippets(bg) },
			"profile": func(x *Actor) (any, error) {
				return x.User(bg, idHamlet, UserViewOptions{IncludeCustomProfileFields: true})
			},
		} {
			want, err1 := get(a)
			got, err2 := get(b)
			if err1 != nil || err2 != nil {
				t.Fatalf("user %d's %s: %v %v", uid, name, err1, err2)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("user %d's %s differ (-original +loaded):\n%s", uid, name, diff)
			}
		}
	}
	// New IDs follow the loaded ones.
	hamlet := loaded.As(idHamlet)
	if ids, err := hamlet.CreateDrafts(bg, []DraftInput{{Content: "next"}}); err != nil || ids[0] != r.drafts.lastID+1 {
		t.Errorf("next draft: %v %v (last before %d)", ids, err, r.drafts.lastID)
	}
	if id, err := hamlet.CreateSavedSnippet(bg, "Next", "x"); err != nil || id != 3 {
		t.Errorf("next snippet: %d %v", id, err)
	}
	if id, err := loaded.As(idIago).CreateProfileField(bg, ProfileFieldSpec{Name: "Next", Type: FieldShortText}); err != nil || id != 11 {
		t.Errorf("next profile field: %d %v", id, err)
	}
	// The scheduled messages are delivered on the loaded realm's clock.
	loadedClock.Advance(2 * time.Hour)
	if list, _ := hamlet.ScheduledMessages(bg); len(list) != 0 {
		t.Fatalf("still scheduled after their time: %+v", list)
	}
	res, err := loaded.As(idIago).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 2})
	if err != nil || len(res.Messages) != 2 || res.Messages[0].Content != "scheduled **one**" || res.Messages[1].Content != "scheduled two" {
		t.Fatalf("delivered: %v %+v", err, res.Messages)
	}
	// Reset brings them back, armed again.
	loaded.Reset()
	if again := mustDump(t, loaded); !bytes.Equal(first, again) {
		t.Fatalf("reset of a loaded realm:\n%s", cmp.Diff(string(first), string(again)))
	}
	if loadedClock.PendingTimers() == 0 {
		t.Error("no delivery timer after Reset")
	}
}

// userStateDoc is a hand-written document with one item of each kind of
// users' state, every optional field absent.
func userStateDoc() map[string]any {
	return map[string]any{
		"minizulip_fixture": 1,
		"users": []any{
			map[string]any{"id": 1, "email": "ada@example.com", "full_name": "Ada", "role": 200},
			map[string]any{"id": 2, "email": "bob@example.com", "full_name": "Bob"},
			map[string]any{"id": 3, "email": "bot@example.com", "full_name": "Bot", "bot_type": 1, "bot_owner_id": 1},
		},
		"channels":      []any{map[string]any{"id": 1, "name": "general", "description": ""}, map[string]any{"id": 2, "name": "secret", "description": "", "invite_only": true}},
		"subscriptions": []any{map[string]any{"user_id": 1, "channel_id": 1}, map[string]any{"user_id": 2, "channel_id": 1}, map[string]any{"user_id": 1, "channel_id": 2}},
		"muted_users":   []any{map[string]any{"user_id": 1, "muted_user_id": 2}},
		"alert_words":   []any{map[string]any{"user_id": 2, "words": []any{" lunch ", "LUNCH", "", "tea"}}},
		"user_topics":   []any{map[string]any{"user_id": 2, "channel_id": 1, "topic": "news", "visibility_policy": 3}},
		"bot_storage":   []any{map[string]any{"user_id": 3, "storage": map[string]any{"count": "2"}}},
		"custom_profile_fields": []any{
			map[string]any{"id": 4, "type": 1, "name": "Phone"},
			map[string]any{"id": 2, "type": 6, "name": "Mentor", "order": 1},
			map[string]any{"id": 3, "type": 7, "name": "ignored", "field_data": `{"subtype":"github"}`},
		},
		"profile_data": []any{
			map[string]any{"user_id": 2, "field_id": 4, "value": "555"},
			map[string]any{"user_id": 2, "field_id": 2, "value": []any{1}},
		},
		"drafts": []any{map[string]any{"id": 5, "user_id": 2, "type": "stream", "to": []any{1}, "topic": "news", "content": "hi"}},
		"scheduled_messages": []any{
			map[string]any{"id": 7, "sender_id": 1, "channel_id": 1, "topic": "news", "content": "due", "scheduled_delivery_timestamp": 1000},
			map[string]any{"id": 8, "sender_id": 1, "to": []any{2}, "content": "broken", "scheduled_delivery_timestamp": 2000, "failed": true, "failure": "nope"},
		},
		"navigation_views":   []any{map[string]any{"user_id": 2, "fragment": "recent"}, map[string]any{"user_id": 2, "fragment": "narrow/is/dm", "name": "DMs"}},
		"saved_snippets":     []any{map[string]any{"id": 9, "user_id": 2, "title": "Hi", "content": "Hello"}},
		"realm_user_default": map[string]any{"enter_sends": true, "color_scheme": 2},
	}
}

// TestLoadUserStateFillsDefaults: absent timestamps are the load's time,
// absent orders the IDs, new fields are editable, a built-in external
// account takes its name, alert words are cleaned as the API cleans
// them, and a scheduled message past its time is delivered at once
// (a failed one is not).
func TestLoadUserStateFillsDefaults(t *testing.T) {
	doc, _ := json.Marshal(userStateDoc())
	clock := clock.NewManual(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	r, err := Load(doc, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	now := clock.Now().Unix()
	if m := r.mutedUsers.byUser[1]; len(m) != 1 || m[0] != (MutedUser{ID: 2, Timestamp: now}) {
		t.Errorf("muted: %+v", m)
	}
	if w := r.alertWords.byUser[2]; !slices.Equal(w, []string{"lunch", "tea"}) {
		t.Errorf("alert words: %q", w)
	}
	if got, err := r.As(3).Storage(bg, nil); err != nil || got["count"] != "2" || len(got) != 1 {
		t.Errorf("storage: %v %v", got, err)
	}
	if ut := r.userTopics.byUser[2][topicRef{1, "news"}]; ut == nil || ut.Policy != PolicyFollowed || ut.LastUpdated != now {
		t.Errorf("user topic: %+v", ut)
	}
	fields := r.profileFieldList()
	if len(fields) != 3 || fields[0].ID != 2 || fields[1].ID != 3 || fields[1].Name != "GitHub username" || !fields[2].EditableByUser ||
		fields[2].Order != 4 || r.profileFields.nextID != 5 {
		t.Errorf("profile fields: %+v, next %d", fields, r.profileFields.nextID)
	}
	if pd := r.users.byID[2].ProfileData; pd[2].Value != "[1]" || pd[4].Value != "555" {
		t.Errorf("profile data: %+v", pd)
	}
	if d := r.drafts.byUser[2]; len(d) != 1 || d[0].ID != 5 || d[0].editedAt != float64(now) || r.drafts.lastID != 5 {
		t.Errorf("drafts: %+v, next %d", d, r.drafts.lastID)
	}
	if v := r.navigationViewList(2); len(v) != 2 || v[0].IsPinned || *v[1].Name != "DMs" {
		t.Errorf("views: %+v", v)
	}
	if s := r.snippets.byUser[2]; len(s) != 1 || s[0].DateCreated != now || r.snippets.nextID != 10 {
		t.Errorf("snippets: %+v", s)
	}
	if !r.settingsDefaults.values.EnterSends || r.settingsDefaults.values.ColorScheme != 2 {
		t.Errorf("settings defaults: %+v", r.settingsDefaults.values)
	}
	// The due message goes out once the clock's timers run; the failed
	// one stays, failed.
	clock.Advance(0)
	if it := r.scheduled.byID[8]; len(r.scheduled.byID) != 1 || it == nil || !it.failed || it.failure != "nope" || it.readBySender {
		t.Fatalf("scheduled after load: %+v", r.scheduled.byID)
	}
	res, err := r.As(2).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1})
	if err != nil || len(res.Messages) != 1 || res.Messages[0].Content != "due" {
		t.Fatalf("delivered: %v %+v", err, res.Messages)
	}
	if id, err := r.As(1).CreateScheduledMessage(bg, ScheduledMessageInput{Type: "channel", To: "1", Topic: str("x"),
		Content: "y", DeliverAt: now + 60}); err != nil || id != 9 {
		t.Errorf("next scheduled message: %d %v", id, err)
	}
}

// TestLoadRefusesBadUserState: each bad item is refused with an error
// naming it, and a refused document leaves no delivery timer behind.
func TestLoadRefusesBadUserState(t *testing.T) {
	item, add := docItem, docAppend
	cases := []struct {
		name   string
		change func(d map[string]any)
		want   string
	}{
		{"mute unknown", func(d map[string]any) { item(d, "muted_users", 0)["muted_user_id"] = 9 }, "muted_users[0].muted_user_id: no user 9"},
		{"mute muter", func(d map[string]any) { item(d, "muted_users", 0)["user_id"] = 9 }, "muted_users[0].user_id: no user 9"},
		{"mute self", func(d map[string]any) { item(d, "muted_users", 0)["muted_user_id"] = 1 }, "muted_users[0].muted_user_id: Cannot mute self"},
		{"mute twice", func(d map[string]any) { add(d, "muted_users", map[string]any{"user_id": 1, "muted_user_id": 2}) },
			"muted_users[1]: User already muted (user 1 mutes user 2 twice)"},
		{"alert user", func(d map[string]any) { item(d, "alert_words", 0)["user_id"] = 0 }, "alert_words[0].user_id: no user 0"},
		{"alert twice", func(d map[string]any) { add(d, "alert_words", map[string]any{"user_id": 2, "words": []any{"x"}}) },
			"alert_words[1].user_id: user 2 has another entry"},
		{"alert length", func(d map[string]any) { item(d, "alert_words", 0)["words"] = []any{"ok", strings.Repeat("a", 101)} },
			"alert_words[0].words[1]: alert word is too long (limit: 100 characters)"},
		{"storage user", func(d map[string]any) { item(d, "bot_storage", 0)["user_id"] = 9 }, "bot_storage[0].user_id: no user 9"},
		{"storage twice", func(d map[string]any) {
			item(d, "bot_storage", 0)["storage"] = map[string]any{}
			add(d, "bot_storage", map[string]any{"user_id": 3, "storage": map[string]any{"k": "v"}})
		}, "bot_storage[1].user_id: user 3 has another entry"},
		{"storage key", func(d map[string]any) {
			item(d, "bot_storage", 0)["storage"] = map[string]any{strings.Repeat("k", 192): ""}
		},
			"bot_storage[0].storage: Key is too long (limit: 191 characters)."},
		{"topic channel", func(d map[string]any) { item(d, "user_topics", 0)["channel_id"] = 5 }, "user_topics[0].channel_id: no channel 5"},
		{"topic access", func(d map[string]any) { item(d, "user_topics", 0)["channel_id"] = 2 }, "user_topics[0].channel_id: user 2 cannot access channel 2"},
		{"topic policy", func(d map[string]any) { item(d, "user_topics", 0)["visibility_policy"] = 0 },
			"user_topics[0].visibility_policy: Invalid visibility_policy 0 (1 muted, 2 unmuted, 3 followed)"},
		{"topic twice", func(d map[string]any) {
			add(d, "user_topics", map[string]any{"user_id": 2, "channel_id": 1, "topic": "NEWS", "visibility_policy": 1})
		}, `user_topics[1].topic: user 2 has another policy for topic "NEWS" of channel 1`},
		{"topic character", func(d map[string]any) { item(d, "user_topics", 0)["topic"] = "a\u0007b" }, "user_topics[0].topic: "},
		{"field id", func(d map[string]any) { item(d, "custom_profile_fields", 1)["id"] = 4 }, "custom_profile_fields[1].id: duplicate custom profile field ID 4"},
		{"field type", func(d map[string]any) { item(d, "custom_profile_fields", 0)["type"] = 42 }, "custom_profile_fields[0]: Invalid field type."},
		{"field label", func(d map[string]any) { item(d, "custom_profile_fields", 1)["name"] = "Phone" },
			"custom_profile_fields[1].name: A field with that label already exists."},
		{"field summary", func(d map[string]any) {
			for i := range 3 {
				item(d, "custom_profile_fields", i)["display_in_profile_summary"] = true
			}
			item(d, "custom_profile_fields", 1)["type"] = 1
		}, "custom_profile_fields[2].display_in_profile_summary: Only 2 custom profile fields can be displayed in the profile summary."},
		{"value field", func(d map[string]any) { item(d, "profile_data", 0)["field_id"] = 8 }, "profile_data[0].field_id: Field id 8 not found."},
		{"value user", func(d map[string]any) { item(d, "profile_data", 0)["user_id"] = 8 }, "profile_data[0].user_id: no user 8"},
		{"value type", func(d map[string]any) { item(d, "profile_data", 0)["value"] = 5 }, "profile_data[0].value: Phone is not a string"},
		{"value bot", func(d map[string]any) { item(d, "profile_data", 1)["value"] = []any{3} }, "profile_data[1].value: User with ID 3 is a bot"},
		{"value empty", func(d map[string]any) { item(d, "profile_data", 0)["value"] = "" }, "profile_data[0].value: empty value"},
		{"value twice", func(d map[string]any) {
			add(d, "profile_data", map[string]any{"user_id": 2, "field_id": 4, "value": "1"})
		},
			"profile_data[2].field_id: user 2 has another value for field 4"},
		{"draft channel", func(d map[string]any) { item(d, "drafts", 0)["to"] = []any{2} }, "drafts[0]: Invalid channel ID"},
		{"draft type", func(d map[string]any) { item(d, "drafts", 0)["type"] = "dm" }, `drafts[0]: Invalid draft["type"]`},
		{"draft content", func(d map[string]any) { item(d, "drafts", 0)["content"] = " " }, `drafts[0]: draft["content"] cannot be blank`},
		{"draft id", func(d map[string]any) { item(d, "drafts", 0)["id"] = -1 }, "drafts[0].id: invalid draft ID -1"},
		{"draft sync off", func(d map[string]any) {
			item(d, "users", 1)["settings"] = map[string]any{"enable_drafts_synchronization": false}
		},
			"drafts[0].user_id: User has disabled synchronizing drafts."},
		{"draft topic", func(d map[string]any) {
			add(d, "drafts", map[string]any{"id": 6, "user_id": 2, "topic": " padded ", "content": "x"})
		}, `drafts[1].topic: " padded " is not a topic as stored`},
		{"scheduled sender", func(d map[string]any) { item(d, "scheduled_messages", 0)["sender_id"] = 9 }, "scheduled_messages[0].sender_id: no user 9"},
		{"scheduled channel", func(d map[string]any) { item(d, "scheduled_messages", 0)["channel_id"] = 9 }, "scheduled_messages[0]: "},
		{"scheduled both", func(d map[string]any) { item(d, "scheduled_messages", 0)["to"] = []any{2} },
			"scheduled_messages[0]: both channel_id and to: a message goes to a channel or to users"},
		{"scheduled dm user", func(d map[string]any) { item(d, "scheduled_messages", 1)["to"] = []any{77} }, "scheduled_messages[1]: "},
		{"scheduled time", func(d map[string]any) { item(d, "scheduled_messages", 0)["scheduled_delivery_timestamp"] = 0 },
			"scheduled_messages[0].scheduled_delivery_timestamp: 0 is not a time"},
		{"scheduled id", func(d map[string]any) { item(d, "scheduled_messages", 1)["id"] = 7 }, "scheduled_messages[1].id: duplicate scheduled message ID 7"},
		{"scheduled failure", func(d map[string]any) { item(d, "scheduled_messages", 1)["failed"] = false },
			"scheduled_messages[1].failure: a failure without failed"},
		{"view built-in name", func(d map[string]any) { item(d, "navigation_views", 0)["name"] = "Recent" },
			"navigation_views[0].name: Built-in views cannot have a custom name."},
		{"view custom name", func(d map[string]any) { delete(item(d, "navigation_views", 1), "name") },
			"navigation_views[1].name: Custom views must have a valid name."},
		{"view twice", func(d map[string]any) {
			add(d, "navigation_views", map[string]any{"user_id": 2, "fragment": "x", "name": "DMs"})
		},
			"navigation_views[2]: Navigation view already exists."},
		{"view user", func(d map[string]any) { item(d, "navigation_views", 0)["user_id"] = 4 }, "navigation_views[0].user_id: no user 4"},
		{"snippet title", func(d map[string]any) { item(d, "saved_snippets", 0)["title"] = " " }, "saved_snippets[0]: Title cannot be empty."},
		{"snippet id", func(d map[string]any) { item(d, "saved_snippets", 0)["id"] = 0 }, "saved_snippets[0].id: invalid saved snippet ID 0"},
		{"default unknown", func(d map[string]any) { d["realm_user_default"] = map[string]any{"sparkle": 1} },
			"realm_user_default.sparkle: unknown setting"},
		{"default value", func(d map[string]any) { d["realm_user_default"] = map[string]any{"color_scheme": 9} },
			"realm_user_default.color_scheme: "},
	}
	// The timers a refused document leaves: those of a realm's creation,
	// none for scheduled messages.
	baseline := func() int {
		d := userStateDoc()
		delete(d, "scheduled_messages")
		item(d, "muted_users", 0)["muted_user_id"] = 1
		doc, _ := json.Marshal(d)
		clock := clock.NewManual(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
		if _, err := Load(doc, WithClock(clock)); err == nil {
			t.Fatal("baseline document loaded")
		}
		return clock.PendingTimers()
	}()
	for _, c := range cases {
		d := userStateDoc()
		c.change(d)
		doc, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		clock := clock.NewManual(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
		r, err := Load(doc, WithClock(clock))
		want := "fixture: " + c.want
		var fe *FixtureError
		if r != nil || !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), want) ||
			(!strings.HasSuffix(want, ": ") && err.Error() != want) {
			t.Errorf("%s: got %v, want %q", c.name, err, want)
		}
		if n := clock.PendingTimers(); n != baseline {
			t.Errorf("%s: a refused load left %d timers", c.name, n)
		}
	}
}

// TestDumpLoadKeepsDeactivatedSendersScheduledMessages: a deactivated
// user's scheduled messages stay in the realm, as in Zulip, so its dump
// loads, dumps the same bytes, and they are the user's again once
// reactivated.
func TestDumpLoadKeepsDeactivatedSendersScheduledMessages(t *testing.T) {
	r, clock := newTestRealm(t)
	verona := channelID(t, r, "Verona")
	id, err := r.As(idHamlet).CreateScheduledMessage(bg, ScheduledMessageInput{Type: "channel", To: fmt.Sprint(verona),
		Topic: str("later"), Content: "scheduled", DeliverAt: clock.Now().Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	doc := mustDump(t, r)
	loaded, err := Load(doc, WithClock(manualAt(clock.Now())))
	if err != nil {
		t.Fatalf("a dump with a deactivated sender's scheduled message does not load: %v", err)
	}
	if again := mustDump(t, loaded); !bytes.Equal(doc, again) {
		t.Fatalf("Dump → Load → Dump differs:\n%s", cmp.Diff(string(doc), string(again)))
	}
	if err := loaded.As(idIago).ReactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	list, err := loaded.As(idHamlet).ScheduledMessages(bg)
	if err != nil || len(list) != 1 || list[0].ID != id || list[0].Content != "scheduled" {
		t.Fatalf("scheduled messages after reactivation = %+v, %v", list, err)
	}
}

// TestDumpLoadKeepsDeactivatedUsersReminders: a deactivated user's
// message reminders stay in the realm, as their scheduled messages do
// (Zulip keeps both as ScheduledMessage rows; they fail when due), so a
// dump carries them, the dump loads and
// dumps the same bytes, and they are the user's again once reactivated.
func TestDumpLoadKeepsDeactivatedUsersReminders(t *testing.T) {
	r, clock := newTestRealm(t)
	res, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "remember me")
	if err != nil {
		t.Fatal(err)
	}
	rid := remind(t, r, idHamlet, res.ID, "a note", time.Hour)
	if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	doc := mustDump(t, r)
	if !bytes.Contains(doc, []byte(`"note": "a note"`)) {
		t.Fatalf("the dump leaves out the deactivated user's reminder:\n%s", doc)
	}
	loaded, err := Load(doc, WithClock(manualAt(clock.Now())))
	if err != nil {
		t.Fatalf("a dump with a deactivated user's reminder does not load: %v", err)
	}
	if again := mustDump(t, loaded); !bytes.Equal(doc, again) {
		t.Fatalf("Dump → Load → Dump differs:\n%s", cmp.Diff(string(doc), string(again)))
	}
	if err := loaded.As(idIago).ReactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	list, err := loaded.As(idHamlet).Reminders(bg)
	if err != nil || len(list) != 1 || list[0].ID != rid || !strings.Contains(list[0].Content, "a note") {
		t.Fatalf("reminders after reactivation = %+v, %v", list, err)
	}
}
