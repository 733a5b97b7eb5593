package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// paramEndpoint is a request to an endpoint that gained parameters: the
// path with its IDs, who sends it (iago unless said), the parameters it
// always needs, and the realm's options; setup makes what the path and
// parameters name, through the engine, in the same way at every level;
// observe is a GET whose answer shows what the request did where the
// realm's dump does not (invitations).
type paramEndpoint struct {
	path, as string
	base     url.Values
	opts     []realm.Option
	setup    func(t *testing.T, r *realm.Realm)
	// after shows in the realm what the request did where the realm's
	// dump does not (an invitation shows once accepted).
	after func(t *testing.T, r *realm.Realm, body map[string]any)
	// random are the answer's members that differ between two realms
	// doing the same (a call's link).
	random []string
}

// acceptInvite accepts the invitation a request made: a link's from the
// answer, an email invitation's from the outbox.
func acceptInvite(t *testing.T, r *realm.Realm, body map[string]any) {
	t.Helper()
	key := ""
	if link, ok := body["invite_link"].(string); ok {
		parts := strings.Split(strings.TrimSuffix(link, "/"), "/")
		key = parts[len(parts)-1]
	}
	for _, m := range r.Outbox() {
		if m.Template == realm.InviteTemplate && m.To == "new@example.com" {
			key = m.ConfirmationKey
		}
	}
	if _, err := r.AcceptInvitation(key, realm.Signup{FullName: "Newcomer", Email: "new@example.com"}); err != nil {
		t.Fatalf("accepting the invitation: %v", err)
	}
}

// actAs runs f as the user with this email.
func actAs(t *testing.T, r *realm.Realm, email string, f func(*realm.Actor) error) {
	t.Helper()
	id, _ := r.UserIDByEmail(email)
	if err := f(r.As(id)); err != nil {
		t.Fatal(err)
	}
}

// sendHi sends message 1 of a fresh dev realm, "hi" in Denmark > castle,
// as iago.
func sendHi(t *testing.T, r *realm.Realm) {
	actAs(t, r, "iago@zulip.com", func(a *realm.Actor) error {
		_, err := a.SendChannelMessage(context.Background(), "Denmark", "castle", "hi")
		return err
	})
}

var bg0 = context.Background()

