package httpapi

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// alertWordsCall sends an alert words request and returns the list the
// answer carries.
func (e *msgEnv) alertWordsCall(email, method, words string) []any {
	e.t.Helper()
	var form url.Values
	if words != "" {
		form = url.Values{"alert_words": {words}}
	}
	status, body := e.do(email, method, "/users/me/alert_words", form)
	e.wantSuccess(status, body)
	return body["alert_words"].([]any)
}

// Alert words are added trimmed and without case-insensitive repeats,
// removed whatever their case, listed in register and GET, and every
// change sends the whole list to the user's own clients.
func TestHTTPAlertWords(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["alert_words"]`}})
	oq, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["alert_words"]`}})
	got := e.alertWordsCall("hamlet@zulip.com", "POST", `["  Release ", "", "deploy", "RELEASE", "on call"]`)
	want := []any{"Release", "deploy", "on call"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("after adding (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, e.alertWordsCall("hamlet@zulip.com", "GET", "")); diff != "" {
		t.Fatalf("GET (-want +got):\n%s", diff)
	}
	got = e.alertWordsCall("hamlet@zulip.com", "DELETE", `["release", "unknown"]`)
	if diff := cmp.Diff([]any{"deploy", "on call"}, got); diff != "" {
		t.Fatalf("after removing (-want +got):\n%s", diff)
	}
	_, reg := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["alert_words"]`}})
	if diff := cmp.Diff([]any{"deploy", "on call"}, reg["alert_words"]); diff != "" {
		t.Fatalf("register (-want +got):\n%s", diff)
	}
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 2 || !cmp.Equal(evs[0].(map[string]any)["alert_words"], want) || !cmp.Equal(evs[1].(map[string]any)["alert_words"], []any{"deploy", "on call"}) {
		t.Fatalf("alert_words events %v", evs)
	}
	if evs := e.events("othello@zulip.com", oq, -1, false); len(evs) != 0 {
		t.Fatalf("othello got hamlet's alert words: %v", evs)
	}
}

// A message containing one of a recipient's alert words (as Zulip matches
// them) gets has_alert_word in that recipient's copy only, is found by
// is:alerted, and an edit recomputes the flag.
func TestHTTPAlertWordFlag(t *testing.T) {
	e := newMsgEnv(t)
	e.alertWordsCall("hamlet@zulip.com", "POST", `["deploy"]`)
	hit := e.sendTo("othello@zulip.com", "Denmark", "t", "We DEPLOY today.")
	miss := e.sendTo("othello@zulip.com", "Denmark", "t", "redeployment is not a match")
	inCode := e.sendTo("othello@zulip.com", "Denmark", "t", "```\ndeploy\n```")
	has := func(email string, id int64) bool { return slices.Contains(e.flagsOf(email, id), any("has_alert_word")) }
	if !has("hamlet@zulip.com", hit) || has("hamlet@zulip.com", miss) || has("hamlet@zulip.com", inCode) || has("iago@zulip.com", hit) {
		t.Fatalf("flags: hit %v, miss %v, code %v, iago's hit %v", e.flagsOf("hamlet@zulip.com", hit),
			e.flagsOf("hamlet@zulip.com", miss), e.flagsOf("hamlet@zulip.com", inCode), e.flagsOf("iago@zulip.com", hit))
	}
	alerted := e.fetchedFlags("hamlet@zulip.com", `[{"operator": "is", "operand": "alerted"}]`)
	if len(alerted) != 1 || alerted[strconv.FormatInt(hit, 10)] == nil {
		t.Fatalf("is:alerted gives %v", alerted)
	}
	id := strconv.FormatInt(miss, 10)
	status, body := e.do("othello@zulip.com", "PATCH", "/messages/"+id, url.Values{"content": {"time to deploy"}})
	e.wantSuccess(status, body)
	if !has("hamlet@zulip.com", miss) {
		t.Fatalf("an edit adding the word: %v", e.flagsOf("hamlet@zulip.com", miss))
	}
	status, body = e.do("othello@zulip.com", "PATCH", "/messages/"+strconv.FormatInt(hit, 10), url.Values{"content": {"nothing here"}})
	e.wantSuccess(status, body)
	if has("hamlet@zulip.com", hit) {
		t.Fatalf("an edit removing the word: %v", e.flagsOf("hamlet@zulip.com", hit))
	}
}

// Bad alert words requests are refused and change nothing.
func TestHTTPAlertWordsRefused(t *testing.T) {
	e := newMsgEnv(t)
	e.alertWordsCall("hamlet@zulip.com", "POST", `["keep"]`)
	for _, c := range []struct{ method, words, code, msg string }{
		{"POST", "", "REQUEST_VARIABLE_MISSING", "Missing 'alert_words' argument"},
		{"DELETE", "", "REQUEST_VARIABLE_MISSING", "Missing 'alert_words' argument"},
		{"POST", `"word"`, "BAD_REQUEST", "alert_words is not a list"},
		{"POST", `["ok", 3]`, "BAD_REQUEST", "alert_words[1] is not a string"},
		{"POST", `["ok", "` + strings.Repeat("x", 101) + `"]`, "BAD_REQUEST", "alert_words[1] is too long (limit: 100 characters)"},
		{"POST", `[`, "BAD_REQUEST", ""},
	} {
		var form url.Values
		if c.words != "" {
			form = url.Values{"alert_words": {c.words}}
		}
		status, body := e.do("hamlet@zulip.com", c.method, "/users/me/alert_words", form)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	if got := e.alertWordsCall("hamlet@zulip.com", "GET", ""); !cmp.Equal(got, []any{"keep"}) {
		t.Fatalf("refused requests changed the words: %v", got)
	}
}
