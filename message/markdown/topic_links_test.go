package markdown

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/linkifier"
)

// devLinkifiers are the dev realm's three linkifiers, in its order.
func devLinkifiers(t *testing.T) []*linkifier.Linkifier {
	t.Helper()
	var out []*linkifier.Linkifier
	for i, spec := range []linkifier.Spec{
		{Pattern: `#D(?P<id>[0-9]{2,8})`, URLTemplate: "https://github.com/zulip/zulip-desktop/pull/{id}"},
		{Pattern: `zulip-mobile#(?P<id>[0-9]{2,8})`, URLTemplate: "https://github.com/zulip/zulip-mobile/pull/{id}"},
		{Pattern: `zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})`, URLTemplate: "https://github.com/zulip/{repo}/pull/{id}"},
	} {
		l, err := linkifier.New(i+1, spec)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

func TestTopicLinks(t *testing.T) {
	ls := devLinkifiers(t)
	for _, tc := range []struct {
		topic string
		want  []TopicLink
	}{
		{"lunch", []TopicLink{}},
		{"", []TopicLink{}},
		// The first linkifier that matches a span wins it: zulip-mobile#
		// is also a zulip-{repo}# match, which is left out.
		{"fix zulip-mobile#1234 now", []TopicLink{{"zulip-mobile#1234", "https://github.com/zulip/zulip-mobile/pull/1234"}}},
		{"zulip-terminal#77 and #D123", []TopicLink{
			{"zulip-terminal#77", "https://github.com/zulip/terminal/pull/77"},
			{"#D123", "https://github.com/zulip/zulip-desktop/pull/123"},
		}},
		// Bare URLs come after the linkifiers, in place order; a URL
		// without a scheme gets https://.
		{"see https://example.com/a?b=1 or zulip.com/help, ok", []TopicLink{
			{"https://example.com/a?b=1", "https://example.com/a?b=1"},
			{"zulip.com/help", "https://zulip.com/help"},
		}},
		// A URL must start a run between splitters, and "(" is none.
		{"(chat.zulip.org)", []TopicLink{}},
		{"chat.zulip.org) is up", []TopicLink{{"chat.zulip.org", "https://chat.zulip.org"}}},
		{"report.py is not a domain", []TopicLink{}},
	} {
		got := TopicLinks(ls, tc.topic)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("TopicLinks(%q) (-want +got):\n%s", tc.topic, diff)
		}
	}
}