// paramEndpoints are the requests of the table's "parameter gate" rows,
// by the row's where, or by where and parameter for one row.
var paramEndpoints = map[string]paramEndpoint{
	"GET /calls/bigbluebutton/create": {path: "/calls/bigbluebutton/create", base: url.Values{"meeting_name": {"standup"}},
		opts:   []realm.Option{realm.WithCallProvider(realm.NewFakeCallProvider(realm.CallBigBlueButton, "https://bbb.example/"))},
		random: []string{"url"}},
	"GET /messages":                      {path: "/messages", base: url.Values{"anchor": {"newest"}, "num_before": {"5"}, "num_after": {"0"}}, setup: sendHi},
	"GET /messages/{message_id}":         {path: "/messages/1", setup: sendHi},
	"GET /messages/{message_id}/history": {path: "/messages/1/history", setup: sendHi},
	"GET /users/me/{stream_id}/topics":   {path: "/users/me/2/topics", setup: sendHi},
	"GET /streams":                       {path: "/streams"},
	"GET /streams ?exclude_archived": {path: "/streams", setup: func(t *testing.T, r *realm.Realm) {
		actAs(t, r, "iago@zulip.com", func(a *realm.Actor) error { return a.ArchiveChannel(bg0, 3) })
	}},
	"GET /streams ?include_all": {path: "/streams", setup: func(t *testing.T, r *realm.Realm) {
		actAs(t, r, "hamlet@zulip.com", func(a *realm.Actor) error {
			_, err := a.CreateChannel(bg0, realm.CreateChannelRequest{Name: "secret", Settings: realm.SubscribeRequest{InviteOnly: true}})
			return err
		})
	}},
	"GET /streams/{stream_id}/email_address": {path: "/streams/2/email_address"},
	"GET /user_groups":                       {path: "/user_groups"},
	"GET /user_groups ?include_deactivated_groups": {path: "/user_groups", setup: func(t *testing.T, r *realm.Realm) {
		actAs(t, r, "desdemona@zulip.com", func(a *realm.Actor) error { return a.DeactivateUserGroup(bg0, 17) })
	}},
	"GET /users":                          {path: "/users"},
	"PATCH /messages/{message_id}":        {path: "/messages/1", base: url.Values{"content": {"edited"}}, setup: sendHi},
	"PATCH /realm":                        {path: "/realm", as: "desdemona@zulip.com"},
	"PATCH /realm/user_settings_defaults": {path: "/realm/user_settings_defaults"},
	"PATCH /settings":                     {path: "/settings"},
	"PATCH /streams/{stream_id}":          {path: "/streams/2", base: url.Values{"description": {"moved"}}},
	"PATCH /streams/{stream_id} ?is_archived": {path: "/streams/3", setup: func(t *testing.T, r *realm.Realm) {
		actAs(t, r, "iago@zulip.com", func(a *realm.Actor) error { return a.ArchiveChannel(bg0, 3) })
	}},
	"PATCH /streams/{stream_id} ?folder_id": {path: "/streams/2", setup: func(t *testing.T, r *realm.Realm) {
		actAs(t, r, "iago@zulip.com", func(a *realm.Actor) error { _, err := a.CreateChannelFolder(bg0, "Italy", ""); return err })
	}},
	"PATCH /users/{email}":               {path: "/users/10"},
	"PATCH /user_groups/{user_group_id}": {path: "/user_groups/17", as: "desdemona@zulip.com", base: url.Values{"description": {"renamed"}}},
	"PATCH /user_groups/{user_group_id} ?deactivated": {path: "/user_groups/17", as: "desdemona@zulip.com", base: url.Values{"description": {"renamed"}}, setup: func(t *testing.T, r *realm.Realm) {
		actAs(t, r, "desdemona@zulip.com", func(a *realm.Actor) error { return a.DeactivateUserGroup(bg0, 17) })
	}},
	"POST /invites": {path: "/invites", as: "desdemona@zulip.com", base: url.Values{"invitee_emails": {"new@example.com"}, "stream_ids": {"[2]"}},
		after: acceptInvite},
	"POST /invites/multiuse":     {path: "/invites/multiuse", as: "desdemona@zulip.com", base: url.Values{"stream_ids": {"[2]"}}, after: acceptInvite},
	"POST /messages":             {path: "/messages", base: url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"castle"}, "content": {"hi"}}},
	"POST /realm/profile_fields": {path: "/realm/profile_fields", base: url.Values{"name": {"Shoe size"}, "field_type": {"1"}}},
	"POST /reminders":            {path: "/reminders", base: url.Values{"message_id": {"1"}, "scheduled_delivery_timestamp": {"1900000000"}}, setup: sendHi},
	"POST /scheduled_messages": {path: "/scheduled_messages", base: url.Values{"type": {"stream"}, "to": {"2"}, "topic": {"castle"}, "content": {"hi"},
		"scheduled_delivery_timestamp": {"1900000000"}}},
	"POST /user_groups/create":                  {path: "/user_groups/create", base: url.Values{"name": {"crew"}, "description": {"a crew"}, "members": {"[10]"}}},
	"POST /user_groups/{user_group_id}/members": {path: "/user_groups/17/members", as: "desdemona@zulip.com", base: url.Values{"add": {"[12]"}}},
	"POST /user_groups/{user_group_id}/members ?delete_subgroups": {path: "/user_groups/17/members", as: "desdemona@zulip.com", base: url.Values{"add": {"[12]"}},
		setup: func(t *testing.T, r *realm.Realm) {
			actAs(t, r, "desdemona@zulip.com", func(a *realm.Actor) error {
				return a.UpdateGroupMembership(bg0, 17, realm.GroupMembershipChange{AddSubgroups: []int{11}})
			})
		}},
	"POST /typing":                 {path: "/typing", base: url.Values{"type": {"stream"}, "op": {"start"}, "to": {"[2]"}, "topic": {"castle"}}},
	"POST /users/me/subscriptions": {path: "/users/me/subscriptions", base: url.Values{"subscriptions": {`[{"name": "new channel"}]`}}},
	"POST /users/me/subscriptions ?folder_id": {path: "/users/me/subscriptions", base: url.Values{"subscriptions": {`[{"name": "new channel"}]`}},
		setup: func(t *testing.T, r *realm.Realm) {
			actAs(t, r, "iago@zulip.com", func(a *realm.Actor) error { _, err := a.CreateChannelFolder(bg0, "Italy", ""); return err })
		}},
}

