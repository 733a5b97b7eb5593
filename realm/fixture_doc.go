package realm

// This file holds the fixture document: one JSON object describing a
// realm, written by Realm.Dump and read by Load.
//
// What it holds: realm settings, the realm's email domains among them; users (bots and system bots included,
// with role, owner, time zone, join date, API key and the personal
// settings that differ from the defaults); user groups (system groups come
// with every realm and are not listed); channel folders; channels with
// their settings and folder; subscriptions with their properties; linkifiers; code playgrounds;
// custom emoji (image
// bytes included); messages with their reactions and, for each user
// holding a copy, that copy's flags; users' muted users, alert words and
// topic visibility policies; custom profile fields and users' values;
// drafts and scheduled messages; navigation views and saved snippets;
// the realm's defaults of personal settings; user statuses and presence;
// message reminders; uploaded files (bytes included) with the messages
// claiming them.
//
// What it leaves out: rendered HTML (Load renders each message's Markdown
// again, as a send does), edit history (edit and move timestamps are
// kept), passwords, avatars, the numbering of presence updates (Load
// numbers them from 1), reminders about messages their user can no longer
// read or of deactivated users, resumable uploads under way, temporary
// file URLs, realm exports, the mail outbox and event queues.
//
// Absent fields take the value a new realm gives them, so a hand-written
// fixture names only what matters to it; unknown fields are refused.

// FixtureFormat is the format version of fixture documents, their
// "minizulip_fixture" field.
const FixtureFormat = 1

// Fixture is a realm as a JSON document.
type Fixture struct {
	Format         int                    `json:"minizulip_fixture"`
	Settings       FixtureSettings        `json:"settings"`
	Users          []FixtureUser          `json:"users"`
	Groups         []FixtureGroup         `json:"groups,omitempty"`
	ChannelFolders []FixtureChannelFolder `json:"channel_folders,omitempty"`
	Channels       []FixtureChannel       `json:"channels,omitempty"`
	Subscriptions  []FixtureSubscription  `json:"subscriptions,omitempty"`
	Linkifiers     []FixtureLinkifier     `json:"linkifiers,omitempty"`
	Playgrounds    []RealmPlayground      `json:"playgrounds,omitempty"`
	CustomEmoji    []FixtureEmoji         `json:"custom_emoji,omitempty"`
	Messages       []FixtureMessage       `json:"messages,omitempty"`
	// Users' own state (fixture_load_user_data.go).
	MutedUsers []FixtureMutedUser  `json:"muted_users,omitempty"`
	AlertWords []FixtureAlertWords `json:"alert_words,omitempty"`
	UserTopics []FixtureUserTopic  `json:"user_topics,omitempty"`
	BotStorage []FixtureStorage    `json:"bot_storage,omitempty"`
	// Custom profile fields and users' values (fixture_load_profiles.go).
	CustomProfileFields []FixtureProfileField `json:"custom_profile_fields,omitempty"`
	ProfileData         []FixtureProfileValue `json:"profile_data,omitempty"`
	// Drafts and scheduled messages (fixture_load_drafts.go).
	Drafts            []FixtureDraft            `json:"drafts,omitempty"`
	ScheduledMessages []FixtureScheduledMessage `json:"scheduled_messages,omitempty"`
	// Navigation views, saved snippets and the personal settings new
	// users start with (fixture_load_views.go).
	NavigationViews []FixtureNavigationView `json:"navigation_views,omitempty"`
	SavedSnippets   []FixtureSavedSnippet   `json:"saved_snippets,omitempty"`
	// UserSettingsDefaults are the realm's defaults of personal settings
	// (PATCH /realm/user_settings_defaults) by API name, those absent at
	// a new realm's defaults.
	UserSettingsDefaults map[string]any `json:"realm_user_default,omitempty"`
	// RealmDomains are the realm's email domains in the order added
	// (fixture_load_domains.go); absent keeps a new realm's zulip.com.
	RealmDomains []RealmDomain `json:"realm_domains"`
	// Users' statuses and presence (fixture_load_presence.go).
	UserStatuses []FixtureUserStatus `json:"user_statuses,omitempty"`
	Presence     []FixturePresence   `json:"presence,omitempty"`
	// Message reminders (fixture_load_reminders.go).
	Reminders []FixtureReminder `json:"reminders,omitempty"`
	// Uploaded files (fixture_load_uploads.go).
	Uploads []FixtureUpload `json:"uploads,omitempty"`
}

