package httpapi

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A fetch whose narrow searches gives every message match_content and
// match_subject with the matches highlighted, as Zulip does; other
// fetches carry neither field, and matches_narrow highlights the same way.
func TestHTTPSearchHighlightsMatches(t *testing.T) {
	e := newMsgEnv(t)
	id := e.sendTo("iago@zulip.com", "Denmark", "Lunch plans", "Who wants **lunch** & cake? [lunch](https://lunch.example)")
	fetch := func(narrow string) []any {
		t.Helper()
		status, body := e.do("iago@zulip.com", "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"5"}, "num_after": {"0"}, "narrow": {narrow}})
		return e.ok(status, body)["messages"].([]any)
	}
	msgs := fetch(`[{"operator":"channel","operand":"Denmark"},{"operator":"search","operand":"LUNCH"}]`)
	if len(msgs) != 1 {
		t.Fatalf("search found %d messages, want 1", len(msgs))
	}
	m := msgs[0].(map[string]any)
	want := map[string]any{
		"match_content": `<p>Who wants <strong><span class="highlight">lunch</span></strong> &amp; cake? ` +
			`<a href="https://lunch.example"><span class="highlight">lunch</span></a></p>`,
		"match_subject": `<span class="highlight">Lunch</span> plans`,
	}
	got := map[string]any{"match_content": m["match_content"], "match_subject": m["match_subject"]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("search fetch (-want +got):\n%s\ncontent: %v", diff, m["content"])
	}
	for _, narrow := range []string{`[{"operator":"channel","operand":"Denmark"}]`, `[{"operator":"search","operand":"lunch","negated":true}]`} {
		for _, v := range fetch(narrow) {
			v := v.(map[string]any)
			if _, ok := v["match_content"]; ok {
				t.Fatalf("narrow %s: message %v has match_content", narrow, v["id"])
			}
			if _, ok := v["match_subject"]; ok {
				t.Fatalf("narrow %s: message %v has match_subject", narrow, v["id"])
			}
		}
	}
	status, body := e.do("iago@zulip.com", "GET", "/messages/matches_narrow", url.Values{"msg_ids": {fmt.Sprintf("[%d]", id)},
		"narrow": {`[{"operator":"search","operand":"lunch"}]`}})
	if diff := cmp.Diff(map[string]any{fmt.Sprint(id): want}, e.ok(status, body)["messages"]); diff != "" {
		t.Fatalf("matches_narrow (-want +got):\n%s", diff)
	}
}
