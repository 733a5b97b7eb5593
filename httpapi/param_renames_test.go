package httpapi

import (
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// Every honoured "parameter rename (old)" row: at the row's level the
// parameter is read by its new name and the old one is ignored; below
// it the old name does what the new one does at the level, and the new
// name is listed in ignored_parameters_unsupported and changes nothing.
func TestParametersRenamedAtTheirLevels(t *testing.T) {
	rows := 0
	for _, c := range realm.FeatureChanges() {
		old, ok := strings.CutPrefix(c.Honour, "parameter rename (")
		if !ok || c.Status != realm.StatusHonoured {
			continue
		}
		rows++
		old = strings.TrimSuffix(old, ")")
		name := strings.TrimPrefix(c.Field, "?")
		t.Run(strconv.Itoa(c.Level)+" "+c.Where+" "+name, func(t *testing.T) {
			ep, ok := paramEndpoints[c.Where+" "+c.Field]
			if !ok {
				ep, ok = paramEndpoints[c.Where]
			}
			value, okValue := paramValues[c.Where+" "+c.Field]
			if !okValue {
				value, okValue = paramValues[c.Field]
			}
			if !ok || !okValue {
				t.Fatalf("no request or value for %s %s in paramEndpoints, paramValues", c.Where, c.Field)
			}
			method, _, _ := strings.Cut(c.Where, " ")
			type answer struct {
				status  int
				body    any
				ignored []any
				dump    string
			}
			send := func(level int, param string) answer {
				e := newChanEnv(t, append([]realm.Option{realm.WithFeatureLevel(level, ""), realm.WithAPIKeySeed("params")}, ep.opts...)...)
				if ep.setup != nil {
					ep.setup(t, e.realm)
				}
				form := url.Values{}
				for k, v := range ep.base {
					form[k] = v
				}
				if param != "" {
					form.Set(param, value)
				}
				as := cmpOr(ep.as, "iago@zulip.com")
				st, body := e.do(as, method, ep.path, form)
				dump, err := e.realm.Dump()
				if err != nil {
					t.Fatal(err)
				}
				ignored, _ := body["ignored_parameters_unsupported"].([]any)
				delete(body, "ignored_parameters_unsupported")
				return answer{st, withoutRandom(body), ignored, string(dump)}
			}
			same := func(a, b answer) bool {
				return a.status == b.status && reflect.DeepEqual(a.body, b.body) && a.dump == b.dump
			}
			for _, level := range []int{c.Level, c.Level - 1} {
				known, unknown := name, old
				if level < c.Level {
					known, unknown = old, name
				}
				none, read, left := send(level, ""), send(level, known), send(level, unknown)
				if read.status != 200 || slices.Contains(read.ignored, any(known)) || slices.Contains(read.ignored, any(name)) {
					t.Errorf("level %d: %s=%s answered %d %v, ignored %v; want it read", level, known, value, read.status, read.body, read.ignored)
				}
				if same(read, none) {
					t.Errorf("level %d: %s=%s had no effect; pick a value that shows", level, known, value)
				}
				if !slices.Contains(left.ignored, any(unknown)) || !same(left, none) {
					t.Errorf("level %d: %s=%s answered %d %v, ignored %v; want it ignored, changing nothing", level, unknown, value, left.status, left.body, left.ignored)
				}
			}
		})
	}
	if rows == 0 {
		t.Fatal("no honoured parameter rename row")
	}
}

// cmpOr is the first of a, b that is not empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
