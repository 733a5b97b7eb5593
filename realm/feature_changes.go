package realm

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The table of documented changes: one row per change Zulip's API
// description and the spec note from feature level 185 (Zulip 7.0) on,
// saying what changed, at which level, and how the realm honours it.
// Code asks the table (Realm.has, Realm.Has) rather than comparing levels
// in place.
//
//go:embed feature_changes.tsv
var featureChangesTSV string

// The kinds of documented changes.
const (
	kindEndpointAdded   = "endpoint added"
	kindEndpointRemoved = "endpoint removed"
	kindParamAdded      = "parameter added"
	kindFieldAdded      = "field added"
	kindFieldRemoved    = "field removed"
	kindFieldRenamed    = "field renamed"
	kindValueChanged    = "value changed"
	kindDefaultChanged  = "default changed"
	kindEventAdded      = "event added"
	kindBehaviour       = "behaviour changed"
)

// The statuses of rows.
const (
	// StatusHonoured: the realm behaves as a server of the row's level
	// does on both sides of it.
	StatusHonoured = "honoured"
	// StatusNoEffect: the change cannot be seen on a fake (a server-only
	// setting, a change of documentation only…); Honour says why.
	StatusNoEffect = "no effect"
	// StatusTodo: the realm behaves as the newest level on both sides.
	StatusTodo = "todo"
)

// FeatureChange is one row of the table.
type FeatureChange struct {
	Level int
	// Kind is one of the kinds above.
	Kind string
	// Where is the endpoint ("GET /messages"), component ("components
	// schemas/User") or "spec" the note belongs to; Field the property
	// or ("?name") parameter, if any.
	Where, Field string
	// Honour is the name code asks the table by (Realm.has), a
	// mechanism ("endpoint gate", "register gate"), or the reason the
	// change has no effect on a fake.
	Honour string
	Status string
	// Note is the documented sentence, shortened.
	Note string
}

// key identifies the note a row answers.
func (c FeatureChange) key() string { return fmt.Sprintf("%d %s %s", c.Level, c.Where, c.Field) }

// featureChanges is the parsed table.
var featureChanges = parseFeatureChanges(featureChangesTSV)

// parseFeatureChanges reads the table: tab-separated level, kind, where,
// field, honour, status, note; # starts a comment line.
func parseFeatureChanges(text string) []FeatureChange {
	var out []FeatureChange
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			panic(fmt.Sprintf("feature_changes.tsv:%d: %d columns, want 7", i+1, len(f)))
		}
		level, err := strconv.Atoi(f[0])
		if err != nil {
			panic(fmt.Sprintf("feature_changes.tsv:%d: level %q", i+1, f[0]))
		}
		out = append(out, FeatureChange{Level: level, Kind: f[1], Where: f[2], Field: f[3], Honour: f[4], Status: f[5], Note: f[6]})
	}
	return out
}

// FeatureChanges lists the table's rows.
func FeatureChanges() []FeatureChange { return append([]FeatureChange(nil), featureChanges...) }

// A Change names changes of the table that code asks about: every row
// whose Honour is the name came at the same level.
type Change struct {
	name  string
	level int
}

// newChange finds the level of the rows named name; a name no row has
// is a mistake of the table, caught when the package loads.
func newChange(name string) Change {
	at := -1
	for _, c := range featureChanges {
		if c.Honour != name {
			continue
		}
		if at >= 0 && c.Level != at {
			panic(fmt.Sprintf("feature_changes.tsv: change %q has rows at levels %d and %d", name, at, c.Level))
		}
		at = c.Level
	}
	if at < 0 {
		panic(fmt.Sprintf("feature_changes.tsv: no row names change %q", name))
	}
	return Change{name: name, level: at}
}

// Level is the feature level the change came at.
func (c Change) Level() int { return c.level }

// has reports whether the realm's advertised level includes change c.
func (r *Realm) has(c Change) bool { return r.opts.FeatureLevel >= c.level }

// Has reports whether the realm's advertised level includes change c,
// for adapters (httpapi) that read requests by the level.
func (r *Realm) Has(c Change) bool { return r.has(c) }

