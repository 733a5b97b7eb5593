package httpapi

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/minizulip/minizulip/realm"
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

// Row 196 "POST /realm/playgrounds ?url_template": below 196 a playground
// is added by url_prefix, a URL the code is appended to (url_template is
// unknown, and so ignored), and listed with that prefix; from 196 on, by
// url_template (url_prefix is then the unknown one).
func TestPlaygroundURLParameterFollowsLevel(t *testing.T) {
	level := realm.ChangePlaygroundURLTemplate.Level()
	add := func(e *apiEnv, f url.Values) (int, map[string]any) {
		f.Set("name", "Python playground")
		f.Set("pygments_language", "Python")
		return e.do("iago@zulip.com", "POST", "/realm/playgrounds", f)
	}
	old := newChanEnv(t, realm.WithFeatureLevel(level-1, ""))
	st, body := add(old, url.Values{"url_template": {"https://python.example.com?code={code}"}})
	old.fail(st, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'url_prefix' argument")
	st, body = add(old, url.Values{"url_prefix": {"not a url"}})
	old.fail(st, body, 400, "BAD_REQUEST", "url_prefix is not a URL")
	st, body = add(old, url.Values{"url_prefix": {"https://python.example.com/?q={x}&code="}, "url_template": {"x"}})
	old.wantSuccess(st, body)
	if ig, _ := body["ignored_parameters_unsupported"].([]any); len(ig) != 1 || ig[0] != "url_template" {
		t.Errorf("level %d: ignored %v, want url_template", level-1, body["ignored_parameters_unsupported"])
	}
	_, state := old.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm_playgrounds"]`}})
	p := state["realm_playgrounds"].([]any)[0].(map[string]any)
	if p["url_prefix"] != "https://python.example.com/?q=%7Bx%7D&code=" || p["url_template"] != nil {
		t.Errorf("level %d: playground %v, want its url_prefix", level-1, p)
	}
	now := newChanEnv(t, realm.WithFeatureLevel(level, ""))
	st, body = add(now, url.Values{"url_prefix": {"https://python.example.com/?code="}})
	now.fail(st, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'url_template' argument")
	st, body = add(now, url.Values{"url_template": {"https://python.example.com/?code={code}"}, "url_prefix": {"x"}})
	now.wantSuccess(st, body)
	if ig, _ := body["ignored_parameters_unsupported"].([]any); len(ig) != 1 || ig[0] != "url_prefix" {
		t.Errorf("level %d: ignored %v, want url_prefix", level, body["ignored_parameters_unsupported"])
	}
	_, state = now.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm_playgrounds"]`}})
	if p := state["realm_playgrounds"].([]any)[0].(map[string]any); p["url_template"] != "https://python.example.com/?code={code}" {
		t.Errorf("level %d: playground %v", level, p)
	}
}