// FixtureSettings are the realm settings of a fixture, by their API
// names; time limits are seconds, null for none.
type FixtureSettings struct {
	Name                                   string `json:"name"`
	Description                            string `json:"description"`
	EmailAddressVisibility                 int    `json:"email_address_visibility"`
	AllowMessageEditing                    bool   `json:"allow_message_editing"`
	MessageContentEditLimitSeconds         *int   `json:"message_content_edit_limit_seconds"`
	MoveMessagesWithinStreamLimitSeconds   *int   `json:"move_messages_within_stream_limit_seconds"`
	MoveMessagesBetweenStreamsLimitSeconds *int   `json:"move_messages_between_streams_limit_seconds"`
	MessageContentDeleteLimitSeconds       *int   `json:"message_content_delete_limit_seconds"`
	MandatoryTopics                        bool   `json:"mandatory_topics"`
	EmptyTopicDisplayName                  string `json:"empty_topic_display_name"`
	DefaultLanguage                        string `json:"default_language"`
	EnableSpectatorAccess                  bool   `json:"enable_spectator_access"`
	EnableReadReceipts                     bool   `json:"enable_read_receipts"`
	// ModerationRequestChannelID is the private channel message reports
	// go to, -1 when reporting is off.
	ModerationRequestChannelID int `json:"moderation_request_channel_id"`
	// GroupSettings are the realm's permission settings (e.g.
	// "can_create_groups"): a group ID or {"direct_members",
	// "direct_subgroups"}.
	GroupSettings map[string]GroupSetting `json:"group_settings"`
	// EmailsRestrictedToDomains and DisallowDisposableEmailAddresses are
	// the realm's rules for new users' addresses (email_rules.go).
	EmailsRestrictedToDomains        bool `json:"emails_restricted_to_domains"`
	DisallowDisposableEmailAddresses bool `json:"disallow_disposable_email_addresses"`
	// MaxInvites is the daily invitation limit (Zulip's max_invites).
	MaxInvites int `json:"max_invites"`
	// EmailChangesDisabled, NameChangesDisabled and AvatarChangesDisabled
	// keep users who are not administrators from changing those.
	EmailChangesDisabled  bool `json:"email_changes_disabled,omitempty"`
	NameChangesDisabled   bool `json:"name_changes_disabled,omitempty"`
	AvatarChangesDisabled bool `json:"avatar_changes_disabled,omitempty"`
}

// FixtureUser is an account.
type FixtureUser struct {
	ID       int    `json:"id"`
	Email    string `json:"email"`
	FullName string `json:"full_name"`
	// Role is Zulip's role number: 100 owner, 200 administrator, 300
	// moderator, 400 member (the default), 600 guest.
	Role int `json:"role,omitempty"`
	// BotType is Zulip's bot type (1 generic, 2 incoming webhook, 3
	// outgoing webhook, 4 embedded); absent for humans.
	BotType     int    `json:"bot_type,omitempty"`
	BotOwnerID  int    `json:"bot_owner_id,omitempty"`
	IsSystemBot bool   `json:"is_system_bot,omitempty"`
	Deactivated bool   `json:"deactivated,omitempty"`
	Timezone    string `json:"timezone,omitempty"`
	DateJoined  int64  `json:"date_joined,omitempty"`
	// APIKey is the account's API key; absent, the realm makes one as for
	// a new account (see WithAPIKeys and WithAPIKeySeed).
	APIKey string `json:"api_key,omitempty"`
	// Settings are personal settings by API name (PATCH /settings), those
	// absent at their defaults.
	Settings map[string]any `json:"settings,omitempty"`
	// Service is an outgoing-webhook bot's service (bot_type 3 only).
	Service *FixtureService `json:"service,omitempty"`
}

// FixtureService is an outgoing-webhook bot's service: its name, payload
// URL, interface (1 generic, the default, or 2 Slack) and token (absent,
// a new one is made).
type FixtureService struct {
	Name      string `json:"name,omitempty"`
	BaseURL   string `json:"base_url"`
	Interface int    `json:"interface,omitempty"`
	Token     string `json:"token,omitempty"`
}

