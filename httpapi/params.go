package httpapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/realm"
)

// maxBodyBytes bounds a request body; uploads get their own limit later.
// A larger body is refused whole with 413 (errBodyTooLarge), never cut
// short and processed.
const maxBodyBytes = 64 << 20

// errBodyTooLarge answers a body over maxBodyBytes, with the status
// Zulip's front end gives (413).
var errBodyTooLarge = &realm.Error{Code: realm.CodeBadRequest, Status: http.StatusRequestEntityTooLarge,
	Msg: "Request body too large (limit: 64 MiB)"}

// bodyError maps a failure to read a body: over the limit is a 413; a
// refusal while reading (too many fields) is itself.
func bodyError(err error, fallback string) error {
	var tooLarge *http.MaxBytesError
	var refusal *realm.Error
	switch {
	case errors.As(err, &refusal):
		return refusal
	case errors.As(err, &tooLarge) || errors.Is(err, multipart.ErrMessageTooLarge):
		return errBodyTooLarge
	}
	return realm.BadRequest("%s", fallback)
}

// params is the merged parameter set of one request: form body fields
// (urlencoded or multipart, for every method, DELETE included) first, then
// the query string; within one source the last value of a repeated name
// wins, as with Django's QueryDict. It remembers which names a handler
// read, so that the rest can be reported in ignored_parameters_unsupported.
//
// A request has a handful of parameters, so they are kept in a list and
// found by walking it, which costs less than building maps for each
// request; a name index is built once a request has many.
type params struct {
	fields []param // in arrival order
	index  map[string]int
	files  map[string][]*multipart.FileHeader
	// dropped are the parameters sent that the realm's feature level
	// does not know (dropAfterLevel): never read, reported as ignored.
	dropped []string
}

// param is one named parameter and whether a handler read it.
type param struct {
	name, value string
	used        bool
}

// indexedParams is how many parameters a request has before params
// indexes them by name.
const indexedParams = 16

// find returns the position of name in p.fields, or -1.
func (p *params) find(name string) int {
	if p.index != nil {
		if i, ok := p.index[name]; ok {
			return i
		}
		return -1
	}
	for i := range p.fields {
		if p.fields[i].name == name {
			return i
		}
	}
	return -1
}

// set gives name its value, adding it at the end when it is new.
func (p *params) set(name, value string) {
	if i := p.find(name); i >= 0 {
		p.fields[i].value = value
		return
	}
	p.fields = append(p.fields, param{name: name, value: value})
	switch {
	case p.index != nil:
		p.index[name] = len(p.fields) - 1
	case len(p.fields) > indexedParams:
		p.index = make(map[string]int, 2*len(p.fields))
		for i, f := range p.fields {
			p.index[f.name] = i
		}
	}
}

// names lists the parameters' names in arrival order.
func (p *params) names() []string {
	out := make([]string, len(p.fields))
	for i, f := range p.fields {
		out[i] = f.name
	}
	return out
}

// values maps each parameter's name to its value.
func (p *params) values() map[string]string {
	out := make(map[string]string, len(p.fields))
	for _, f := range p.fields {
		out[f.name] = f.value
	}
	return out
}

// parseParams reads every parameter of req. A body that cannot be parsed
// is a BAD_REQUEST.
func parseParams(req *http.Request) (*params, error) {
	p := &params{fields: make([]param, 0, 8)}
	if req.Body != nil && req.Method != http.MethodGet && req.Method != http.MethodHead {
		if req.ContentLength > maxBodyBytes {
			return nil, errBodyTooLarge
		}
		limited := http.MaxBytesReader(nil, req.Body, maxBodyBytes)
		ct, ctParams := formContentType(req.Header.Get("Content-Type"))
		switch ct {
		case "application/x-www-form-urlencoded", "":
			body, err := readFormBody(limited, req.ContentLength)
			if err != nil {
				return nil, bodyError(err, "Could not read the request body")
			}
			if len(bytes.TrimSpace(body)) > 0 {
				if err := p.addForm(string(body)); err != nil && ct != "" {
					return nil, realm.BadRequest("Malformed form body")
				}
			}
		case "multipart/form-data":
			boundary := ctParams["boundary"]
			if boundary == "" {
				return nil, realm.BadRequest("Malformed multipart body")
			}
			parts := newPartCounter(limited, boundary)
			body := bufio.NewReader(parts)
			if _, err := body.Peek(1); err == io.EOF {
				// An empty multipart body, as zulip-js sends for calls
				// without parameters: Zulip reads it as no parameters.
				break
			}
			form, err := multipart.NewReader(body, boundary).ReadForm(32 << 20)
			if errors.Is(err, multipart.ErrMessageTooLarge) && parts.tooMany() {
				return nil, errTooManyFields
			}
			if err != nil {
				return nil, bodyError(err, "Malformed multipart body")
			}
			p.addValues(form.Value)
			p.files = form.File
		}
	}
	return p, p.addQuery(req)
}

