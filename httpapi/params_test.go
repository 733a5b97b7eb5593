package httpapi

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// paramsOf parses a GET request whose query string is q.
func paramsOf(t *testing.T, q url.Values) *params {
	t.Helper()
	p, err := parseParams(httptest.NewRequest("GET", "/x?"+q.Encode(), nil))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// paramsWantErr checks err is a *realm.Error with code and msg, HTTP 400.
func paramsWantErr(t *testing.T, what string, err error, code realm.Code, msg string) *realm.Error {
	t.Helper()
	var re *realm.Error
	if !errors.As(err, &re) {
		t.Fatalf("%s: error %v, want %s %q", what, err, code, msg)
	}
	if re.Code != code || re.Msg != msg || re.Status != http.StatusBadRequest {
		t.Fatalf("%s: got %s %q (%d), want %s %q", what, re.Code, re.Msg, re.Status, code, msg)
	}
	return re
}

func TestParamInts(t *testing.T) {
	cases := []struct {
		raw  string
		want int
		err  string
	}{
		{"5", 5, ""},
		{`"5"`, 5, ""},
		{" 7 ", 7, ""},
		{"-3", -3, ""},
		{"0", 0, ""},
		{"x", 0, "x is not an integer"},
		{"", 0, "x is not an integer"},
		{"1.5", 0, "x is not an integer"},
		{"true", 0, "x is not an integer"},
		{`"5`, 0, "x is not an integer"},
		{"99999999999999999999", 0, "x is not an integer"},
	}
	for _, c := range cases {
		p := paramsOf(t, url.Values{"x": {c.raw}})
		got, set, err := p.optInt("x")
		if c.err != "" {
			paramsWantErr(t, "optInt "+c.raw, err, realm.CodeBadRequest, c.err)
			_, err = p.mustInt("x")
			paramsWantErr(t, "mustInt "+c.raw, err, realm.CodeBadRequest, c.err)
			continue
		}
		if err != nil || !set || got != c.want {
			t.Errorf("optInt %q: %d %v %v", c.raw, got, set, err)
		}
		if n, err := p.mustInt("x"); err != nil || n != c.want {
			t.Errorf("mustInt %q: %d %v", c.raw, n, err)
		}
	}
	p := paramsOf(t, nil)
	if n, set, err := p.optInt("x"); n != 0 || set || err != nil {
		t.Fatalf("absent optInt: %d %v %v", n, set, err)
	}
	_, err := p.mustInt("x")
	e := paramsWantErr(t, "absent mustInt", err, realm.CodeRequestVariableMissing, "Missing 'x' argument")
	if e.Extra["var_name"] != "x" {
		t.Fatalf("var_name %v", e.Extra)
	}
}

func TestParamNonNegInt(t *testing.T) {
	p := paramsOf(t, url.Values{"a": {"10"}, "b": {"-1"}, "c": {"many"}})
	if n, err := p.nonNegInt("a"); err != nil || n != 10 {
		t.Fatalf("a: %d %v", n, err)
	}
	for name, raw := range map[string]string{"b": "-1", "c": "many"} {
		_, err := p.nonNegInt(name)
		e := paramsWantErr(t, name, err, realm.CodeRequestVariableInvalid, "Bad value for '"+name+"': "+raw)
		if e.Extra["var_name"] != name || e.Extra["bad_value"] != raw {
			t.Errorf("%s: extra %v", name, e.Extra)
		}
	}
	_, err := p.nonNegInt("d")
	if e := paramsWantErr(t, "d", err, realm.CodeRequestVariableMissing, "Missing 'd' argument"); e.Extra["var_name"] != "d" {
		t.Fatalf("extra %v", e.Extra)
	}
}

func TestParamBools(t *testing.T) {
	for raw, want := range map[string]bool{"true": true, "false": false, "True": true, "False": false, "1": true, "0": false, " true ": true} {
		p := paramsOf(t, url.Values{"b": {raw}})
		got, set, err := p.optBoolSet("b")
		if err != nil || !set || got != want {
			t.Errorf("optBoolSet %q: %v %v %v", raw, got, set, err)
		}
		if got, err := p.optBool("b", !want); err != nil || got != want {
			t.Errorf("optBool %q: %v %v", raw, got, err)
		}
	}
	for _, raw := range []string{"yes", "", "TRUE", "2", `"true"`, "null"} {
		p := paramsOf(t, url.Values{"b": {raw}})
		_, _, err := p.optBoolSet("b")
		paramsWantErr(t, "optBoolSet "+raw, err, realm.CodeBadRequest, "b is not a boolean")
		_, err = p.optBool("b", true)
		paramsWantErr(t, "optBool "+raw, err, realm.CodeBadRequest, "b is not a boolean")
	}
	p := paramsOf(t, nil)
	if v, err := p.optBool("b", true); err != nil || !v {
		t.Fatalf("absent optBool keeps the default: %v %v", v, err)
	}
	if v, set, err := p.optBoolSet("b"); v || set || err != nil {
		t.Fatalf("absent optBoolSet: %v %v %v", v, set, err)
	}
}

func TestParamJSONLists(t *testing.T) {
	ints := []struct {
		raw  string
		want []int
		err  string
	}{
		{"[1,2,3]", []int{1, 2, 3}, ""},
		{" [ ] ", []int{}, ""},
		{"[1,", nil, `Argument "l" is not valid JSON.`},
		{"", nil, `Argument "l" is not valid JSON.`},
		{"1,2", nil, `Argument "l" is not valid JSON.`},
		{`{"a":1}`, nil, "l is not a list"},
		{"5", nil, "l is not a list"},
		{`"[1]"`, nil, "l is not a list"},
		{"null", nil, "l is not a list"},
		{`[1,"a"]`, nil, "l[1] is not an integer"},
		{`["a",1]`, nil, "l[0] is not an integer"},
		{"[1,2.5]", nil, "l[1] is not an integer"},
		{"[1,null]", nil, "l[1] is not an integer"},
		{"[[1]]", nil, "l[0] is not an integer"},
	}
	for _, c := range ints {
		p := paramsOf(t, url.Values{"l": {c.raw}})
		got, set, err := p.optIntList("l")
		if c.err != "" {
			paramsWantErr(t, "optIntList "+c.raw, err, realm.CodeBadRequest, c.err)
			continue
		}
		if err != nil || !set || !slices.Equal(got, c.want) {
			t.Errorf("optIntList %q: %v %v %v", c.raw, got, set, err)
		}
	}
	strs := []struct {
		raw  string
		want []string
		err  string
	}{
		{`["a","b"]`, []string{"a", "b"}, ""},
		{`[]`, []string{}, ""},
		{`["a",1]`, nil, "l[1] is not a string"},
		{`[null]`, nil, "l[0] is not a string"},
		{`"a"`, nil, "l is not a list"},
		{`{}`, nil, "l is not a list"},
		{`[`, nil, `Argument "l" is not valid JSON.`},
	}
	for _, c := range strs {
		p := paramsOf(t, url.Values{"l": {c.raw}})
		got, set, err := p.optStringList("l")
		if c.err != "" {
			paramsWantErr(t, "optStringList "+c.raw, err, realm.CodeBadRequest, c.err)
			continue
		}
		if err != nil || !set || !slices.Equal(got, c.want) {
			t.Errorf("optStringList %q: %v %v %v", c.raw, got, set, err)
		}
	}
	// Objects.
	var obj map[string]any
	p := paramsOf(t, url.Values{"o": {`{"k":1}`}, "l": {"[1]"}, "n": {"null"}})
	if set, err := p.optJSON("o", &obj); err != nil || !set || obj["k"] != float64(1) {
		t.Fatalf("object: %v %v %v", obj, set, err)
	}
	_, err := p.optJSON("l", &obj)
	paramsWantErr(t, "list as object", err, realm.CodeBadRequest, "l is not a dict")
	_, err = p.optJSON("n", &obj)
	paramsWantErr(t, "null as object", err, realm.CodeBadRequest, "n is not a dict")
	// Absent lists.
	if l, set, err := paramsOf(t, nil).optIntList("l"); l != nil || set || err != nil {
		t.Fatalf("absent: %v %v %v", l, set, err)
	}
}

func TestParamStringsAndPresence(t *testing.T) {
	p := paramsOf(t, url.Values{"s": {""}, "t": {`"quoted"`}})
	if v, err := p.mustStr("s"); err != nil || v != "" {
		t.Fatalf("empty string is present: %q %v", v, err)
	}
	if v, _ := p.mustStr("t"); v != `"quoted"` {
		t.Fatalf("strings are raw: %q", v)
	}
	_, err := p.mustStr("u")
	paramsWantErr(t, "missing", err, realm.CodeRequestVariableMissing, "Missing 'u' argument")
	if !p.has("s") || p.has("v") {
		t.Fatal("has")
	}
	// Everything read, even absent names, counts as supported.
	p2 := paramsOf(t, url.Values{"read": {"1"}, "unread": {"2"}, "probed": {"3"}})
	_, _ = p2.str("read")
	_ = p2.has("probed")
	if got := p2.ignored(); !slices.Equal(got, []string{"unread"}) {
		t.Fatalf("ignored %v", got)
	}
	p2.acceptAll()
	if got := p2.ignored(); len(got) != 0 {
		t.Fatalf("after acceptAll: %v", got)
	}
}

func TestParseParamsSources(t *testing.T) {
	// GET and HEAD bodies are not read.
	req := httptest.NewRequest("GET", "/x?a=q", strings.NewReader("a=body&b=1"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	p, err := parseParams(req)
	if err != nil || p.values()["a"] != "q" || p.hasValue("b") {
		t.Fatalf("GET body read: %v %v", p.values(), err)
	}
	// Multipart files are kept apart from values.
	var buf bytes.Buffer
	ctype := newMultipart(&buf, map[string]string{"a": "1"})
	req = httptest.NewRequest("PATCH", "/x", &buf)
	req.Header.Set("Content-Type", ctype)
	if p, err = parseParams(req); err != nil || p.values()["a"] != "1" {
		t.Fatalf("multipart PATCH: %v %v", p, err)
	}
	// A body with a type Zulip does not parse is skipped.
	req = httptest.NewRequest("POST", "/x?a=1", strings.NewReader("a=2"))
	req.Header.Set("Content-Type", "text/plain")
	if p, err = parseParams(req); err != nil || p.values()["a"] != "1" {
		t.Fatalf("text/plain: %v %v", p, err)
	}
}

// FuzzParseParams feeds arbitrary bodies, content types and query strings
// to parseParams and every typed getter: nothing may panic, and every
// error is a *realm.Error with a 4xx status.
func FuzzParseParams(f *testing.F) {
	f.Add("POST", "application/x-www-form-urlencoded", "a=1&b=%5B1%2C2%5D", "c=true", "a")
	f.Add("DELETE", "multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n[1,\"x\"]\r\n--X--\r\n", "", "a")
	f.Add("PATCH", "multipart/form-data", "--", "a=%zz", "a")
	f.Add("GET", "", "", "a=null&a=[null]", "a")
	f.Add("POST", "", "a=%", "", "a")
	f.Add("PUT", "application/json", `{"a":1}`, "a=99999999999999999999", "a")
	f.Add("POST", "application/x-www-form-urlencoded; charset=\xff", "a=\"5\"", "a=-1", "a")
	f.Add("POST", "multipart/form-data; boundary=\"", "\x00", ";;;", "")
	f.Fuzz(func(t *testing.T, method, ctype, body, query, name string) {
		switch method {
		case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD":
		default:
			method = "POST"
		}
		req, err := http.NewRequest(method, "http://x/api/v1/y", strings.NewReader(body))
		if err != nil {
			t.Skip()
		}
		req.URL.RawQuery = query
		req.Header.Set("Content-Type", ctype)
		p, err := parseParams(req)
		check := func(what string, err error) {
			t.Helper()
			if err == nil {
				return
			}
			var re *realm.Error
			if !errors.As(err, &re) || re.Status < 400 || re.Status > 499 || re.Msg == "" || re.Code == "" {
				t.Fatalf("%s: %#v is not a 4xx *realm.Error", what, err)
			}
		}
		check("parseParams", err)
		if err != nil {
			return
		}
		_, _, err = p.optInt(name)
		check("optInt", err)
		_, err = p.mustInt(name)
		check("mustInt", err)
		_, err = p.nonNegInt(name)
		check("nonNegInt", err)
		_, err = p.optBool(name, true)
		check("optBool", err)
		_, _, err = p.optIntList(name)
		check("optIntList", err)
		_, _, err = p.optStringList(name)
		check("optStringList", err)
		var obj map[string]any
		_, err = p.optJSON(name, &obj)
		check("optJSON", err)
		_, err = p.mustStr(name)
		check("mustStr", err)
		for _, n := range p.ignored() {
			if n == name {
				t.Fatalf("%q was read but is reported as ignored", name)
			}
		}
	})
}

// zulip-js sends calls without parameters as an empty multipart body:
// Zulip reads no parameters, and so does the adapter. A non-empty body
// that is not multipart is still refused.
func TestEmptyMultipartBodyIsNoParameters(t *testing.T) {
	req := httptest.NewRequest("POST", "/x?q=1", strings.NewReader(""))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=----zulipjs")
	req.ContentLength = 0
	p, err := parseParams(req)
	if err != nil {
		t.Fatalf("empty multipart body refused: %v", err)
	}
	if v, ok := p.str("q"); !ok || v != "1" || len(p.fields) != 1 {
		t.Fatalf("params %v", p.values())
	}
	bad := httptest.NewRequest("POST", "/x", strings.NewReader("not multipart"))
	bad.Header.Set("Content-Type", "multipart/form-data; boundary=----zulipjs")
	_, err = parseParams(bad)
	paramsWantErr(t, "garbage multipart", err, realm.CodeBadRequest, "Malformed multipart body")
}

// A body over the cap is refused whole with 413, whether it announces its
// length or streams it, and nothing in it is processed (issue 14, item 5).
func TestOversizeBodyIs413(t *testing.T) {
	huge := strings.Repeat("x", maxBodyBytes+1)
	for name, mk := range map[string]func() *http.Request{
		"announced": func() *http.Request {
			req := httptest.NewRequest("POST", "/x", strings.NewReader("content="+huge))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return req
		},
		"streamed": func() *http.Request {
			req := httptest.NewRequest("POST", "/x", io.MultiReader(strings.NewReader("content="), strings.NewReader(huge)))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.ContentLength = -1
			return req
		},
		"multipart": func() *http.Request {
			body := "--B\r\nContent-Disposition: form-data; name=\"content\"\r\n\r\n" + huge + "\r\n--B--\r\n"
			req := httptest.NewRequest("POST", "/x", io.MultiReader(strings.NewReader(body)))
			req.Header.Set("Content-Type", "multipart/form-data; boundary=B")
			req.ContentLength = -1
			return req
		},
	} {
		_, err := parseParams(mk())
		var re *realm.Error
		if !errors.As(err, &re) || re.Status != http.StatusRequestEntityTooLarge || re.Code != realm.CodeBadRequest {
			t.Errorf("%s: %v", name, err)
		}
	}
}
