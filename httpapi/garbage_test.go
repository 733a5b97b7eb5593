package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/minizulip/minizulip/realm"
)

// garbageValues are parameter values no endpoint expects all at once:
// empty, JSON of the wrong shape, numbers out of range, control bytes.
var garbageValues = []string{"", "null", "[", `{"a":[1,{}]}`, "-1", "99999999999999999999", "abc\x00\x7f", `[{"operator":1}]`, "1.5", strings.Repeat("é", 3000)}

// garbagePathValues replace the path's {parameters}.
var garbagePathValues = []string{"0", "-1", "abc", "99999999999999999999", "1"}

// TestNoEndpointAnswers5xxToGarbage sends every endpoint (every route of
// the route table) garbage: path parameters and every parameter Zulip's
// description names for it set to odd values, as a member, an
// administrator and a bot. No answer may be a 5xx or other than a JSON
// envelope, and a refused request must leave the realm as it was (its
// fixture dump).
func TestNoEndpointAnswers5xxToGarbage(t *testing.T) {
	if testing.Short() {
		t.Skip("sends thousands of requests")
	}
	doc := garbageDoc(t)
	base := New(realm.New())
	pathParam := regexp.MustCompile(`\{[^}]+\}`)
	requests := 0
	everyName := adapterParamNames(t)
	for _, ep := range base.Endpoints() {
		params := documentedParams(doc, ep.Path, ep.Method)
		if len(params) == 0 {
			// Undocumented by Zulip (PATCH /realm, POST /bots…): every
			// name the adapter reads.
			params = everyName
		}
		for _, who := range []string{"hamlet@zulip.com", "iago@zulip.com", "default-bot@zulip.com"} {
			r := realm.New()
			srv := New(r)
			_, key, ok := r.APIKey(who)
			if !ok {
				t.Fatalf("no API key for %s", who)
			}
			var state []byte
			for i, form := range garbageForms(params, len(params) == len(everyName)) {
				path := APIPrefix + pathParam.ReplaceAllString(ep.Path, garbagePathValues[i%len(garbagePathValues)])
				sendGarbage(t, r, srv, who, key, ep.Method, path, form, &state)
				requests++
			}
		}
	}
	t.Logf("%d requests", requests)
}

// garbageForms are the requests' parameters: every parameter at once set
// to each garbage value, then (for parameters the description lists) each
// parameter alone.
func garbageForms(params []string, guessed bool) []url.Values {
	var forms []url.Values
	for _, v := range garbageValues {
		if guessed && len(v) > 100 {
			v = v[:100]
		}
		form := url.Values{}
		for _, p := range params {
			form.Set(p, v)
		}
		forms = append(forms, form)
	}
	if guessed {
		return forms
	}
	for _, p := range params {
		for _, v := range garbageValues[:6] {
			forms = append(forms, url.Values{p: {v}})
		}
	}
	return forms
}

// sendGarbage sends one request as who and checks the answer: no 5xx, a
// JSON envelope, and a refusal that changed nothing.
// state is the realm's dump before the request, or nil when unknown; it
// is the dump after it on return.
func sendGarbage(t *testing.T, r *realm.Realm, srv *Server, who, key, method, path string, form url.Values, state *[]byte) {
	t.Helper()
	if *state == nil {
		dump, err := r.Dump()
		if err != nil {
			t.Fatal(err)
		}
		*state = dump
	}
	before := *state
	*state = nil
	var req *http.Request
	if method == http.MethodGet {
		req = httptest.NewRequest(method, path+"?"+form.Encode(), nil)
	} else {
		req = httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.SetBasicAuth(who, key)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	what := method + " " + path + " as " + who + " with " + abbreviate(form.Encode())
	if w.Code >= 500 {
		t.Errorf("%s: status %d: %s", what, w.Code, abbreviate(w.Body.String()))
		return
	}
	var body map[string]any
	if ct := w.Header().Get("Content-Type"); strings.HasPrefix(ct, "application/json") {
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Errorf("%s: answer is not JSON: %s", what, abbreviate(w.Body.String()))
			return
		}
	} else if w.Code != http.StatusOK {
		t.Errorf("%s: status %d with %q", what, w.Code, ct)
		return
	}
	if w.Code == http.StatusOK {
		return // the state is unknown again
	}
	if body["result"] != "error" || body["code"] == nil {
		t.Errorf("%s: status %d, envelope %v", what, w.Code, body)
	}
	after, err := r.Dump()
	if err != nil {
		t.Fatal(err)
	}
	*state = after
	if !bytes.Equal(before, after) {
		t.Errorf("%s: refused (%d %v) but the realm changed", what, w.Code, body["msg"])
	}
}

// adapterParamNames are the string literals of the adapter's source that
// may be parameter names: every name some handler reads.
func adapterParamNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile(`"([a-z][a-z0-9_]{1,60})"`)
	var names []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// garbageDoc loads Zulip's description for parameter names.
func garbageDoc(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(contractDescription)
	if err != nil {
		t.Skipf("no description: %v", err)
	}
	return doc
}

// documentedParams are the names of the query and body parameters the
// description gives the operation (none when it is not described).
func documentedParams(doc *openapi3.T, path, method string) []string {
	item := doc.Paths.Find(path)
	if item == nil {
		return nil
	}
	op := item.GetOperation(method)
	if op == nil {
		return nil
	}
	var names []string
	for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
		if p.Value != nil && p.Value.In == "query" {
			names = append(names, p.Value.Name)
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		for _, mt := range op.RequestBody.Value.Content {
			if mt.Schema != nil && mt.Schema.Value != nil {
				for name := range mt.Schema.Value.Properties {
					names = append(names, name)
				}
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// abbreviate cuts s for a failure message.
func abbreviate(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
