package webui_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/httpapi"
)

func TestInspector(t *testing.T) {
	ts := server(t)
	// A browser gets the page, any other client the JSON index.
	req, _ := http.NewRequest("GET", ts.URL+"/minizulip/", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !json.Valid(body) || !strings.Contains(string(body), `"endpoints"`) {
		t.Fatalf("GET /minizulip/ without Accept: %.200s", body)
	}

	p := newPage(t)
	p.open(ts.URL + "/minizulip/")
	p.find(0, "heading", "minizulip inspector")

	// The clock.
	before := ts.Realm.Now()
	p.typeIn(p.find(0, "spinbutton", "Seconds to advance"), "3600")
	p.click(p.find(0, "button", "Advance clock"))
	deadline := time.Now().Add(10 * time.Second)
	for ts.Realm.Now().Sub(before) < time.Hour {
		if time.Now().After(deadline) {
			t.Fatalf("the clock moved %v, want an hour", ts.Realm.Now().Sub(before))
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Faults: add one, see it answer, remove it.
	p.typeIn(p.find(0, "textbox", "Path"), "/api/v1/users/me")
	p.typeIn(p.find(0, "spinbutton", "Status"), "503")
	p.typeIn(p.find(0, "spinbutton", "Times"), "5")
	p.typeIn(p.find(0, "textbox", "Error message"), "<b>down</b>")
	p.click(p.find(0, "button", "Add fault"))
	p.find(0, "button", "Remove fault 1")
	if code := status(t, ts, "/users/me"); code != 503 {
		t.Errorf("with the fault, GET /users/me answers %d", code)
	}
	p.waitJS("the fault's message as text", `document.getElementById("faults").innerText.includes("<b>down</b>")`)
	p.typeIn(p.find(0, "textbox", "Path"), "/api/v1/users/me")
	p.typeIn(p.find(0, "spinbutton", "Times"), "3")
	p.click(p.find(0, "button", "Add fault"))
	p.find(0, "button", "Remove fault 2")
	p.click(p.find(0, "button", "Remove fault 1"))
	p.gone(0, "button", "Remove fault 1")
	p.click(p.find(0, "button", "Remove all faults"))
	p.gone(0, "button", "Remove fault 2")
	if code := status(t, ts, "/users/me"); code != 200 {
		t.Errorf("without faults, GET /users/me answers %d", code)
	}

	// Snapshots: take one, change the realm, restore it.
	p.click(p.find(0, "button", "Take snapshot"))
	p.find(0, "button", "Restore snapshot 1")
	id := send(t, ts, "iago@zulip.com", "Denmark", "snap", "made after the snapshot")
	p.click(p.find(0, "button", "Restore snapshot 1"))
	waitFor(t, "the restore", func() bool {
		return status(t, ts, "/messages/"+itoa(id)) == 400
	})

	// Queues and requests show, the request log opens to its parameters
	// and filters.
	api(t, ts, "hamlet@zulip.com", "POST", "/register", url.Values{"event_types": {`["message"]`}})
	p.waitJS("hamlet's queue", `document.getElementById("queues").innerText.includes("hamlet@zulip.com")`)
	p.find(0, "log", "Requests")
	p.waitJS("the register request", `[...document.querySelectorAll("#requests summary")].some(s => s.textContent.includes("POST /api/v1/register"))`)
	p.typeIn(p.find(0, "searchbox", "Filter by user"), "hamlet")
	p.waitJS("the filter", `[...document.querySelectorAll("#requests details")].every(d => d.hidden || d.dataset.user.includes("hamlet"))`)
	p.eval(`(() => { const d = [...document.querySelectorAll("#requests details")].find(d => !d.hidden); d.open = true; return d.innerText; })()`, nil)
	p.waitJS("the parameters", `[...document.querySelectorAll("#requests details[open] pre")].some(p => p.textContent.includes("event_types"))`)

	// Expire from the page.
	p.click(p.find(0, "button", "Expire queue of hamlet@zulip.com "+queueOf(t, ts, "hamlet@zulip.com")))
	p.waitJS("the queue to go", `!document.getElementById("queues").innerText.includes("hamlet@zulip.com")`)

	// The strict-mode report.
	status(t, ts, "/no_such_endpoint")
	p.waitJS("the unsupported request", `document.getElementById("unsupported").innerText.includes("/api/v1/no_such_endpoint")`)
	p.axe("the inspector")
}

func itoa(n int) string { return strconv.Itoa(n) }

// status makes a GET as iago and gives the status code.
func status(t *testing.T, ts *httpapi.TestServer, path string) int {
	t.Helper()
	res, err := http.DefaultClient.Do(ts.NewRequest("iago@zulip.com", "GET", path, nil))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// queueOf gives the id of a user's event queue.
func queueOf(t *testing.T, ts *httpapi.TestServer, email string) string {
	t.Helper()
	res, err := http.Get(ts.URL + "/minizulip/queues?user=" + url.QueryEscape(email))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Queues []struct {
			QueueID string `json:"queue_id"`
		} `json:"queues"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || len(out.Queues) == 0 {
		t.Fatalf("no queue of %s: %v", email, err)
	}
	return out.Queues[0].QueueID
}