// endpointLevels maps the endpoints the table says were added from level
// 185 on ("GET /reminders", path wildcards unnamed: "DELETE /reminders/{}")
// to their levels.
var endpointLevels = func() map[string]int {
	m := map[string]int{}
	for _, c := range featureChanges {
		// A row with a change of its own is gated where that change is
		// asked (PATCH /users/{email} shares its route with the older
		// PATCH /users/{user_id}).
		if c.Kind == kindEndpointAdded && c.Honour == "endpoint gate" {
			m[endpointKey(c.Where)] = c.Level
		}
	}
	return m
}()

// endpointKey writes an endpoint with its path wildcards unnamed.
func endpointKey(endpoint string) string {
	var b strings.Builder
	in := false
	for _, ch := range endpoint {
		switch {
		case ch == '{':
			in = true
			b.WriteString("{}")
		case ch == '}':
			in = false
		case !in:
			b.WriteRune(ch)
		}
	}
	return b.String()
}

// HasEndpoint reports whether a server of the realm's feature level has
// the endpoint (method and path pattern below /api/v1, wildcards named
// in any way): an endpoint added after it answers as an unknown one.
func (r *Realm) HasEndpoint(method, path string) bool {
	key := endpointKey(method + " " + path)
	for _, rn := range renamedEndpoints {
		switch key {
		case rn.old:
			// From the endpoint's first level up to the rename.
			return r.has(Change{name: "endpoint", level: endpointLevels[rn.new]}) && !r.has(rn.rename)
		case rn.new:
			if !r.has(rn.rename) {
				return false
			}
		}
	}
	level, ok := endpointLevels[key]
	return !ok || r.has(Change{name: "endpoint", level: level})
}

// renamedEndpoints are the endpoints Zulip moved to another path: the
// table dates the endpoint by its new path; a server before the rename
// has it at the old one only, a server from it on at the new one only.
var renamedEndpoints = []struct {
	old, new string
	rename   Change
}{
	{"POST /message_edit_typing", "POST /messages/{}/typing", ChangeEditTypingPath},
	{"POST /users/me/hotspots", "POST /users/me/onboarding_steps", changeOnboardingSteps},
}

// gatedFields maps "where" (an endpoint or event) and a generic gate of
// the table ("register gate", "settings gate") to the fields its rows
// add, with their levels.
var gatedFields = func() map[string][]FeatureChange {
	m := map[string][]FeatureChange{}
	for _, c := range featureChanges {
		if strings.HasSuffix(c.Honour, " gate") && c.Field != "" && !strings.HasPrefix(c.Field, "?") {
			m[c.Where+"|"+c.Honour] = append(m[c.Where+"|"+c.Honour], c)
		}
	}
	return m
}()

// fieldsAfterLevel lists the fields of where that the table's gate says
// came after the realm's level: a server of the level does not send them.
func (r *Realm) fieldsAfterLevel(where, gate string) []string {
	var out []string
	for _, c := range gatedFields[where+"|"+gate] {
		if !r.has(Change{name: gate, level: c.Level}) {
			out = append(out, c.Field)
		}
	}
	return out
}

