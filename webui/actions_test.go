package webui_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

func TestReactEditDeleteStarMove(t *testing.T) {
	ts := server(t)
	id := send(t, ts, "hamlet@zulip.com", "Denmark", "castle", "to react to")
	p := login(t, ts, "King Hamlet")
	p.open(ts.URL + "/#channel/" + streamID(t, ts, "Denmark") + "/topic/castle")
	art := p.message("to react to")

	// React from the picker, found by searching.
	p.click(p.find(art, "button", "Add reaction"))
	p.typeIn(p.find(0, "searchbox", "Search emoji"), "octo")
	p.find(p.find(0, "dialog", "Emoji picker"), "button", "octopus")
	p.axe("the emoji picker")
	p.click(p.find(p.find(0, "dialog", "Emoji picker"), "button", "octopus"))
	p.inMessage("to react to", "button", "octopus 1")
	if got := lastMessage(t, ts, "hamlet@zulip.com")["reactions"].([]any); len(got) != 1 {
		t.Fatalf("server holds %d reactions", len(got))
	}
	// Pressing one's own reaction takes it back.
	p.click(p.inMessage("to react to", "button", "octopus 1"))
	p.goneFromMessage("to react to", "button", "octopus 1")

	// Star.
	p.click(p.inMessage("to react to", "button", "Star"))
	waitFor(t, "the star", func() bool { return hasFlag(lastMessage(t, ts, "hamlet@zulip.com"), "starred") })

	// Edit one's own message.
	p.click(p.inMessage("to react to", "button", "Edit"))
	p.typeIn(p.find(0, "textbox", "Edit message"), "edited in the *page*")
	p.click(p.find(0, "button", "Save"))
	art = p.message("edited in the page")
	if !strings.Contains(p.text(art), "(edited)") {
		t.Error("no edited marker after an edit")
	}
	if got := lastMessage(t, ts, "hamlet@zulip.com")["content"]; got != "edited in the *page*" {
		t.Errorf("server holds %q", got)
	}

	// Past the realm's edit limit the server refuses, in its words.
	if err := ts.Realm.AdvanceClock(3600e9); err != nil {
		t.Fatal(err)
	}
	p.click(p.inMessage("edited in the page", "button", "Edit"))
	p.typeIn(p.find(0, "textbox", "Edit message"), "too late")
	p.click(p.find(0, "button", "Save"))
	p.waitJS("the refusal", `[...document.querySelectorAll("article [role=alert]")].some(e => e.textContent.includes("time limit"))`)

	// Move the topic.
	mid := send(t, ts, "hamlet@zulip.com", "Denmark", "castle", "second in castle")
	p.message("second in castle")
	p.click(p.find(0, "button", "Move topic"))
	p.typeIn(p.find(0, "textbox", "New topic name"), "keep")
	p.click(p.find(0, "button", "Move"))
	p.find(0, "heading", "Denmark › keep")
	// The topic's link; Notification Bot's notice of the move may still
	// count as unread there ("keep 1") until the page has marked it read.
	p.waitJS("the moved topic's link", `[...document.querySelectorAll("nav[aria-label=Topics] a")].some(a => /^keep( \d+)?$/.test(a.getAttribute("aria-label") || a.innerText.trim().replace(/\s+/g, " ")))`)
	p.message("second in castle")
	got := api(t, ts, "hamlet@zulip.com", "GET", fmt.Sprintf("/messages/%d", mid), nil)["message"].(map[string]any)
	if got["subject"] != "keep" {
		t.Errorf("moved message is in %q", got["subject"])
	}

	// Delete one's own message.
	p.click(p.inMessage("second in castle", "button", "Delete"))
	p.waitJS("the deletion", `![...document.querySelectorAll("article")].some(a => a.innerText.includes("second in castle"))`)
	if code := status(t, ts, fmt.Sprintf("/messages/%d", mid)); code != 400 {
		t.Errorf("deleted message answers %d", code)
	}
	_ = id
}

func hasFlag(m map[string]any, flag string) bool {
	flags, _ := m["flags"].([]any)
	for _, f := range flags {
		if f == flag {
			return true
		}
	}
	return false
}

func TestDirectMessages(t *testing.T) {
	ts := server(t)
	p := login(t, ts, "King Hamlet")
	api(t, ts, "othello@zulip.com", "POST", "/messages", url.Values{"type": {"private"}, "to": {`["hamlet@zulip.com"]`}, "content": {"a private word"}})
	dms := p.find(0, "navigation", "Direct messages")
	p.click(p.find(dms, "link", "Othello, the Moor of Venice 1"))
	p.message("a private word")
	p.find(p.find(0, "navigation", "Direct messages"), "link", "Othello, the Moor of Venice")
	p.typeIn(p.find(0, "textbox", "Message"), "a private answer")
	p.key("\r")
	p.message("a private answer")
	got := lastMessage(t, ts, "othello@zulip.com")
	if got["content"] != "a private answer" || got["type"] != "private" {
		t.Errorf("othello's last message: %v %v", got["type"], got["content"])
	}
}