// paramValues are a valid value of each gated parameter that changes
// what the request does, by "where ?name" or "?name"; paramNoEffect
// names the parameters whose effect the dev realm does not show.
var paramValues = map[string]string{
	// PATCH /realm's group settings, each to a system group other than
	// its default (role:members 14, role:moderators 12, role:administrators 11).
	"PATCH /realm ?can_access_all_users_group":                     `{"new":14}`,
	"PATCH /realm ?direct_message_initiator_group":                 `{"new":14}`,
	"PATCH /realm ?direct_message_permission_group":                `{"new":14}`,
	"PATCH /realm ?can_create_web_public_channel_group":            `{"new":12}`,
	"PATCH /realm ?can_create_bots_group":                          `{"new":12}`,
	"PATCH /realm ?can_create_write_only_bots_group":               `{"new":12}`,
	"PATCH /realm ?can_summarize_topics_group":                     `{"new":12}`,
	"PATCH /realm ?can_manage_billing_group":                       `{"new":12}`,
	"PATCH /realm ?can_set_topics_policy_group":                    `{"new":12}`,
	"PATCH /realm ?can_set_delete_message_policy_group":            `{"new":11}`,
	"?enable_followed_topic_audible_notifications":                 "false",
	"?enable_followed_topic_desktop_notifications":                 "false",
	"?enable_followed_topic_email_notifications":                   "false",
	"?enable_followed_topic_push_notifications":                    "false",
	"?enable_followed_topic_wildcard_mentions_notify":              "false",
	"?web_stream_unreads_count_display_policy":                     "3",
	"?automatically_follow_topics_policy":                          "1",
	"?automatically_unmute_topics_in_muted_streams_policy":         "1",
	"?web_escape_navigates_to_home_view":                           "false",
	"?web_home_view":                                               `"all_messages"`,
	"?automatically_follow_topics_where_mentioned":                 "false",
	"?web_font_size_px":                                            "20",
	"?web_line_height_percent":                                     "150",
	"?receives_typing_notifications":                               "false",
	"?web_navigate_to_sent_message":                                "false",
	"?web_channel_default_view":                                    "2",
	"?web_animate_image_previews":                                  `"always"`,
	"?allow_private_data_export":                                   "true",
	"?web_suggest_update_timezone":                                 "false",
	"?hide_ai_features":                                            "true",
	"?resolved_topic_notice_auto_read_policy":                      `"never"`,
	"?web_left_sidebar_unreads_count_summary":                      "false",
	"?web_left_sidebar_show_channel_folders":                       "false",
	"?web_inbox_show_channel_folders":                              "false",
	"?can_mention_group":                                           "11",
	"PATCH /user_groups/{user_group_id} ?can_manage_group":         `{"new": 11}`,
	"PATCH /user_groups/{user_group_id} ?can_join_group":           `{"new": 11}`,
	"PATCH /user_groups/{user_group_id} ?can_add_members_group":    `{"new": 11}`,
	"PATCH /user_groups/{user_group_id} ?can_leave_group":          `{"new": 11}`,
	"PATCH /user_groups/{user_group_id} ?can_remove_members_group": `{"new": 11}`,
	"PATCH /streams/{stream_id} ?can_remove_subscribers_group":     "12",
	"?can_manage_group":                                            "11",
	"?can_join_group":                                              "11",
	"?can_add_members_group":                                       "11",
	"?can_leave_group":                                             "11",
	"?can_remove_members_group":                                    "11",
	"?is_default_stream":                                           "true",
	"?include_realm_default_subscriptions":                         "true",
	"?notify_referrer_on_join":                                     "false",
	"?group_ids":                                                   "[17]",
	"?welcome_message_custom_text":                                 "Welcome!",
	"?read_by_sender":                                              "true",
	"?required":                                                    "true",
	"?editable_by_user":                                            "false",
	"?new_email":                                                   "hamlet2@zulip.com",
	"?include_deactivated_groups":                                  "true",
	"?subgroups":                                                   "[17]",
	"?add_subgroups":                                               "[11]",
	"?delete_subgroups":                                            "[11]",
	"?exclude_archived":                                            "false",
	"?include_all":                                                 "true",
	"?include_can_access_content":                                  "true",
	"?can_administer_channel_group":                                `{"new": 11}`,
	"?can_send_message_group":                                      `{"new": 11}`,
	"?can_add_subscribers_group":                                   `{"new": 11}`,
	"?can_subscribe_group":                                         `{"new": 11}`,
	"?can_move_messages_out_of_channel_group":                      `{"new": 11}`,
	"?can_move_messages_within_channel_group":                      `{"new": 11}`,
	"?can_resolve_topics_group":                                    `{"new": 11}`,
	"?can_delete_any_message_group":                                `{"new": 11}`,
	"?can_delete_own_message_group":                                `{"new": 11}`,
	"?allow_empty_topic_name":                                      "true",
	"?sender_id":                                                   "11",
	"?voice_only":                                                  "true",
	"?prev_content_sha256":                                         sha256Hex("hi"),
	"?user_ids":                                                    "[10]",
	"?deactivated":                                                 "false",
	"?is_archived":                                                 "false",
	"?folder_id":                                                   "1",
	"?stream_id":                                                   "2",
	"?note":                                                        "remember",
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// paramNoEffect are the parameters whose effect the requests above do
// not show, and why.
var paramNoEffect = map[string]string{
	"?allow_empty_topic_name":     "the dev realm has no message in the empty topic",
	"?prev_content_sha256":        "the right hash only lets the edit through",
	"?voice_only":                 "the fake provider's link does not show the call's options",
	"?include_can_access_content": "no dev-realm user can read a channel that the default list leaves out",
}

// Every honoured "parameter gate" row: below the row's level the
// parameter is listed in ignored_parameters_unsupported and changes
// nothing (the answer and the realm afterwards are those of the request
// without it), a malformed value is ignored rather than refused; at the
// row's level it is read.
func TestParametersNewerThanTheLevelAreIgnored(t *testing.T) {
	rows := 0
	for _, c := range realm.FeatureChanges() {
		if c.Honour != "parameter gate" || c.Status != realm.StatusHonoured {
			continue
		}
		rows++
		name := strings.TrimPrefix(c.Field, "?")
		t.Run(strconv.Itoa(c.Level)+" "+c.Where+" "+name, func(t *testing.T) {
			ep, ok := paramEndpoints[c.Where+" "+c.Field]
			if !ok {
				ep, ok = paramEndpoints[c.Where]
			}
			if !ok {
				t.Fatalf("no request for %s in paramEndpoints", c.Where)
			}
			value, ok := paramValues[c.Where+" "+c.Field]
			if !ok {
				if value, ok = paramValues[c.Field]; !ok {
					t.Fatalf("no value for %s in paramValues", c.Field)
				}
			}
			method, _, _ := strings.Cut(c.Where, " ")
			send := func(level int, extra url.Values) (int, map[string]any, string) {
				e := newChanEnv(t, append([]realm.Option{realm.WithFeatureLevel(level, ""), realm.WithAPIKeySeed("params")}, ep.opts...)...)
				if ep.setup != nil {
					ep.setup(t, e.realm)
				}
				form := url.Values{}
				for k, v := range ep.base {
					form[k] = v
				}
				for k, v := range extra {
					form[k] = v
				}
				as := ep.as
				if as == "" {
					as = "iago@zulip.com"
				}
				st, body := e.do(as, method, ep.path, form)
				dump, err := e.realm.Dump()
				if err != nil {
					t.Fatal(err)
				}
				if ep.after != nil && st == 200 {
					ep.after(t, e.realm, body)
					if dump, err = e.realm.Dump(); err != nil {
						t.Fatal(err)
					}
				}
				for _, k := range ep.random {
					delete(body, k)
				}
				return st, body, string(dump)
			}
			ignored := func(body map[string]any) []any {
				l, _ := body["ignored_parameters_unsupported"].([]any)
				return l
			}
			strip := func(body map[string]any) any {
				out := map[string]any{}
				for k, v := range body {
					if k != "ignored_parameters_unsupported" {
						out[k] = v
					}
				}
				return withoutRandom(out)
			}
			with := url.Values{name: {value}}
			below := c.Level - 1
			st0, body0, dump0 := send(below, nil)
			if st0 != 200 {
				t.Fatalf("level %d without %s: %d %v", below, name, st0, body0)
			}
			st1, body1, dump1 := send(below, with)
			if !slices.Contains(ignored(body1), any(name)) {
				t.Errorf("level %d: %s=%s answered %d %v; want it in ignored_parameters_unsupported", below, name, value, st1, body1)
			}
			if st1 != st0 || !reflect.DeepEqual(strip(body1), strip(body0)) {
				t.Errorf("level %d: %s=%s answered %d %v; without it %d %v", below, name, value, st1, body1, st0, body0)
			}
			if dump1 != dump0 {
				t.Errorf("level %d: %s=%s changed the realm: %s", below, name, value, dumpDiff(dump0, dump1))
			}
			if st, body, _ := send(below, url.Values{name: {"{not valid"}}); st != 200 || !slices.Contains(ignored(body), any(name)) {
				t.Errorf("level %d: a malformed %s answered %d %v; want it ignored", below, name, st, body)
			}
			// A parameter renamed since is known by its older name at
			// the row's level.
			at := url.Values{name: {value}}
			for _, rn := range realm.ParamRenames(method, strings.SplitN(c.Where, " ", 2)[1]) {
				if rn.New == name && c.Level < rn.Level {
					at = url.Values{rn.Old: {value}}
				}
			}
			st2, body2, dump2 := send(c.Level, at)
			if st2 != 200 || slices.Contains(ignored(body2), any(name)) {
				t.Errorf("level %d: %s=%s answered %d %v; want it read", c.Level, name, value, st2, body2)
			}
			if why := paramNoEffect[c.Field]; why == "" {
				st3, body3, dump3 := send(c.Level, nil)
				if st3 == st2 && reflect.DeepEqual(strip(body3), strip(body2)) && dump3 == dump2 {
					t.Errorf("level %d: %s=%s had no effect; pick a value that shows (or say why in paramNoEffect)", c.Level, name, value)
				}
			}
		})
	}
	if rows == 0 {
		t.Fatal("no honoured parameter gate row")
	}
}

// withoutRandom is a decoded answer without the members that differ
// between two realms doing the same (queue IDs, invitation links).
func withoutRandom(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if k != "queue_id" && k != "invite_link" && k != "link_url" {
				out[k] = withoutRandom(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = withoutRandom(e)
		}
		return out
	}
	return v
}

// dumpDiff is the first line where two dumps differ.
func dumpDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ": " + al[i] + " / " + bl[i]
		}
	}
	return "lengths " + strconv.Itoa(len(al)) + " / " + strconv.Itoa(len(bl))
}

