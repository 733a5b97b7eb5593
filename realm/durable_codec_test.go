package realm

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// filled sets every field reachable from v to a value that is not its
// zero: each map gets one entry, each slice one element, each pointer a
// value, down to depth levels of pointers, maps and slices. Interfaces,
// functions and channels stay nil (not state: codecSkip lists them).
func filled(v reflect.Value, n *int, depth int) {
	v = settable(v)
	*n++
	if v.Type() == timeType {
		v.Set(reflect.ValueOf(time.Unix(int64(1_700_000_000+*n), int64(*n)).UTC()))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n % 100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n % 100))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Struct:
		for i := range v.NumField() {
			filled(v.Field(i), n, depth)
		}
	case reflect.Array:
		for i := range v.Len() {
			filled(v.Index(i), n, depth)
		}
	case reflect.Slice:
		if depth == 0 {
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		filled(v.Index(0), n, depth-1)
	case reflect.Map:
		if depth == 0 {
			return
		}
		k, x := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		filled(k, n, depth-1)
		filled(x, n, depth-1)
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(k, x)
	case reflect.Pointer:
		if depth == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		filled(p.Elem(), n, depth-1)
		v.Set(p)
	}
}

// The state codec gives back every field of every table it writes
// exactly, whatever holds it: a struct in a map's value, a time in an
// unexported field, a pointer, a slice. (A map's values are not
// addressable: a struct value with a time in it once made the encoder
// panic, on the first temporary upload URL of a realm with a data
// directory.)
func TestStateCodecRoundTripsEveryField(t *testing.T) {
	for _, d := range domains {
		if notExact[d.name] {
			continue
		}
		t.Run(d.name, func(t *testing.T) {
			var src, dst tables
			v := reflect.ValueOf(d.of(&src)).Elem()
			n := 0
			filled(v, &n, 4)
			for name := range codecSkip {
				if table, field, _ := strings.Cut(name, "."); table == d.name {
					settable(v.FieldByName(field)).SetZero()
				}
			}
			x, err := (&stateEncoder{ids: map[uintptr]int{}}).encode(v, d.name)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(strings.NewReader(string(data)))
			dec.UseNumber()
			var tree any
			if err := dec.Decode(&tree); err != nil {
				t.Fatal(err)
			}
			out := reflect.ValueOf(d.of(&dst)).Elem()
			if err := (&stateDecoder{ptrs: map[int]reflect.Value{}}).decode(tree, out, d.name); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v.Interface(), out.Interface()) {
				t.Errorf("%s: the table read back differs from the one written (%d values filled)", d.name, n)
			}
		})
	}
}