// withoutFields encodes v as a JSON object without the named members,
// leaving HTML characters unescaped as httpapi's encoder does.
func withoutFields(v any, omit []string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if len(omit) == 0 {
		return buf.Bytes(), nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		return nil, err
	}
	for _, k := range omit {
		delete(m, k)
	}
	buf.Reset()
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// eventLevels maps the event types (and "type op") the table's "event
// gate" rows add to their levels.
var eventLevels = func() map[string]int {
	m := map[string]int{}
	for _, c := range featureChanges {
		if c.Honour == "event gate" {
			if f := strings.Fields(c.Where); len(f) == 2 || len(f) == 3 {
				m[strings.Join(f[1:], " ")] = c.Level
			}
		}
	}
	return m
}()

// eventAtLevel reports whether a server of the realm's feature level
// sends an event of type typ with this payload: an event type (or op)
// newer than the level is not sent.
func (r *Realm) eventAtLevel(typ string, p EventPayload) bool {
	if level, ok := eventLevels[typ]; ok && !r.has(Change{name: "event gate", level: level}) {
		return false
	}
	if p == nil {
		return true
	}
	v := reflect.Indirect(reflect.ValueOf(p))
	if v.Kind() != reflect.Struct {
		return true
	}
	if op := v.FieldByName("Op"); op.IsValid() && op.Kind() == reflect.String {
		if level, ok := eventLevels[typ+" "+op.String()]; ok && !r.has(Change{name: "event gate", level: level}) {
			return false
		}
	}
	return true
}

// ParamGate is a request parameter that the table's "parameter gate"
// rows say an endpoint gained at Level: a server of a lower level does
// not know it, and so ignores it.
type ParamGate struct {
	Name  string
	Level int
}

// paramGates maps endpoints (path wildcards unnamed) to the parameters
// their "parameter gate" rows add, newest first.
var paramGates = func() map[string][]ParamGate {
	m := map[string][]ParamGate{}
	for _, c := range featureChanges {
		name, ok := strings.CutPrefix(c.Field, "?")
		if c.Kind != kindParamAdded || c.Honour != "parameter gate" || !ok {
			continue
		}
		k := endpointKey(c.Where)
		m[k] = append(m[k], ParamGate{Name: name, Level: c.Level})
	}
	for _, gates := range m {
		slices.SortStableFunc(gates, func(a, b ParamGate) int { return b.Level - a.Level })
	}
	return m
}()

// ParamGates lists the parameters the table says the endpoint (method
// and path pattern below /api/v1, wildcards named in any way) gained
// from level 185 on, newest first; nil when none. Adapters look it up
// once per route, and ask HasParam of a request's realm.
func ParamGates(method, path string) []ParamGate {
	return paramGates[endpointKey(method+" "+path)]
}

// HasParam reports whether a server of the realm's feature level knows
// the parameter g. Gates come newest first (ParamGates): when a realm
// has the first, it has them all.
func (r *Realm) HasParam(g ParamGate) bool { return r.has(Change{name: g.Name, level: g.Level}) }

// paramRenamePrefix starts the Honour of the table's rows about a
// renamed request parameter: "parameter rename (old_name)".
const paramRenamePrefix = "parameter rename ("

// ParamRename is a request parameter the table says was renamed at
// Level from Old to New: a server of a lower level knows it as Old only,
// from Since (the level of New's "parameter gate" row, 0 when older than
// the table).
type ParamRename struct {
	Old, New     string
	Level, Since int
}

// paramRenames maps endpoints (path wildcards unnamed) to the renames of
// their parameters.
var paramRenames = func() map[string][]ParamRename {
	m := map[string][]ParamRename{}
	for _, c := range featureChanges {
		old, ok := strings.CutPrefix(c.Honour, paramRenamePrefix)
		name, isParam := strings.CutPrefix(c.Field, "?")
		if !ok || !isParam {
			continue
		}
		old = strings.TrimSuffix(old, ")")
		k := endpointKey(c.Where)
		rn := ParamRename{Old: old, New: name, Level: c.Level}
		for _, g := range paramGates[k] {
			if g.Name == name {
				rn.Since = g.Level
			}
		}
		m[k] = append(m[k], rn)
	}
	return m
}()

// ParamRenames lists the renamed parameters of the endpoint (method and
// path pattern below /api/v1, wildcards named in any way); nil when none.
func ParamRenames(method, path string) []ParamRename {
	return paramRenames[endpointKey(method+" "+path)]
}

// ParamName is the name a server of the realm's feature level knows the
// renamed parameter rn by: New from its level on, Old below it, "" below
// Since, where it knows neither.
func (r *Realm) ParamName(rn ParamRename) string {
	switch {
	case r.has(Change{name: rn.New, level: rn.Level}):
		return rn.New
	case r.has(Change{name: rn.Old, level: rn.Since}):
		return rn.Old
	}
	return ""
}
