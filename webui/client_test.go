package webui_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/minizulip/minizulip/httpapi"
)

// server starts a realm with the web client on.
func server(t *testing.T, opts ...httpapi.RunOption) *httpapi.TestServer {
	t.Helper()
	return httpapi.RunT(t, append([]httpapi.RunOption{httpapi.WithWebUI(true)}, opts...)...)
}

// api calls the server's API as a user and decodes the answer.
func api(t *testing.T, ts *httpapi.TestServer, email, method, path string, form url.Values) map[string]any {
	t.Helper()
	res, err := http.DefaultClient.Do(ts.NewRequest(email, method, path, form))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil || res.StatusCode != 200 {
		t.Fatalf("%s %s as %s: %d %s", method, path, email, res.StatusCode, body)
	}
	return out
}

// control calls the test-control API.
func control(t *testing.T, ts *httpapi.TestServer, method, path string, form url.Values) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, body)
	}
}

func send(t *testing.T, ts *httpapi.TestServer, email, channel, topic, content string) int {
	t.Helper()
	out := api(t, ts, email, "POST", "/messages", url.Values{"type": {"stream"}, "to": {channel}, "topic": {topic}, "content": {content}})
	return int(out["id"].(float64))
}

// login opens the client and logs in as the user with that full name.
func login(t *testing.T, ts *httpapi.TestServer, fullName string) *page {
	t.Helper()
	p := newPage(t)
	p.open(ts.URL + "/")
	p.click(p.find(0, "button", fullName))
	p.find(0, "log", "Messages")
	p.find(0, "button", "Log out")
	return p
}

// channelLink finds a channel's link in the Channels navigation.
func (p *page) channelLink(name string) cdp.BackendNodeID {
	p.t.Helper()
	return p.find(p.find(0, "navigation", "Channels"), "link", name)
}

