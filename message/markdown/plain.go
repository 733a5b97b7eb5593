package markdown

// plainParagraph reports whether content renders as one paragraph holding
// exactly its own text, whatever the realm: ASCII letters and digits,
// single spaces between words, commas, and '!', '?' or '.' only before a
// space or at the end. Such text gives no Markdown block (it starts with
// a letter, holds no newline), no inline syntax (no trigger character of
// a Zulip or CommonMark inline: no * _ ~ ` $ # @ < [ & : ; ( \ / and no
// '.' inside a word, so no bare domain), no emoticon, no Unicode emoji
// and nothing to escape in HTML. Linkifiers may still match it; callers
// check them.
func plainParagraph(content string) bool {
	if content == "" || !asciiLetter(content[0]) {
		return false
	}
	for i := 0; i < len(content); i++ {
		c := content[i]
		switch {
		case asciiLetter(c), c >= '0' && c <= '9', c == ',':
		case c == ' ':
			if i+1 == len(content) || content[i+1] == ' ' {
				return false
			}
		case c == '!' || c == '?' || c == '.':
			if i+1 < len(content) && content[i+1] != ' ' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func asciiLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// renderPlain renders content that plainParagraph accepts, if no linkifier
// of the realm may match it.
func renderPlain(content string, c Context) (Result, bool) {
	if !plainParagraph(content) {
		return Result{}, false
	}
	if c.Lookup != nil {
		src := []byte(content)
		for _, l := range c.Lookup.Linkifiers() {
			if l.MayMatch(src) {
				return Result{}, false
			}
		}
	}
	return Result{HTML: "<p>" + content + "</p>"}, true
}
