// Package emoji holds the rules of emoji as reactions and custom emoji
// use them: the reaction types and their code namespaces, the built-in
// Unicode emoji (the Markdown renderer's table, one table), the special
// built-in emoji, and the names custom emoji may take. It holds no lock
// and knows no realm.
package emoji

import (
	"regexp"
	"strings"

	"github.com/minizulip/minizulip/message/markdown"
)

// The reaction types: each is a namespace of emoji codes.
const (
	// Unicode codes are the dash-separated hex of the codepoints.
	Unicode = "unicode_emoji"
	// Realm codes are the ID of a custom emoji.
	Realm = "realm_emoji"
	// ServiceExtra codes are the name of a special built-in emoji. The
	// spec's name; LegacyServiceExtra is Zulip's older spelling.
	ServiceExtra       = "service_extra_emoji"
	LegacyServiceExtra = "zulip_extra_emoji"
)

// ExtraName is the name (and code) of the one special built-in emoji.
const ExtraName = "zulip"

// CanonicalType maps a reaction type as a client may send it to the one
// this package stores: the legacy spelling of the special type is read as
// ServiceExtra. Other values are returned unchanged.
func CanonicalType(t string) string {
	if t == LegacyServiceExtra {
		return ServiceExtra
	}
	return t
}

// CodeToNames maps each Unicode emoji's code, without the presentation
// selector fe0f, to its canonical name and then its aliases: Zulip's
// code_to_names, which clients fetch from server_emoji_data_url.
func CodeToNames() map[string][]string { return markdown.EmojiCodeToNames() }

// UnicodeCode is the code of a built-in Unicode emoji name or alias.
func UnicodeCode(name string) (string, bool) { return markdown.EmojiCode(name) }

// IsUnicodeCode reports whether code is the code of a built-in Unicode
// emoji, spelled as the table spells it.
func IsUnicodeCode(code string) bool {
	_, ok := markdown.EmojiName(code)
	return ok
}

// validChars are the characters a custom emoji name may hold: lowercase
// ASCII letters, digits, dashes and underscores.
var validChars = regexp.MustCompile(`^[0-9a-z\-_]+$`)

// NormalizeCustomName is a custom emoji name as Zulip reads it from a
// request: surrounding space trimmed, inner spaces as underscores.
func NormalizeCustomName(name string) string {
	return strings.ReplaceAll(strings.TrimSpace(name), " ", "_")
}

// CheckCustomName reports why name (already normalized by
// NormalizeCustomName) cannot name a custom emoji, with Zulip's message;
// "" when it can.
func CheckCustomName(name string) string {
	switch {
	case name == "":
		return "Emoji name is missing"
	case !validChars.MatchString(name):
		return "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."
	case name[len(name)-1] == '-' || name[len(name)-1] == '_':
		return "Emoji names must end with either a letter or digit."
	}
	return ""
}
