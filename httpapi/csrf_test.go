package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// /json takes the CSRF token as Django does: the X-CSRFToken header, or a
// POST form's csrfmiddlewaretoken field (urlencoded or multipart), the
// secret itself or masked as Django masks it; each refusal carries
// Django's reason and changes nothing.
func TestHTTPCSRFTokenAsDjango(t *testing.T) {
	ts := RunT(t)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	do := func(req *http.Request) (int, map[string]any) {
		t.Helper()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	login, _ := http.NewRequest("POST", ts.URL+"/api/v1/dev_fetch_api_key", strings.NewReader("username=hamlet%40zulip.com"))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if status, _ := do(login); status != 200 {
		t.Fatalf("login: %d", status)
	}
	u, _ := url.Parse(ts.URL)
	var secret string
	for _, c := range jar.Cookies(u) {
		if c.Name == "csrftoken" {
			secret = c.Value
		}
	}
	// Django's masking: cipher[i] = alphabet[(index(secret[i]) + index(mask[i])) mod 62].
	mask := strings.Repeat("Zz9", 11)[:32]
	masked := mask
	for i := range 32 {
		masked += string(csrfAlphabet[(strings.IndexByte(csrfAlphabet, secret[i])+strings.IndexByte(csrfAlphabet, mask[i]))%len(csrfAlphabet)])
	}
	post := func(method, form, header string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+"/json/users/me/alert_words", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if header != "" {
			req.Header.Set("X-CSRFToken", header)
		}
		return do(req)
	}
	words := func() []any {
		req, _ := http.NewRequest("GET", ts.URL+"/json/users/me/alert_words", nil)
		_, out := do(req)
		return out["alert_words"].([]any)
	}
	for _, c := range []struct {
		method, form, header, msg string
	}{
		{"POST", `alert_words=["a"]`, "", "CSRF token missing."},
		{"POST", `alert_words=["a"]&csrfmiddlewaretoken=`, "", "CSRF token missing."},
		{"POST", `alert_words=["a"]&csrfmiddlewaretoken=short`, "", "CSRF token from POST has incorrect length."},
		{"POST", `alert_words=["a"]&csrfmiddlewaretoken=` + strings.Repeat("-", 32), "", "CSRF token from POST has invalid characters."},
		{"POST", `alert_words=["a"]&csrfmiddlewaretoken=` + strings.Repeat("a", 32), "", "CSRF token from POST incorrect."},
		{"POST", `alert_words=["a"]`, strings.Repeat("a", 64), "CSRF token from the 'X-Csrftoken' HTTP header incorrect."},
		{"POST", `alert_words=["a"]`, "x", "CSRF token from the 'X-Csrftoken' HTTP header has incorrect length."},
		// Django reads the form field of a POST only.
		{"DELETE", `alert_words=["a"]&csrfmiddlewaretoken=` + secret, "", "CSRF token missing."},
	} {
		status, out := post(c.method, c.form, c.header)
		if status != 403 || out["code"] != "CSRF_FAILED" || out["msg"] != "CSRF error: "+c.msg {
			t.Errorf("%s %q %q: %d %v", c.method, c.form, c.header, status, out)
		}
	}
	if w := words(); len(w) != 0 {
		t.Fatalf("a refused request added alert words %v", w)
	}
	for i, c := range []struct{ form, header string }{
		{`alert_words=["form"]&csrfmiddlewaretoken=` + secret, ""},
		{`alert_words=["masked"]&csrfmiddlewaretoken=` + masked, ""},
		{`alert_words=["header"]`, masked},
	} {
		status, out := post("POST", c.form, c.header)
		if status != 200 || out["ignored_parameters_unsupported"] != nil {
			t.Fatalf("case %d: %d %v", i, status, out)
		}
	}
	// A multipart form carries the field too.
	var body bytes.Buffer
	ctype := newMultipart(&body, map[string]string{"alert_words": `["multi"]`, "csrfmiddlewaretoken": secret})
	req, _ := http.NewRequest("POST", ts.URL+"/json/users/me/alert_words", &body)
	req.Header.Set("Content-Type", ctype)
	if status, out := do(req); status != 200 {
		t.Fatalf("multipart: %d %v", status, out)
	}
	if w := words(); len(w) != 4 {
		t.Fatalf("alert words %v", w)
	}
}
