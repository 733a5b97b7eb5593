package realm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Zulip quotes a failed answer in its notice with Python's repr and turns
// a reply's non-string content into text with str(); these do the same
// for the values an answer can hold.

// pyBytesRepr is Python's repr of a bytes value.
func pyBytesRepr(b []byte) string {
	quote := byte('\'')
	if bytesHas(b, '\'') && !bytesHas(b, '"') {
		quote = '"'
	}
	var s strings.Builder
	s.WriteString("b" + string(quote))
	for _, c := range b {
		switch {
		case c == quote || c == '\\':
			s.WriteString("\\" + string(c))
		case c == '\n':
			s.WriteString(`\n`)
		case c == '\r':
			s.WriteString(`\r`)
		case c == '\t':
			s.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&s, `\x%02x`, c)
		default:
			s.WriteByte(c)
		}
	}
	s.WriteByte(quote)
	return s.String()
}

func bytesHas(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// pyStrRepr is Python's repr of a str value.
func pyStrRepr(text string) string {
	quote := '\''
	if strings.ContainsRune(text, '\'') && !strings.ContainsRune(text, '"') {
		quote = '"'
	}
	var s strings.Builder
	s.WriteRune(quote)
	for _, c := range text {
		switch {
		case c == quote || c == '\\':
			s.WriteString("\\" + string(c))
		case c == '\n':
			s.WriteString(`\n`)
		case c == '\r':
			s.WriteString(`\r`)
		case c == '\t':
			s.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&s, `\x%02x`, c)
		case !unicode.IsPrint(c) && c > 0x7f:
			if c <= 0xff {
				fmt.Fprintf(&s, `\x%02x`, c)
			} else if c <= 0xffff {
				fmt.Fprintf(&s, `\u%04x`, c)
			} else {
				fmt.Fprintf(&s, `\U%08x`, c)
			}
		default:
			s.WriteRune(c)
		}
	}
	s.WriteRune(quote)
	return s.String()
}

// pyStr is Python's str() of a decoded JSON value.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		if x == float64(int64(x)) {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	default:
		data, _ := json.Marshal(x)
		return string(data)
	}
}