// A client capability newer than the level is not declared, as a server
// of that level reads only the capabilities it knows: an archived channel
// (archived_channels, 315) stays out of register's answer below its
// level, and is there from it on. (include_deactivated_groups, 294: the
// behaviour tests of realm.)
func TestCapabilitiesNewerThanTheLevelAreNotDeclared(t *testing.T) {
	for _, c := range []struct {
		capability, fetch, list string
		level                   int
		setup                   func(*testing.T, *realm.Realm)
		holds                   func(item map[string]any) bool
	}{
		{"archived_channels", "stream", "streams", 315,
			func(t *testing.T, r *realm.Realm) {
				actAs(t, r, "iago@zulip.com", func(a *realm.Actor) error { return a.ArchiveChannel(bg0, 3) })
			},
			func(s map[string]any) bool { return s["stream_id"] == float64(3) }},
	} {
		for _, level := range []int{c.level - 1, c.level, realm.DefaultFeatureLevel} {
			e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
			c.setup(t, e.realm)
			st, reg := e.do("iago@zulip.com", "POST", "/register", url.Values{
				"fetch_event_types":   {`["` + c.fetch + `"]`},
				"client_capabilities": {`{"` + c.capability + `": true}`},
			})
			if st != 200 {
				t.Fatalf("level %d: register %d %v", level, st, reg)
			}
			list, ok := reg[c.list].([]any)
			if !ok {
				t.Fatalf("level %d: no %s in %v", level, c.list, reg)
			}
			found := slices.ContainsFunc(list, func(v any) bool { return c.holds(v.(map[string]any)) })
			if want := level >= c.level; found != want {
				t.Errorf("level %d: with %s, %s holds the item: %v, want %v", level, c.capability, c.list, found, want)
			}
		}
	}
}

