package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"sync"

	"github.com/minizulip/minizulip/realm"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeSuccess writes {"result":"success","msg":"",...fields of result}
// plus ignored_parameters_unsupported when some parameters went unread.
// result is nil, a map, or a struct whose JSON is an object.
func writeSuccess(w http.ResponseWriter, result any, ignored []string) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteString(`{"result":"success","msg":""`)
	if result != nil {
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		start := buf.Len()
		if err := enc.Encode(result); err != nil {
			writeError(w, errors.New("encoding failed: "+err.Error()))
			return
		}
		// Splice the object's members after the envelope's.
		body := bytes.TrimSpace(buf.Bytes()[start:])
		inner := body[1 : len(body)-1]
		if len(bytes.TrimSpace(inner)) > 0 {
			tmp := append([]byte{','}, inner...)
			buf.Truncate(start)
			buf.Write(tmp)
		} else {
			buf.Truncate(start)
		}
	}
	if len(ignored) > 0 {
		buf.WriteString(`,"ignored_parameters_unsupported":`)
		b, _ := json.Marshal(ignored)
		buf.Write(b)
	}
	buf.WriteString("}\n")
	h := w.Header()
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// writeError encodes err as Zulip's error envelope. A *realm.Error keeps
// its code, status and extra fields; anything else is a 500.
func writeError(w http.ResponseWriter, err error) {
	var re *realm.Error
	if !errors.As(err, &re) {
		writeJSON(w, http.StatusInternalServerError, map[string]any{"result": "error", "msg": "Internal server error"})
		return
	}
	status := re.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	if re.Code == realm.CodeUnauthorized {
		if w.Header().Get("WWW-Authenticate") == "" {
			w.Header().Set("WWW-Authenticate", `Basic realm="zulip"`)
		}
	}
	body := make(map[string]any, 3+len(re.Extra))
	for k, v := range re.Extra {
		body[k] = v
	}
	body["result"], body["msg"], body["code"] = "error", re.Msg, string(re.Code)
	writeJSON(w, status, body)
}

// writeJSON writes body with the given status and a trailing newline.
func writeJSON(w http.ResponseWriter, status int, body map[string]any) {
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(body[k])
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteString("}\n")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
