package message

import (
	"encoding/json"
	"fmt"
	"strings"
)

// WidgetFromParameter checks the widget_content parameter of a send (a
// bot's interactive widget: Zulip knows only zform choices) and returns
// the content of the widget submessage it gives, or Zulip's error.
func WidgetFromParameter(raw string) (string, error) {
	fail := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("Widgets: "+format, args...)
	}
	doc, err := decodeOrdered(raw)
	if err != nil {
		return fail("API programmer sent invalid JSON content")
	}
	w, ok := doc.(pyDict)
	if !ok {
		return fail("widget_content is not a dict")
	}
	widgetType, ok := w.get("widget_type")
	if !ok {
		return fail("widget_type is not in widget_content")
	}
	extra, ok := w.get("extra_data")
	if !ok {
		return fail("extra_data is not in widget_content")
	}
	data, ok := extra.(pyDict)
	if !ok {
		return fail("extra_data is not a dict")
	}
	if widgetType != pyString("zform") {
		return fail("unknown widget type: %s", pyText(widgetType))
	}
	zformType, ok := data.get("type")
	if !ok {
		return fail("zform is missing type field")
	}
	if zformType != pyString("choices") {
		return fail("unknown zform type: %s", pyText(zformType))
	}
	if err := checkChoices(data); err != nil {
		return fail("%s", err.Error())
	}
	return pyDict{{"widget_type", widgetType}, {"extra_data", extra}}.json(), nil
}

// checkChoices checks a zform's choices as Zulip does: a heading, and a
// list of choices each with a short_name, long_name and reply.
func checkChoices(data pyDict) error {
	heading, ok := data.get("heading")
	if !ok {
		return fmt.Errorf("heading key is missing from extra_data")
	}
	if _, ok := heading.(pyString); !ok {
		return fmt.Errorf(`extra_data["heading"] is not a string`)
	}
	choices, ok := data.get("choices")
	if !ok {
		return fmt.Errorf("choices key is missing from extra_data")
	}
	list, ok := choices.(pyList)
	if !ok {
		return fmt.Errorf(`extra_data["choices"] is not a list`)
	}
	for i, c := range list {
		name := fmt.Sprintf(`extra_data["choices"][%d]`, i)
		choice, ok := c.(pyDict)
		if !ok {
			return fmt.Errorf("%s is not a dict", name)
		}
		for _, key := range []string{"short_name", "long_name", "reply"} {
			v, ok := choice.get(key)
			if !ok {
				return fmt.Errorf("%s key is missing from %s", key, name)
			}
			if _, ok := v.(pyString); !ok {
				return fmt.Errorf(`%s["%s"] is not a string`, name, key)
			}
		}
	}
	return nil
}

// pyRaw is a JSON number, boolean or null, written as it was read.
type pyRaw string

func (r pyRaw) appendJSON(b []byte) []byte { return append(b, r...) }

// get returns the value of key, the last one when repeated (as Python's
// json module keeps it).
func (d pyDict) get(key string) (pyValue, bool) {
	var v pyValue
	found := false
	for _, kv := range d {
		if kv.key == key {
			v, found = kv.value, true
		}
	}
	return v, found
}

// pyText is how Python prints a value in a message: a string bare.
func pyText(v pyValue) string {
	if s, ok := v.(pyString); ok {
		return string(s)
	}
	return string(v.appendJSON(nil))
}

// decodeOrdered reads one JSON value, keeping the order of object keys.
func decodeOrdered(raw string) (pyValue, error) {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (pyValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			list := pyList{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		d := pyDict{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			d = d.set(k.(string), v)
		}
		_, err := dec.Token()
		return d, err
	case string:
		return pyString(t), nil
	case json.Number:
		return pyRaw(t), nil
	case bool:
		return pyRaw(fmt.Sprint(t)), nil
	}
	return pyRaw("null"), nil
}

// set puts key's value in d: in its first place when key is repeated,
// as a Python dict keeps it.
func (d pyDict) set(key string, v pyValue) pyDict {
	for i := range d {
		if d[i].key == key {
			d[i].value = v
			return d
		}
	}
	return append(d, struct {
		key   string
		value pyValue
	}{key, v})
}
