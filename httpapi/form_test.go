package httpapi

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// addForm reads a form as url.ParseQuery does, the last value of a name
// winning: the same fields, and an error for the same inputs.
func TestAddFormReadsAsParseQuery(t *testing.T) {
	inputs := []string{"a=1&b=2", "a=1&a=2", "a", "a=", "=x", "a=1;b=2", "a=%zz&b=2", "%41=%42+c", "a+b=c%20d&&e=f",
		"&&", "a=1&%=2&b=3", "content=hello+world%21&to=Verona&type=stream&topic=bench"}
	const alphabet = "ab=&;%+2F41zZ"
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		b := make([]byte, rng.IntN(16))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		want, wantErr := url.ParseQuery(in)
		p := &params{}
		gotErr := p.addForm(in)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("%q: error %v, url.ParseQuery %v", in, gotErr, wantErr)
		}
		last := map[string]string{}
		for k, v := range want {
			last[k] = v[len(v)-1]
		}
		if !reflect.DeepEqual(p.values(), last) || len(p.fields) != len(last) {
			t.Fatalf("%q: read %v (order %v), url.ParseQuery %v", in, p.values(), p.names(), last)
		}
	}
}

// A name the body set keeps its value when the form is read again as a
// later source (the query string reads that way).
func TestAddFormKeepsEarlierSources(t *testing.T) {
	p := &params{}
	if err := p.addForm("a=body&b=1"); err != nil {
		t.Fatal(err)
	}
	if err := p.addForm("a=later&a=again&c=3"); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"a": "body", "b": "1", "c": "3"}; !reflect.DeepEqual(p.values(), want) {
		t.Fatalf("vals %v, want %v", p.values(), want)
	}
}

// twoFields agrees with strings.Fields on whether a header holds exactly
// two fields, and on the fields.
func TestTwoFieldsAsStringsFields(t *testing.T) {
	for _, h := range []string{"", "Basic", "Basic abc", " Basic  abc ", "Basic abc def", "Basic\tabc", "Basic\u00a0abc",
		"Basic abc\u0085", "a b", "  ", "Basic \u2003abc", "x\u3000y z"} {
		f := strings.Fields(h)
		a, b, ok := twoFields(h)
		if ok != (len(f) == 2) || ok && (a != f[0] || b != f[1]) {
			t.Errorf("%q: twoFields %q %q %v, strings.Fields %q", h, a, b, ok, f)
		}
	}
}

// Past indexedParams names, params finds them through its index with the
// same rules: the last value within a source, the earlier source first,
// and every unread name reported.
func TestManyParamsKeepTheRules(t *testing.T) {
	p := &params{}
	var body, query []string
	for i := 0; i < 3*indexedParams; i++ {
		body = append(body, fmt.Sprintf("b%d=first", i), fmt.Sprintf("b%d=last", i))
		query = append(query, fmt.Sprintf("b%d=query", i), fmt.Sprintf("q%d=query", i))
	}
	if err := p.addForm(strings.Join(body, "&")); err != nil {
		t.Fatal(err)
	}
	if err := p.addForm(strings.Join(query, "&")); err != nil {
		t.Fatal(err)
	}
	if p.index == nil || len(p.fields) != 6*indexedParams {
		t.Fatalf("%d fields, index %v", len(p.fields), p.index != nil)
	}
	for i := 0; i < 3*indexedParams; i++ {
		if v, _ := p.str(fmt.Sprintf("b%d", i)); v != "last" {
			t.Fatalf("b%d = %q, want the body's last value", i, v)
		}
	}
	if v, ok := p.str("q7"); !ok || v != "query" {
		t.Fatalf("q7 = %q %v", v, ok)
	}
	ignored := p.ignored()
	if len(ignored) != 3*indexedParams-1 || slices.Contains(ignored, "q7") || !slices.IsSorted(ignored) {
		t.Fatalf("ignored %v", ignored)
	}
}
