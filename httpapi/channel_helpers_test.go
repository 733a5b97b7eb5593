package httpapi

import (
	"net/url"
	"slices"
)

// streamNames lists the names of GET /streams for email with query form.
func (e *chanEnv) streamNames(email string, form url.Values) []string {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/streams", form))
	out := []string{}
	for _, s := range body["streams"].([]any) {
		out = append(out, s.(map[string]any)["name"].(string))
	}
	return out
}

// subscriptionNames lists the names of GET /users/me/subscriptions.
func (e *chanEnv) subscriptionNames(email string) []string {
	e.t.Helper()
	body := e.ok(e.do(email, "GET", "/users/me/subscriptions", nil))
	out := []string{}
	for _, s := range body["subscriptions"].([]any) {
		out = append(out, s.(map[string]any)["name"].(string))
	}
	return out
}

// snapshot records every channel iago can see with include_all, and the
// subscription names of a few users, to assert rejected calls change nothing.
func (e *chanEnv) snapshot() []string {
	e.t.Helper()
	out := e.streamNames("iago@zulip.com", url.Values{"include_all": {"true"}, "exclude_archived": {"false"}})
	for _, u := range []string{"hamlet@zulip.com", "othello@zulip.com", "cordelia@zulip.com", "iago@zulip.com"} {
		out = append(out, "|"+u)
		out = append(out, e.subscriptionNames(u)...)
	}
	return out
}

func (e *chanEnv) unchanged(before []string) {
	e.t.Helper()
	if after := e.snapshot(); !slices.Equal(before, after) {
		e.t.Fatalf("state changed:\n%v\n%v", before, after)
	}
}
