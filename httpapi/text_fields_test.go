package httpapi

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every text field Zulip's database would refuse a NUL byte in is
// refused with Zulip's words ("… must not contain null bytes"), and the
// realm is left as it was.
func TestNullBytesAreRefusedInEveryTextField(t *testing.T) {
	e := newMsgEnv(t)
	const nul = "a\x00b"
	jnul := `"a\u0000b"` // the same in JSON
	_, sent := e.do("hamlet@zulip.com", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {"hello"}})
	msgID := strconv.Itoa(int(sent["id"].(float64)))
	denmark := e.channelID("Denmark")
	_, grp := e.do("iago@zulip.com", "POST", "/user_groups/create", url.Values{"name": {"nulls"}, "description": {"d"}, "members": {"[]"}})
	_ = grp
	groups := e.ok(e.do("iago@zulip.com", "GET", "/user_groups", nil))["user_groups"].([]any)
	groupID := ""
	for _, g := range groups {
		if g.(map[string]any)["name"] == "nulls" {
			groupID = strconv.Itoa(int(g.(map[string]any)["id"].(float64)))
		}
	}
	fields := e.ok(e.do("iago@zulip.com", "GET", "/realm/profile_fields", nil))["custom_fields"].([]any)
	shortText := ""
	for _, f := range fields {
		if f.(map[string]any)["type"] == float64(1) {
			shortText = strconv.Itoa(int(f.(map[string]any)["id"].(float64)))
			break
		}
	}
	later := strconv.FormatInt(e.clock.Now().Add(time.Hour).Unix(), 10)
	before, _ := e.realm.Dump()

	for _, c := range []struct {
		who, method, path string
		form              url.Values
		msg               string
	}{
		{"iago", "PATCH", "/realm", url.Values{"name": {nul}}, "name"},
		{"iago", "PATCH", "/realm", url.Values{"description": {nul}}, "description"},
		{"iago", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name": "new", "description": ` + jnul + `}]`}}, `subscriptions[0]["description"]`},
		{"iago", "PATCH", "/streams/" + denmark, url.Values{"description": {nul}}, "description"},
		{"hamlet", "POST", "/users/me/status", url.Values{"status_text": {nul}}, "status_text"},
		{"hamlet", "POST", "/reminders", url.Values{"message_id": {msgID}, "scheduled_delivery_timestamp": {later}, "note": {nul}}, "note"},
		{"hamlet", "POST", "/users/me/alert_words", url.Values{"alert_words": {`["fine", ` + jnul + `]`}}, "alert_words[1]"},
		{"iago", "POST", "/realm/filters", url.Values{"pattern": {"#(?P<id>[0-9]+)" + nul}, "url_template": {"https://x.example/{id}"}}, "pattern"},
		{"iago", "POST", "/realm/filters", url.Values{"pattern": {"#(?P<id>[0-9]+)"}, "url_template": {"https://x.example/{id}" + nul}}, "url_template"},
		{"iago", "POST", "/user_groups/create", url.Values{"name": {"other"}, "description": {nul}, "members": {"[]"}}, "description"},
		{"iago", "PATCH", "/user_groups/" + groupID, url.Values{"description": {nul}}, "description"},
		{"iago", "POST", "/channel_folders/create", url.Values{"name": {"folder"}, "description": {nul}}, "description"},
		{"hamlet", "POST", "/navigation_views", url.Values{"fragment": {"narrow/" + nul}, "is_pinned": {"true"}, "name": {"view"}}, "fragment"},
		{"hamlet", "POST", "/navigation_views", url.Values{"fragment": {"narrow/x"}, "is_pinned": {"true"}, "name": {nul}}, "name"},
		{"iago", "POST", "/realm/playgrounds", url.Values{"name": {nul}, "pygments_language": {"Python"}, "url_template": {"https://play.example/?c={code}"}}, "name"},
		{"iago", "POST", "/realm/profile_fields", url.Values{"name": {nul}, "field_type": {"1"}}, "name"},
		{"iago", "POST", "/realm/profile_fields", url.Values{"name": {"Label"}, "hint": {nul}, "field_type": {"1"}}, "hint"},
		{"hamlet", "PATCH", "/users/me/profile_data", url.Values{"data": {`[{"id": ` + shortText + `, "value": ` + jnul + `}]`}}, ""},
		{"hamlet", "POST", "/bots", url.Values{"full_name": {"Nul Bot"}, "short_name": {"nul"}, "bot_type": {"3"}, "payload_url": {`"https://bot.example/"`}, "service_name": {nul}}, "service_name"},
		{"default-bot@zulip.com", "PUT", "/bot_storage", url.Values{"storage": {`{"k": ` + jnul + `}`}}, "storage"},
		{"iago", "POST", "/invites", url.Values{"invitee_emails": {"new@zulip.com"}, "stream_ids": {"[" + denmark + "]"}, "welcome_message_custom_text": {nul}}, "welcome_message_custom_text"},
		{"iago", "POST", "/realm/test_welcome_bot_custom_message", url.Values{"welcome_message_custom_text": {nul}}, "welcome_message_custom_text"},
		{"iago", "POST", "/messages/" + msgID + "/report", url.Values{"report_type": {"other"}, "description": {nul}}, "description"},
		{"hamlet", "POST", "/users/me/android_gcm_reg_id", url.Values{"token": {nul}}, "token"},
		{"hamlet", "POST", "/submessage", url.Values{"message_id": {msgID}, "msg_type": {nul}, "content": {"{}"}}, "msg_type"},
		// Checks that were there before, with the words they keep.
		{"hamlet", "POST", "/messages", url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"t"}, "content": {nul}}, "Message"},
		{"hamlet", "POST", "/saved_snippets", url.Values{"title": {"t"}, "content": {nul}}, "Content"},
	} {
		who := c.who
		if !strings.Contains(who, "@") {
			who += "@zulip.com"
		}
		status, body := e.do(who, c.method, c.path, c.form)
		want := c.msg + " must not contain null bytes"
		if msg, _ := body["msg"].(string); status != 400 || body["code"] != "BAD_REQUEST" || !strings.HasSuffix(msg, want) {
			t.Errorf("%s %s %v: %d %v; want 400 %q", c.method, c.path, c.form, status, body, want)
		}
		if after, _ := e.realm.Dump(); !bytes.Equal(before, after) {
			t.Fatalf("%s %s: a refused request changed the realm", c.method, c.path)
		}
	}
}

