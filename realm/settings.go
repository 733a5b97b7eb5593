package realm

import (
	"maps"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/realm/fixture"
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
	// SignupAnnouncementsStreamID is the channel Notification Bot
	// announces new users in; 0 when none (the API's -1).
	SignupAnnouncementsStreamID int
	// NewStreamAnnouncementsStreamID is the channel Notification Bot
	// announces new channels in when asked; 0 when none (the API's -1).
	NewStreamAnnouncementsStreamID int

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
	// CanAccessAllUsersGroup may see every user of the realm (role:everyone
	// or role:members only); DirectMessageInitiatorGroup may start direct
	// message conversations and DirectMessagePermissionGroup must take
	// part in each one (direct_message_permissions.go).
	CanAccessAllUsersGroup       GroupSetting
	DirectMessageInitiatorGroup  GroupSetting
	DirectMessagePermissionGroup GroupSetting
	// CanCreateWebPublicChannelGroup may create web-public channels (a
	// system group only); CanCreateBotsGroup may create any bot,
	// CanCreateWriteOnlyBotsGroup incoming webhook bots.
	CanCreateWebPublicChannelGroup GroupSetting
	CanCreateBotsGroup             GroupSetting
	CanCreateWriteOnlyBotsGroup    GroupSetting
	// CanSummarizeTopicsGroup may use AI summaries, which the fake has
	// not; CanManageBillingGroup may manage the plan, which it has not
	// either: both are settings clients read.
	CanSummarizeTopicsGroup GroupSetting
	CanManageBillingGroup   GroupSetting
	// CanSetTopicsPolicyGroup and CanSetDeleteMessagePolicyGroup may
	// change a channel's topics_policy, and its can_delete_*_message_group
	// settings, in channels they administer.
	CanSetTopicsPolicyGroup        GroupSetting
	CanSetDeleteMessagePolicyGroup GroupSetting

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

	// PresenceDisabled turns presence off realm-wide, as Zulip's
	// Realm.presence_disabled (set by server administrators only; no
	// API changes it): register's realm_presence_disabled is true,
	// presence answers list nobody, and reports are kept but not
	// announced (presence_disabled.go).
	PresenceDisabled bool

	// JitsiServerURL is the realm's Jitsi server (jitsi_server_url);
	// nil: the server's (the API's "default").
	JitsiServerURL *string
	// EnableGuestUserIndicator and EnableGuestUserDMWarning ask clients
	// to mark guests' names and to warn before a direct message to a
	// guest; they are stored and sent.
	EnableGuestUserIndicator bool
	EnableGuestUserDMWarning bool
	// RequireUniqueNames refuses a full name another account has
	// (unique_names.go).
	RequireUniqueNames bool
	// RequireE2EEPushNotifications keeps message content out of push
	// notifications to devices without end-to-end encryption; stored
	// and sent.
	RequireE2EEPushNotifications bool
	// WelcomeMessageCustomText is what Welcome Bot also sends new users
	// whose invitation does not say otherwise.
	WelcomeMessageCustomText string
	// EditHistoryPolicy is message_edit_history_visibility_policy
	// (edit_history_policy.go): "all", "moves" or "none".
	EditHistoryPolicy string

	// PushNotificationsEnabled and PushNotificationsEnabledEnd (a UNIX
	// time, nil when no end is known) say whether mobile push works
	// (push_enablement.go); server administrators set them.
	PushNotificationsEnabled    bool
	PushNotificationsEnabledEnd *int64

	// AuthenticationMethods are the login methods that are on
	// (auth_methods.go).
	AuthenticationMethods AuthenticationMethods

	// PlanType is the realm's plan (plan_type.go); 0 is self-hosted.
	PlanType PlanType

	// RealmProperties are the settings of realm_properties.go.
	RealmProperties
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
	// PartialSubscribersAt: channels with at least this many subscribers
	// get partial_subscribers when asked (0: DefaultPartialSubscribersAt).
	PartialSubscribersAt int
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
		PartialSubscribersAt: DefaultPartialSubscribersAt,
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

// topicRules are the realm's topic settings, as package topic applies
// them: the empty topic exists from feature level 334, "(no topic)" names
// it from 370.
func (r *Realm) topicRules() topic.Rules {
	return topic.Rules{MaxLength: r.opts.Limits.MaxTopicLength, EmptyDisplayName: r.settings.EmptyTopicDisplayName,
		NoEmptyTopic: !r.has(changeEmptyTopic), LiteralNoTopic: !r.has(changeNoTopicAlias)}
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
		{"can_access_all_users_group", &s.CanAccessAllUsersGroup},
		{"can_add_custom_emoji_group", &s.CanAddCustomEmojiGroup},
		{"can_add_subscribers_group", &s.CanAddSubscribersGroup},
		{"can_create_bots_group", &s.CanCreateBotsGroup},
		{"can_create_groups", &s.CanCreateGroups},
		{"can_create_private_channel_group", &s.CanCreatePrivateChannelGroup},
		{"can_create_public_channel_group", &s.CanCreatePublicChannelGroup},
		{"can_create_web_public_channel_group", &s.CanCreateWebPublicChannelGroup},
		{"can_create_write_only_bots_group", &s.CanCreateWriteOnlyBotsGroup},
		{"can_delete_any_message_group", &s.CanDeleteAnyMessageGroup},
		{"can_delete_own_message_group", &s.CanDeleteOwnMessageGroup},
		{"can_invite_users_group", &s.CanInviteUsersGroup},
		{"can_manage_all_groups", &s.CanManageAllGroups},
		{"can_manage_billing_group", &s.CanManageBillingGroup},
		{"can_mention_many_users_group", &s.CanMentionManyUsersGroup},
		{"can_move_messages_between_channels_group", &s.CanMoveMessagesBetweenChannelsGroup},
		{"can_move_messages_between_topics_group", &s.CanMoveMessagesBetweenTopicsGroup},
		{"can_resolve_topics_group", &s.CanResolveTopicsGroup},
		{"can_set_delete_message_policy_group", &s.CanSetDeleteMessagePolicyGroup},
		{"can_set_topics_policy_group", &s.CanSetTopicsPolicyGroup},
		{"can_summarize_topics_group", &s.CanSummarizeTopicsGroup},
		{"create_multiuse_invite_group", &s.CreateMultiuseInviteGroup},
		{"direct_message_initiator_group", &s.DirectMessageInitiatorGroup},
		{"direct_message_permission_group", &s.DirectMessagePermissionGroup},
	}
}

