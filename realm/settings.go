package realm

import (
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// Settings are the realm-wide settings the rules read. Group-valued settings
// hold group-setting values (a named group, or an anonymous one). Nil durations mean "no limit".
type Settings struct {
	Name                   string
	Description            string
	EmailAddressVisibility user.EmailVisibility
	AllowMessageEditing    bool
	// Time limits in seconds; nil is unlimited.
	MessageContentEditLimitSeconds         *int
	MoveMessagesWithinStreamLimitSeconds   *int
	MoveMessagesBetweenStreamsLimitSeconds *int
	MessageContentDeleteLimitSeconds       *int
	MandatoryTopics                        bool
	EmptyTopicDisplayName                  string
	DefaultLanguage                        string
	EnableSpectatorAccess                  bool
	// EnableReadReceipts lets users see who read a message.
	EnableReadReceipts bool
	// ModerationRequestChannelID is the private channel message reports
	// go to; 0 when message reporting is off (the API's -1).
	ModerationRequestChannelID int

	CanMentionManyUsersGroup            GroupSetting
	CanMoveMessagesBetweenTopicsGroup   GroupSetting
	CanMoveMessagesBetweenChannelsGroup GroupSetting
	CanResolveTopicsGroup               GroupSetting
	CanDeleteOwnMessageGroup            GroupSetting
	CanDeleteAnyMessageGroup            GroupSetting
	CanCreatePublicChannelGroup         GroupSetting
	CanCreatePrivateChannelGroup        GroupSetting
	CanAddSubscribersGroup              GroupSetting
	CanAddCustomEmojiGroup              GroupSetting
	CanCreateGroups                     GroupSetting
	CanManageAllGroups                  GroupSetting
	// CanInviteUsersGroup may send email invitations;
	// CreateMultiuseInviteGroup may create reusable invitation links.
	CanInviteUsersGroup       GroupSetting
	CreateMultiuseInviteGroup GroupSetting

	// EmailsRestrictedToDomains limits new users' addresses to the
	// realm's domains (GET /realm/domains).
	EmailsRestrictedToDomains bool
	// DisallowDisposableEmailAddresses refuses addresses of disposable
	// email services (when not restricted to the realm's domains).
	DisallowDisposableEmailAddresses bool
	// MaxInvites is how many invitation emails the realm may send in a
	// day (Zulip's max_invites, which only server administrators set).
	MaxInvites int

	// EmailChangesDisabled refuses email changes by users who are not
	// administrators; NameChangesDisabled ignores their name changes;
	// AvatarChangesDisabled is reported to clients only (avatars are
	// not uploaded here).
	EmailChangesDisabled  bool
	NameChangesDisabled   bool
	AvatarChangesDisabled bool
}

// Limits are the server's size limits, as register advertises them.
type Limits struct {
	MaxMessageLength     int
	MaxTopicLength       int
	MaxStreamNameLength  int
	MaxStreamDescLength  int
	MaxFileUploadSizeMiB int
	MaxMessagesPerFetch  int
	WildcardMentionLarge int // more than this many subscribers makes a channel "large"
}

// DefaultLimits are Zulip's defaults.
func DefaultLimits() Limits {
	return Limits{
		MaxMessageLength:     10000,
		MaxTopicLength:       topic.DefaultMaxLength,
		MaxStreamNameLength:  60,
		MaxStreamDescLength:  1024,
		MaxFileUploadSizeMiB: 25,
		MaxMessagesPerFetch:  5000,
		WildcardMentionLarge: 15,
	}
}

func intPtr(v int) *int { return &v }

// The realm-level topics_policy values (feature level 392 on), the API's
// names for MandatoryTopics false and true.
const (
	TopicsPolicyAllowEmpty   = "allow_empty_topic"
	TopicsPolicyDisableEmpty = "disable_empty_topic"
)

// topicsPolicy is the realm's topics_policy as the API names it.
func topicsPolicy(mandatory bool) string {
	if mandatory {
		return TopicsPolicyDisableEmpty
	}
	return TopicsPolicyAllowEmpty
}

// topicRules are the realm's topic settings, as package topic applies them.
func (r *Realm) topicRules() topic.Rules {
	return topic.Rules{MaxLength: r.opts.Limits.MaxTopicLength, EmptyDisplayName: r.settings.EmptyTopicDisplayName}
}

// groupSettings maps the API name of each group-valued realm setting to
// its field.
func (s *Settings) groupSettings() []struct {
	name string
	id   *GroupSetting
} {
	return []struct {
		name string
		id   *GroupSetting
	}{
		{"can_add_custom_emoji_group", &s.CanAddCustomEmojiGroup},
		{"can_add_subscribers_group", &s.CanAddSubscribersGroup},
		{"can_create_groups", &s.CanCreateGroups},
		{"can_create_private_channel_group", &s.CanCreatePrivateChannelGroup},
		{"can_create_public_channel_group", &s.CanCreatePublicChannelGroup},
		{"can_delete_any_message_group", &s.CanDeleteAnyMessageGroup},
		{"can_delete_own_message_group", &s.CanDeleteOwnMessageGroup},
		{"can_invite_users_group", &s.CanInviteUsersGroup},
		{"can_manage_all_groups", &s.CanManageAllGroups},
		{"can_mention_many_users_group", &s.CanMentionManyUsersGroup},
		{"can_move_messages_between_channels_group", &s.CanMoveMessagesBetweenChannelsGroup},
		{"can_move_messages_between_topics_group", &s.CanMoveMessagesBetweenTopicsGroup},
		{"can_resolve_topics_group", &s.CanResolveTopicsGroup},
		{"create_multiuse_invite_group", &s.CreateMultiuseInviteGroup},
	}
}
