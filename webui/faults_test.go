package webui_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/httpapi"
)

// A server that answers 500 or 429: the page shows the server's words or
// retries, and never goes blank.
func TestServerErrors(t *testing.T) {
	ts := server(t)
	p := newPage(t)
	p.open(ts.URL + "/")

	// Register fails at login: the login page says why.
	control(t, ts, "POST", "/minizulip/faults", url.Values{"path": {"/json/register"}, "status": {"500"}, "msg": {"Register is down"}, "count": {"1"}})
	p.click(p.find(0, "button", "King Hamlet"))
	p.waitJS("the login error", `document.getElementById("login-error").textContent.includes("Register is down")`)
	p.click(p.find(0, "button", "King Hamlet"))
	p.find(0, "log", "Messages")

	// The event queue answers 500 three times, then 429: the page says it
	// retries, and follows again afterwards.
	control(t, ts, "POST", "/minizulip/faults", url.Values{"path": {"/json/events"}, "method": {"GET"}, "status": {"500"}, "count": {"3"}})
	control(t, ts, "POST", "/minizulip/faults", url.Values{"path": {"/json/events"}, "method": {"GET"}, "status": {"429"}, "retry_after": {"0.2"}, "count": {"1"}})
	send(t, ts, "othello@zulip.com", "Verona", "faults", "wakes the poll")
	p.waitJS("the retry notice", `document.getElementById("conn").textContent.includes("Retrying")`)
	send(t, ts, "othello@zulip.com", "Verona", "faults", "after the faults")
	p.message("after the faults")
	p.waitJS("the notice to go", `document.getElementById("conn").textContent === ""`)

	// A send refused with 429 shows the server's words where one wrote.
	control(t, ts, "POST", "/minizulip/faults", url.Values{"path": {"/json/messages"}, "method": {"POST"}, "status": {"429"}, "code": {"RATE_LIMIT_HIT"}, "msg": {"API usage exceeded rate limit"}, "retry_after": {"1"}, "count": {"1"}})
	p.click(p.channelLink("Verona"))
	p.typeIn(p.find(0, "textbox", "Topic"), "faults")
	p.typeIn(p.find(0, "textbox", "Message"), "refused once")
	p.key("\r")
	p.waitJS("the send error", `document.getElementById("compose-error").textContent.includes("rate limit")`)
	p.key("\r")
	p.message("refused once")
}

// The client works without the control API.
func TestWithoutControl(t *testing.T) {
	ts := server(t, httpapi.WithTestControl(false))
	p := login(t, ts, "King Hamlet")
	p.click(p.channelLink("Denmark"))
	p.typeIn(p.find(0, "textbox", "Topic"), "no control")
	p.typeIn(p.find(0, "textbox", "Message"), "still works")
	p.key("\r")
	p.message("still works")
	if code := get(t, ts.URL+"/minizulip/"); code != 404 {
		t.Errorf("GET /minizulip/ without the control API: %d", code)
	}
}

// Password login when dev login is off.
func TestPasswordLogin(t *testing.T) {
	ts := server(t, httpapi.WithDevEndpoints(false))
	p := newPage(t)
	p.open(ts.URL + "/")
	p.typeIn(p.find(0, "textbox", "Email"), "hamlet@zulip.com")
	p.typeIn(p.find(0, "textbox", "Password"), "wrong")
	p.click(p.find(0, "button", "Log in"))
	p.waitJS("the refusal", `document.getElementById("login-error").textContent !== ""`)
	p.typeIn(p.find(0, "textbox", "Password"), "zulip")
	p.click(p.find(0, "button", "Log in"))
	p.find(0, "log", "Messages")
	p.find(0, "button", "Log out")
}

// Without WithWebUI an embedded server serves no page.
func TestOffByDefault(t *testing.T) {
	ts := httpapi.RunT(t)
	for _, path := range []string{"/", "/static/webui/app.js"} {
		if code := get(t, ts.URL+path); code != 404 {
			t.Errorf("GET %s: %d, want 404", path, code)
		}
	}
	req, _ := http.NewRequest("GET", ts.URL+"/minizulip/", nil)
	req.Header.Set("Accept", "text/html")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if strings.Contains(string(body), "<html") {
		t.Error("the inspector page is served without WithWebUI")
	}
}

func get(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// The whole page, scripts and styles included, stays under 200 KB.
func TestPageSize(t *testing.T) {
	total := 0
	for _, dir := range []string{"static", "templates"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			total += len(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("web pages: %d bytes", total)
	if total >= 200_000 {
		t.Errorf("the web pages weigh %d bytes, over 200 KB", total)
	}
}
