package realm

import (
	"encoding/json"

	"github.com/minizulip/minizulip/user"
)

// The state sections of POST /register, one type per fetch_event_types
// entry (named after it), embedded in RegisterResult. Lists are never nil
// when their section is fetched: clients expect [] and {}, not null.

// AlertWordsState is the alert_words section.
type AlertWordsState struct {
	AlertWords []string `json:"alert_words"`
}

// CustomProfileFieldsState is the custom_profile_fields section.
type CustomProfileFieldsState struct {
	CustomProfileFields     []CustomProfileField        `json:"custom_profile_fields"`
	CustomProfileFieldTypes map[string]ProfileFieldType `json:"custom_profile_field_types"`
}

// ProfileFieldType is one entry of custom_profile_field_types.
type ProfileFieldType struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// DraftsState is the drafts section.
type DraftsState struct {
	Drafts []Draft `json:"drafts"`
}

// MessageState is the message section.
type MessageState struct {
	// MaxMessageID is the newest message the user received, -1 if none.
	MaxMessageID int64 `json:"max_message_id"`
}

// MutedTopicsState is the legacy muted_topics section, sent only when
// user_topic is not fetched.
type MutedTopicsState struct {
	MutedTopics []MutedTopic `json:"muted_topics"`
}

// MutedTopic is one entry of the legacy muted_topics list, sent as the
// array [channel name, topic, timestamp].
type MutedTopic struct {
	ChannelName string
	Topic       string
	Timestamp   int64
}

// MarshalJSON encodes the entry as Zulip's three-element array.
func (m MutedTopic) MarshalJSON() ([]byte, error) {
	return json.Marshal([3]any{m.ChannelName, m.Topic, m.Timestamp})
}

// MutedUsersState is the muted_users section.
type MutedUsersState struct {
	MutedUsers []MutedUser `json:"muted_users"`
}

// RealmEmojiState is the realm_emoji section: custom emoji by ID.
type RealmEmojiState struct {
	RealmEmoji map[string]RealmEmoji `json:"realm_emoji"`
}

// RealmFiltersState is the legacy realm_filters section, always empty.
type RealmFiltersState struct {
	RealmFilters []LegacyLinkifier `json:"realm_filters"`
}

// LegacyLinkifier is an entry of the legacy realm_filters list, which
// Zulip no longer fills.
type LegacyLinkifier struct{}

// RealmLinkifiersState is the realm_linkifiers section.
type RealmLinkifiersState struct {
	RealmLinkifiers []Linkifier `json:"realm_linkifiers"`
}

// RealmPlaygroundsState is the realm_playgrounds section.
type RealmPlaygroundsState struct {
	RealmPlaygrounds []RealmPlayground `json:"realm_playgrounds"`
}

// RealmBotState is the realm_bot section: the bots the user may manage.
type RealmBotState struct {
	RealmBots []Bot `json:"realm_bots"`
}

// IncomingWebhookBotsState is the realm_incoming_webhook_bots section:
// the incoming webhook integrations the server offers. The fake serves
// no integration (no /api/v1/external/ endpoint), so the list is empty.
type IncomingWebhookBotsState struct {
	RealmIncomingWebhookBots []IncomingWebhookIntegration `json:"realm_incoming_webhook_bots"`
}

// IncomingWebhookIntegration is one integration of
// realm_incoming_webhook_bots, as Zulip describes it: display_name and
// all_event_types from feature level 207, url_options from 403.
type IncomingWebhookIntegration struct {
	Name          string   `json:"name"`
	DisplayName   string   `json:"display_name"`
	AllEventTypes []string `json:"all_event_types"`
	ConfigOptions []any    `json:"config_options"`
	URLOptions    []any    `json:"url_options"`
}

