package realm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/user"
)

// richRealm is the dev realm with messages (channel and direct), reactions
// (a custom emoji's among them), flags, an edit, a move, a group with a
// subgroup, a linkifier, a changed personal setting and realm setting, and
// a user's storage and a poll with a vote.
func richRealm(t *testing.T) (*Realm, *clock.Manual) {
	t.Helper()
	r, clock := newTestRealm(t)
	msgID, dmID := seedForSnapshots(t, r)
	a := r.As(idIago)
	if err := a.AddReaction(bg, ReactionRequest{MessageID: msgID, EmojiName: str("green_tick"), ReactionType: str("realm_emoji")}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if _, err := a.AddPlayground(bg, "Go playground", "Go", "https://go.dev/play?code={code}"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AddLinkifier(bg, linkifier.Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://example.com/{id}"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UpdateMessage(bg, UpdateMessageRequest{MessageID: msgID, Content: str("edited, see #123")}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UpdateMessage(bg, UpdateMessageRequest{MessageID: msgID + 1, Topic: str("moat")}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{msgID, dmID}, Op: "add", Flag: "starred"}); err != nil {
		t.Fatal(err)
	}
	gid, err := a.CreateUserGroup(bg, CreateGroupRequest{Name: "leads", Description: "Leads", Members: []int{idIago}})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateGroupMembership(bg, gid, GroupMembershipChange{AddSubgroups: []int{r.groups.byName["hamletcharacters"].ID}}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"enter_sends": true, "color_scheme": 2}}); err != nil {
		t.Fatal(err)
	}
	folderID, err := a.CreateChannelFolder(bg, "Work", "Where *work* happens")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateChannel(bg, ChannelUpdate{ChannelID: channelID(t, r, "Verona"), FolderID: ptrTo(intPtr(folderID))}); err != nil {
		t.Fatal(err)
	}
	poll, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "lunch", "/poll Lunch?\n- Pizza")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.AddSubmessage(bg, SubmessageRequest{MessageID: poll.ID, MsgType: "widget", Content: `{"type": "vote", "key": "canned,0", "vote": 1}`}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).PutStorage(bg, map[string]string{"state": `{"turn": 2}`}); err != nil {
		t.Fatal(err)
	}
	r.UpdateSettings(func(s *Settings) { s.Name = "fixture.Document realm" })
	return r, clock
}

func mustDump(t *testing.T, r *Realm) []byte {
	t.Helper()
	doc, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestDumpLoadDumpIsIdentical: a rich realm dumped, loaded and dumped
// again gives the same document, and the loaded realm serves what the
// original did.
func TestDumpLoadDumpIsIdentical(t *testing.T) {
	r, clock := richRealm(t)
	first := mustDump(t, r)
	loaded, err := Load(first, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	if second := mustDump(t, loaded); !bytes.Equal(first, second) {
		t.Fatalf("dump → load → dump differs:\n%s", cmp.Diff(string(first), string(second)))
	}
	for _, want := range []string{`"name": "leads"`, `"pattern": "#(?P<id>[0-9]+)"`, `"enter_sends": true`,
		`"emoji_name": "green_tick"`, `"starred"`, `"last_edit_timestamp"`, `"topic": "moat"`, `"name": "fixture.Document realm"`, `"url_template": "https://go.dev/play?code={code}"`,
		`"description": "Where *work* happens"`, `"folder_id": 1`, `"state": "{\"turn\": 2}"`, `"msg_type": "widget"`,
		fmt.Sprintf(`"moderation_request_channel_id": %d`, channelID(t, r, "core team"))} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("the dump lacks %s", want)
		}
	}
	// The loaded realm answers as the original: messages as each user
	// sees them (rendered again, linkifier included), credentials.
	for _, uid := range []int{idIago, idHamlet, idCordelia} {
		req := FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 10, View: ViewOptions{ApplyMarkdown: true}}
		want, err := r.As(uid).Messages(bg, req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := loaded.As(uid).Messages(bg, req)
		if err != nil {
			t.Fatal(err)
		}
		// Edit history is not part of fixtures.
		if diff := cmp.Diff(want.Messages, got.Messages, cmpopts.IgnoreFields(Message{}, "EditHistory")); diff != "" {
			t.Fatalf("user %d's messages differ (-original +loaded):\n%s", uid, diff)
		}
	}
	// Channel folders, channels' folders and the moderation request
	// channel, as the API shows them.
	for _, uid := range []int{idIago, idHamlet} {
		want, _ := r.As(uid).ChannelFolders(bg, true)
		got, _ := loaded.As(uid).ChannelFolders(bg, true)
		if diff := cmp.Diff(want, got); diff != "" || len(got) != 1 || got[0].RenderedDescription == "" {
			t.Fatalf("user %d's channel folders differ (-original +loaded):\n%s", uid, diff)
		}
	}
	if c := loaded.channels.byName[channelKey("Verona")]; c.FolderID != 1 {
		t.Errorf("loaded Verona's folder: %d", c.FolderID)
	}
	if got, want := loaded.settings.ModerationRequestChannelID, r.settings.ModerationRequestChannelID; got != want || got == 0 {
		t.Errorf("loaded moderation request channel %d, want %d", got, want)
	}
	_, key, _ := r.APIKey("hamlet@zulip.com")
	if _, err := loaded.Authenticate("hamlet@zulip.com", key); err != nil {
		t.Fatalf("hamlet's API key: %v", err)
	}
	// Reset goes back to the loaded state, not to an empty realm.
	if _, err := loaded.As(idIago).SendChannelMessage(bg, "Verona", "t", "later"); err != nil {
		t.Fatal(err)
	}
	loaded.Reset()
	if again := mustDump(t, loaded); !bytes.Equal(first, again) {
		t.Fatalf("reset of a loaded realm:\n%s", cmp.Diff(string(first), string(again)))
	}
}

