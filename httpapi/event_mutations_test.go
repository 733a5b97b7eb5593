package httpapi

import (
	"net/url"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// eventOps lists "type:op" of each event (op may be empty).
func eventOps(evs []any) []string {
	out := []string{}
	for _, ev := range evs {
		m := ev.(map[string]any)
		op, _ := m["op"].(string)
		out = append(out, m["type"].(string)+":"+op)
	}
	return out
}

// TestHTTPMutationsEmitEvents performs each kind of mutation over HTTP and
// checks who gets which event.
func TestHTTPMutationsEmitEvents(t *testing.T) {
	e := newMsgEnv(t)
	caps := `{"notification_settings_null":true,"linkifier_url_template":true,"bulk_message_deletion":true}`
	register := func(email string) string {
		qid, _ := e.register(email, url.Values{"client_capabilities": {caps}})
		return qid
	}
	hamletQ, othelloQ, cordeliaQ := register("hamlet@zulip.com"), register("othello@zulip.com"), register("cordelia@zulip.com")

	// A private channel: only its subscribers (and admins) hear of it.
	e.do("hamlet@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name":"secret"}]`}, "invite_only": {"true"}, "principals": {"[10,12]"}})
	// A group, a linkifier, a snippet, a realm setting.
	e.do("hamlet@zulip.com", "POST", "/user_groups/create", url.Values{"name": {"crew"}, "members": {"[10]"}})
	e.do("iago@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`T(?P<id>[0-9]+)`}, "url_template": {"https://t/{id}"}})
	e.do("hamlet@zulip.com", "POST", "/saved_snippets", url.Values{"title": {"t"}, "content": {"c"}})
	e.realm.UpdateSettings(func(s *realm.Settings) { s.MandatoryTopics = true })

	has := func(list []string, want string) bool {
		for _, s := range list {
			if s == want {
				return true
			}
		}
		return false
	}
	hamlet := eventOps(e.events("hamlet@zulip.com", hamletQ, -1, false))
	othello := eventOps(e.events("othello@zulip.com", othelloQ, -1, false))
	cordelia := eventOps(e.events("cordelia@zulip.com", cordeliaQ, -1, false))
	for _, want := range []string{"stream:create", "subscription:add", "user_group:add", "realm_linkifiers:", "saved_snippets:add", "realm:update_dict"} {
		if !has(hamlet, want) {
			t.Errorf("hamlet lacks %s: %v", want, hamlet)
		}
	}
	for _, want := range []string{"stream:create", "subscription:add", "user_group:add", "realm_linkifiers:", "realm:update_dict"} {
		if !has(othello, want) {
			t.Errorf("othello lacks %s: %v", want, othello)
		}
	}
	if has(othello, "saved_snippets:add") {
		t.Error("othello got hamlet's snippet event")
	}
	for _, unwanted := range []string{"stream:create", "subscription:add", "subscription:peer_add", "saved_snippets:add"} {
		if has(cordelia, unwanted) {
			t.Errorf("cordelia (not in the private channel) got %s", unwanted)
		}
	}
	if !has(cordelia, "user_group:add") || !has(cordelia, "realm:update_dict") {
		t.Errorf("cordelia lacks realm-wide events: %v", cordelia)
	}
}
