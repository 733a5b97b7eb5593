package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPNavigationViews(t *testing.T) {
	e := newMsgEnv(t)
	e.ok(e.do("hamlet@zulip.com", "POST", "/navigation_views", url.Values{"fragment": {"narrow/is/alerted"}, "is_pinned": {"true"}, "name": {"Alert words"}}))
	e.ok(e.do("hamlet@zulip.com", "POST", "/navigation_views", url.Values{"fragment": {"inbox"}, "is_pinned": {"false"}}))
	// The fragment in the path, escaped (as go-zulip sends it) or not.
	e.ok(e.do("hamlet@zulip.com", "PATCH", "/navigation_views/narrow%2Fis%2Falerted", url.Values{"is_pinned": {"false"}}))
	e.ok(e.do("hamlet@zulip.com", "PATCH", "/navigation_views/narrow/is/alerted", url.Values{"name": {"Watched"}}))
	body := e.ok(e.do("hamlet@zulip.com", "GET", "/navigation_views", nil))
	views := body["navigation_views"].([]any)
	if len(views) != 2 {
		t.Fatalf("views %v", views)
	}
	v := views[0].(map[string]any)
	if v["fragment"] != "narrow/is/alerted" || v["name"] != "Watched" || v["is_pinned"] != false || views[1].(map[string]any)["name"] != nil {
		t.Fatalf("views %v", views)
	}
	e.ok(e.do("hamlet@zulip.com", "DELETE", "/navigation_views/inbox", nil))
	status, b := e.do("hamlet@zulip.com", "DELETE", "/navigation_views/inbox", nil)
	e.fail(status, b, 404, "BAD_REQUEST", "Navigation view does not exist.")
	status, b = e.do("hamlet@zulip.com", "POST", "/navigation_views", url.Values{"fragment": {"recent"}})
	e.fail(status, b, 400, "REQUEST_VARIABLE_MISSING", "Missing 'is_pinned' argument")
	status, b = e.do("hamlet@zulip.com", "POST", "/navigation_views", url.Values{"fragment": {"narrow/x"}, "is_pinned": {"yes"}})
	e.fail(status, b, 400, "BAD_REQUEST", "is_pinned is not a boolean")
	body = e.ok(e.do("hamlet@zulip.com", "GET", "/navigation_views", nil))
	if len(body["navigation_views"].([]any)) != 1 {
		t.Fatalf("after refusals %v", body)
	}
}