// Bad input: HTML in names, topics and messages shows as text, a
// 100,000-character message shows, and nothing runs.
func TestHostileText(t *testing.T) {
	ts := server(t)
	evil := `<img src=x onerror="window.pwned=1">`
	// Zulip's API refuses such names; a fixture or the Go API may not.
	if _, err := ts.Realm.AddUser(realm.NewUser{Email: "evil@zulip.com", FullName: "Iago " + evil}); err != nil {
		t.Fatal(err)
	}
	api(t, ts, "iago@zulip.com", "POST", "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name": "chan <script>window.pwned=2</script>"}]`}, "principals": {`["hamlet@zulip.com", "evil@zulip.com"]`}})
	send(t, ts, "evil@zulip.com", "chan <script>window.pwned=2</script>", "topic "+evil, "<script>window.pwned=3</script> and "+evil+" and `code`")
	long := strings.Repeat("long ", 20000)
	send(t, ts, "iago@zulip.com", "Denmark", "long", long)

	p := newPage(t)
	p.open(ts.URL + "/")
	p.find(0, "button", "Iago "+evil)
	p.click(p.find(0, "button", "King Hamlet"))
	p.click(p.channelLink("chan <script>window.pwned=2</script> 2")) // the message and Notification Bot's notice opening the channel
	p.find(p.find(0, "navigation", "Topics"), "link", "topic "+evil+" 1")
	p.find(0, "heading", "chan <script>window.pwned=2</script>")
	art := p.message("window.pwned=3")
	if txt := p.text(art); !strings.Contains(txt, "Iago "+evil) {
		t.Errorf("sender shown as %q", txt)
	}
	var bad bool
	p.eval(`!!window.pwned || !!document.querySelector("main img[onerror], main script")`, &bad)
	if bad {
		t.Error("server text ran or became markup")
	}
	p.click(p.channelLink("Denmark"))
	p.message("long long")
	p.axe("hostile text")

	// A 100,000-character message typed in the page: sent, shown as the
	// server keeps it.
	p.typeIn(p.find(0, "textbox", "Topic"), "typed long")
	p.typeIn(p.find(0, "textbox", "Message"), "typed "+strings.Repeat("x", 99994))
	p.key("\r")
	p.message("typed xxxx")
	var errText string
	p.eval(`document.getElementById("compose-error").textContent`, &errText)
	if errText != "" {
		t.Errorf("compose error: %q", errText)
	}
}

// The 10,000-message channel opens with its newest page only.
func TestLargeChannel(t *testing.T) {
	ts := server(t)
	hamlet, _ := ts.Realm.UserIDByEmail("hamlet@zulip.com")
	a := ts.Realm.As(hamlet)
	yes := true
	for i := range 10000 {
		topic := fmt.Sprintf("t%d", i%50)
		if _, err := a.SendMessage(t.Context(), realm.SendRequest{Type: "stream", To: message.To{ChannelName: "Denmark"}, Topic: &topic, Content: fmt.Sprintf("bulk %d", i), ReadBySender: &yes}); err != nil {
			t.Fatal(err)
		}
	}
	// The baseline: a channel of one page of messages.
	for i := range 50 {
		topic := "small"
		if _, err := a.SendMessage(t.Context(), realm.SendRequest{Type: "stream", To: message.To{ChannelName: "Verona"}, Topic: &topic, Content: fmt.Sprintf("small %d", i), ReadBySender: &yes}); err != nil {
			t.Fatal(err)
		}
	}
	p := login(t, ts, "King Hamlet")
	// Each open is timed in the page, from the click to the frame after
	// the messages are drawn; a small channel (Verona) is the baseline.
	var small, large []float64
	for range 5 {
		for _, c := range []struct {
			name string
			into *[]float64
		}{{"Verona", &small}, {"Denmark", &large}} {
			p.eval(`window.minizulipTimings.lastOpen = 0`, nil)
			p.click(p.channelLink(c.name))
			p.waitJS("the open timing", `window.minizulipTimings.lastOpen > 0`)
			var ms float64
			p.eval(`window.minizulipTimings.lastOpen`, &ms)
			*c.into = append(*c.into, ms)
		}
	}
	p.message("bulk 9999")
	var shown int
	p.eval(`document.querySelectorAll("article").length`, &shown)
	t.Logf("opening a channel of 10,000 messages: median %.1f ms of %.0f (%d messages drawn); a channel of 50 messages: median %.1f ms of %.0f",
		median(large), large, shown, median(small), small)
	if shown > 100 {
		t.Errorf("drew %d messages, want only the newest page", shown)
	}
	// Scrolling up loads older ones.
	p.eval(`document.getElementById("messages").scrollTop = 0`, nil)
	p.waitJS("older messages", `document.querySelectorAll("article").length > `+fmt.Sprint(shown))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
