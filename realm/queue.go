package realm

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/minizulip/minizulip/message"
)

// ClientCapabilities are the client_capabilities flags of POST /register.
type ClientCapabilities struct {
	NotificationSettingsNull   bool `json:"notification_settings_null"`
	BulkMessageDeletion        bool `json:"bulk_message_deletion"`
	UserAvatarURLFieldOptional bool `json:"user_avatar_url_field_optional"`
	StreamTypingNotifications  bool `json:"stream_typing_notifications"`
	UserSettingsObject         bool `json:"user_settings_object"`
	LinkifierURLTemplate       bool `json:"linkifier_url_template"`
	UserListIncomplete         bool `json:"user_list_incomplete"`
	IncludeDeactivatedGroups   bool `json:"include_deactivated_groups"`
	ArchivedChannels           bool `json:"archived_channels"`
	EmptyTopicName             bool `json:"empty_topic_name"`
	SimplifiedPresenceEvents   bool `json:"simplified_presence_events"`
}

// QueueOptions are the parameters of an event queue (POST /register).
type QueueOptions struct {
	// EventTypes limits the queue to these event types; nil means all.
	EventTypes []string
	// Narrow filters message events: legacy [operator, operand] pairs.
	Narrow           [][2]string
	ApplyMarkdown    bool
	ClientGravatar   bool
	AllPublicStreams bool
	Capabilities     ClientCapabilities
	// LifespanSecs is how long the queue survives without a GET; 0 means
	// the default of 600 s, and it is capped at 7 days.
	LifespanSecs int
}

// Queue is one client's event queue. Its fields are guarded by the
// realm's event hub.
type Queue struct {
	id       string
	userID   int
	opts     QueueOptions
	types    map[string]bool // nil: every type
	narrow   func(*message.Message) bool
	lifespan time.Duration

	pending    []queued
	nextID     int
	pruned     int // highest event ID already discarded, -1 if none
	lastAccess time.Time
	wake       chan struct{} // closed when an event arrives; nil when no GET waits
	waiting    int
	dead       bool
}

// ID is the queue's ID (queue_id).
func (q *Queue) ID() string { return q.id }

// wants reports whether the queue takes changes of this type.
func (q *Queue) wants(typ string) bool {
	if typ == "heartbeat" {
		return true
	}
	return q.types == nil || q.types[typ]
}

// newQueueID returns a random UUID4 string, the shape Zulip's queue IDs have.
func newQueueID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
