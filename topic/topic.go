// Package topic holds the rules for topic names: normalization and
// truncation as Zulip applies them, printable characters, case-insensitive
// matching, the empty topic's aliases and display name, and the
// resolved-topic marker. The realm supplies its configured limits through
// Rules.
package topic

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultMaxLength is Zulip's default max_topic_length, in code points.
const DefaultMaxLength = 60

// NoTopic is the legacy spelling clients use for the empty topic.
const NoTopic = "(no topic)"

// ResolvedPrefix marks a resolved topic: U+2714 HEAVY CHECK MARK and a space.
const ResolvedPrefix = "\u2714 "

// Rules are a realm's topic settings: the configured max_topic_length and
// realm_empty_topic_display_name, and which aliases of the empty topic
// the realm's API level knows.
type Rules struct {
	MaxLength        int
	EmptyDisplayName string
	// NoEmptyTopic: the empty topic does not exist (Zulip before 10.0):
	// the display name and "(no topic)" are ordinary names.
	NoEmptyTopic bool
	// LiteralNoTopic: "(no topic)" is an ordinary name, not an alias of
	// the empty topic (Zulip 10.0's first development levels).
	LiteralNoTopic bool
}

// InvalidCharacterError refuses a topic with an unprintable character,
// with Zulip's message and 1-based position.
type InvalidCharacterError struct{ Position int }

func (e *InvalidCharacterError) Error() string {
	return fmt.Sprintf("Invalid character in topic, at position %d!", e.Position)
}

// Stored turns a client's topic into the name the realm stores: the
// aliases of the empty topic ("(no topic)", the realm's display name) are
// "", other names are normalized (see Normalize) and refused with an
// unprintable character.
func (rules Rules) Stored(raw string) (string, error) {
	if rules.IsEmptyAlias(strings.TrimSpace(raw)) {
		return "", nil
	}
	name := Normalize(raw, rules.MaxLength)
	if pos := FirstUnprintable(name); pos > 0 {
		return "", &InvalidCharacterError{Position: pos}
	}
	return name, nil
}

// IsEmptyAlias reports whether name stands for the empty topic: "(no topic)"
// or the realm's display name for the empty topic.
func (rules Rules) IsEmptyAlias(name string) bool {
	if rules.NoEmptyTopic {
		return false
	}
	return (name == NoTopic && !rules.LiteralNoTopic) || (rules.EmptyDisplayName != "" && name == rules.EmptyDisplayName)
}

// Display is the name a client sees for a stored topic: the empty topic
// shows as the realm's display name to clients without the
// empty_topic_name capability, where the empty topic exists.
func (rules Rules) Display(name string, clientSupportsEmpty bool) string {
	if name == "" && !clientSupportsEmpty && !rules.NoEmptyTopic {
		return rules.EmptyDisplayName
	}
	return name
}

// Operand is the stored topic a narrow's topic operand names: the
// display name of the empty topic means the empty topic.
func (rules Rules) Operand(operand string) string {
	if operand == rules.EmptyDisplayName && !rules.NoEmptyTopic {
		return ""
	}
	return operand
}

// Normalize strips surrounding whitespace and truncates a name longer than
// maxLength code points to maxLength-3 code points plus "...", as Zulip
// does on send and edit. A maxLength below 4 means DefaultMaxLength.
func Normalize(name string, maxLength int) string {
	if maxLength < 4 {
		maxLength = DefaultMaxLength
	}
	name = strings.TrimSpace(name)
	if len(name) <= maxLength || utf8.RuneCountInString(name) <= maxLength {
		return name
	}
	runes := []rune(name)
	return string(runes[:maxLength-3]) + "..."
}

// FirstUnprintable returns the 1-based position (in code points) of the
// first character Zulip refuses in names shown as text — control
// characters (Cc), surrogates (Cs) and Unicode's 66 non-characters — or 0
// when there is none. Zulip applies the same rule to channel names.
func FirstUnprintable(s string) int {
	pos := 0
	for _, c := range s {
		pos++
		if unicode.Is(unicode.Cc, c) || unicode.Is(unicode.Cs, c) || isNonCharacter(c) {
			return pos
		}
	}
	return 0
}

// isNonCharacter reports Unicode's 66 non-characters: U+FDD0–U+FDEF and
// the last two code points of every plane.
func isNonCharacter(c rune) bool {
	return (c >= 0xFDD0 && c <= 0xFDEF) || c&0xFFFE == 0xFFFE
}

// Key folds a topic name for case-insensitive matching, as Zulip compares
// topics with SQL's UPPER() = UPPER().
func Key(name string) string {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.Map(unicode.ToLower, name)
		}
	}
	return name
}

// Equal reports whether two topic names match case-insensitively.
func Equal(a, b string) bool { return Key(a) == Key(b) }

// IsResolved reports whether the name carries the resolved marker.
func IsResolved(name string) bool { return strings.HasPrefix(name, ResolvedPrefix) }

// Unresolved returns the name without the resolved marker.
func Unresolved(name string) string { return strings.TrimPrefix(name, ResolvedPrefix) }

// Resolved returns the name with the resolved marker.
func Resolved(name string) string {
	if IsResolved(name) {
		return name
	}
	return ResolvedPrefix + name
}

// Resolution is what a rename does to a topic's resolved state.
type Resolution uint8

// The resolutions of a rename.
const (
	// NotResolution is a rename that neither resolves nor unresolves.
	NotResolution Resolution = iota
	// Resolves adds the marker and changes nothing else.
	Resolves
	// Unresolves removes the marker and changes nothing else.
	Unresolves
)

// ResolutionOf classifies a rename from oldName to newName as current
// Zulip servers do: a resolve only when the new name is exactly the
// marker plus the old name, an unresolve only when the old name is
// exactly the marker plus the new one.
func ResolutionOf(oldName, newName string) Resolution {
	switch {
	case newName == ResolvedPrefix+oldName:
		return Resolves
	case oldName == ResolvedPrefix+newName:
		return Unresolves
	}
	return NotResolution
}

// ResolvesEmpty reports whether renaming the empty topic to newName (as
// stored) would mark it resolved: the marker alone, or the marker before
// the empty topic's display name. Zulip refuses that.
func (rules Rules) ResolvesEmpty(oldName, newName string) bool {
	if oldName != "" {
		return false
	}
	return newName == strings.TrimSpace(ResolvedPrefix) || newName == ResolvedPrefix ||
		(rules.EmptyDisplayName != "" && newName == ResolvedPrefix+rules.EmptyDisplayName) ||
		newName == ResolvedPrefix+NoTopic
}