// message finds the article of the message that holds text.
func (p *page) message(text string) cdp.BackendNodeID {
	p.t.Helper()
	log := p.find(0, "log", "Messages")
	deadline := time.Now().Add(10 * time.Second)
	for {
		var hits []cdp.BackendNodeID
		for _, a := range p.query(log, "article", "") {
			if strings.Contains(p.text(a.backend), text) {
				hits = append(hits, a.backend)
			}
		}
		if len(hits) == 1 {
			return hits[0]
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("found %d messages holding %q, want 1", len(hits), text)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// inMessage waits for one node of a role and name in the message holding
// text, finding the message again each time: the page renders a message
// anew when it changes (a reaction, an edit), and a node found before that
// is left out of the page.
func (p *page) inMessage(text, role, name string) cdp.BackendNodeID {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		nodes := p.query(p.message(text), role, name)
		if len(nodes) == 1 {
			return nodes[0].backend
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("found %d of %s %q in the message holding %q, want 1", len(nodes), role, name, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// goneFromMessage waits until the message holding text has no node of a
// role and name, finding the message again each time (inMessage).
func (p *page) goneFromMessage(text, role, name string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(p.query(p.message(text), role, name)) > 0 {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s %q is still in the message holding %q", role, name, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *page) compose(topic, content string) {
	p.t.Helper()
	if topic != "" {
		p.typeIn(p.find(0, "textbox", "Topic"), topic)
	}
	p.typeIn(p.find(0, "textbox", "Message"), content)
	p.key("\r")
}

func TestLoginReadSend(t *testing.T) {
	ts := server(t)
	p := newPage(t)
	p.open(ts.URL + "/")
	p.find(0, "button", "King Hamlet")
	p.axe("the login page")
	p.click(p.find(0, "button", "King Hamlet"))
	p.find(0, "log", "Messages")
	p.waitJS("the first render", `window.minizulipTimings && window.minizulipTimings.firstRender`)
	var first, reg, fetch float64
	p.eval(`window.minizulipTimings.firstRender`, &first)
	p.eval(`window.minizulipTimings.register`, &reg)
	p.eval(`window.minizulipTimings.lastFetch`, &fetch)
	t.Logf("first render after login: %.1f ms (register %.1f ms, fetching the feed %.1f ms)", first, reg, fetch)

	// A message that comes while another channel is open counts as
	// unread in its channel and its topic (seen from another topic).
	p.click(p.channelLink("Denmark"))
	p.find(0, "heading", "Denmark")
	send(t, ts, "othello@zulip.com", "Verona", "greetings", "Hello **Hamlet**, see `code`")
	p.channelLink("Verona 1")
	p.open(ts.URL + "/#channel/" + streamID(t, ts, "Verona") + "/topic/elsewhere")
	p.find(p.find(0, "navigation", "Topics"), "link", "greetings 1")
	p.click(p.find(p.find(0, "navigation", "Topics"), "link", "greetings 1"))
	art := p.message("Hello Hamlet")
	var strong bool
	p.callOn(art, `function() { return !!this.querySelector(".content strong") && !!this.querySelector(".content code"); }`, &strong)
	if !strong {
		t.Error("the message's HTML is not rendered")
	}
	// Seeing it marks it read: the counts go.
	p.channelLink("Verona")
	p.find(p.find(0, "navigation", "Topics"), "link", "greetings")
	if got := readFlag(t, ts, "hamlet@zulip.com"); !got {
		t.Error("the message read in the page is not read on the server")
	}

	// Enter sends, Shift+Enter is a newline.
	p.click(p.channelLink("Verona"))
	p.find(0, "heading", "Verona")
	p.typeIn(p.find(0, "textbox", "Topic"), "plans")
	p.typeIn(p.find(0, "textbox", "Message"), "line one")
	p.key("\r", chromedp.ModifierShift)
	p.insert("line two")
	p.key("\r")
	art = p.message("line two")
	if txt := p.text(art); !strings.Contains(txt, "line one") {
		t.Errorf("sent message reads %q", txt)
	}
	last := lastMessage(t, ts, "hamlet@zulip.com")
	if last["content"] != "line one\nline two" || last["subject"] != "plans" {
		t.Errorf("server holds %q in %q", last["content"], last["subject"])
	}
	p.axe("a channel view with messages")

	// Log out goes back to the login page.
	p.click(p.find(0, "button", "Log out"))
	p.find(0, "button", "King Hamlet")
}

func streamID(t *testing.T, ts *httpapi.TestServer, name string) string {
	t.Helper()
	out := api(t, ts, "iago@zulip.com", "GET", "/get_stream_id", url.Values{"stream": {name}})
	return fmt.Sprint(out["stream_id"])
}

// readFlag says whether the newest message the user can see is read.
func readFlag(t *testing.T, ts *httpapi.TestServer, email string) bool {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		flags, _ := lastMessage(t, ts, email)["flags"].([]any)
		for _, f := range flags {
			if f == "read" {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func lastMessage(t *testing.T, ts *httpapi.TestServer, email string) map[string]any {
	t.Helper()
	out := api(t, ts, email, "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}, "apply_markdown": {"false"}})
	msgs := out["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatal("no messages")
	}
	return msgs[len(msgs)-1].(map[string]any)
}

func TestLiveMessagesAndReregister(t *testing.T) {
	ts := server(t)
	p := login(t, ts, "King Hamlet")
	p.click(p.channelLink("Verona"))
	p.find(0, "log", "Messages")
	time.Sleep(50 * time.Millisecond) // let the first long poll start

	var worst float64
	for i := range 5 {
		id := send(t, ts, "othello@zulip.com", "Verona", "live", fmt.Sprintf("live message %d", i))
		answered := float64(time.Now().UnixNano()) / 1e6
		p.message(fmt.Sprintf("live message %d", i))
		var shown float64
		p.eval(fmt.Sprintf(`performance.timeOrigin + window.minizulipTimings["shown%d"]`, id), &shown)
		lag := shown - answered
		worst = max(worst, lag)
		t.Logf("message %d shown %.1f ms after the send's answer", i, lag)
	}
	t.Logf("worst live lag: %.1f ms", worst)
	p.find(p.find(0, "navigation", "Topics"), "link", "live")

	// A queue that expires mid-session: the page registers again and
	// keeps following.
	var queue string
	p.eval(`window.minizulipQueueID()`, &queue)
	control(t, ts, "POST", "/minizulip/queues/"+queue+"/expire", nil)
	send(t, ts, "othello@zulip.com", "Verona", "live", "after the expiry")
	p.message("after the expiry")
	var again string
	p.eval(`window.minizulipQueueID()`, &again)
	if again == queue {
		t.Error("the page kept its expired queue")
	}

	// Edits, reactions and deletions by others show live.
	id := send(t, ts, "othello@zulip.com", "Verona", "live", "to be edited")
	p.message("to be edited")
	api(t, ts, "othello@zulip.com", "PATCH", fmt.Sprintf("/messages/%d", id), url.Values{"content": {"edited by othello"}})
	art := p.message("edited by othello")
	if !strings.Contains(p.text(art), "(edited)") {
		t.Error("no edited marker")
	}
	api(t, ts, "othello@zulip.com", "POST", fmt.Sprintf("/messages/%d/reactions", id), url.Values{"emoji_name": {"octopus"}})
	p.waitJS("the reaction", `document.querySelector("article [aria-label='octopus 1']")`)
	p.inMessage("edited by othello", "button", "octopus 1")
	api(t, ts, "iago@zulip.com", "DELETE", fmt.Sprintf("/messages/%d", id), nil)
	p.waitJS("the deleted message to go", `![...document.querySelectorAll("article")].some(a => a.innerText.includes("edited by othello"))`)
}

// What other users do shows without reload: typing, read state from
// another client, a channel's new name, a new subscription.
func TestLiveOthers(t *testing.T) {
	ts := server(t)
	p := login(t, ts, "King Hamlet")
	verona := streamID(t, ts, "Verona")
	p.open(ts.URL + "/#channel/" + verona + "/topic/chat")
	p.find(0, "heading", "Verona › chat")

	api(t, ts, "othello@zulip.com", "POST", "/typing", url.Values{"op": {"start"}, "type": {"stream"}, "stream_id": {verona}, "topic": {"chat"}})
	p.waitJS("the typing notice", `document.getElementById("typing").textContent.includes("Othello, the Moor of Venice is typing")`)
	api(t, ts, "othello@zulip.com", "POST", "/typing", url.Values{"op": {"stop"}, "type": {"stream"}, "stream_id": {verona}, "topic": {"chat"}})
	p.waitJS("the typing notice to go", `document.getElementById("typing").textContent === ""`)

	// An unread message elsewhere, then read from another client.
	id := send(t, ts, "othello@zulip.com", "Denmark", "elsewhere", "read elsewhere")
	p.channelLink("Denmark 1")
	api(t, ts, "hamlet@zulip.com", "POST", "/messages/flags", url.Values{"messages": {fmt.Sprintf("[%d]", id)}, "op": {"add"}, "flag": {"read"}})
	p.channelLink("Denmark")

	// A renamed channel and a new subscription.
	api(t, ts, "iago@zulip.com", "PATCH", "/streams/"+streamID(t, ts, "Denmark"), url.Values{"new_name": {"Danmark"}})
	p.channelLink("Danmark 1") // with the notice of the rename, unread
	api(t, ts, "iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{"subscriptions": {`[{"name": "brand new"}]`}, "principals": {`["hamlet@zulip.com"]`}})
	p.channelLink("brand new 1") // with Notification Bot's notice opening the channel, unread
}

// Spoilers hide their content until their header is pressed; emoji show
// as characters.
func TestSpoilerAndEmoji(t *testing.T) {
	ts := server(t)
	send(t, ts, "othello@zulip.com", "Verona", "rendering", "```spoiler the plot\nhidden ending\n```\nI :octopus: this")
	p := login(t, ts, "King Hamlet")
	p.click(p.channelLink("Verona"))
	art := p.message("the plot")
	if txt := p.text(art); strings.Contains(txt, "hidden ending") || !strings.Contains(txt, "🐙") {
		t.Errorf("message reads %q", txt)
	}
	p.callOn(art, `function() { this.querySelector(".spoiler-header").click(); }`, nil)
	p.waitJS("the spoiler to open", `[...document.querySelectorAll("article")].some(a => a.innerText.includes("hidden ending"))`)
}

// TestCustomEmojiReaction: a reaction with a custom emoji shows the
// emoji's image, not its :name:.
func TestCustomEmojiReaction(t *testing.T) {
	ts := server(t)
	id := send(t, ts, "othello@zulip.com", "Verona", "custom", "tick this")
	api(t, ts, "othello@zulip.com", "POST", fmt.Sprintf("/messages/%d/reactions", id), url.Values{"emoji_name": {"green_tick"}})
	p := login(t, ts, "King Hamlet")
	p.click(p.channelLink("Verona"))
	art := p.message("tick this")
	btn := p.find(art, "button", "green_tick 1")
	if txt := p.text(btn); strings.Contains(txt, ":green_tick:") {
		t.Errorf("the reaction reads %q, not the emoji's image", txt)
	}
	p.waitJS("the custom emoji's image to load", `[...document.querySelectorAll("button.reaction img.emoji")].some(i => i.complete && i.naturalWidth > 0 && i.src.includes("/user_avatars/"))`)
	p.noConsoleErrors()
}
