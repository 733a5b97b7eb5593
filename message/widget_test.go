package message

import (
	"strings"
	"testing"
)

// /poll and /todo messages give Zulip's widget descriptions, written as
// Python's json.dumps writes them; other messages give none.
func TestWidgetFromContent(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{"/poll Lunch?\n- Pizza\n* Sushi\n  \nRamen place", `{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Sushi", "Ramen place"]}}`},
		{"/poll", `{"widget_type": "poll", "extra_data": {"question": "", "options": []}}`},
		{"/poll\nA\r\nB", `{"widget_type": "poll", "extra_data": {"question": "", "options": ["A", "B"]}}`},
		{"/poll Café ☕ \"x\"", `{"widget_type": "poll", "extra_data": {"question": "Caf\u00e9 \u2615 \"x\"", "options": []}}`},
		{"/poll 😀", `{"widget_type": "poll", "extra_data": {"question": "\ud83d\ude00", "options": []}}`},
		{"/todo Release\n- Tag: on main\nAnnounce\n- Ship: it: now", `{"widget_type": "todo", "extra_data": {"task_list_title": "Release", "tasks": [{"task": "Tag", "desc": "on main"}, {"task": "Announce", "desc": ""}, {"task": "Ship", "desc": "it: now"}]}}`},
		{"/todo", `{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}`},
	} {
		got, ok := WidgetFromContent(c.content)
		if !ok || got != c.want {
			t.Errorf("%q:\n got %s %v\nwant %s", c.content, got, ok, c.want)
		}
	}
	for _, content := range []string{"/polls x", " /poll x", "poll", "/me waves", "hello /poll", "/Poll x"} {
		if got, ok := WidgetFromContent(content); ok {
			t.Errorf("%q made a widget: %s", content, got)
		}
	}
}

// Submessages to a poll or a to-do list are checked with Zulip's
// messages; the author alone changes the question or title; other
// widgets' data is not checked.
func TestCheckWidgetData(t *testing.T) {
	for _, c := range []struct {
		widget, content string
		author          bool
		want            string
	}{
		{"poll", `{"type": "vote", "key": "canned,0", "vote": 1}`, false, ""},
		{"poll", `{"type": "vote", "key": "canned,0", "vote": -1}`, false, ""},
		{"poll", `{"type": "vote", "key": "canned,0", "vote": true}`, false, ""},
		{"poll", `{"type": "vote", "key": "canned,0", "vote": 2}`, false, `Invalid poll data["vote"]`},
		{"poll", `{"type": "vote", "key": "canned,0", "vote": 1.0}`, false, `poll data["vote"] is not an integer`},
		{"poll", `{"type": "vote", "vote": 1}`, false, "key key is missing from poll data"},
		{"poll", `{"type": "vote", "key": 3, "vote": 1}`, false, `poll data["key"] is not a string`},
		{"poll", `{"type": "vote", "key": "k", "vote": 1, "z": 1, "a": 2}`, false, "Unexpected arguments: a, z"},
		{"poll", `{"type": "question", "question": "Why?"}`, true, ""},
		{"poll", `{"type": "question", "question": "Why?"}`, false, "You can't edit a question unless you are the author."},
		{"poll", `{"type": "new_option", "option": "Tea", "idx": 1000}`, false, ""},
		{"poll", `{"type": "new_option", "option": "Tea", "idx": 1001}`, false, `poll data["idx"] is too large`},
		{"poll", `{"type": "new_option", "option": "Tea", "idx": -1}`, false, `poll data["idx"] is too small`},
		{"poll", `{"type": "close"}`, true, "Unknown type for poll data: close"},
		{"poll", `{"kind": "vote"}`, true, "type key is missing from poll data"},
		{"poll", `{"type": 1}`, true, `poll data["type"] is not a string`},
		{"poll", `[1]`, true, "poll data is not a dict"},
		{"todo", `{"type": "new_task", "key": 3, "task": "Tag", "desc": "", "completed": false}`, false, ""},
		{"todo", `{"type": "new_task", "key": 3, "task": "Tag", "desc": "", "completed": 0}`, false, `todo data["completed"] is not a boolean`},
		{"todo", `{"type": "new_task", "key": "3", "task": "Tag", "desc": "", "completed": false}`, false, `todo data["key"] is not an integer`},
		{"todo", `{"type": "strike", "key": "3,canned"}`, false, ""},
		{"todo", `{"type": "new_task_list_title", "title": "T"}`, false, "You can't edit the task list title unless you are the author."},
		{"todo", `{"type": "new_task_list_title", "title": "T"}`, true, ""},
		{"todo", `{"type": "vote"}`, true, "Unknown type for todo data: vote"},
		{"zform", `{"anything": [1]}`, false, ""},
		{"", `3`, false, ""},
	} {
		err := CheckWidgetData(c.widget, c.content, c.author)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s %s (author %v): got %q, want %q", c.widget, c.content, c.author, got, c.want)
		}
	}
	if got := ParseWidgetType(`{"widget_type": "poll", "extra_data": {}}`); got != "poll" {
		t.Errorf("widget type %q", got)
	}
	if got := ParseWidgetType(`{"widget_type": 3}`); got != "" {
		t.Errorf("widget type of a number: %q", got)
	}
}

// A bot's widget_content is a zform of choices, checked as Zulip checks
// it and rewritten around its extra_data; anything else is refused.
func TestWidgetFromParameter(t *testing.T) {
	good := `{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Q?", "choices": [{"type": "multiple_choice", "short_name": "A", "long_name": "Yes", "reply": "answer q1 A"}]}, "ignored": 1}`
	got, err := WidgetFromParameter(good)
	want := `{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Q?", "choices": [{"type": "multiple_choice", "short_name": "A", "long_name": "Yes", "reply": "answer q1 A"}]}}`
	if err != nil || got != want {
		t.Fatalf("got %s %v\nwant %s", got, err, want)
	}
	for _, c := range []struct{ raw, want string }{
		{`{`, "API programmer sent invalid JSON content"},
		{`[]`, "widget_content is not a dict"},
		{`{"extra_data": {}}`, "widget_type is not in widget_content"},
		{`{"widget_type": "zform"}`, "extra_data is not in widget_content"},
		{`{"widget_type": "zform", "extra_data": []}`, "extra_data is not a dict"},
		{`{"widget_type": "poll", "extra_data": {}}`, "unknown widget type: poll"},
		{`{"widget_type": "zform", "extra_data": {}}`, "zform is missing type field"},
		{`{"widget_type": "zform", "extra_data": {"type": "form"}}`, "unknown zform type: form"},
		{`{"widget_type": "zform", "extra_data": {"type": "choices", "choices": []}}`, "heading key is missing from extra_data"},
		{`{"widget_type": "zform", "extra_data": {"type": "choices", "heading": 1, "choices": []}}`, `extra_data["heading"] is not a string`},
		{`{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "", "choices": {}}}`, `extra_data["choices"] is not a list`},
		{`{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "", "choices": [{"short_name": "A", "long_name": "B"}]}}`, `reply key is missing from extra_data["choices"][0]`},
		{`{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "", "choices": [{"short_name": "A", "long_name": "B", "reply": 3}]}}`, `extra_data["choices"][0]["reply"] is not a string`},
	} {
		_, err := WidgetFromParameter(c.raw)
		if err == nil || err.Error() != "Widgets: "+c.want {
			t.Errorf("%s: got %v, want %q", c.raw, err, c.want)
		}
	}
	if _, err := WidgetFromParameter(strings.Repeat("[", 3)); err == nil {
		t.Error("broken JSON was accepted")
	}
}
