package httpapi

import (
	"net/url"
	"strconv"
	"testing"
)

func TestHTTPPlaygrounds(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["realm_playgrounds"]`}})
	py := url.Values{"name": {" Python playground "}, "pygments_language": {"Python"}, "url_template": {"https://python.example.com?code={code}"}}
	status, body := e.do("hamlet@zulip.com", "POST", "/realm/playgrounds", py)
	e.fail(status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	body = e.ok(e.do("iago@zulip.com", "POST", "/realm/playgrounds", py))
	id := int(body["id"].(float64))
	for _, c := range []struct {
		lang, tmpl, msg string
	}{
		{"Python", "https://python.example.com?code={code}", "Realm playground with this Realm, Pygments language and Name already exists."},
		{"a$b$c", "https://template.com{code}", "Invalid characters in pygments language"},
		{"Python", "https://template.com{?test,code}", `"code" should be the only variable present in the URL template`},
		{"Python", "https://template.com?test={test", "Invalid URL template."},
		{"Python", "https://template.com{?test}", `Missing the required variable "code" in the URL template`},
		{"  ", "https://t/{code}", "This field cannot be blank."},
		{"0123456789012345678901234567890123456789x", "https://t/{code}", "pygments_language is too long (limit: 40 characters)"},
	} {
		f := url.Values{"name": {"Python playground"}, "pygments_language": {c.lang}, "url_template": {c.tmpl}}
		status, body := e.do("iago@zulip.com", "POST", "/realm/playgrounds", f)
		e.fail(status, body, 400, "BAD_REQUEST", c.msg)
	}
	_, state := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm_playgrounds"]`}})
	list := state["realm_playgrounds"].([]any)
	if len(list) != 1 {
		t.Fatalf("playgrounds %v", list)
	}
	if p := list[0].(map[string]any); p["id"] != float64(id) || p["name"] != "Python playground" || p["pygments_language"] != "Python" ||
		p["url_template"] != "https://python.example.com?code={code}" {
		t.Fatalf("playground %v", p)
	}
	status, body = e.do("iago@zulip.com", "DELETE", "/realm/playgrounds/"+strconv.Itoa(id+1), nil)
	e.fail(status, body, 400, "BAD_REQUEST", "Invalid playground")
	e.ok(e.do("iago@zulip.com", "DELETE", "/realm/playgrounds/"+strconv.Itoa(id), nil))
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 2 || len(evs[0].(map[string]any)["realm_playgrounds"].([]any)) != 1 || len(evs[1].(map[string]any)["realm_playgrounds"].([]any)) != 0 {
		t.Fatalf("events %v", evs)
	}
}