// RealmUserState is the realm_user section: every account as the user
// sees it, and the user's own account and rights.
type RealmUserState struct {
	RealmUsers                []User `json:"realm_users"`
	RealmNonActiveUsers       []User `json:"realm_non_active_users"`
	CrossRealmBots            []User `json:"cross_realm_bots"`
	UserID                    int    `json:"user_id"`
	Email                     string `json:"email"`
	DeliveryEmail             string `json:"delivery_email"`
	FullName                  string `json:"full_name"`
	IsAdmin                   bool   `json:"is_admin"`
	IsOwner                   bool   `json:"is_owner"`
	IsModerator               bool   `json:"is_moderator"`
	IsGuest                   bool   `json:"is_guest"`
	IsBillingAdmin            *bool  `json:"is_billing_admin,omitempty"` // below feature level 363
	AvatarSource              string `json:"avatar_source"`
	AvatarURL                 string `json:"avatar_url"`
	AvatarURLMedium           string `json:"avatar_url_medium"`
	CanCreateStreams          bool   `json:"can_create_streams"`
	CanCreatePublicStreams    bool   `json:"can_create_public_streams"`
	CanCreatePrivateStreams   bool   `json:"can_create_private_streams"`
	CanCreateWebPublicStreams bool   `json:"can_create_web_public_streams"`
	CanSubscribeOtherUsers    bool   `json:"can_subscribe_other_users"`
	CanInviteOthersToRealm    bool   `json:"can_invite_others_to_realm"`
}

// RealmUserGroupsState is the realm_user_groups section.
type RealmUserGroupsState struct {
	RealmUserGroups []UserGroup `json:"realm_user_groups"`
}

// RecentPrivateConversationsState is the recent_private_conversations
// section.
type RecentPrivateConversationsState struct {
	RecentPrivateConversations []RecentConversation `json:"recent_private_conversations"`
}

// RecentConversation is one entry of recent_private_conversations.
type RecentConversation struct {
	MaxMessageID int64 `json:"max_message_id"`
	UserIDs      []int `json:"user_ids"`
}

// SavedSnippetsState is the saved_snippets section.
type SavedSnippetsState struct {
	SavedSnippets []SavedSnippet `json:"saved_snippets"`
}

// ScheduledMessagesState is the scheduled_messages section.
type ScheduledMessagesState struct {
	ScheduledMessages []ScheduledMessage `json:"scheduled_messages"`
}

// RemindersState is the reminders section (feature level 399).
type RemindersState struct {
	Reminders []Reminder `json:"reminders"`
}

// StarredMessagesState is the starred_messages section.
type StarredMessagesState struct {
	StarredMessages []int64 `json:"starred_messages"`
}

// StreamState is the stream section: every channel the user may see.
type StreamState struct {
	Streams []Stream `json:"streams"`
}

// SubscriptionState is the subscription section.
type SubscriptionState struct {
	Subscriptions   []SubscriptionView    `json:"subscriptions"`
	Unsubscribed    []SubscriptionView    `json:"unsubscribed"`
	NeverSubscribed []NeverSubscribedView `json:"never_subscribed"`
}

// UnreadState is the update_message_flags section (sent when message is
// fetched too).
type UnreadState struct {
	UnreadMsgs UnreadMessages `json:"unread_msgs"`
}

// UserSettingsState is the user_settings section.
type UserSettingsState struct {
	UserSettings user.SettingsView `json:"user_settings"`
}

// LegacyDisplaySettingsState is the update_display_settings section: the
// display settings as top-level keys, for clients without the
// user_settings_object capability (Zulip's fetch_initial_state_data).
type LegacyDisplaySettingsState struct {
	user.LegacyDisplaySettings
}

// LegacyNotificationSettingsState is the update_global_notifications
// section: the notification settings as top-level keys, for clients
// without the user_settings_object capability.
type LegacyNotificationSettingsState struct {
	user.LegacyNotificationSettings
}

// UserStatusState is the user_status section.
type UserStatusState struct {
	UserStatus map[string]UserStatus `json:"user_status"`
}

// UserTopicState is the user_topic section.
type UserTopicState struct {
	UserTopics []UserTopic `json:"user_topics"`
}

// VideoCallsState is the video_calls section.
type VideoCallsState struct {
	HasZoomToken bool `json:"has_zoom_token"`
}

// NavigationViewsState is the navigation_views section (feature level 390).
type NavigationViewsState struct {
	NavigationViews []NavigationView `json:"navigation_views"`
}

// UserSettingsDefaultsState is the realm_user_settings_defaults section.
type UserSettingsDefaultsState struct {
	UserSettingsDefaults UserSettingsDefaultsView `json:"realm_user_settings_defaults"`
}