// clone copies the settings, sharing no pointer or slice with them.
func (s Settings) clone() Settings {
	s.MessageContentEditLimitSeconds = cloneIntPtr(s.MessageContentEditLimitSeconds)
	s.MoveMessagesWithinStreamLimitSeconds = cloneIntPtr(s.MoveMessagesWithinStreamLimitSeconds)
	s.MoveMessagesBetweenStreamsLimitSeconds = cloneIntPtr(s.MoveMessagesBetweenStreamsLimitSeconds)
	s.MessageContentDeleteLimitSeconds = cloneIntPtr(s.MessageContentDeleteLimitSeconds)
	if s.JitsiServerURL != nil {
		s.JitsiServerURL = ptr(*s.JitsiServerURL)
	}
	if s.PushNotificationsEnabledEnd != nil {
		s.PushNotificationsEnabledEnd = ptr(*s.PushNotificationsEnabledEnd)
	}
	for _, g := range s.groupSettings() {
		*g.id = g.id.Clone()
	}
	return s
}

// fixture gives the realm settings as a fixture holds them.
func (s Settings) fixture() fixture.Settings {
	c := s.clone()
	out := fixture.Settings{Name: c.Name, Description: c.Description, EmailAddressVisibility: int(c.EmailAddressVisibility),
		AllowMessageEditing: c.AllowMessageEditing, MessageContentEditLimitSeconds: c.MessageContentEditLimitSeconds,
		MoveMessagesWithinStreamLimitSeconds:   c.MoveMessagesWithinStreamLimitSeconds,
		MoveMessagesBetweenStreamsLimitSeconds: c.MoveMessagesBetweenStreamsLimitSeconds,
		MessageContentDeleteLimitSeconds:       c.MessageContentDeleteLimitSeconds, MandatoryTopics: c.MandatoryTopics,
		EmptyTopicDisplayName: c.EmptyTopicDisplayName, DefaultLanguage: c.DefaultLanguage,
		EnableSpectatorAccess: c.EnableSpectatorAccess, EnableReadReceipts: c.EnableReadReceipts,
		ModerationRequestChannelID: c.moderationRequestChannelValue(), GroupSettings: map[string]GroupSetting{},
		SignupAnnouncementsStreamID: signupAnnouncements.inFixture(&c), NewStreamAnnouncementsStreamID: newChannelAnnouncements.inFixture(&c),
		EmailsRestrictedToDomains: c.EmailsRestrictedToDomains, DisallowDisposableEmailAddresses: c.DisallowDisposableEmailAddresses,
		MaxInvites: c.MaxInvites, EmailChangesDisabled: c.EmailChangesDisabled, NameChangesDisabled: c.NameChangesDisabled,
		AvatarChangesDisabled: c.AvatarChangesDisabled, PresenceDisabled: c.PresenceDisabled}
	for _, g := range c.groupSettings() {
		out.GroupSettings[g.name] = *g.id
	}
	out.JitsiServerURL, out.RequireUniqueNames = c.JitsiServerURL, c.RequireUniqueNames
	out.EnableGuestUserIndicator, out.EnableGuestUserDMWarning = ptr(c.EnableGuestUserIndicator), ptr(c.EnableGuestUserDMWarning)
	out.RequireE2EEPushNotifications, out.WelcomeMessageCustomText = c.RequireE2EEPushNotifications, c.WelcomeMessageCustomText
	out.MessageEditHistoryVisibilityPolicy = c.EditHistoryPolicy
	out.PushNotificationsEnabled, out.PushNotificationsEnabledEndTimestamp = c.PushNotificationsEnabled, c.PushNotificationsEnabledEnd
	out.AuthenticationMethods = c.AuthenticationMethods.dict()
	if p := c.planType(); p != PlanTypeSelfHosted {
		out.PlanType = int(p)
	}
	out.RealmProperties = c.RealmProperties.fixture()
	return out
}

