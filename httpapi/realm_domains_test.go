package httpapi

import (
	"net/url"
	"reflect"
	"testing"
)

func TestHTTPRealmDomains(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm_domains", "realm"]`}})
	body := e.ok(e.do("polonius@zulip.com", "GET", "/realm/domains", nil))
	if want := []any{map[string]any{"domain": "zulip.com", "allow_subdomains": false}}; !reflect.DeepEqual(body["domains"], want) {
		t.Fatalf("domains %v", body["domains"])
	}
	// Owners only, checked before the parameters.
	for _, c := range []struct {
		method, path string
		form         url.Values
	}{
		{"POST", "/realm/domains", nil},
		{"POST", "/realm/domains", url.Values{"domain": {"acme.com"}, "allow_subdomains": {"maybe"}}},
		{"PATCH", "/realm/domains/zulip.com", nil},
		{"DELETE", "/realm/domains/zulip.com", nil},
	} {
		status, body := e.do("iago@zulip.com", c.method, c.path, c.form)
		e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	}
	status, body := e.do("desdemona@zulip.com", "POST", "/realm/domains", url.Values{"allow_subdomains": {"true"}})
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'domain' argument")
	status, body = e.do("desdemona@zulip.com", "POST", "/realm/domains", url.Values{"domain": {"acme.com"}})
	e.fail(status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'allow_subdomains' argument")
	status, body = e.do("desdemona@zulip.com", "PATCH", "/realm/domains/zulip.com", url.Values{"allow_subdomains": {"maybe"}})
	e.fail(status, body, 400, "BAD_REQUEST", "allow_subdomains is not a boolean")
	status, body = e.do("desdemona@zulip.com", "POST", "/realm/domains", url.Values{"domain": {""}, "allow_subdomains": {"true"}})
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid domain: Domain can't be empty.")

	body = e.ok(e.do("desdemona@zulip.com", "POST", "/realm/domains", url.Values{"domain": {"Acme.com"}, "allow_subdomains": {"true"}}))
	if want := []any{float64(2), "acme.com"}; !reflect.DeepEqual(body["new_domain"], want) {
		t.Fatalf("new_domain %v", body["new_domain"])
	}
	status, body = e.do("desdemona@zulip.com", "POST", "/realm/domains", url.Values{"domain": {"acme.com"}, "allow_subdomains": {"false"}})
	e.fail(status, body, 400, "BAD_REQUEST", "The domain acme.com is already a part of your organization.")
	status, body = e.do("desdemona@zulip.com", "PATCH", "/realm/domains/non-existent.com", url.Values{"allow_subdomains": {"true"}})
	e.fail(status, body, 400, "BAD_REQUEST", "No entry found for domain non-existent.com.")
	status, body = e.do("desdemona@zulip.com", "DELETE", "/realm/domains/non-existent.com", nil)
	e.fail(status, body, 400, "BAD_REQUEST", "No entry found for domain non-existent.com.")
	e.ok(e.do("desdemona@zulip.com", "PATCH", "/realm/domains/acme.com", url.Values{"allow_subdomains": {"false"}}))

	// The email rules, through PATCH /realm (owners only).
	status, body = e.do("iago@zulip.com", "PATCH", "/realm", url.Values{"emails_restricted_to_domains": {"true"}})
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	body = e.ok(e.do("desdemona@zulip.com", "PATCH", "/realm", url.Values{"emails_restricted_to_domains": {"true"},
		"disallow_disposable_email_addresses": {"false"}}))
	if body["emails_restricted_to_domains"] != true || body["disallow_disposable_email_addresses"] != false {
		t.Fatalf("PATCH /realm %v", body)
	}
	_, state := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm", "realm_domains"]`}})
	if state["realm_emails_restricted_to_domains"] != true || state["realm_disallow_disposable_email_addresses"] != false ||
		len(state["realm_domains"].([]any)) != 2 {
		t.Fatalf("register %v %v %v", state["realm_emails_restricted_to_domains"], state["realm_disallow_disposable_email_addresses"], state["realm_domains"])
	}
	// Invitations outside the domains are refused, address by address.
	status, body = e.do("hamlet@zulip.com", "POST", "/invites", url.Values{"invitee_emails": {"new@zulip.com, out@other.org"}, "stream_ids": {"[]"}})
	e.fail(status, body, 400, "INVITATION_FAILED", "Some emails did not validate, so we didn't send any invitations.")
	if want := []any{[]any{"out@other.org", "Outside your domain.", false}}; !reflect.DeepEqual(body["errors"], want) || body["sent_invitations"] != false {
		t.Fatalf("failure %v", body)
	}

	// Removing the last domains lifts the restriction.
	e.ok(e.do("desdemona@zulip.com", "DELETE", "/realm/domains/acme.com", nil))
	e.ok(e.do("desdemona@zulip.com", "DELETE", "/realm/domains/zulip.com", nil))
	body = e.ok(e.do("hamlet@zulip.com", "GET", "/realm/domains", nil))
	if list := body["domains"].([]any); len(list) != 0 {
		t.Fatalf("domains %v", list)
	}
	var ops []string
	for _, ev := range e.events("hamlet@zulip.com", qid, -1, false) {
		m := ev.(map[string]any)
		ops = append(ops, m["type"].(string)+"/"+m["op"].(string))
	}
	want := []string{"realm_domains/add", "realm_domains/change", "realm/update", "realm/update", "realm_domains/remove", "realm/update", "realm_domains/remove"}
	if !reflect.DeepEqual(ops, want) {
		t.Fatalf("events %v, want %v", ops, want)
	}
}

// The daily invitation limit, through POST /invites.
func TestHTTPInviteLimit(t *testing.T) {
	e := newMsgEnv(t)
	form := url.Values{"invitee_emails": {"a@zulip.com"}, "stream_ids": {"[]"}}
	for i := range 100 {
		form.Set("invitee_emails", "new"+string(rune('a'+i/26))+string(rune('a'+i%26))+"@zulip.com")
		e.ok(e.do("iago@zulip.com", "POST", "/invites", form))
	}
	form.Set("invitee_emails", "one-more@zulip.com")
	status, body := e.do("iago@zulip.com", "POST", "/invites", form)
	e.fail(status, body, 400, "INVITATION_FAILED", "To protect users, Zulip limits the number of invitations you can send in one day. "+
		"Because you have reached the limit, no invitations were sent.")
	if body["daily_limit_reached"] != true || body["sent_invitations"] != false || len(body["errors"].([]any)) != 0 {
		t.Fatalf("failure %v", body)
	}
}
