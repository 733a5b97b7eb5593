package upload

import (
	"mime"
	"net/url"
	"path"
	"strings"
)

// DisplayName is the name a file is shown by: the upload's file name,
// percent-decoded as Zulip does, without any directory part or NUL byte.
func DisplayName(raw string) string {
	if d, err := url.PathUnescape(raw); err == nil {
		raw = d
	}
	if i := strings.LastIndexAny(raw, `/\`); i >= 0 {
		raw = raw[i+1:]
	}
	// NUL is the one character Zulip's file-name column cannot hold:
	// Zulip drops it.
	return strings.ReplaceAll(raw, "\x00", "")
}

// knownTypes fixes the types of common extensions, so that a file's type
// does not depend on the host's MIME tables.
var knownTypes = map[string]string{
	".txt": "text/plain", ".md": "text/markdown", ".csv": "text/csv", ".html": "text/html", ".htm": "text/html",
	".css": "text/css", ".js": "text/javascript", ".json": "application/json", ".xml": "text/xml",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip", ".tar": "application/x-tar",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".svg": "image/svg+xml", ".bmp": "image/bmp", ".ico": "image/vnd.microsoft.icon", ".avif": "image/avif",
	".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime", ".mp3": "audio/mpeg",
	".ogg": "audio/ogg", ".wav": "audio/wav", ".py": "text/x-python", ".go": "text/x-go",
}

// ContentType is the type a file is stored with: the declared type when
// there is one, else the type its name's extension says, else
// application/octet-stream.
func ContentType(declared, name string) string {
	if t, _, err := mime.ParseMediaType(declared); err == nil && declared != "" {
		if t != "application/octet-stream" || GuessType(name) == "" {
			return declared
		}
	}
	if t := GuessType(name); t != "" {
		return t
	}
	return "application/octet-stream"
}

// GuessType is the type of a file name's extension, "" when unknown.
func GuessType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if ext == "" {
		return ""
	}
	if t, ok := knownTypes[ext]; ok {
		return t
	}
	return mime.TypeByExtension(ext)
}

// inlineTypes are the types Zulip lets a browser show in place; every
// other file is served as a download.
var inlineTypes = map[string]bool{
	"application/pdf": true, "image/gif": true, "image/jpeg": true, "image/png": true,
	"image/webp": true, "video/mp4": true, "video/webm": true,
}

// Inline reports whether a file of this content type is served inline.
func Inline(contentType string) bool {
	t, _, err := mime.ParseMediaType(contentType)
	return err == nil && inlineTypes[t]
}

// Disposition is the Content-Disposition header a file is served with:
// inline for the types Inline allows unless download is asked for,
// attachment otherwise, naming the file.
func Disposition(contentType, name string, download bool) string {
	kind := "attachment"
	if !download && Inline(contentType) {
		kind = "inline"
	}
	if v := mime.FormatMediaType(kind, map[string]string{"filename": name}); v != "" {
		return v
	}
	return kind
}
