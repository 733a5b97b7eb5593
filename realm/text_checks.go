package realm

import "strings"

// noNull refuses text holding a NUL byte, which Zulip's database cannot
// store (PostgreSQL's text columns refuse it), in the words of Zulip's
// check on messages ("Message must not contain null bytes"): what is the
// parameter's name.
func noNull(what, text string) error {
	if strings.IndexByte(text, 0) >= 0 {
		return BadRequest("%s must not contain null bytes", what)
	}
	return nil
}

// noNullIn is noNull for an optional parameter; nil passes.
func noNullIn(what string, text *string) error {
	if text == nil {
		return nil
	}
	return noNull(what, *text)
}
