package upload

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ErrBadPathID refuses a path_id that is not one this package makes.
var ErrBadPathID = errors.New("upload: malformed path_id")

// NewPathID makes a fresh path_id in Zulip's local-storage shape:
// <realm id>/<random 0..ff in hex>/<24 URL-safe random characters>/<safe name>.
func NewPathID(realmID int, name string) string {
	var b [19]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("upload: no randomness: " + err.Error())
	}
	token := base64.RawURLEncoding.EncodeToString(b[1:]) // 18 bytes: 24 characters
	return strconv.Itoa(realmID) + "/" + strconv.FormatInt(int64(b[0]), 16) + "/" + token + "/" + SanitizeName(name)
}

// ValidPathID reports whether p is a path_id as NewPathID makes them: a
// decimal realm ID and three more non-empty segments, none of them "." or
// "..", of characters a sanitized name may hold. Everything that leaves a
// request path for a store goes through it, so no path can escape.
func ValidPathID(p string) bool {
	parts := strings.Split(p, "/")
	if len(parts) != 4 || !allDigits(parts[0]) {
		return false
	}
	for _, seg := range parts[1:] {
		if seg == "" || seg == "." || seg == ".." || len(seg) > 255 {
			return false
		}
		for _, c := range seg {
			if !nameRune(c) {
				return false
			}
		}
	}
	return true
}

// RealmIDOf is the realm ID a path_id starts with.
func RealmIDOf(pathID string) string {
	id, _, _ := strings.Cut(pathID, "/")
	return id
}

// SanitizeName turns a display name into the name part of a path_id, as
// Zulip's sanitize_name: NFKC, then only word characters, spaces, '.' and
// '-' kept, trimmed, runs of spaces and '-' made one '-'; an empty, "." or
// ".." result is "uploaded-file". Case is kept.
func SanitizeName(name string) string {
	name = norm.NFKC.String(name)
	var kept strings.Builder
	for _, c := range name {
		if nameRune(c) || unicode.IsSpace(c) {
			kept.WriteRune(c)
		}
	}
	trimmed := strings.TrimSpace(kept.String())
	var out strings.Builder
	dash := false
	for _, c := range trimmed {
		if c == '-' || unicode.IsSpace(c) {
			dash = true
			continue
		}
		if dash {
			out.WriteByte('-')
			dash = false
		}
		out.WriteRune(c)
	}
	if dash {
		out.WriteByte('-')
	}
	switch s := out.String(); s {
	case "", ".", "..":
		return "uploaded-file"
	default:
		return s
	}
}

// nameRune reports whether c may stay in a sanitized name: a word
// character (letter, digit, mark, underscore), '.' or '-'.
func nameRune(c rune) bool {
	return c == '_' || c == '.' || c == '-' || unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.IsMark(c)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// URL is the file's address relative to the server root.
func URL(pathID string) string { return "/user_uploads/" + pathID }

// LinkedPathIDs lists the path_ids that Markdown content links, as
// /user_uploads/<path_id> (relative, or after any origin), in order and
// without repeats. Only well-formed path_ids are listed.
func LinkedPathIDs(content string) []string {
	const marker = "/user_uploads/"
	var out []string
	for rest := content; ; {
		i := strings.Index(rest, marker)
		if i < 0 {
			return out
		}
		rest = rest[i+len(marker):]
		end := strings.IndexFunc(rest, func(c rune) bool {
			return unicode.IsSpace(c) || strings.ContainsRune(")]>\"'?#<", c)
		})
		if end < 0 {
			end = len(rest)
		}
		p := rest[:end]
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
		if ValidPathID(p) && !contains(out, p) {
			out = append(out, p)
		}
		rest = rest[end:]
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
