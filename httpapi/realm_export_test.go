package httpapi

import (
	"compress/gzip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestHTTPRealmExports(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("iago@zulip.com", url.Values{"event_types": {`["realm_export","realm_export_consent"]`}})
	for _, c := range []struct{ method, path string }{
		{"POST", "/export/realm"}, {"GET", "/export/realm"}, {"DELETE", "/export/realm/1"}, {"GET", "/export/realm/consents"},
	} {
		status, body := e.do("hamlet@zulip.com", c.method, c.path, nil)
		e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	}
	status, body := e.do("iago@zulip.com", "POST", "/export/realm", url.Values{"export_type": {"3"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid export_type: Value error, Not in the list of possible values")
	status, body = e.do("iago@zulip.com", "POST", "/export/realm", url.Values{"export_type": {"x"}})
	e.fail(status, body, 400, "BAD_REQUEST", "export_type is not an integer")

	body = e.ok(e.do("iago@zulip.com", "POST", "/export/realm", nil))
	id := int(body["id"].(float64))
	body = e.ok(e.do("iago@zulip.com", "GET", "/export/realm", nil))
	list := body["exports"].([]any)
	x := list[0].(map[string]any)
	if len(list) != 1 || x["id"] != float64(id) || x["export_type"] != float64(1) || x["pending"] != false ||
		x["acting_user_id"] != float64(e.userID("iago@zulip.com")) || x["deleted_timestamp"] != nil || x["failed_timestamp"] != nil {
		t.Fatalf("exports %v", list)
	}
	u, err := url.Parse(x["export_url"].(string))
	if err != nil || !strings.HasPrefix(u.Path, "/user_uploads/2/") || !strings.HasSuffix(u.Path, ".tar.gz") {
		t.Fatalf("export_url %v", x["export_url"])
	}
	st, _, file := e.fetchFile("iago@zulip.com", u.Path)
	if st != 200 {
		t.Fatalf("download %d", st)
	}
	if _, err := gzip.NewReader(strings.NewReader(file)); err != nil {
		t.Fatalf("not a gzip: %v", err)
	}
	if st, _, _ := e.fetchFile("hamlet@zulip.com", u.Path); st != 403 {
		t.Fatalf("member download %d", st)
	}

	e.ok(e.do("hamlet@zulip.com", "PATCH", "/settings", url.Values{"allow_private_data_export": {"true"}}))
	body = e.ok(e.do("iago@zulip.com", "GET", "/export/realm/consents", nil))
	hamletID := float64(e.userID("hamlet@zulip.com"))
	for _, c := range body["export_consents"].([]any) {
		c := c.(map[string]any)
		if (c["user_id"] == hamletID) != (c["consented"] == true) {
			t.Fatalf("consents %v", body)
		}
	}

	status, body = e.do("iago@zulip.com", "DELETE", "/export/realm/"+strconv.Itoa(id+1), nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid data export ID")
	e.ok(e.do("iago@zulip.com", "DELETE", "/export/realm/"+strconv.Itoa(id), nil))
	status, body = e.do("iago@zulip.com", "DELETE", "/export/realm/"+strconv.Itoa(id), nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Export already deleted")
	if st, _, _ := e.fetchFile("iago@zulip.com", u.Path); st != 404 {
		t.Fatalf("deleted export download %d", st)
	}
	evs := e.events("iago@zulip.com", qid, -1, false)
	if len(evs) != 4 || evs[2].(map[string]any)["type"] != "realm_export_consent" || evs[2].(map[string]any)["user_id"] != hamletID {
		t.Fatalf("events %v", evs)
	}

	// Four more in the week, then the limit.
	for range 4 {
		e.ok(e.do("desdemona@zulip.com", "POST", "/export/realm", url.Values{"export_type": {"2"}}))
	}
	status, body = e.do("iago@zulip.com", "POST", "/export/realm", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Exceeded rate limit.")
	e.clock.Advance(7*24*time.Hour + time.Second)
	e.ok(e.do("iago@zulip.com", "POST", "/export/realm", nil))
}

func TestHTTPWelcomeBotCustomMessage(t *testing.T) {
	e := newMsgEnv(t)
	f := url.Values{"welcome_message_custom_text": {"Welcome, read #**Verona**"}}
	status, body := e.do("hamlet@zulip.com", "POST", "/realm/test_welcome_bot_custom_message", f)
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, body = e.do("iago@zulip.com", "POST", "/realm/test_welcome_bot_custom_message", nil)
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'welcome_message_custom_text' argument")
	status, body = e.do("iago@zulip.com", "POST", "/realm/test_welcome_bot_custom_message", url.Values{"welcome_message_custom_text": {""}})
	e.fail(status, body, 400, "BAD_REQUEST", "Message must not be empty")
	status, body = e.do("iago@zulip.com", "POST", "/realm/test_welcome_bot_custom_message",
		url.Values{"welcome_message_custom_text": {strings.Repeat("a", 8001)}})
	e.fail(status, body, 400, "BAD_REQUEST", "welcome_message_custom_text is too long (limit: 8000 characters)")
	body = e.ok(e.do("iago@zulip.com", "POST", "/realm/test_welcome_bot_custom_message", f))
	id := int64(body["message_id"].(float64))
	body = e.ok(e.do("iago@zulip.com", "GET", "/messages/"+strconv.FormatInt(id, 10), url.Values{"apply_markdown": {"false"}}))
	m := body["message"].(map[string]any)
	if m["sender_email"] != "welcome-bot@zulip.com" || m["content"] != "Welcome, read #**Verona**" || m["type"] != "private" {
		t.Fatalf("message %v", m)
	}
}
