package realm

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
	"unsafe"
)

// The state codec writes a table exactly as it is in memory, unexported
// fields included, as a JSON tree: a struct is an object by field name,
// a map a list of [key, value] pairs, a pointer its value numbered on its
// first appearance ({"$id": n, "$v": …}) and named after it
// ({"$ref": n}), so that two indexes holding one value (users by ID and
// by email) hold one value again when read. A snapshot carries with it
// the tables a fixture document does not hold whole (durable_snapshot.go).
// Interfaces, functions and channels are not state: a table holding one
// lists the field in codecSkip.

// stateEncoder numbers the pointers met.
type stateEncoder struct {
	ids map[uintptr]int
}

// timeType is time.Time's type, written as its text.
var timeType = reflect.TypeFor[time.Time]()

// settable is v, made settable (and readable) even when it is an
// unexported field.
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// encode returns v as a JSON tree.
func (e *stateEncoder) encode(v reflect.Value, at string) (any, error) {
	v = settable(v)
	if v.Type() == timeType {
		b, err := v.Interface().(time.Time).MarshalText()
		return string(b), err
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint(), nil
	case reflect.Float32, reflect.Float64:
		return v.Float(), nil
	case reflect.String:
		return v.String(), nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil, nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
			return map[string]any{"$b": base64.StdEncoding.EncodeToString(v.Bytes())}, nil
		}
		out := make([]any, v.Len())
		for i := range v.Len() {
			x, err := e.encode(v.Index(i), at)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		out := make([]any, 0, v.Len())
		// A map's keys and values are not addressable: each is copied
		// into one that is, whose unexported fields settable can read.
		key, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		it := v.MapRange()
		for it.Next() {
			key.SetIterKey(it)
			val.SetIterValue(it)
			k, err := e.encode(key, at)
			if err != nil {
				return nil, err
			}
			x, err := e.encode(val, at)
			if err != nil {
				return nil, err
			}
			out = append(out, []any{k, x})
		}
		return map[string]any{"$m": out}, nil
	case reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		if id, ok := e.ids[v.Pointer()]; ok {
			return map[string]any{"$ref": id}, nil
		}
		id := len(e.ids) + 1
		e.ids[v.Pointer()] = id
		x, err := e.encode(v.Elem(), at)
		if err != nil {
			return nil, err
		}
		return map[string]any{"$id": id, "$v": x}, nil
	case reflect.Struct:
		out := make(map[string]any, v.NumField())
		for i := range v.NumField() {
			x, err := e.encode(v.Field(i), at+"."+v.Type().Field(i).Name)
			if err != nil {
				return nil, err
			}
			out[v.Type().Field(i).Name] = x
		}
		return out, nil
	case reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("state codec: %s: cannot write a %s", at, v.Type())
}

// stateDecoder holds the pointers read, by number.
type stateDecoder struct {
	ptrs map[int]reflect.Value
}

// decode reads the tree x into v.
func (d *stateDecoder) decode(x any, v reflect.Value, at string) error {
	v = settable(v)
	bad := func() error { return fmt.Errorf("state codec: %s: %T does not fit a %s", at, x, v.Type()) }
	if x == nil {
		v.SetZero()
		return nil
	}
	if v.Type() == timeType {
		s, ok := x.(string)
		if !ok {
			return bad()
		}
		var t time.Time
		if err := t.UnmarshalText([]byte(s)); err != nil {
			return err
		}
		v.Set(reflect.ValueOf(t))
		return nil
	}
	num := func() (json.Number, error) {
		n, ok := x.(json.Number)
		if !ok {
			return "", bad()
		}
		return n, nil
	}
	switch v.Kind() {
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return bad()
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := num()
		if err != nil {
			return err
		}
		i, err := n.Int64()
		if err != nil {
			return err
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := num()
		if err != nil {
			return err
		}
		var u uint64
		if _, err := fmt.Sscan(n.String(), &u); err != nil {
			return err
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		n, err := num()
		if err != nil {
			return err
		}
		f, err := n.Float64()
		if err != nil {
			return err
		}
		v.SetFloat(f)
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return bad()
		}
		v.SetString(s)
	case reflect.Slice, reflect.Array:
		if m, ok := x.(map[string]any); ok && v.Kind() == reflect.Slice {
			s, _ := m["$b"].(string)
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return err
			}
			v.SetBytes(b)
			return nil
		}
		list, ok := x.([]any)
		if !ok {
			return bad()
		}
		if v.Kind() == reflect.Slice {
			v.Set(reflect.MakeSlice(v.Type(), len(list), len(list)))
		} else if len(list) != v.Len() {
			return bad()
		}
		for i, y := range list {
			if err := d.decode(y, v.Index(i), at); err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := x.(map[string]any)
		pairs, ok2 := m["$m"].([]any)
		if !ok || !ok2 {
			return bad()
		}
		out := reflect.MakeMapWithSize(v.Type(), len(pairs))
		for _, p := range pairs {
			kv, ok := p.([]any)
			if !ok || len(kv) != 2 {
				return bad()
			}
			k, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			if err := d.decode(kv[0], k, at); err != nil {
				return err
			}
			if err := d.decode(kv[1], val, at); err != nil {
				return err
			}
			out.SetMapIndex(k, val)
		}
		v.Set(out)
	case reflect.Pointer:
		m, ok := x.(map[string]any)
		if !ok {
			return bad()
		}
		if ref, ok := m["$ref"].(json.Number); ok {
			id, _ := ref.Int64()
			p, ok := d.ptrs[int(id)]
			if !ok || p.Type() != v.Type() {
				return fmt.Errorf("state codec: %s: pointer %d unknown", at, id)
			}
			v.Set(p)
			return nil
		}
		idn, _ := m["$id"].(json.Number)
		id, err := idn.Int64()
		if err != nil {
			return bad()
		}
		p := reflect.New(v.Type().Elem())
		d.ptrs[int(id)] = p
		if err := d.decode(m["$v"], p.Elem(), at); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Struct:
		m, ok := x.(map[string]any)
		if !ok {
			return bad()
		}
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			y, ok := m[name]
			if !ok {
				return fmt.Errorf("state codec: %s.%s: missing", at, name)
			}
			if err := d.decode(y, v.Field(i), at+"."+name); err != nil {
				return err
			}
		}
	default:
		return bad()
	}
	return nil
}