// The followed visibility policy (3) came at 219: below it POST
// /user_topics refuses it as any unknown policy, and sending a message
// does not follow its topic, so register and events never show it; from
// 219 on it is kept.
func TestFollowedTopicsNewerThanTheLevel(t *testing.T) {
	for _, level := range []int{218, 219, realm.DefaultFeatureLevel} {
		e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		has := level >= 219
		st, body := e.do("hamlet@zulip.com", "POST", "/user_topics", url.Values{"stream_id": {"2"}, "topic": {"castle"}, "visibility_policy": {"3"}})
		if has && st != 200 || !has && (st != 400 || body["msg"] != "Invalid visibility_policy") {
			t.Errorf("level %d: visibility_policy 3 answered %d %v", level, st, body)
		}
		// Sending follows the topic from 219 (Zulip's default: on initiation).
		e.ok(e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"new topic"}, "content": {"hi"}}))
		_, reg := e.do("hamlet@zulip.com", "POST", "/register", url.Values{"fetch_event_types": {`["user_topic"]`}})
		followed := 0
		for _, ut := range reg["user_topics"].([]any) {
			if ut.(map[string]any)["visibility_policy"] == float64(3) {
				followed++
			}
		}
		if has && followed == 0 || !has && followed != 0 {
			t.Errorf("level %d: %d followed topics in register %v", level, followed, reg["user_topics"])
		}
	}
}