// parseQuery reads only the query string's parameters, for the routes
// that stream their body themselves (uploads).
func parseQuery(req *http.Request) (*params, error) {
	p := &params{}
	return p, p.addQuery(req)
}

// addQuery adds the query string's parameters.
func (p *params) addQuery(req *http.Request) error {
	switch {
	case req.URL.RawQuery == "":
	case tooManyFields(req.URL.RawQuery):
		return errTooManyFields
	case p.addForm(req.URL.RawQuery) != nil:
		return realm.BadRequest("Malformed query string")
	}
	return nil
}

func (p *params) addValues(v map[string][]string) {
	earlier := len(p.fields)
	for name, values := range v {
		if i := p.find(name); i >= 0 && i < earlier || len(values) == 0 {
			continue
		}
		p.set(name, values[len(values)-1])
	}
}

// ignored lists the parameters no handler read, sorted as Zulip sorts them.
func (p *params) ignored() []string {
	var out []string
	for _, f := range p.fields {
		if !f.used {
			out = append(out, f.name)
		}
	}
	slices.Sort(out)
	return out
}

// dropAfterLevel removes the parameters of gates (realm.ParamGates of
// the route, newest first) that the realm's feature level does not
// know, as a server of that level ignores them: handlers never see them,
// and the answer lists them in ignored_parameters_unsupported. At a
// level that knows the newest gate it costs one comparison.
func (p *params) dropAfterLevel(r *realm.Realm, gates []realm.ParamGate) {
	if len(gates) == 0 || r.HasParam(gates[0]) {
		return
	}
	for _, g := range gates {
		if r.HasParam(g) {
			break // the rest are older
		}
		i := p.find(g.Name)
		if i < 0 || slices.Contains(p.dropped, g.Name) {
			continue
		}
		p.fields = slices.Delete(p.fields, i, i+1)
		p.reindex()
		p.dropped = append(p.dropped, g.Name)
	}
}

// renameBeforeLevel reads the renamed parameters (realm.ParamRenames of
// the route) by the names the realm's feature level knows: below a
// rename, the new name is dropped as unknown (reported as ignored) and a
// parameter sent by the old name is read as the new one. From the
// rename's level on it costs one comparison per rename.
func (p *params) renameBeforeLevel(r *realm.Realm, renames []realm.ParamRename) {
	for _, rn := range renames {
		name := r.ParamName(rn)
		if name == rn.New {
			continue
		}
		if i := p.find(rn.New); i >= 0 {
			p.fields = slices.Delete(p.fields, i, i+1)
			p.dropped = append(p.dropped, rn.New)
		}
		if i := p.find(rn.Old); i >= 0 && name == rn.Old {
			p.fields[i].name = rn.New
		}
		p.reindex()
	}
}

// reindex rebuilds the name index after fields were removed or renamed.
func (p *params) reindex() {
	if p.index == nil {
		return
	}
	clear(p.index)
	for j, f := range p.fields {
		p.index[f.name] = j
	}
}

// withDropped adds the dropped parameters to the list ignored of
// unread ones, sorted as Zulip sorts them.
func (p *params) withDropped(ignored []string) []string {
	if len(p.dropped) == 0 {
		return ignored
	}
	out := append(slices.Clip(ignored), p.dropped...)
	slices.Sort(out)
	return out
}

// acceptAll marks every parameter as read, for the few Zulip views that
// take no declared parameters and so never report ignored ones.
func (p *params) acceptAll() {
	for i := range p.fields {
		p.fields[i].used = true
	}
}

// has reports whether name was sent, and marks it as supported.
func (p *params) has(name string) bool {
	_, ok := p.str(name)
	return ok
}

// str returns the raw value of name.
func (p *params) str(name string) (string, bool) {
	i := p.find(name)
	if i < 0 {
		return "", false
	}
	p.fields[i].used = true
	return p.fields[i].value, true
}

// mustStr returns a required string parameter.
func (p *params) mustStr(name string) (string, error) {
	v, ok := p.str(name)
	if !ok {
		return "", realm.VariableMissing(name)
	}
	return v, nil
}

// optInt returns an optional integer parameter; set is false when absent.
func (p *params) optInt(name string) (v int, set bool, err error) {
	raw, ok := p.str(name)
	if !ok {
		return 0, false, nil
	}
	n, err := parseJSONInt(raw)
	if err != nil {
		return 0, false, realm.BadRequest("%s is not an integer", name)
	}
	return n, true, nil
}

// mustInt returns a required integer parameter.
func (p *params) mustInt(name string) (int, error) {
	v, set, err := p.optInt(name)
	if err == nil && !set {
		err = realm.VariableMissing(name)
	}
	return v, err
}

