package httpapi

import (
	"bytes"
	"mime/multipart"

	"github.com/minizulip/minizulip/realm"
)

// newMultipart writes fields as a multipart form and returns its content type.
func newMultipart(buf *bytes.Buffer, fields map[string]string) string {
	w := multipart.NewWriter(buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	_ = w.Close()
	return w.FormDataContentType()
}

func realmFeatureLevel(level int, version string) realm.Option {
	return realm.WithFeatureLevel(level, version)
}
