package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPLinkifiers(t *testing.T) {
	e := newMsgEnv(t)
	status, body := e.do("iago@zulip.com", "POST", "/realm/filters", url.Values{
		"pattern": {`#(?P<id>[0-9]+)`}, "url_template": {"https://github.com/zulip/zulip/issues/{id}"},
		"example_input": {"#123"}, "reverse_template": {"#{id}"}, "alternative_url_templates": {`["https://zulip.example/issues/{id}"]`},
	})
	e.wantSuccess(status, body)
	id := jsonNumber(body["id"])
	status, body = e.do("hamlet@zulip.com", "GET", "/realm/linkifiers", nil)
	e.wantSuccess(status, body)
	list := body["linkifiers"].([]any)
	last := list[len(list)-1].(map[string]any)
	if len(list) != 4 || last["reverse_template"] != "#{id}" || last["example_input"] != "#123" || len(last["alternative_url_templates"].([]any)) != 1 {
		t.Fatalf("list %v", list)
	}
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/filters/"+id, url.Values{
		"pattern": {`#(?P<id>[0-9]+)`}, "url_template": {"https://x/{id}"}, "reverse_template": {""},
	})
	e.wantSuccess(status, body)
	status, body = e.do("iago@zulip.com", "PATCH", "/realm/linkifiers", url.Values{"ordered_linkifier_ids": {"[" + id + ",1,2,3]"}})
	e.wantSuccess(status, body)
	_, body = e.do("hamlet@zulip.com", "GET", "/realm/linkifiers", nil)
	first := body["linkifiers"].([]any)[0].(map[string]any)
	if jsonNumber(first["id"]) != id || first["reverse_template"] != nil || first["url_template"] != "https://x/{id}" {
		t.Fatalf("after update and reorder %v", first)
	}
	status, body = e.do("iago@zulip.com", "DELETE", "/realm/filters/"+id, nil)
	e.wantSuccess(status, body)

	cases := []struct {
		email, method, path string
		form                url.Values
		code, msg           string
	}{
		{"hamlet@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`#(?P<id>\d+)`}, "url_template": {"https://x/{id}"}}, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"},
		{"iago@zulip.com", "POST", "/realm/filters", url.Values{"url_template": {"https://x/{id}"}}, "REQUEST_VARIABLE_MISSING", "Missing 'pattern' argument"},
		{"iago@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`#(?P<id>[0-9+)`}, "url_template": {"https://x/{id}"}}, "BAD_REQUEST", ""},
		{"iago@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`#(?P<id>[0-9]+)`}, "url_template": {"https://x/{ticket}"}}, "BAD_REQUEST", "Group 'ticket' in URL template is not present in linkifier pattern."},
		{"iago@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`#(?P<id>[0-9]+)`}, "url_template": {"https://x/{id}"}, "example_input": {"#1"}, "reverse_template": {"#{{id}}"}}, "BAD_REQUEST", ""},
		{"iago@zulip.com", "POST", "/realm/filters", url.Values{"pattern": {`#(?P<id>[0-9]+)`}, "url_template": {"https://x/{id}"}, "alternative_url_templates": {`["a`}}, "BAD_REQUEST", `Argument "alternative_url_templates" is not valid JSON.`},
		{"iago@zulip.com", "PATCH", "/realm/filters/999", url.Values{"pattern": {`#(?P<id>[0-9]+)`}, "url_template": {"https://x/{id}"}}, "BAD_REQUEST", "Linkifier not found."},
		{"iago@zulip.com", "DELETE", "/realm/filters/999", nil, "BAD_REQUEST", "Linkifier not found."},
		{"iago@zulip.com", "PATCH", "/realm/linkifiers", url.Values{"ordered_linkifier_ids": {"[1]"}}, "BAD_REQUEST", ""},
		{"iago@zulip.com", "PATCH", "/realm/linkifiers", nil, "REQUEST_VARIABLE_MISSING", "Missing 'ordered_linkifier_ids' argument"},
	}
	for _, c := range cases {
		status, body := e.do(c.email, c.method, c.path, c.form)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	_, body = e.do("hamlet@zulip.com", "GET", "/realm/linkifiers", nil)
	if n := len(body["linkifiers"].([]any)); n != 3 {
		t.Fatalf("rejected requests changed the list: %d linkifiers", n)
	}
}
