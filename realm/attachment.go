package realm

import "encoding/json"

// Attachment is an uploaded file as the API describes it (GET
// /attachments, detached_uploads of an edit, attachment events).
type Attachment struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	PathID string `json:"path_id"`
	Size   int64  `json:"size"`
	// CreateTime is in UNIX seconds (milliseconds on realms advertising a
	// feature level below 443).
	CreateTime int64 `json:"create_time"`
	// MessageIDs are the messages (by any user) that link the file.
	MessageIDs []int64 `json:"message_ids"`
	// Messages replaces MessageIDs on realms advertising a feature level
	// below 472: the same messages with their send times in milliseconds.
	Messages []AttachmentMessage `json:"messages,omitempty"`
}

// AttachmentMessage is one linking message in the attachment shape of
// feature levels below 472.
type AttachmentMessage struct {
	ID       int64 `json:"id"`
	DateSent int64 `json:"date_sent"` // milliseconds
}

// MarshalJSON sends either message_ids or, in the older shape, messages.
func (a Attachment) MarshalJSON() ([]byte, error) {
	type plain Attachment
	if a.Messages != nil {
		return json.Marshal(struct {
			plain
			MessageIDs []int64 `json:"message_ids,omitempty"`
		}{plain: plain(a)})
	}
	if a.MessageIDs == nil {
		a.MessageIDs = []int64{}
	}
	return json.Marshal(plain(a))
}
