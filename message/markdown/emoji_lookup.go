package markdown

import "strings"

// UnicodeEmojiCode is the code (dash-separated hex codepoints) that the
// renderer's emoji table gives a Unicode emoji name or alias.
func UnicodeEmojiCode(name string) (string, bool) {
	return emojiCode(name)
}

// IsUnicodeEmojiCode reports whether code names an emoji of the
// renderer's table (a variation selector fe0f in it is not significant).
func IsUnicodeEmojiCode(code string) bool {
	_, ok := emojiData().byCode[strings.ReplaceAll(code, "-fe0f", "")]
	return ok
}
