package message

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file reproduces the few Python text rules Zulip's widget parsing
// leans on, so that a widget's description reads as Zulip writes it:
// str.isspace, str.strip, str.splitlines, and json.dumps with its
// default ", " and ": " separators and ASCII-only output.

// pyIsSpace reports whether Python's str.isspace holds for c.
func pyIsSpace(c rune) bool {
	return unicode.IsSpace(c) || (c >= 0x1c && c <= 0x1f)
}

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pySplitLines is Python's str.splitlines(): lines end at \n, \r\n, \r,
// \v, \f, \x1c–\x1e, \x85, U+2028 and U+2029, and the ends are dropped.
func pySplitLines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch c {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			lines = append(lines, s[start:i])
			i += size
			if c == '\r' && i < len(s) && s[i] == '\n' {
				i++
			}
			start = i
			continue
		}
		i += size
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

// pyValue is a JSON value as Python's json.dumps writes it.
type pyValue interface{ appendJSON(b []byte) []byte }

// pyString is a JSON string, non-ASCII characters written as \u escapes.
type pyString string

// pyList is a JSON list.
type pyList []pyValue

// pyDict is a JSON object, its keys in order.
type pyDict []struct {
	key   string
	value pyValue
}

func (d pyDict) json() string { return string(d.appendJSON(nil)) }

func (s pyString) appendJSON(b []byte) []byte {
	b = append(b, '"')
	for _, c := range string(s) {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', byte(c))
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c < 0x20 || c > 0x7f:
			for _, u := range utf16.Encode([]rune{c}) {
				b = append(b, `\u`...)
				b = append(b, leftPad4(strconv.FormatUint(uint64(u), 16))...)
			}
		default:
			b = append(b, byte(c))
		}
	}
	return append(b, '"')
}

func leftPad4(hex string) string { return strings.Repeat("0", 4-len(hex)) + hex }

func (l pyList) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = v.appendJSON(b)
	}
	return append(b, ']')
}

func (d pyDict) appendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, kv := range d {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = pyString(kv.key).appendJSON(b)
		b = append(b, ": "...)
		b = kv.value.appendJSON(b)
	}
	return append(b, '}')
}