// A channel's topics_policy "empty_topic_only" came at 404: below it the
// value is refused as any unknown policy, on update and on creation.
func TestEmptyTopicOnlyNewerThanTheLevel(t *testing.T) {
	for _, level := range []int{403, 404, realm.DefaultFeatureLevel} {
		e := newChanEnv(t, realm.WithFeatureLevel(level, ""))
		has := level >= 404
		st, body := e.do("iago@zulip.com", "PATCH", "/streams/2", url.Values{"topics_policy": {`"empty_topic_only"`}})
		if has && st != 200 || !has && (st != 400 || body["msg"] != "Invalid topics_policy") {
			t.Errorf("level %d: PATCH topics_policy empty_topic_only answered %d %v", level, st, body)
		}
		st, body = e.do("iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{
			"subscriptions": {`[{"name": "quiet"}]`}, "topics_policy": {`"empty_topic_only"`}})
		if has && st != 200 || !has && (st != 400 || body["msg"] != "Invalid topics_policy") {
			t.Errorf("level %d: subscribe with topics_policy empty_topic_only answered %d %v", level, st, body)
		}
		if st, body := e.do("iago@zulip.com", "PATCH", "/streams/3", url.Values{"topics_policy": {`"disable_empty_topic"`}}); st != 200 {
			t.Errorf("level %d: PATCH topics_policy disable_empty_topic answered %d %v", level, st, body)
		}
	}
}

// Strict mode refuses the parameters minizulip does not support, not
// those a lower level does not know: a gated parameter is what a server
// of the level ignores, and is neither refused nor recorded as a gap.
func TestStrictModeKeepsGatedParameters(t *testing.T) {
	r := realm.New(realm.WithFeatureLevel(235, ""))
	srv := httptest.NewServer(New(r, WithStrict(true)))
	t.Cleanup(srv.Close)
	e := &apiEnv{t: t, realm: r, srv: srv}
	st, body := e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"castle"},
		"content": {"hi"}, "read_by_sender": {"true"}})
	if st != 200 || !slices.Contains(body["ignored_parameters_unsupported"].([]any), any("read_by_sender")) {
		t.Errorf("strict mode, level 235: read_by_sender answered %d %v", st, body)
	}
	if st, body := e.do("iago@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"castle"},
		"content": {"hi"}, "no_such_parameter": {"1"}}); st != 400 {
		t.Errorf("strict mode: an unsupported parameter answered %d %v", st, body)
	}
}
