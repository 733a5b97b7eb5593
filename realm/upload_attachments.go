package realm

import (
	"context"
	"encoding/json"
	"slices"
	"sort"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/upload"
	"github.com/minizulip/minizulip/user"
)

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

// AttachmentsResult is the answer of GET /attachments.
type AttachmentsResult struct {
	Attachments []Attachment `json:"attachments"`
	// UploadSpaceUsed is the size of every file of the realm, in bytes.
	UploadSpaceUsed int64 `json:"upload_space_used"`
}

// Attachments answers GET /attachments: the acting user's own uploads,
// newest first, and the realm's upload space used.
func (a *Actor) Attachments(ctx context.Context) (AttachmentsResult, error) {
	r := a.r
	var res AttachmentsResult
	err := a.read(ctx, func(me *user.User) error {
		res.Attachments = []Attachment{}
		for _, att := range r.ownAttachments(me.ID) {
			res.Attachments = append(res.Attachments, r.attachmentView(att))
		}
		res.UploadSpaceUsed = r.files.spaceUsed
		return nil
	})
	return res, err
}

// ownAttachments lists a user's attachments, newest first.
func (r *Realm) ownAttachments(userID int) []*storedAttachment {
	var out []*storedAttachment
	for _, att := range r.files.byID {
		if att.ownerID == userID {
			out = append(out, att)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id > out[j].id })
	return out
}

// DeleteAttachment answers DELETE /attachments/{id}: the owner deletes
// the file; messages keep their now dead links. Anything but the owner's
// own attachment is BAD_REQUEST "Invalid attachment".
func (a *Actor) DeleteAttachment(ctx context.Context, id int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		att := r.files.byID[id]
		if att == nil || att.ownerID != me.ID {
			return BadRequest("Invalid attachment")
		}
		r.deleteAttachment(att)
		return nil
	})
}

// attachmentView is att in the API shape of the realm's feature level.
// The caller holds the lock.
func (r *Realm) attachmentView(att *storedAttachment) Attachment {
	v := Attachment{ID: att.id, Name: att.name, PathID: att.pathID, Size: att.size, CreateTime: att.created.Unix()}
	if !r.has(changeAttachmentSeconds) {
		v.CreateTime = att.created.UnixMilli()
	}
	if r.has(changeAttachmentMessageIDs) {
		v.MessageIDs = slices.Clone(att.messageIDs)
		if v.MessageIDs == nil {
			v.MessageIDs = []int64{}
		}
		return v
	}
	v.Messages = make([]AttachmentMessage, 0, len(att.messageIDs))
	for _, id := range att.messageIDs {
		if m, ok := r.messages.store.Message(id); ok {
			v.Messages = append(v.Messages, AttachmentMessage{ID: id, DateSent: m.Timestamp * 1000})
		}
	}
	return v
}

// AttachmentEvent is an attachment event, sent to the file's owner only:
// op add (uploaded), update (the messages linking it changed) or remove
// (deleted, with only its ID).
type AttachmentEvent struct {
	Op         string
	Attachment Attachment // add and update
	RemovedID  int        // remove
	// UploadSpaceUsed is the realm's total, in bytes.
	UploadSpaceUsed int64
}

// MarshalJSON sends the attachment whole, or only its ID for remove.
func (e AttachmentEvent) MarshalJSON() ([]byte, error) {
	type out struct {
		Op              string `json:"op"`
		Attachment      any    `json:"attachment"`
		UploadSpaceUsed int64  `json:"upload_space_used"`
	}
	if e.Op == "remove" {
		return json.Marshal(out{Op: e.Op, Attachment: struct {
			ID int `json:"id"`
		}{e.RemovedID}, UploadSpaceUsed: e.UploadSpaceUsed})
	}
	return json.Marshal(out{Op: e.Op, Attachment: e.Attachment, UploadSpaceUsed: e.UploadSpaceUsed})
}

// emitAttachmentUpdate tells att's owner that its messages changed.
func (r *Realm) emitAttachmentUpdate(att *storedAttachment) {
	r.emit("attachment", AttachmentEvent{Op: "update", Attachment: r.attachmentView(att), UploadSpaceUsed: r.files.spaceUsed}, att.ownerID)
}

// claimUploads links m to the files its content links, where m's sender
// may read them (a link to a file the sender may not read stays a dead
// link), and tells each file's owner. The caller holds the write lock;
// m is stored.
func (r *Realm) claimUploads(m *message.Message) {
	r.claimPathIDs(m, upload.LinkedPathIDs(m.Content))
}

func (r *Realm) claimPathIDs(m *message.Message, pathIDs []string) {
	sender := r.users.byID[m.SenderID]
	for _, p := range pathIDs {
		att := r.files.byPath[p]
		if att == nil || sender == nil || !r.mayReadAttachment(sender, att) {
			continue
		}
		i, found := slices.BinarySearch(att.messageIDs, m.ID)
		if found {
			continue
		}
		att.messageIDs = slices.Insert(att.messageIDs, i, m.ID)
		r.emitAttachmentUpdate(att)
	}
}

// unlink takes m off att's messages; it reports whether m was there.
func unlink(att *storedAttachment, id int64) bool {
	i, found := slices.BinarySearch(att.messageIDs, id)
	if found {
		att.messageIDs = slices.Delete(att.messageIDs, i, i+1)
	}
	return found
}

// relinkUploads brings the files m links in line with its edited content
// (oldContent before the edit): links the edit removed let go of m, new
// ones are claimed. It returns the acting user's attachments that no
// message links any more, for detached_uploads. The caller holds the
// write lock.
func (r *Realm) relinkUploads(me *user.User, m *message.Message, oldContent string) []Attachment {
	before, after := upload.LinkedPathIDs(oldContent), upload.LinkedPathIDs(m.Content)
	detached := []Attachment{}
	for _, p := range before {
		att := r.files.byPath[p]
		if att == nil || slices.Contains(after, p) || !unlink(att, m.ID) {
			continue
		}
		r.emitAttachmentUpdate(att)
		if len(att.messageIDs) == 0 {
			r.armUnclaimedSweep(att)
			if att.ownerID == me.ID {
				detached = append(detached, r.attachmentView(att))
			}
		}
	}
	var added []string
	for _, p := range after {
		if !slices.Contains(before, p) {
			added = append(added, p)
		}
	}
	r.claimPathIDs(m, added)
	return detached
}

// releaseUploads lets deleted messages go of the files they linked; a
// file whose last linking message is gone is deleted. The caller holds
// the write lock.
func (r *Realm) releaseUploads(msgs []*message.Message) {
	for _, m := range msgs {
		for _, p := range upload.LinkedPathIDs(m.Content) {
			att := r.files.byPath[p]
			if att == nil || !unlink(att, m.ID) {
				continue
			}
			if len(att.messageIDs) == 0 {
				r.deleteAttachment(att)
			} else {
				r.emitAttachmentUpdate(att)
			}
		}
	}
}
