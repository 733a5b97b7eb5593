package message

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

func TestNormalizeContent(t *testing.T) {
	for in, want := range map[string]string{
		"\n\nhello  \n\t": "hello",
		"  indented":      "  indented", // leading spaces are kept
		"a\u3000":         "a",          // ideographic space is trailing whitespace
	} {
		if got, err := NormalizeContent(in, MaxLength); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]error{"": ErrEmpty, " \n\t ": ErrEmpty, "a\x00b": ErrNullByte} {
		if _, err := NormalizeContent(in, MaxLength); !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", in, err, want)
		}
	}
}

func TestTruncateKeepsTheLimitExactly(t *testing.T) {
	long := strings.Repeat("é", 50)
	got := Truncate(long, 40)
	if utf8.RuneCountInString(got) != 40 || !strings.HasSuffix(got, TruncatedSuffix) {
		t.Fatalf("truncated to %d code points: %q", utf8.RuneCountInString(got), got)
	}
	if Truncate("short", 40) != "short" {
		t.Fatal("short content changed")
	}
}

func TestClientNames(t *testing.T) {
	if got := NormalizeClientName("  " + strings.Repeat("x", 40)); got != strings.Repeat("x", 30) {
		t.Fatalf("client name %q", got)
	}
	for name, human := range map[string]bool{
		"website": true, "ZulipMobile": true, "ZulipTerminal": true, "Zulip Desktop App": true,
		"ZulipPython": false, "Internal": false, "curl": false,
	} {
		if IsHumanClient(name) != human {
			t.Errorf("IsHumanClient(%q) = %v", name, !human)
		}
	}
}

func TestFactsAnswerHasOperands(t *testing.T) {
	f := Facts{HasLink: true, HasAttachment: true}
	got := map[string]bool{}
	for _, op := range []string{"link", "image", "attachment", "reaction", ""} {
		got[op] = f.Has(op)
	}
	want := map[string]bool{"link": true, "image": false, "attachment": true, "reaction": false, "": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Has (-want +got):\n%s", diff)
	}
}

func TestFlagNames(t *testing.T) {
	if diff := cmp.Diff([]string{"read", "mentioned"}, (Read | Mentioned).Names()); diff != "" {
		t.Fatal(diff)
	}
	if names := Flags(0).Names(); names == nil || len(names) != 0 {
		t.Fatalf("no flags: %#v", names)
	}
}

func TestParseNarrow(t *testing.T) {
	got, err := ParseNarrow(`[{"operator":"stream","operand":"Denmark"},["subject","castle"],{"operator":"pm-with","operand":[3,4],"negated":true}]`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Term{
		{Operator: "channel", Operand: "Denmark"},
		{Operator: "topic", Operand: "castle"},
		{Operator: "dm", Operand: "3,4", OperandIDs: []int{3, 4}, OperandIsList: true, Negated: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("terms (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{}`, `[1]`, `[["a"]]`, `[{"operator":"x"}]`, `not json`} {
		if _, err := ParseNarrow(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestParseTo(t *testing.T) {
	for raw, want := range map[string]To{
		"Denmark":               {ChannelName: "Denmark", Emails: []string{"Denmark"}},
		"7":                     {ChannelID: 7, UserIDs: []int{7}},
		"[7, 8]":                {UserIDs: []int{7, 8}, IsList: true},
		`["a@x.com","b@x.com"]`: {Emails: []string{"a@x.com", "b@x.com"}, IsList: true},
		`"Verona"`:              {ChannelName: "Verona", Emails: []string{"Verona"}},
		"a@x.com, b@x.com":      {ChannelName: "a@x.com, b@x.com", Emails: []string{"a@x.com", "b@x.com"}},
	} {
		got, ok := ParseTo(raw)
		if diff := cmp.Diff(want, got); !ok || diff != "" {
			t.Errorf("%q (ok %v) (-want +got):\n%s", raw, ok, diff)
		}
	}
	for _, bad := range []string{"", "  ", "[1, \"x\"]"} {
		if _, ok := ParseTo(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestMessageStaysSmall keeps the stored record within its size class: a
// realm holds one per message.
func TestMessageStaysSmall(t *testing.T) {
	if size := unsafe.Sizeof(Message{}); size > 144 {
		t.Fatalf("Message is %d bytes, want at most 144", size)
	}
}

func TestUpdateChangesSharesResults(t *testing.T) {
	plain1, plain2 := &Message{ID: 1}, &Message{ID: 2}
	reacted := &Message{ID: 3}
	reacted.SetChanges(Changes{Reactions: []Reaction{{EmojiName: "smile", UserID: 9}}})
	calls := 0
	UpdateChanges([]*Message{plain1, reacted, plain2}, func(c *Changes) {
		calls++
		c.LastMovedTS = 100
		c.Edits = c.Edits.Push(Edit{UserID: 7, Timestamp: 100})
	})
	if calls != 2 {
		t.Fatalf("update ran %d times, want once per distinct prior changes (2)", calls)
	}
	if plain1.changes != plain2.changes || plain1.changes == reacted.changes {
		t.Fatal("messages without changes should share the result; the reacted one keeps its own")
	}
	for _, m := range []*Message{plain1, plain2, reacted} {
		if c := m.Changes(); c.LastMovedTS != 100 || c.Edits.Len() != 1 {
			t.Fatalf("message %d: %+v", m.ID, c)
		}
	}
	if r := reacted.Changes().Reactions; len(r) != 1 || r[0].EmojiName != "smile" {
		t.Fatalf("reactions lost: %+v", r)
	}
	// Setting changes on one sharer leaves the other alone.
	c := plain1.Changes()
	c.Reactions = append(c.Reactions, Reaction{EmojiName: "tada", UserID: 8})
	plain1.SetChanges(c)
	if len(plain2.Changes().Reactions) != 0 {
		t.Fatal("a reaction on one message showed on another")
	}
	// Clearing everything drops the record.
	plain1.SetChanges(Changes{})
	if plain1.changes != nil || plain1.Changes().Edits != nil {
		t.Fatal("empty changes are stored as none")
	}
}