func (s *Settings) dump(r *Realm, f *fixture.Document) error {
	f.Settings = s.fixture()
	return nil
}

// load reads the realm settings but the moderation request channel,
// which the channels table loads once the channels are in.
func (s *Settings) load(r *Realm, f *fixture.Document) error {
	fs := f.Settings
	const at = "settings"
	if strings.TrimSpace(fs.Name) == "" {
		return badItem(at+".name", "empty name")
	}
	if !user.EmailVisibility(fs.EmailAddressVisibility).Valid() {
		return badItem(at+".email_address_visibility", "unknown value %d", fs.EmailAddressVisibility)
	}
	for name, limit := range map[string]*int{
		"message_content_edit_limit_seconds":          fs.MessageContentEditLimitSeconds,
		"move_messages_within_stream_limit_seconds":   fs.MoveMessagesWithinStreamLimitSeconds,
		"move_messages_between_streams_limit_seconds": fs.MoveMessagesBetweenStreamsLimitSeconds,
		"message_content_delete_limit_seconds":        fs.MessageContentDeleteLimitSeconds,
	} {
		if limit != nil && *limit <= 0 {
			return badItem(at+"."+name, "%d is not a positive number of seconds (null is no limit)", *limit)
		}
	}
	c := s.clone()
	c.Name, c.Description, c.EmailAddressVisibility = fs.Name, fs.Description, user.EmailVisibility(fs.EmailAddressVisibility)
	c.AllowMessageEditing, c.MandatoryTopics = fs.AllowMessageEditing, fs.MandatoryTopics
	c.MessageContentEditLimitSeconds = fs.MessageContentEditLimitSeconds
	c.MoveMessagesWithinStreamLimitSeconds = fs.MoveMessagesWithinStreamLimitSeconds
	c.MoveMessagesBetweenStreamsLimitSeconds = fs.MoveMessagesBetweenStreamsLimitSeconds
	c.MessageContentDeleteLimitSeconds = fs.MessageContentDeleteLimitSeconds
	c.EmptyTopicDisplayName, c.DefaultLanguage = fs.EmptyTopicDisplayName, fs.DefaultLanguage
	c.EnableSpectatorAccess, c.EnableReadReceipts = fs.EnableSpectatorAccess, fs.EnableReadReceipts
	if fs.MaxInvites <= 0 {
		return badItem(at+".max_invites", "%d is not a positive number of invitations", fs.MaxInvites)
	}
	c.EmailsRestrictedToDomains, c.DisallowDisposableEmailAddresses = fs.EmailsRestrictedToDomains, fs.DisallowDisposableEmailAddresses
	c.MaxInvites = fs.MaxInvites
	c.EmailChangesDisabled, c.NameChangesDisabled, c.AvatarChangesDisabled = fs.EmailChangesDisabled, fs.NameChangesDisabled, fs.AvatarChangesDisabled
	c.PresenceDisabled = fs.PresenceDisabled
	if err := loadAuthMethods(&c, fs, at); err != nil {
		return err
	}
	if err := loadPlainSettings(&c, fs, at); err != nil {
		return err
	}
	if err := r.loadRealmProperties(&c, fs.RealmProperties, at); err != nil {
		return err
	}
	known := map[string]*GroupSetting{}
	for _, g := range c.groupSettings() {
		known[g.name] = g.id
	}
	for _, name := range slices.Sorted(maps.Keys(fs.GroupSettings)) {
		dst := known[name]
		if dst == nil {
			return badItem(at+".group_settings."+name, "unknown realm group setting")
		}
		if err := r.checkFixtureGroupSetting(at+".group_settings."+name, fs.GroupSettings[name]); err != nil {
			return err
		}
		if err := r.checkSettingForm("realm", name, fs.GroupSettings[name]); err != nil {
			return badItem(at+".group_settings."+name, "%s at this feature level", err.(*Error).Msg)
		}
		if err := r.checkSystemOnlySetting(name, fs.GroupSettings[name]); err != nil {
			return badItem(at+".group_settings."+name, "%s", reason(err))
		}
		if err := r.checkFixtureSettingValue(at+".group_settings."+name, "realm", name, fs.GroupSettings[name]); err != nil {
			return err
		}
		*dst = fs.GroupSettings[name].Clone()
	}
	*s = c
	return nil
}

func (s *Settings) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm") {
		fillRealmState(r, me, req, out)
	}
	if req.fetches("realm_billing") {
		out.RealmBillingState = &RealmBillingState{RealmBilling: RealmBilling{}}
	}
}
