package httpapi

import (
	"bytes"
	"mime/multipart"
	"runtime"
	"testing"
	"time"

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

// waitPolling waits, for at most 10 seconds, until a GET /events is
// blocked on the queue.
func waitPolling(t testing.TB, r *realm.Realm, queueID string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !r.IsPolling(queueID); runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatal("the long poll never started waiting")
		}
	}
}