// Zulip's email columns hold 254 characters: a bot's short name that
// would make a longer address (the probe's was 200,000 characters) is
// refused as Zulip's account form refuses a bad one, and so is such an
// address for a new user.
func TestEmailsAreAtMost254Characters(t *testing.T) {
	e := newMsgEnv(t)
	domain := "-bot@zulipdev.com"
	fits := strings.Repeat("b", 254-len(domain))
	e.ok(e.do("hamlet@zulip.com", "POST", "/bots", url.Values{"full_name": {"Long Bot"}, "short_name": {fits}}))
	before, _ := e.realm.Dump()
	status, body := e.do("hamlet@zulip.com", "POST", "/bots", url.Values{"full_name": {"Longer Bot"}, "short_name": {fits + "b"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Bad name or username")
	status, body = e.do("hamlet@zulip.com", "POST", "/bots", url.Values{"full_name": {"Huge Bot"}, "short_name": {strings.Repeat("b", 200_000)}})
	e.fail(status, body, 400, "BAD_REQUEST", "Bad name or username")

	address := strings.Repeat("u", 255-len("@zulip.com")) + "@zulip.com"
	status, body = e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {address}, "password": {"pw"}, "full_name": {"Long Address"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Bad name or username")
	if after, _ := e.realm.Dump(); !bytes.Equal(before, after) {
		t.Fatal("a refused request changed the realm")
	}
	e.ok(e.do("iago@zulip.com", "POST", "/users", url.Values{"email": {address[1:]}, "password": {"pw"}, "full_name": {"Long Address"}}))
}

// An uploaded file's name loses its NUL bytes, as Zulip's does (here
// percent-encoded, as clients may send names).
func TestUploadedFileNamesLoseNullBytes(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.upload("hamlet@zulip.com", filePart{field: "file", name: "re%00port.txt", contentType: "text/plain", data: []byte("x")})
	if status != 200 || body["filename"] != "report.txt" {
		t.Fatalf("upload: %d %v", status, body)
	}
}
