package message

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ParseWidgetType reads a widget submessage's content and returns its
// widget_type: "" when the content is not JSON, not an object, or has no
// string widget_type (as Zulip reads it: such a message has no widget).
func ParseWidgetType(content string) string {
	var w struct {
		WidgetType any `json:"widget_type"`
	}
	if json.Unmarshal([]byte(content), &w) != nil {
		return ""
	}
	t, _ := w.WidgetType.(string)
	return t
}

// ValidJSON reports whether content is one JSON value, as a submessage's
// content must be.
func ValidJSON(content string) bool { return json.Valid([]byte(content)) }

// CheckWidgetData checks a submessage's content against the widget it
// changes, with Zulip's messages: a poll takes votes, options and (from
// its author only) a question; a to-do list takes tasks, strikes and
// (from its author only) a title. Content of other widgets, or of a
// message without one, is not checked.
func CheckWidgetData(widgetType, content string, isAuthor bool) error {
	var name string
	switch widgetType {
	case "poll":
		name = "poll data"
	case "todo":
		name = "todo data"
	default:
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(content))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		return fmt.Errorf("Invalid json for submessage")
	}
	obj, ok := data.(map[string]any)
	if !ok {
		return fmt.Errorf("%s is not a dict", name)
	}
	if err := checkFields(name, obj, []field{{"type", isString}}, false); err != nil {
		return err
	}
	typ := obj["type"].(string)
	var fields []field
	switch {
	case widgetType == "poll" && typ == "vote":
		fields = []field{{"key", isString}, {"vote", intIn(1, -1)}}
	case widgetType == "poll" && typ == "question":
		if !isAuthor {
			return fmt.Errorf("You can't edit a question unless you are the author.")
		}
		fields = []field{{"question", isString}}
	case widgetType == "poll" && typ == "new_option":
		fields = []field{{"option", isString}, {"idx", intRange(0, maxWidgetIndex)}}
	case widgetType == "todo" && typ == "new_task":
		fields = []field{{"key", intRange(0, maxWidgetIndex)}, {"task", isString}, {"desc", isString}, {"completed", isBool}}
	case widgetType == "todo" && typ == "strike":
		fields = []field{{"key", isString}}
	case widgetType == "todo" && typ == "new_task_list_title":
		if !isAuthor {
			return fmt.Errorf("You can't edit the task list title unless you are the author.")
		}
		fields = []field{{"title", isString}}
	default:
		return fmt.Errorf("Unknown type for %s: %s", name, typ)
	}
	return checkFields(name, obj, append([]field{{"type", isString}}, fields...), true)
}

// field is a required key of a widget's data and its check, which
// returns the error's ending ("is not a string") or "".
type field struct {
	key   string
	check func(v any) string
}

// checkFields checks obj's required fields in order and, when only is
// set, that it has no others, with Zulip's parameter validation words.
func checkFields(name string, obj map[string]any, fields []field, only bool) error {
	for _, f := range fields {
		v, ok := obj[f.key]
		if !ok {
			return fmt.Errorf("%s key is missing from %s", f.key, name)
		}
		if msg := f.check(v); msg != "" {
			if strings.HasPrefix(msg, "Invalid") {
				return fmt.Errorf(`Invalid %s["%s"]`, name, f.key)
			}
			return fmt.Errorf(`%s["%s"] %s`, name, f.key, msg)
		}
	}
	if !only {
		return nil
	}
	var extra []string
	for k := range obj {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.key == k }) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return fmt.Errorf("Unexpected arguments: %s", strings.Join(extra, ", "))
	}
	return nil
}

func isString(v any) string {
	if _, ok := v.(string); !ok {
		return "is not a string"
	}
	return ""
}

func isBool(v any) string {
	if _, ok := v.(bool); !ok {
		return "is not a boolean"
	}
	return ""
}

// pyInt reads v as Python's isinstance(v, int) would: an integral JSON
// number, or a boolean (Python's bool is an int).
func pyInt(v any) (int64, bool) {
	switch n := v.(type) {
	case bool:
		if n {
			return 1, true
		}
		return 0, true
	case json.Number:
		if bytes.ContainsAny([]byte(n), ".eE") {
			return 0, false
		}
		i, err := n.Int64()
		if err != nil { // beyond int64: Python still has an int, out of any range here
			if strings.HasPrefix(string(n), "-") {
				return -1 << 63, true
			}
			return 1<<63 - 1, true
		}
		return i, true
	}
	return 0, false
}

func intIn(allowed ...int64) func(any) string {
	return func(v any) string {
		n, ok := pyInt(v)
		if !ok {
			return "is not an integer"
		}
		if !slices.Contains(allowed, n) {
			return "Invalid"
		}
		return ""
	}
}

func intRange(low, high int64) func(any) string {
	return func(v any) string {
		n, ok := pyInt(v)
		switch {
		case !ok:
			return "is not an integer"
		case n < low:
			return "is too small"
		case n > high:
			return "is too large"
		}
		return ""
	}
}
