package httpapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/url"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/realm"
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

// maxFormFields is Django's DATA_UPLOAD_MAX_NUMBER_FIELDS, which Zulip
// keeps at its default: a query string or a form body with more fields
// is refused whole, before any of them is built.
const maxFormFields = 1000

// errTooManyFields is Django's TooManyFieldsSent, a 400.
var errTooManyFields = realm.BadRequest("The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.")

// tooManyFields reports whether an urlencoded form has more fields than
// Django reads: it counts one more field than the form has '&'.
func tooManyFields(form string) bool { return strings.Count(form, "&") >= maxFormFields }

// formPrealloc bounds the buffer readFormBody sizes from Content-Length
// before bytes arrive: a declared length is a promise, not bytes; the
// buffer doubles as they come.
const formPrealloc = 64 << 10

// readFormBody reads an urlencoded body, counting its fields as it
// arrives: one with more than maxFormFields is refused with
// errTooManyFields as soon as the field past the limit begins, without
// reading the rest.
func readFormBody(r io.Reader, length int64) ([]byte, error) {
	size := 512
	if length > 0 {
		size = int(min(length+1, formPrealloc)) // one more, to see the end
	}
	buf := make([]byte, 0, size)
	amps := 0
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		amps += bytes.Count(buf[len(buf):len(buf)+n], []byte{'&'})
		buf = buf[:len(buf)+n]
		switch {
		case amps >= maxFormFields:
			return nil, errTooManyFields
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return nil, err
		}
	}
}

// partCounter passes a multipart body on, counting the delimiters that
// end its parts. Go's multipart reader refuses the part after the
// 1000th with an error that does not say why (ErrMessageTooLarge, as for
// a body over its memory); the count tells.
type partCounter struct {
	r     io.Reader
	delim []byte // "\n--" and the boundary: each part's end, the last one's too
	tail  []byte // the last len(delim)-1 bytes read, for a delimiter split by reads
	seen  int
}

func newPartCounter(r io.Reader, boundary string) *partCounter {
	return &partCounter{r: r, delim: []byte("\n--" + boundary)}
}

func (c *partCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n == 0 {
		return n, err
	}
	got := p[:n]
	keep := len(c.delim) - 1
	// A delimiter across the previous read and this one starts in tail.
	seam := append(c.tail, got[:min(n, keep)]...)
	c.seen += bytes.Count(seam, c.delim) + bytes.Count(got, c.delim)
	if n >= keep {
		c.tail = append(c.tail[:0], got[n-keep:]...)
	} else {
		c.tail = append(c.tail[:0], seam[max(len(seam)-keep, 0):]...)
	}
	return n, err
}

// tooMany reports whether a multipart reader's ErrMessageTooLarge came
// from the part count: it came when maxFormFields parts had ended.
func (c *partCounter) tooMany() bool { return c.seen >= maxFormFields }

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
