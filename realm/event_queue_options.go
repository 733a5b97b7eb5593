package realm

import (
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/eventq"
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
	// Narrow filters message events (register's narrow: channel, topic,
	// dm, sender, is… terms).
	Narrow           []message.Term
	ApplyMarkdown    bool
	ClientGravatar   bool
	AllPublicStreams bool
	// SlimPresence drops the email from legacy presence events, and asks
	// register for presence keyed by user ID.
	SlimPresence bool
	Capabilities ClientCapabilities
	// LifespanSecs is how long the queue survives without a GET; 0 means
	// the default of 600 s, and it is capped at 7 days.
	LifespanSecs int
	// IdleTimeoutSecs is register's idle_queue_timeout (feature level
	// 481): like LifespanSecs, which it overrides when positive, capped at
	// 7 days. ParseIdleQueueTimeout reads the parameter.
	IdleTimeoutSecs int
}

// Queue is one client's event queue (see RegisterQueue). Its ID is the
// queue_id clients poll with.
type Queue = eventq.Queue[queueConfig, queued]

// queueConfig is what the engine keeps with each queue: the client's
// options and its compiled narrow.
type queueConfig struct {
	opts   QueueOptions
	narrow func(*message.Message) bool // nil: every message
	// legacyMutedTopics: the queue did not name user_topic among its event
	// types, so it gets the muted_topics list on topic changes.
	legacyMutedTopics bool
}

// eventHub is the realm's set of event queues.
type eventHub = eventq.Hub[queueConfig, queued]

// capabilitiesAtLevel is what a server of the realm's feature level
// reads of the client's capabilities: one it did not have yet is not
// declared.
func (r *Realm) capabilitiesAtLevel(c ClientCapabilities) ClientCapabilities {
	if !r.has(changeEmptyTopicCapability) {
		c.EmptyTopicName = false
	}
	if !r.has(changeDeactivatedGroupsCapability) {
		// Before the capability, every client was sent deactivated
		// groups, as the capability now asks.
		c.IncludeDeactivatedGroups = true
	}
	if !r.has(changeArchivedChannelsCapability) {
		// Before the capability, archived channels were not sent.
		c.ArchivedChannels = false
	}
	if !r.has(changeUserListIncompleteCapability) {
		// Before the capability, a restricted guest's clients were sent
		// placeholders for the users it may not access.
		c.UserListIncomplete = false
	}
	return c
}