// FixtureGroup is a user group (not a system group).
type FixtureGroup struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Members     []int  `json:"members"`
	Subgroups   []int  `json:"subgroups,omitempty"`
	Deactivated bool   `json:"deactivated,omitempty"`
	CreatorID   int    `json:"creator_id,omitempty"`
	DateCreated int64  `json:"date_created,omitempty"`
	// Settings are the group's permission settings by API name (e.g.
	// "can_join_group"): group IDs; absent ones have a new group's
	// defaults.
	Settings map[string]int `json:"settings,omitempty"`
}

// FixtureChannelFolder is a channel folder.
type FixtureChannelFolder struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Order places the folder among the others, lowest first; absent,
	// its ID.
	Order       *int  `json:"order,omitempty"`
	CreatorID   int   `json:"creator_id,omitempty"`
	DateCreated int64 `json:"date_created,omitempty"`
	IsArchived  bool  `json:"is_archived,omitempty"`
}

// FixtureChannel is a channel.
type FixtureChannel struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	InviteOnly  bool   `json:"invite_only,omitempty"`
	// HistoryPublicToSubscribers defaults to true for public channels and
	// false for private ones.
	HistoryPublicToSubscribers *bool  `json:"history_public_to_subscribers,omitempty"`
	IsWebPublic                bool   `json:"is_web_public,omitempty"`
	IsArchived                 bool   `json:"is_archived,omitempty"`
	IsDefault                  bool   `json:"is_default_stream,omitempty"`
	CreatorID                  int    `json:"creator_id,omitempty"`
	DateCreated                int64  `json:"date_created,omitempty"`
	MessageRetentionDays       *int   `json:"message_retention_days,omitempty"`
	TopicsPolicy               string `json:"topics_policy,omitempty"`
	// CanSendMessageGroup is the group allowed to post; absent,
	// role:everyone.
	CanSendMessageGroup int `json:"can_send_message_group,omitempty"`
	// Permissions are the channel's other group settings by API name;
	// absent ones have Zulip's defaults.
	Permissions map[string]GroupSetting `json:"permissions,omitempty"`
	// FolderID is the channel's folder; absent, none.
	FolderID int `json:"folder_id,omitempty"`
}

// FixtureSubscription is a user's subscription to a channel.
type FixtureSubscription struct {
	UserID    int `json:"user_id"`
	ChannelID int `json:"channel_id"`
	// Inactive keeps the properties of a user who unsubscribed.
	Inactive bool   `json:"inactive,omitempty"`
	Color    string `json:"color,omitempty"`
	IsMuted  bool   `json:"is_muted,omitempty"`
	PinToTop bool   `json:"pin_to_top,omitempty"`
	// Notification overrides; absent ones follow the user's defaults.
	DesktopNotifications   *bool `json:"desktop_notifications,omitempty"`
	AudibleNotifications   *bool `json:"audible_notifications,omitempty"`
	PushNotifications      *bool `json:"push_notifications,omitempty"`
	EmailNotifications     *bool `json:"email_notifications,omitempty"`
	WildcardMentionsNotify *bool `json:"wildcard_mentions_notify,omitempty"`
}

// FixtureLinkifier is a linkifier, in the order linkifiers apply.
type FixtureLinkifier struct {
	ID                      int      `json:"id"`
	Pattern                 string   `json:"pattern"`
	URLTemplate             string   `json:"url_template"`
	ExampleInput            *string  `json:"example_input,omitempty"`
	ReverseTemplate         *string  `json:"reverse_template,omitempty"`
	AlternativeURLTemplates []string `json:"alternative_url_templates,omitempty"`
}

// FixtureEmoji is a custom emoji.
type FixtureEmoji struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	AuthorID    int    `json:"author_id"`
	Deactivated bool   `json:"deactivated,omitempty"`
	// FileName is the image's name below the emoji path: the ID and an
	// extension (absent: "<id>.png").
	FileName string `json:"file_name,omitempty"`
	// Image is the image's bytes (base64 in JSON), checked as an upload
	// is; absent, the emoji has no image to serve.
	Image []byte `json:"image,omitempty"`
}