// TestLoadFillsDefaults: a hand-written fixture names only what it needs.
func TestLoadFillsDefaults(t *testing.T) {
	doc := `{"minizulip_fixture": 1,
		"users": [{"id": 1, "email": "ada@example.com", "full_name": "Ada", "role": 200},
		          {"id": 2, "email": "bob@example.com", "full_name": "Bob"}],
		"channel_folders": [{"id": 4, "name": "Main", "description": ""}],
		"channels": [{"id": 1, "name": "general", "description": "All", "folder_id": 4}],
		"subscriptions": [{"user_id": 1, "channel_id": 1}, {"user_id": 2, "channel_id": 1}],
		"messages": [{"id": 1, "sender_id": 1, "channel_id": 1, "topic": "hi", "content": "Hello @**Bob**",
		              "flags": {"1": ["read"], "2": ["mentioned"]}},
		             {"id": 2, "sender_id": 2, "to": [1], "content": "psst", "flags": {"1": [], "2": ["read"]}}]}`
	r, err := Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if r.settings.Name != "Zulip" || r.users.byID[2].Role != user.RoleMember || !r.users.byID[1].Role.IsAdmin() {
		t.Fatalf("defaults: realm %q, roles %v %v", r.settings.Name, r.users.byID[1].Role, r.users.byID[2].Role)
	}
	m, raw, err := r.As(2).Message(bg, 1, ViewOptions{ApplyMarkdown: true})
	if err != nil || raw != "Hello @**Bob**" || !strings.Contains(m.Content, `data-user-id="2"`) {
		t.Fatalf("message 1: %v %q %q", err, raw, m.Content)
	}
	if c, ok := r.messages.store.Copy(2, 1); !ok || c.Flags.Names()[0] != "mentioned" {
		t.Fatalf("bob's copy: %v %v", c.Flags.Names(), ok)
	}
	// A folder without an order takes its ID; reporting is off unless
	// the document names a moderation request channel.
	if f := r.folderByID(4); f == nil || f.Order != 4 || r.channels.byID[1].FolderID != 4 || r.settings.ModerationRequestChannelID != 0 {
		t.Fatalf("folder %+v, channel's folder %d, moderation channel %d", f, r.channels.byID[1].FolderID, r.settings.ModerationRequestChannelID)
	}
	if id, err := r.As(1).CreateChannelFolder(bg, "Next", ""); err != nil || id != 5 {
		t.Fatalf("next folder: %d %v", id, err)
	}
	// New IDs follow the loaded ones.
	res, err := r.As(1).SendChannelMessage(bg, "general", "hi", "next")
	if err != nil || res.ID != 3 {
		t.Fatalf("next message: %d %v", res.ID, err)
	}
	id, err := r.AddUser(NewUser{Email: "cy@example.com", FullName: "Cy"})
	if err != nil || id != 3 {
		t.Fatalf("next user: %d %v", id, err)
	}
}

