package user

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of a full name, in characters.
const (
	MaxFullNameLength = 100
	MinFullNameLength = 2
)

// nameInvalidChars may not appear in a full name.
const nameInvalidChars = "*`\\>\"@"

// NameError says why a full name was refused, with Zulip's message.
type NameError string

func (e NameError) Error() string { return string(e) }

// Full-name errors.
const (
	ErrNameTooLong      NameError = "Name too long!"
	ErrNameTooShort     NameError = "Name too short!"
	ErrNameInvalidChars NameError = "Invalid characters in name!"
	ErrNameFormat       NameError = "Invalid format!"
)

// CheckFullName applies Zulip's full-name rules to a raw name and returns
// it trimmed (of what Python's str.strip removes): 2 to 100 characters,
// printable, none of *`\>"@, and no "|<digits>" ending that would read as
// a mention's user ID.
func CheckFullName(raw string) (string, error) {
	name := strings.TrimFunc(raw, isPySpace)
	n := utf8.RuneCountInString(name)
	if n > MaxFullNameLength {
		return "", ErrNameTooLong
	}
	if n < MinFullNameLength {
		return "", ErrNameTooShort
	}
	for _, c := range name {
		if unicode.In(c, unicode.C) || !unicode.In(c, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z) ||
			strings.ContainsRune(nameInvalidChars, c) {
			return "", ErrNameInvalidChars
		}
	}
	tail := strings.TrimSuffix(raw, "\n")
	digits := strings.TrimRightFunc(tail, unicode.IsDigit)
	if len(digits) < len(tail) && strings.HasSuffix(digits, "|") {
		return "", ErrNameFormat
	}
	return name, nil
}

// isPySpace is Python's str.isspace for one character, which str.strip uses.
func isPySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// IsBlankName reports whether a raw name is empty once stripped, which
// an administrator's rename ignores (Zulip's rule).
func IsBlankName(raw string) bool { return strings.TrimFunc(raw, isPySpace) == "" }
