package message

import (
	"slices"
	"testing"
)

func TestScheduledTo(t *testing.T) {
	if id, err := ScheduledChannelID(" 7 "); err != nil || id != 7 {
		t.Fatalf("channel ID %d %v", id, err)
	}
	for _, raw := range []string{"Verona", "[7]", "7.5", ""} {
		if _, err := ScheduledChannelID(raw); err != ErrScheduledChannelID {
			t.Errorf("%q: %v", raw, err)
		}
	}
	if ids, err := ScheduledUserIDs("[12, 8, 12]"); err != nil || !slices.Equal(ids, []int{8, 12}) {
		t.Fatalf("user IDs %v %v", ids, err)
	}
	for raw, want := range map[string]error{
		"12": ErrScheduledRecipients, "null": ErrScheduledRecipients, "hamlet@zulip.com": ErrScheduledRecipients,
		`{"a": 1}`: ErrScheduledRecipients, `[12, "x"]`: ErrScheduledRecipientType, "[1.5]": ErrScheduledRecipientType,
	} {
		if _, err := ScheduledUserIDs(raw); err != want {
			t.Errorf("%q: %v, want %v", raw, err, want)
		}
	}
}
