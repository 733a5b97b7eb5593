package message

import (
	"encoding/json"
	"strconv"
	"strings"
)

// To is the parsed `to` parameter of a send request. Exactly one form is
// set: a channel by ID or by name, or a list of user IDs or of emails.
type To struct {
	ChannelID   int
	ChannelName string
	UserIDs     []int
	Emails      []string
	// IsList is true when the parameter was a list (JSON array or, for
	// emails, a comma-separated string).
	IsList bool
}

// ParseTo reads the `to` parameter in every form real clients send: a bare
// channel name, a bare integer, a JSON string or integer, a JSON array of
// integers or of strings, or a comma-separated list of emails.
func ParseTo(raw string) (To, bool) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return To{}, false
	}
	switch s[0] {
	case '[':
		var ids []int
		if err := json.Unmarshal([]byte(s), &ids); err == nil {
			return To{UserIDs: ids, IsList: true}, true
		}
		var names []string
		if err := json.Unmarshal([]byte(s), &names); err == nil {
			return To{Emails: names, IsList: true}, true
		}
		return To{}, false
	case '"':
		var name string
		if err := json.Unmarshal([]byte(s), &name); err == nil {
			return To{ChannelName: name, Emails: splitEmails(name)}, true
		}
	}
	if mayBeInt(s) {
		if id, err := strconv.Atoi(s); err == nil {
			return To{ChannelID: id, UserIDs: []int{id}}, true
		}
	}
	return To{ChannelName: raw, Emails: splitEmails(raw)}, true
}

func splitEmails(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// mayBeInt reports whether s may parse as an integer, so that names skip
// strconv.Atoi (whose error allocates).
func mayBeInt(s string) bool {
	return s != "" && (s[0] == '+' || s[0] == '-' || s[0] >= '0' && s[0] <= '9')
}
