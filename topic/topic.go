// Package topic holds the rules for topic names: normalization and
// truncation as Zulip applies them, case-insensitive matching, the empty
// topic's display name, and the resolved-topic marker.
package topic

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLength is Zulip's max_topic_length, in Unicode code points.
const MaxLength = 60

// NoTopic is the legacy spelling clients use for the empty topic.
const NoTopic = "(no topic)"

// ResolvedPrefix marks a resolved topic: U+2714 HEAVY CHECK MARK and a space.
const ResolvedPrefix = "\u2714 "

// Normalize strips surrounding whitespace and truncates an over-long name
// to 57 code points plus "...", as Zulip does on send and edit.
func Normalize(name string) string {
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) <= MaxLength {
		return name
	}
	runes := []rune(name)
	return string(runes[:MaxLength-3]) + "..."
}

// IsEmptyAlias reports whether name stands for the empty topic: "(no topic)"
// or the realm's display name for the empty topic.
func IsEmptyAlias(name, emptyDisplayName string) bool {
	return name == NoTopic || (emptyDisplayName != "" && name == emptyDisplayName)
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

// ContainsForbidden reports whether the name contains a character Zulip
// refuses in topics (NUL and other C0/C1 controls except none allowed).
func ContainsForbidden(name string) bool {
	for _, r := range name {
		if r == 0 || (unicode.IsControl(r)) {
			return true
		}
	}
	return false
}
