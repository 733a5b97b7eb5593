package message

import (
	"strings"
	"unicode/utf8"
)

// MaxLength is Zulip's max_message_length, in Unicode code points.
const MaxLength = 10000

// TruncatedSuffix is appended to over-long content after cutting it.
const TruncatedSuffix = "\n[message truncated]"

// ContentError names why content was refused.
type ContentError string

func (e ContentError) Error() string { return string(e) }

// Content errors, with Zulip's messages.
const (
	ErrEmpty    ContentError = "Message must not be empty"
	ErrNullByte ContentError = "Message must not contain null bytes"
)

// NormalizeContent applies Zulip's send-time rules to message content:
// leading newlines and trailing whitespace are stripped, empty content is
// refused, and content longer than maxLength code points is cut so that the
// text plus TruncatedSuffix is exactly maxLength long.
func NormalizeContent(content string, maxLength int) (string, error) {
	if strings.IndexByte(content, 0) >= 0 {
		return "", ErrNullByte
	}
	content = strings.TrimLeft(content, "\n")
	content = strings.TrimRightFunc(content, isSpace)
	if strings.TrimSpace(content) == "" {
		return "", ErrEmpty
	}
	return Truncate(content, maxLength), nil
}

// Truncate cuts content longer than maxLength code points, adding
// TruncatedSuffix so that the result is exactly maxLength long.
func Truncate(content string, maxLength int) string {
	if len(content) <= maxLength || utf8.RuneCountInString(content) <= maxLength {
		return content
	}
	keep := maxLength - utf8.RuneCountInString(TruncatedSuffix)
	if keep < 0 {
		keep = 0
	}
	n := 0
	for i := range content {
		if n == keep {
			return content[:i] + TruncatedSuffix
		}
		n++
	}
	return content + TruncatedSuffix
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0x85, 0xA0:
		return true
	}
	return r > 0xff && strings.ContainsRune("\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000", r)
}