// FixtureMessage is a message: to a channel and topic, or (To set) a
// direct message.
type FixtureMessage struct {
	ID        int64  `json:"id"`
	SenderID  int    `json:"sender_id"`
	ChannelID int    `json:"channel_id,omitempty"`
	Topic     string `json:"topic,omitempty"`
	// To are the other participants of a direct message (the sender
	// alone for a message to oneself).
	To      []int  `json:"to,omitempty"`
	Content string `json:"content"`
	// Timestamp is when it was sent, in Unix seconds.
	Timestamp          int64             `json:"timestamp"`
	Client             string            `json:"client,omitempty"`
	LastEditTimestamp  int64             `json:"last_edit_timestamp,omitempty"`
	LastMovedTimestamp int64             `json:"last_moved_timestamp,omitempty"`
	Reactions          []FixtureReaction `json:"reactions,omitempty"`
	// Submessages are the message's submessages, oldest first, IDs
	// ascending across the document. A /poll or /todo message gets no
	// widget unless its widget submessage is listed.
	Submessages []FixtureSubmessage `json:"submessages,omitempty"`
	// Flags lists, for each user holding a copy of the message, that
	// copy's flags ("read", "starred", …).
	Flags map[int][]string `json:"flags"`
}

// FixtureReaction is one user's reaction to a message.
type FixtureReaction struct {
	UserID       int    `json:"user_id"`
	EmojiName    string `json:"emoji_name"`
	EmojiCode    string `json:"emoji_code"`
	ReactionType string `json:"reaction_type"`
}

// FixtureSubmessage is a submessage of a message (POST /submessage, or
// the widget of a /poll, /todo or widget_content message).
type FixtureSubmessage struct {
	ID       int64  `json:"id"`
	SenderID int    `json:"sender_id"`
	MsgType  string `json:"msg_type"`
	// Content is JSON text.
	Content string `json:"content"`
}

// FixtureMutedUser is a user muted by another, listed in muting order.
type FixtureMutedUser struct {
	UserID      int `json:"user_id"`
	MutedUserID int `json:"muted_user_id"`
	// Timestamp is when, in Unix seconds; absent, when loaded.
	Timestamp int64 `json:"timestamp,omitempty"`
}

// FixtureAlertWords are a user's alert words, in the order added.
type FixtureAlertWords struct {
	UserID int      `json:"user_id"`
	Words  []string `json:"words"`
}

// FixtureStorage is a user's key-value storage (/bot_storage).
type FixtureStorage struct {
	UserID  int               `json:"user_id"`
	Storage map[string]string `json:"storage"`
}

// FixtureUserTopic is a user's visibility policy for a topic.
type FixtureUserTopic struct {
	UserID    int    `json:"user_id"`
	ChannelID int    `json:"channel_id"`
	Topic     string `json:"topic"`
	// VisibilityPolicy is Zulip's number: 1 muted, 2 unmuted, 3 followed.
	VisibilityPolicy int `json:"visibility_policy"`
	// LastUpdated is in Unix seconds; absent, when loaded.
	LastUpdated int64 `json:"last_updated,omitempty"`
}

// FixtureProfileField is a custom profile field definition.
type FixtureProfileField struct {
	ID int `json:"id"`
	// Type is Zulip's field type number (1 short text … 8 pronouns).
	Type      int    `json:"type"`
	Name      string `json:"name"`
	Hint      string `json:"hint,omitempty"`
	FieldData string `json:"field_data,omitempty"`
	// Order places the field among the others, lowest first; absent,
	// its ID.
	Order                   *int `json:"order,omitempty"`
	DisplayInProfileSummary bool `json:"display_in_profile_summary,omitempty"`
	Required                bool `json:"required,omitempty"`
	// EditableByUser defaults to true, as for a new field.
	EditableByUser *bool `json:"editable_by_user,omitempty"`
}

// FixtureProfileValue is a user's value of a custom profile field: a
// string, or for a user field a list of user IDs.
type FixtureProfileValue struct {
	UserID  int `json:"user_id"`
	FieldID int `json:"field_id"`
	Value   any `json:"value"`
}

// FixtureDraft is a user's draft, listed in creation order.
type FixtureDraft struct {
	ID     int `json:"id"`
	UserID int `json:"user_id"`
	// Type is "stream", "private", or absent for a draft with no
	// recipient; To is as the API has it (a channel ID, or users).
	Type    string `json:"type,omitempty"`
	To      []int  `json:"to,omitempty"`
	Topic   string `json:"topic,omitempty"`
	Content string `json:"content"`
	// Timestamp is the last edit in Unix seconds (to the microsecond);
	// absent, when loaded.
	Timestamp *float64 `json:"timestamp,omitempty"`
}

