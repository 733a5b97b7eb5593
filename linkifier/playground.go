package linkifier

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Code playgrounds (a realm's "view in playground" links for code blocks)
// share linkifiers' RFC 6570 URL templates; these are their rules.

// MaxPygmentsLanguageLength is Zulip's limit on a playground's language.
const MaxPygmentsLanguageLength = 40

// pygmentsLanguageChars are the characters a playground's language may
// hold (Zulip's rule; any language, known to Pygments or not).
var pygmentsLanguageChars = regexp.MustCompile(`^[ a-zA-Z0-9_+\-./#]*$`)

// CheckPlayground applies Zulip's rules to a playground's fields, already
// trimmed, in the order Zulip checks them: the language's length and
// characters, no blank field, a valid URL template whose only variable is
// "code".
func CheckPlayground(name, pygmentsLanguage, urlTemplate string) error {
	if utf8.RuneCountInString(pygmentsLanguage) > MaxPygmentsLanguageLength {
		return ValidationError(fmt.Sprintf("pygments_language is too long (limit: %d characters)", MaxPygmentsLanguageLength))
	}
	if !pygmentsLanguageChars.MatchString(pygmentsLanguage) {
		return ValidationError("Invalid characters in pygments language")
	}
	if urlTemplate == "" || name == "" || pygmentsLanguage == "" {
		return ValidationError("This field cannot be blank.")
	}
	for _, f := range [][2]string{{"name", name}, {"url_template", urlTemplate}} {
		if strings.IndexByte(f[1], 0) >= 0 { // Zulip's database cannot store NUL
			return ValidationError(f[0] + " must not contain null bytes")
		}
	}
	tpl, err := ParseURLTemplate(urlTemplate)
	if err != nil {
		return err
	}
	vars := tpl.Variables()
	if !slices.Contains(vars, "code") {
		return ValidationError(`Missing the required variable "code" in the URL template`)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(vars)))) != 1 {
		return ValidationError(`"code" should be the only variable present in the URL template`)
	}
	return nil
}
