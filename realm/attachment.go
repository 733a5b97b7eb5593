package realm

// Attachment is an uploaded file as the API describes it (GET
// /attachments, detached_uploads of an edit).
type Attachment struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	PathID string `json:"path_id"`
	Size   int64  `json:"size"`
	// CreateTime is in UNIX seconds.
	CreateTime int64 `json:"create_time"`
	// MessageIDs are the messages (by any user) that link the file.
	MessageIDs []int64 `json:"message_ids"`
}