// FixtureScheduledMessage is a message scheduled for delivery: to a
// channel and topic, or (To set) a direct message, as FixtureMessage.
type FixtureScheduledMessage struct {
	ID        int    `json:"id"`
	SenderID  int    `json:"sender_id"`
	ChannelID int    `json:"channel_id,omitempty"`
	Topic     string `json:"topic,omitempty"`
	To        []int  `json:"to,omitempty"`
	Content   string `json:"content"`
	// DeliverAt is the delivery time in Unix seconds.
	DeliverAt int64 `json:"scheduled_delivery_timestamp"`
	// ReadBySender absent takes the API's default.
	ReadBySender *bool  `json:"read_by_sender,omitempty"`
	Client       string `json:"client,omitempty"`
	// Failed marks a delivery that was tried and refused, for Failure.
	Failed  bool   `json:"failed,omitempty"`
	Failure string `json:"failure,omitempty"`
}

// FixtureNavigationView is a user's navigation view, listed in the
// order added.
type FixtureNavigationView struct {
	UserID   int     `json:"user_id"`
	Fragment string  `json:"fragment"`
	IsPinned bool    `json:"is_pinned,omitempty"`
	Name     *string `json:"name,omitempty"`
}

// FixtureSavedSnippet is a user's saved snippet.
type FixtureSavedSnippet struct {
	ID      int    `json:"id"`
	UserID  int    `json:"user_id"`
	Title   string `json:"title"`
	Content string `json:"content"`
	// DateCreated is in Unix seconds; absent, when loaded.
	DateCreated int64 `json:"date_created,omitempty"`
}

// FixtureUserStatus is the status a user set (POST /users/me/status);
// "away" is the user's presence_enabled setting, not part of it.
type FixtureUserStatus struct {
	UserID     int    `json:"user_id"`
	StatusText string `json:"status_text,omitempty"`
	// The status emoji, named as a reaction's; absent, none. Code and
	// type absent are looked up from the name, as the API does.
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
}

// FixturePresence is a user's presence, in Unix seconds of the realm's
// clock; the list runs in the order of the presence updates, the latest
// last (the loaded realm numbers its updates from 1 in that order).
type FixturePresence struct {
	UserID int `json:"user_id"`
	// ActiveTimestamp is when a client last reported the user active;
	// absent, never (the API then shows the join date).
	ActiveTimestamp int64 `json:"active_timestamp,omitempty"`
	// IdleTimestamp is when a client last reported the user at all, no
	// earlier than ActiveTimestamp.
	IdleTimestamp int64 `json:"idle_timestamp"`
}

// FixtureReminder is a message reminder (POST /reminders): at its time
// the Notification Bot sends the user a direct message about a message
// the user can read. Reminders and scheduled messages share their IDs.
type FixtureReminder struct {
	ID        int    `json:"id"`
	UserID    int    `json:"user_id"`
	MessageID int64  `json:"message_id"`
	Note      string `json:"note,omitempty"`
	// Content is the reminder's Markdown; absent, worded from the message
	// and the note as a new reminder is (Dump leaves it out when it is).
	Content string `json:"content,omitempty"`
	// DeliverAt is the delivery time in Unix seconds.
	DeliverAt int64 `json:"scheduled_delivery_timestamp"`
	// Failed marks a delivery that was tried and refused, for Failure.
	Failed  bool   `json:"failed,omitempty"`
	Failure string `json:"failure,omitempty"`
}

// FixtureUpload is an uploaded file, served at /user_uploads/<path_id>.
type FixtureUpload struct {
	ID      int    `json:"id"`
	OwnerID int    `json:"owner_id"`
	Name    string `json:"name"`
	// PathID is as an upload makes them: "2/", two random segments and
	// the sanitized name.
	PathID string `json:"path_id"`
	// ContentType is the type the file is served with; absent, the one
	// its name's extension gives.
	ContentType string `json:"content_type,omitempty"`
	// CreateTime is in Unix seconds; absent, when loaded.
	CreateTime int64 `json:"create_time,omitempty"`
	// MessageIDs are the messages that claim the file (each links it),
	// ascending; they let the messages' readers read the file. A file no
	// message claims is deleted as unclaimed uploads are.
	MessageIDs []int64 `json:"message_ids,omitempty"`
	// Data is the file's bytes, base64 (standard, padded).
	Data string `json:"data"`
}