// nonNegInt returns a required non-negative integer, Zulip's converter for
// num_before/num_after: failures are REQUEST_VARIABLE_INVALID.
func (p *params) nonNegInt(name string) (int, error) {
	raw, ok := p.str(name)
	if !ok {
		return 0, realm.VariableMissing(name)
	}
	n, err := parseJSONInt(raw)
	if err != nil || n < 0 {
		return 0, realm.VariableInvalid(name, raw)
	}
	return n, nil
}

func parseJSONInt(raw string) (int, error) {
	s := strings.TrimSpace(raw)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	return strconv.Atoi(s)
}

// optBool returns a boolean parameter, or def when absent. JSON true/false
// and Python-style True/False are accepted.
func (p *params) optBool(name string, def bool) (bool, error) {
	v, _, err := p.optBoolSet(name)
	if err != nil {
		return false, err
	}
	if !p.hasValue(name) {
		return def, nil
	}
	return v, nil
}

func (p *params) hasValue(name string) bool { return p.find(name) >= 0 }

// optBoolSet returns a boolean parameter and whether it was sent.
func (p *params) optBoolSet(name string) (v bool, set bool, err error) {
	raw, ok := p.str(name)
	if !ok {
		return false, false, nil
	}
	switch strings.TrimSpace(raw) {
	case "true", "True", "1":
		return true, true, nil
	case "false", "False", "0":
		return false, true, nil
	}
	return false, false, realm.BadRequest("%s is not a boolean", name)
}

// optString is a parameter's value, nil when not sent.
func (p *params) optString(name string) *string {
	if v, ok := p.str(name); ok {
		return &v
	}
	return nil
}

// optJSON decodes a JSON-encoded list, object or string parameter into
// dst; set is false when absent.
func (p *params) optJSON(name string, dst any) (set bool, err error) {
	raw, ok := p.str(name)
	if !ok {
		return false, nil
	}
	if !json.Valid([]byte(raw)) {
		return false, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
	}
	kind := jsonKindName(dst)
	// null decodes into a Go slice or map without error; Zulip rejects it.
	if err := json.Unmarshal([]byte(raw), dst); err != nil || !jsonKindMatches(raw, kind) {
		return false, realm.BadRequest("%s is not %s", name, kind)
	}
	return true, nil
}

// optIntList decodes a JSON list of integers.
func (p *params) optIntList(name string) ([]int, bool, error) {
	var out []int
	set, err := p.optJSON(name, &out)
	if set || err != nil {
		if bad := p.badListElem(name, isJSONInt); bad != nil {
			return nil, false, realm.BadRequest("%s is not an integer", *bad)
		}
	}
	return out, set, err
}

// optStringList decodes a JSON list of strings.
func (p *params) optStringList(name string) ([]string, bool, error) {
	var out []string
	set, err := p.optJSON(name, &out)
	if set || err != nil {
		if bad := p.badListElem(name, isJSONString); bad != nil {
			return nil, false, realm.BadRequest("%s is not a string", *bad)
		}
	}
	return out, set, err
}

func isJSONInt(e json.RawMessage) bool    { var n int; return json.Unmarshal(e, &n) == nil }
func isJSONString(e json.RawMessage) bool { var s string; return json.Unmarshal(e, &s) == nil }

// badListElem names the first element of the JSON list parameter name
// that is null or fails ok, as Zulip does ("to[1]"); nil when the value is
// not a list or every element is fine.
func (p *params) badListElem(name string, ok func(json.RawMessage) bool) *string {
	var raw string
	if i := p.find(name); i >= 0 {
		raw = p.fields[i].value
	}
	var elems []json.RawMessage
	if !jsonKindMatches(raw, "a list") || json.Unmarshal([]byte(raw), &elems) != nil {
		return nil
	}
	for i, e := range elems {
		if string(bytes.TrimSpace(e)) == "null" || !ok(e) {
			s := name + "[" + strconv.Itoa(i) + "]"
			return &s
		}
	}
	return nil
}

// jsonKindMatches reports whether the JSON text raw is of the kind named
// by jsonKindName: a list starts with '[', a dict with '{'.
func jsonKindMatches(raw, kind string) bool {
	t := strings.TrimSpace(raw)
	switch kind {
	case "a list":
		return strings.HasPrefix(t, "[")
	case "a dict":
		return strings.HasPrefix(t, "{")
	case "a string":
		return strings.HasPrefix(t, `"`)
	}
	return true
}

func jsonKindName(dst any) string {
	switch dst.(type) {
	case *[]int, *[]string, *[]any, *[]map[string]any:
		return "a list"
	case *map[string]any, *map[string]json.RawMessage:
		return "a dict"
	case *string:
		return "a string"
	}
	return "valid"
}
