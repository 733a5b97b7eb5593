package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/url"
	"strings"
)

// This file reads urlencoded form bodies, the body of nearly every
// request, straight into a request's params: without the url.Values
// (a slice per name) that url.ParseQuery builds and addValues copies.

// formContentType is mime.ParseMediaType for a Content-Type header, with
// the common form types recognised without parsing.
func formContentType(h string) (string, map[string]string) {
	switch h {
	case "application/x-www-form-urlencoded", "":
		return h, nil
	}
	ct, ctParams, _ := mime.ParseMediaType(h)
	return ct, ctParams
}

// readBody reads a whole body; a known length sizes the buffer at once.
func readBody(r io.Reader, length int64) ([]byte, error) {
	if length <= 0 || length > maxBodyBytes {
		return io.ReadAll(r)
	}
	buf := make([]byte, length+1) // one more, to see the end
	n, err := io.ReadFull(r, buf)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return buf[:n], nil // shorter than announced: what came
	case err != nil:
		return nil, err
	}
	rest, err := io.ReadAll(r) // longer than announced
	return append(buf, rest...), err
}

// errMalformedForm is addForm's error, as url.ParseQuery's: the fields
// that can be read are kept all the same.
var errMalformedForm = errors.New("malformed form")

// addForm adds the fields of an urlencoded form as url.ParseQuery reads
// them: fields split on '&', a field holding ';' is an error, names and
// values are unescaped ('+' is a space). Within the form the last value
// of a name wins; a name already set by an earlier source keeps its value.
func (p *params) addForm(form string) error {
	var err error
	earlier := len(p.fields)
	for form != "" {
		var field string
		field, form, _ = strings.Cut(form, "&")
		if strings.Contains(field, ";") {
			err = errMalformedForm
			continue
		}
		if field == "" {
			continue
		}
		name, value, _ := strings.Cut(field, "=")
		name, err1 := unescapeField(name)
		if err1 != nil {
			err = errMalformedForm
			continue
		}
		value, err1 = unescapeField(value)
		if err1 != nil {
			err = errMalformedForm
			continue
		}
		if i := p.find(name); i >= 0 && i < earlier {
			continue
		}
		p.set(name, value)
	}
	return err
}

// unescapeField is url.QueryUnescape, returning s itself when it holds
// nothing to unescape.
func unescapeField(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s, nil
	}
	return url.QueryUnescape(s)
}
