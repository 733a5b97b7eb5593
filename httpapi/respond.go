package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"sync"

	"github.com/minizulip/minizulip/realm"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encodeBuf is a response buffer with a JSON encoder writing into it.
type encodeBuf struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encodePool = sync.Pool{New: func() any {
	e := &encodeBuf{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// writeSuccess writes {"result":"success","msg":"",...fields of result}
// plus ignored_parameters_unsupported when some parameters went unread.
// result is nil, a map, or a struct whose JSON is an object.
func writeSuccess(w http.ResponseWriter, result any, ignored []string) {
	e := encodePool.Get().(*encodeBuf)
	defer encodePool.Put(e)
	buf := &e.buf
	buf.Reset()
	buf.WriteString(`{"result":"success","msg":""`)
	if result != nil {
		start := buf.Len()
		if err := e.enc.Encode(result); err != nil {
			writeError(w, errors.New("encoding failed: "+err.Error()))
			return
		}
		// Splice the object's members after the envelope's: its opening
		// brace becomes a comma, its closing brace and newline go.
		obj := bytes.TrimRight(buf.Bytes()[start:], " \n")
		if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
			writeError(w, errors.New("encoding failed: the result is not a JSON object"))
			return
		}
		if len(bytes.TrimSpace(obj[1:len(obj)-1])) == 0 {
			buf.Truncate(start)
		} else {
			obj[0] = ','
			buf.Truncate(start + len(obj) - 1)
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
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// The client went away (or its deadline passed) before the realm
		// took the request: nothing was done.
		re = &realm.Error{Code: realm.CodeBadRequest, Msg: "Request canceled before it was handled", Status: http.StatusBadRequest}
	}
	if re == nil && !errors.As(err, &re) {
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
