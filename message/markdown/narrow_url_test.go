package markdown

import "testing"

// Narrow links encode names as Zulip's encode_hash_component: spaces in
// channel names become dashes, "*" stays, and every other byte but
// letters, digits and -_~ is percent-encoded with a dot for the percent
// sign (a dot itself is .2E).
func TestTopicNarrowEncoding(t *testing.T) {
	for _, c := range []struct {
		id           int
		channel, top string
		want         string
	}{
		{1, "Verona", "plaza", "#narrow/channel/1-Verona/topic/plaza"},
		{2, "core team", "a b", "#narrow/channel/2-core-team/topic/a.20b"},
		{3, "x*y", "c*d", "#narrow/channel/3-x*y/topic/c*d"},
		{4, "R&D", "v1.2 (draft)/ok", "#narrow/channel/4-R.26D/topic/v1.2E2.20.28draft.29.2Fok"},
		{5, "ünï", "", "#narrow/channel/5-.C3.BCn.C3.AF/topic/"},
	} {
		if got := TopicNarrow(c.id, c.channel, c.top); got != c.want {
			t.Errorf("TopicNarrow(%d, %q, %q) = %q, want %q", c.id, c.channel, c.top, got, c.want)
		}
	}
}
