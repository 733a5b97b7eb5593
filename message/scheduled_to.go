package message

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// The errors of the `to` parameter of scheduled messages, in Zulip's
// words. Unlike a send's, that `to` names a channel only by ID and users
// only by ID.
var (
	ErrScheduledChannelID     = errors.New("Invalid data type for channel ID")
	ErrScheduledRecipients    = errors.New("Invalid data type for recipients")
	ErrScheduledRecipientType = errors.New("Recipient list may only contain user IDs")
)

// ScheduledChannelID reads the `to` of a scheduled channel message: one
// integer channel ID (surrounding blanks allowed).
func ScheduledChannelID(raw string) (int, error) {
	id, err := strconv.Atoi(strings.TrimSpace(raw))
	if err != nil {
		return 0, ErrScheduledChannelID
	}
	return id, nil
}

// ScheduledUserIDs reads the `to` of a scheduled direct message: a JSON
// list of integer user IDs, returned sorted without repeats.
func ScheduledUserIDs(raw string) ([]int, error) {
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &list); err != nil || list == nil {
		return nil, ErrScheduledRecipients
	}
	ids := make([]int, 0, len(list))
	for _, e := range list {
		var id int
		if err := json.Unmarshal(e, &id); err != nil {
			return nil, ErrScheduledRecipientType
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
