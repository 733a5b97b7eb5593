package message

import (
	"regexp"
	"strings"
	"unicode"
)

// This file holds Zulip's widgets: a message starting with /poll or /todo
// becomes a poll or a to-do list, whose first submessage (msg_type
// "widget") describes it, and whose later submessages are the votes,
// options and tasks clients add (POST /submessage).

// Submessage is a small message attached to a message: a widget's
// description or one of its changes.
type Submessage struct {
	ID       int64
	SenderID int
	MsgType  string
	// Content is the JSON text, as sent.
	Content string
}

// WidgetMsgType is the msg_type of a widget's describing submessage.
const WidgetMsgType = "widget"

// maxWidgetIndex bounds an option's idx and a task's key (Zulip's
// MAX_IDX, which its clients share).
const maxWidgetIndex = 1000

// WidgetFromContent returns the content of the widget submessage Zulip
// attaches to a message with this content, and whether there is one: the
// first word /poll starts a poll (its question on the first line, an
// option on each other line, list markers dropped), /todo a to-do list
// (its title, then a task on each line, "task: description").
func WidgetFromContent(content string) (string, bool) {
	if !strings.HasPrefix(content, "/poll") && !strings.HasPrefix(content, "/todo") {
		return "", false // every other message, cheaply
	}
	first := content
	if i := strings.IndexFunc(content, unicode.IsSpace); i >= 0 {
		first = content[:i]
	}
	rest := strings.Replace(content, first, "", 1)
	switch first {
	case "/poll":
		question, lines := widgetHeading(rest)
		options := pyList{}
		for _, line := range lines {
			if option := dropListMarker(line); option != "" {
				options = append(options, pyString(option))
			}
		}
		return encodeWidget("poll", pyDict{{"question", pyString(question)}, {"options", options}}), true
	case "/todo":
		title, lines := widgetHeading(rest)
		tasks := pyList{}
		for _, line := range lines {
			task := dropListMarker(line)
			if task == "" {
				continue
			}
			name, desc, _ := strings.Cut(task, ": ")
			tasks = append(tasks, pyDict{{"task", pyString(pyStrip(name))}, {"desc", pyString(pyStrip(desc))}})
		}
		return encodeWidget("todo", pyDict{{"task_list_title", pyString(title)}, {"tasks", tasks}}), true
	}
	return "", false
}

// widgetHeading splits a widget's text into its heading (the first line,
// when not empty) and the other lines, as Python's splitlines splits.
func widgetHeading(text string) (string, []string) {
	lines := pySplitLines(text)
	if len(lines) > 0 && lines[0] != "" {
		return pyStrip(lines[0]), lines[1:]
	}
	return "", lines
}

// listMarker is a leading list marker, as Zulip drops it from an option
// or task.
var listMarker = regexp.MustCompile(`^[-*]?\s*`)

// dropListMarker strips line and drops a leading "-" or "*" with the
// spaces after it.
func dropListMarker(line string) string {
	return listMarker.ReplaceAllString(pyStrip(line), "")
}

func encodeWidget(widgetType string, extra pyDict) string {
	return pyDict{{"widget_type", pyString(widgetType)}, {"extra_data", extra}}.json()
}
