package httpapi

import (
	"bufio"
	"errors"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/minizulip/minizulip/realm"
)

func uploadRoutes() []route {
	return []route{
		{method: "POST", path: "/user_uploads", h: uploadFile, rawBody: true},
		{method: "GET", path: "/user_uploads/{realm_id_str}/{filename...}", h: temporaryFileURL},
	}
}

func attachmentRoutes() []route {
	return []route{
		{method: "GET", path: "/attachments", h: listAttachments},
		{method: "DELETE", path: "/attachments/{attachment_id}", h: deleteAttachment},
	}
}

// uploadReadBuffer is the read buffer of an upload's body.
const uploadReadBuffer = 64 << 10

// maxUploadFieldBytes bounds the form fields that may come with an
// uploaded file, which are read and dropped.
const maxUploadFieldBytes = 1 << 20

// The answers to a multipart body without exactly one file.
var (
	errNoFile       = realm.BadRequest("You must specify a file to upload")
	errSeveralFiles = realm.BadRequest("You may only upload one file at a time")
	errMalformed    = realm.BadRequest("Malformed multipart body")
)

// uploadFile answers POST /user_uploads: the body's one file streams to
// the realm, which enforces the size limit while it reads.
func uploadFile(c *call) (any, error) {
	c.p.acceptAll()
	ct, ctParams, _ := mime.ParseMediaType(c.req.Header.Get("Content-Type"))
	if ct != "multipart/form-data" || ctParams["boundary"] == "" {
		return nil, errNoFile
	}
	// A larger read buffer than multipart's own 4 KiB lets the file come
	// in larger pieces.
	buffered := bufio.NewReaderSize(c.req.Body, uploadReadBuffer)
	body := &oneFile{mr: multipart.NewReader(buffered, ctParams["boundary"])}
	part, err := body.next()
	if err != nil {
		return nil, err
	}
	if part == nil {
		return nil, errNoFile
	}
	body.part = part
	return c.actor.Upload(c.ctx(), realm.UploadRequest{Name: part.FileName(),
		ContentType: part.Header.Get("Content-Type"), Body: body})
}

// oneFile reads the one file part of a multipart body. When the file
// ends it reads the rest of the body, dropping plain fields, and fails if
// another file follows, so the realm refuses the upload rather than
// keeping the first file of several.
type oneFile struct {
	mr         *multipart.Reader
	part       *multipart.Part
	fieldBytes int64
	end        error // the body's end once reached: io.EOF or a refusal
}

// next skips plain fields up to the next file part; nil at the end.
func (f *oneFile) next() (*multipart.Part, error) {
	for {
		p, err := f.mr.NextPart()
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, errMalformed
		}
		if p.FileName() != "" {
			return p, nil
		}
		n, err := io.Copy(io.Discard, io.LimitReader(p, maxUploadFieldBytes-f.fieldBytes+1))
		f.fieldBytes += n
		if err != nil {
			return nil, errMalformed
		}
		if f.fieldBytes > maxUploadFieldBytes {
			return nil, realm.BadRequest("Form fields too large")
		}
	}
}

func (f *oneFile) Read(b []byte) (int, error) {
	if f.end != nil {
		return 0, f.end
	}
	n, err := f.part.Read(b)
	switch {
	case err == nil:
		return n, nil
	case err != io.EOF:
		return n, errMalformed
	}
	more, err := f.next()
	switch {
	case err != nil:
		f.end = err
	case more != nil:
		f.end = errSeveralFiles
	default:
		f.end = io.EOF
	}
	return n, f.end
}

// temporaryURL is the answer of GET /api/v1/user_uploads/{realm}/{path}.
type temporaryURL struct {
	URL string `json:"url"`
}

func temporaryFileURL(c *call) (any, error) {
	url, err := c.actor.TemporaryUploadURL(c.ctx(), c.req.PathValue("realm_id_str")+"/"+c.req.PathValue("filename"))
	if err != nil {
		return nil, err
	}
	return temporaryURL{URL: url}, nil
}

func listAttachments(c *call) (any, error) {
	return c.actor.Attachments(c.ctx())
}

func deleteAttachment(c *call) (any, error) {
	id, err := c.pathInt("attachment_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteAttachment(c.ctx(), id)
}

// writeFileError answers a file request the realm refused: its status,
// with Zulip's HTML page for the 403 and 404 of file URLs, JSON for
// credential failures.
func writeFileError(w http.ResponseWriter, err error) {
	var re *realm.Error
	if !errors.As(err, &re) || re.Status == http.StatusUnauthorized {
		writeError(w, err)
		return
	}
	status := re.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, "<p>"+html.EscapeString(re.Msg)+"</p>\n")
}