// TestLoadRefusesBadDocuments: each bad document is refused with an
// error naming the offending item.
func TestLoadRefusesBadDocuments(t *testing.T) {
	base := func() map[string]any {
		return map[string]any{
			"minizulip_fixture": 1,
			"users": []any{
				map[string]any{"id": 1, "email": "ada@example.com", "full_name": "Ada"},
				map[string]any{"id": 2, "email": "bob@example.com", "full_name": "Bob"},
			},
			"groups":        []any{map[string]any{"id": 100, "name": "team", "description": "", "members": []any{1}}},
			"channels":      []any{map[string]any{"id": 1, "name": "general", "description": ""}},
			"subscriptions": []any{map[string]any{"user_id": 1, "channel_id": 1}},
			"messages": []any{
				map[string]any{"id": 1, "sender_id": 1, "channel_id": 1, "topic": "t", "content": "a", "flags": map[string]any{"1": []any{"read"}}},
				map[string]any{"id": 2, "sender_id": 1, "channel_id": 1, "topic": "t", "content": "b", "flags": map[string]any{}},
				map[string]any{"id": 3, "sender_id": 2, "to": []any{1}, "content": "c", "flags": map[string]any{}},
				map[string]any{"id": 4, "sender_id": 1, "channel_id": 1, "topic": "t", "content": "d", "flags": map[string]any{}},
			},
		}
	}
	item := docItem
	cases := []struct {
		name   string
		change func(d map[string]any)
		raw    string // instead of the changed base
		want   string
	}{
		{name: "malformed JSON", raw: `{"minizulip_fixture": 1, "users": [`, want: "fixture: not a valid fixture document: unexpected EOF"},
		{name: "data after", raw: `{"minizulip_fixture": 1, "users": [{"id":1,"email":"a@b.co","full_name":"A"}]} {}`,
			want: "fixture: not a valid fixture document: data after the document"},
		{name: "unknown top field", change: func(d map[string]any) { d["streams"] = []any{} },
			want: `fixture: not a valid fixture document: json: unknown field "streams"`},
		{name: "unknown nested field", change: func(d map[string]any) { item(d, "users", 0)["is_admin"] = true },
			want: `fixture: not a valid fixture document: json: unknown field "is_admin"`},
		{name: "format", change: func(d map[string]any) { d["minizulip_fixture"] = 2 }, want: "fixture: minizulip_fixture: format 2, want 1"},
		{name: "retention on the Free plan", change: func(d map[string]any) {
			d["settings"] = map[string]any{"plan_type": 2, "message_retention_days": 30}
		}, want: "fixture: settings.message_retention_days: Available on Zulip Cloud Standard. Upgrade to access."},
		{name: "retention of no days", change: func(d map[string]any) { d["settings"] = map[string]any{"message_retention_days": 0} },
			want: "fixture: settings.message_retention_days: 0 is not a number of days (-1 is unlimited)"},
		{name: "no users", change: func(d map[string]any) {
			d["users"] = []any{}
			d["groups"] = nil
			d["subscriptions"] = nil
			d["messages"] = nil
		},
			want: "fixture: users: a realm needs at least one user"},
		{name: "duplicate user ID", change: func(d map[string]any) { item(d, "users", 1)["id"] = 1 },
			want: "fixture: users[1].id: duplicate user ID 1"},
		{name: "duplicate email", change: func(d map[string]any) { item(d, "users", 1)["email"] = "ADA@example.com" },
			want: `fixture: users[1].email: duplicate email "ADA@example.com"`},
		{name: "bad email", change: func(d map[string]any) { item(d, "users", 1)["email"] = "bob" },
			want: `fixture: users[1].email: invalid email "bob"`},
		{name: "bad role", change: func(d map[string]any) { item(d, "users", 0)["role"] = 250 },
			want: "fixture: users[0].role: unknown role 250"},
		{name: "bot owner", change: func(d map[string]any) { item(d, "users", 1)["bot_type"] = 1; item(d, "users", 1)["bot_owner_id"] = 9 },
			want: "fixture: users[1].bot_owner_id: no user 9"},
		{name: "unknown setting", change: func(d map[string]any) { item(d, "users", 0)["settings"] = map[string]any{"sparkle": true} },
			want: "fixture: users[0].settings.sparkle: unknown setting"},
		{name: "bad setting value", change: func(d map[string]any) { item(d, "users", 0)["settings"] = map[string]any{"enter_sends": 3} },
			want: "fixture: users[0].settings.enter_sends: enter_sends is not a boolean"},
		{name: "group member", change: func(d map[string]any) { item(d, "groups", 0)["members"] = []any{1, 7} },
			want: "fixture: groups[0].members[1]: no user 7"},
		{name: "system group ID", change: func(d map[string]any) { item(d, "groups", 0)["id"] = 9 },
			want: "fixture: groups[0].id: 9 is the ID of the system group role:nobody"},
		{name: "group cycle", change: func(d map[string]any) {
			d["groups"] = append(d["groups"].([]any), map[string]any{"id": 101, "name": "b", "description": "", "members": []any{}, "subgroups": []any{100}})
			item(d, "groups", 0)["subgroups"] = []any{101}
		}, want: "fixture: groups[0].subgroups: group 100 contains itself through its subgroups"},
		{name: "realm group setting", change: func(d map[string]any) {
			d["settings"] = map[string]any{"group_settings": map[string]any{"can_create_groups": 555}}
		}, want: "fixture: settings.group_settings.can_create_groups: no group 555"},
		{name: "system-only realm group setting", change: func(d map[string]any) {
			d["settings"] = map[string]any{"group_settings": map[string]any{"can_access_all_users_group": 12}}
		}, want: "fixture: settings.group_settings.can_access_all_users_group: 'can_access_all_users_group' setting cannot be set to 'role:moderators' group."},
		{name: "anonymous system-only setting", change: func(d map[string]any) {
			d["settings"] = map[string]any{"group_settings": map[string]any{"can_create_web_public_channel_group": map[string]any{"direct_members": []any{1}, "direct_subgroups": []any{}}}}
		}, want: "fixture: settings.group_settings.can_create_web_public_channel_group: 'can_create_web_public_channel_group' must be a system user group."},
		{name: "bad channel name", change: func(d map[string]any) { item(d, "channels", 0)["name"] = " " },
			want: "fixture: channels[0].name: Channel name can't be empty."},
		{name: "duplicate channel name", change: func(d map[string]any) {
			d["channels"] = append(d["channels"].([]any), map[string]any{"id": 2, "name": "GENERAL", "description": ""})
		}, want: `fixture: channels[1].name: duplicate channel name "GENERAL"`},
		{name: "folder ID", change: func(d map[string]any) {
			d["channel_folders"] = []any{map[string]any{"id": 0, "name": "A", "description": ""}}
		}, want: "fixture: channel_folders[0].id: invalid channel folder ID 0"},
		{name: "folder name", change: func(d map[string]any) {
			d["channel_folders"] = []any{map[string]any{"id": 1, "name": "Work", "description": ""},
				map[string]any{"id": 2, "name": "WORK", "description": ""}}
		}, want: "fixture: channel_folders[1].name: Channel folder name already in use"},
		{name: "folder creator", change: func(d map[string]any) {
			d["channel_folders"] = []any{map[string]any{"id": 1, "name": "Work", "description": "", "creator_id": 5}}
		}, want: "fixture: channel_folders[0].creator_id: no user 5"},
		{name: "channel folder", change: func(d map[string]any) { item(d, "channels", 0)["folder_id"] = 3 },
			want: "fixture: channels[0].folder_id: no channel folder 3"},
		{name: "moderation channel", change: func(d map[string]any) {
			d["settings"] = map[string]any{"moderation_request_channel_id": 9}
		}, want: "fixture: settings.moderation_request_channel_id: no channel 9"},
		{name: "public moderation channel", change: func(d map[string]any) {
			d["settings"] = map[string]any{"moderation_request_channel_id": 1}
		}, want: "fixture: settings.moderation_request_channel_id: channel 1 is not private"},
		{name: "negative moderation channel", change: func(d map[string]any) {
			d["settings"] = map[string]any{"moderation_request_channel_id": -4}
		}, want: "fixture: settings.moderation_request_channel_id: -4 is neither -1 (reporting off) nor a channel ID"},
		{name: "subscription", change: func(d map[string]any) { item(d, "subscriptions", 0)["channel_id"] = 5 },
			want: "fixture: subscriptions[0].channel_id: no channel 5"},
		{name: "missing sender", change: func(d map[string]any) { item(d, "messages", 3)["sender_id"] = 99 },
			want: "fixture: messages[3].sender_id: no user 99"},
		{name: "missing channel", change: func(d map[string]any) { item(d, "messages", 1)["channel_id"] = 8 },
			want: "fixture: messages[1].channel_id: no channel 8"},
		{name: "unknown flag", change: func(d map[string]any) { item(d, "messages", 0)["flags"] = map[string]any{"1": []any{"read", "shiny"}} },
			want: `fixture: messages[0].flags.1: unknown flag "shiny"`},
		{name: "flag holder", change: func(d map[string]any) { item(d, "messages", 0)["flags"] = map[string]any{"42": []any{}} },
			want: "fixture: messages[0].flags.42: no user 42"},
		{name: "message order", change: func(d map[string]any) { item(d, "messages", 2)["id"] = 2 },
			want: "fixture: messages[2].id: message IDs must be positive and ascending (2 after 2)"},
		{name: "dm recipient", change: func(d map[string]any) { item(d, "messages", 2)["to"] = []any{1, 77} },
			want: "fixture: messages[2].to[1]: no user 77"},
		{name: "reaction", change: func(d map[string]any) {
			item(d, "messages", 0)["reactions"] = []any{map[string]any{"user_id": 2, "emoji_name": "nope", "emoji_code": "1", "reaction_type": "realm_emoji"}}
		}, want: `fixture: messages[0].reactions[0]: no custom emoji "nope" with ID "1"`},
		{name: "emoji image", change: func(d map[string]any) {
			d["custom_emoji"] = []any{map[string]any{"id": 1, "name": "blob", "author_id": 1, "image": "aGVsbG8="}}
		}, want: "fixture: custom_emoji[0].image: "},
		{name: "emoji author", change: func(d map[string]any) {
			d["custom_emoji"] = []any{map[string]any{"id": 1, "name": "blob", "author_id": 3}}
		}, want: "fixture: custom_emoji[0].author_id: no user 3"},
		{name: "linkifier", change: func(d map[string]any) {
			d["linkifiers"] = []any{map[string]any{"id": 1, "pattern": "(", "url_template": "https://x/"}}
		}, want: "fixture: linkifiers[0]: "},
		{name: "playground", change: func(d map[string]any) {
			d["playgrounds"] = []any{map[string]any{"id": 1, "name": "Py", "pygments_language": "Python", "url_template": "https://x/{other}"}}
		}, want: `fixture: playgrounds[0]: Missing the required variable "code" in the URL template`},
		{name: "playground id", change: func(d map[string]any) {
			d["playgrounds"] = []any{map[string]any{"id": 0, "name": "Py", "pygments_language": "Python", "url_template": "https://x/{code}"}}
		}, want: "fixture: playgrounds[0].id: "},
	}
	for _, c := range cases {
		doc := []byte(c.raw)
		if c.raw == "" {
			d := base()
			c.change(d)
			var err error
			if doc, err = json.Marshal(d); err != nil {
				t.Fatal(err)
			}
		}
		r, err := Load(doc)
		var fe *FixtureError
		if r != nil || !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), c.want) ||
			(!strings.HasSuffix(c.want, ": ") && err.Error() != c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// The base document itself loads.
	doc, _ := json.Marshal(base())
	if _, err := Load(doc); err != nil {
		t.Fatalf("base document: %v", err)
	}
}

// docItem is item i of a decoded fixture document's list, for tests that
// spoil one item.
func docItem(doc map[string]any, list string, i int) map[string]any {
	return doc[list].([]any)[i].(map[string]any)
}

// docAppend appends v to a decoded fixture document's list.
func docAppend(doc map[string]any, list string, v map[string]any) {
	doc[list] = append(doc[list].([]any), v)
}

// A document's own plan decides which of its settings it may hold, not
// the plan the options start the realm on: a retention on Standard loads
// into a realm started on the Free plan, which it moves to Standard.
func TestLoadChecksSettingsAgainstTheDocumentsPlan(t *testing.T) {
	doc := `{"minizulip_fixture": 1, "users": [{"id": 1, "email": "ada@example.com", "full_name": "Ada", "role": 100}],
"settings": {"plan_type": 3, "message_retention_days": 30}}`
	r, err := Load([]byte(doc), WithPlanType(PlanTypeLimited))
	if err != nil {
		t.Fatal(err)
	}
	if p, days := r.PlanType(), r.Settings().MessageRetentionDays; p != PlanTypeStandard || days != 30 {
		t.Fatalf("plan %d, retention %d; want Standard (3), 30", p, days)
	}
}
