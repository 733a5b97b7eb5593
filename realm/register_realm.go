package realm

// RealmState is the realm section of POST /register: the realm's settings
// as realm_* keys, and the server's limits and parameters.
type RealmState struct {
	RealmName                                   string       `json:"realm_name"`
	RealmDescription                            string       `json:"realm_description"`
	RealmURI                                    string       `json:"realm_uri"`
	RealmDateCreated                            int64        `json:"realm_date_created"`
	RealmDefaultLanguage                        string       `json:"realm_default_language"`
	RealmAllowMessageEditing                    bool         `json:"realm_allow_message_editing"`
	RealmMessageContentEditLimitSeconds         *int         `json:"realm_message_content_edit_limit_seconds"`
	RealmMoveMessagesWithinStreamLimitSeconds   *int         `json:"realm_move_messages_within_stream_limit_seconds"`
	RealmMoveMessagesBetweenStreamsLimitSeconds *int         `json:"realm_move_messages_between_streams_limit_seconds"`
	RealmMessageContentDeleteLimitSeconds       *int         `json:"realm_message_content_delete_limit_seconds"`
	RealmCanResolveTopicsGroup                  GroupSetting `json:"realm_can_resolve_topics_group"`
	RealmCanMoveMessagesBetweenChannelsGroup    GroupSetting `json:"realm_can_move_messages_between_channels_group"`
	RealmCanMoveMessagesBetweenTopicsGroup      GroupSetting `json:"realm_can_move_messages_between_topics_group"`
	RealmCanMentionManyUsersGroup               GroupSetting `json:"realm_can_mention_many_users_group"`
	RealmCanDeleteOwnMessageGroup               GroupSetting `json:"realm_can_delete_own_message_group"`
	RealmCanDeleteAnyMessageGroup               GroupSetting `json:"realm_can_delete_any_message_group"`
	RealmCanCreatePublicChannelGroup            GroupSetting `json:"realm_can_create_public_channel_group"`
	RealmCanCreatePrivateChannelGroup           GroupSetting `json:"realm_can_create_private_channel_group"`
	RealmCanAddSubscribersGroup                 GroupSetting `json:"realm_can_add_subscribers_group"`
	RealmCanAddCustomEmojiGroup                 GroupSetting `json:"realm_can_add_custom_emoji_group"`
	RealmCanCreateGroups                        GroupSetting `json:"realm_can_create_groups"`
	RealmCanManageAllGroups                     GroupSetting `json:"realm_can_manage_all_groups"`
	RealmCanInviteUsersGroup                    GroupSetting `json:"realm_can_invite_users_group"`
	RealmCreateMultiuseInviteGroup              GroupSetting `json:"realm_create_multiuse_invite_group"`
	RealmCanAccessAllUsersGroup                 GroupSetting `json:"realm_can_access_all_users_group"`
	RealmDirectMessageInitiatorGroup            GroupSetting `json:"realm_direct_message_initiator_group"`
	RealmDirectMessagePermissionGroup           GroupSetting `json:"realm_direct_message_permission_group"`
	RealmCanCreateWebPublicChannelGroup         GroupSetting `json:"realm_can_create_web_public_channel_group"`
	RealmCanCreateBotsGroup                     GroupSetting `json:"realm_can_create_bots_group"`
	RealmCanCreateWriteOnlyBotsGroup            GroupSetting `json:"realm_can_create_write_only_bots_group"`
	RealmCanSummarizeTopicsGroup                GroupSetting `json:"realm_can_summarize_topics_group"`
	RealmCanManageBillingGroup                  GroupSetting `json:"realm_can_manage_billing_group"`
	RealmCanSetTopicsPolicyGroup                GroupSetting `json:"realm_can_set_topics_policy_group"`
	RealmCanSetDeleteMessagePolicyGroup         GroupSetting `json:"realm_can_set_delete_message_policy_group"`
	ServerCanSummarizeTopics                    bool         `json:"server_can_summarize_topics"` // false: the fake has no AI summaries
	RealmWildcardMentionPolicy                  int          `json:"realm_wildcard_mention_policy"`
	RealmMandatoryTopics                        bool         `json:"realm_mandatory_topics"`
	RealmTopicsPolicy                           string       `json:"realm_topics_policy,omitempty"` // from feature level 392
	RealmEmptyTopicDisplayName                  string       `json:"realm_empty_topic_display_name"`
	RealmEnableSpectatorAccess                  bool         `json:"realm_enable_spectator_access"`
	RealmAllowEditHistory                       bool         `json:"realm_allow_edit_history"`
	RealmEnableReadReceipts                     bool         `json:"realm_enable_read_receipts"`
	RealmInviteRequired                         bool         `json:"realm_invite_required"`
	RealmEmailsRestrictedToDomains              bool         `json:"realm_emails_restricted_to_domains"`
	RealmPlanType                               int          `json:"realm_plan_type"`
	RealmOrgType                                int          `json:"realm_org_type"`
	RealmMessageRetentionDays                   int          `json:"realm_message_retention_days"`
	RealmVideoChatProvider                      int          `json:"realm_video_chat_provider"`
	RealmJitsiServerURL                         *string      `json:"realm_jitsi_server_url"`
	RealmGiphyRating                            int          `json:"realm_giphy_rating"`
	RealmWaitingPeriodThreshold                 int          `json:"realm_waiting_period_threshold"`
	RealmInlineImagePreview                     bool         `json:"realm_inline_image_preview"`
	RealmInlineURLEmbedPreview                  bool         `json:"realm_inline_url_embed_preview"`
	RealmDefaultCodeBlockLanguage               string       `json:"realm_default_code_block_language"`
	RealmIconURL                                string       `json:"realm_icon_url"`
	RealmIconSource                             string       `json:"realm_icon_source"`
	RealmLogoURL                                string       `json:"realm_logo_url"`
	RealmLogoSource                             string       `json:"realm_logo_source"`
	RealmNightLogoURL                           string       `json:"realm_night_logo_url"`
	RealmNightLogoSource                        string       `json:"realm_night_logo_source"`
	RealmBotDomain                              string       `json:"realm_bot_domain"`
	RealmPresenceDisabled                       bool         `json:"realm_presence_disabled"`
	RealmPushNotificationsEnabled               bool         `json:"realm_push_notifications_enabled"`
	RealmUploadQuotaMiB                         *int64       `json:"realm_upload_quota_mib"` // bytes below feature level 251
	RealmEmailAuthEnabled                       bool         `json:"realm_email_auth_enabled"`
	RealmPasswordAuthEnabled                    bool         `json:"realm_password_auth_enabled"`
	// RealmAuthenticationMethods: map[string]AuthenticationMethodState,
	// or map[string]bool below feature level 241 (authMethodsValue).
	RealmAuthenticationMethods                     any                            `json:"realm_authentication_methods"`
	RealmAvailableVideoChatProviders               map[string]VideoChatProvider   `json:"realm_available_video_chat_providers"`
	RealmNotificationsStreamID                     *int                           `json:"realm_notifications_stream_id,omitempty"`              // below feature level 241
	RealmSignupNotificationsStreamID               *int                           `json:"realm_signup_notifications_stream_id,omitempty"`       // below feature level 241
	RealmNewStreamAnnouncementsStreamID            *int                           `json:"realm_new_stream_announcements_stream_id,omitempty"`   // from feature level 241
	RealmSignupAnnouncementsStreamID               *int                           `json:"realm_signup_announcements_stream_id,omitempty"`       // from feature level 241
	RealmZulipUpdateAnnouncementsStreamID          *int                           `json:"realm_zulip_update_announcements_stream_id,omitempty"` // from feature level 242
	RealmModerationRequestChannelID                *int                           `json:"realm_moderation_request_channel_id,omitempty"`        // from feature level 331
	MaxMessageLength                               int                            `json:"max_message_length"`
	MaxTopicLength                                 int                            `json:"max_topic_length"`
	MaxStreamNameLength                            int                            `json:"max_stream_name_length"`
	MaxStreamDescriptionLength                     int                            `json:"max_stream_description_length"`
	MaxChannelFolderNameLength                     *int                           `json:"max_channel_folder_name_length,omitempty"`        // from feature level 410
	MaxChannelFolderDescriptionLength              *int                           `json:"max_channel_folder_description_length,omitempty"` // from feature level 410
	MaxFileUploadSizeMiB                           int                            `json:"max_file_upload_size_mib"`
	MaxAvatarFileSizeMiB                           int                            `json:"max_avatar_file_size_mib"`
	MaxIconFileSizeMiB                             int                            `json:"max_icon_file_size_mib"`
	MaxLogoFileSizeMiB                             int                            `json:"max_logo_file_size_mib"`
	ServerGeneration                               int64                          `json:"server_generation"`
	EventQueueLongpollTimeoutSeconds               int                            `json:"event_queue_longpoll_timeout_seconds"`
	ServerTypingStartedExpiryPeriodMilliseconds    int                            `json:"server_typing_started_expiry_period_milliseconds"`
	ServerTypingStoppedWaitPeriodMilliseconds      int                            `json:"server_typing_stopped_wait_period_milliseconds"`
	ServerTypingStartedWaitPeriodMilliseconds      int                            `json:"server_typing_started_wait_period_milliseconds"`
	ServerPresencePingIntervalSeconds              int                            `json:"server_presence_ping_interval_seconds"`
	ServerPresenceOfflineThresholdSeconds          int                            `json:"server_presence_offline_threshold_seconds"`
	JitsiServerURL                                 string                         `json:"jitsi_server_url"`
	ServerJitsiServerURL                           string                         `json:"server_jitsi_server_url"`
	DevelopmentEnvironment                         bool                           `json:"development_environment"`
	PasswordMinLength                              int                            `json:"password_min_length"`
	PasswordMinGuesses                             int                            `json:"password_min_guesses"`
	GiphyRatingOptions                             map[string]GiphyRatingOption   `json:"giphy_rating_options"`
	ServerEmojiDataURL                             string                         `json:"server_emoji_data_url"`
	ServerInlineImagePreview                       bool                           `json:"server_inline_image_preview"`
	ServerInlineURLEmbedPreview                    bool                           `json:"server_inline_url_embed_preview"`
	ServerAvatarChangesDisabled                    bool                           `json:"server_avatar_changes_disabled"`
	ServerNameChangesDisabled                      bool                           `json:"server_name_changes_disabled"`
	ServerNeedsUpgrade                             bool                           `json:"server_needs_upgrade"`
	ServerWebPublicStreamsEnabled                  bool                           `json:"server_web_public_streams_enabled"`
	ZulipPlanIsNotLimited                          bool                           `json:"zulip_plan_is_not_limited"`
	UpgradeTextForWideOrganizationLogo             string                         `json:"upgrade_text_for_wide_organization_logo"`
	RealmDefaultExternalAccounts                   map[string]ExternalAccountType `json:"realm_default_external_accounts"`
	DemoOrganizationScheduledDeletionDate          *int64                         `json:"demo_organization_scheduled_deletion_date,omitempty"` // demo organizations only
	RealmIsZephyrMirrorRealm                       bool                           `json:"realm_is_zephyr_mirror_realm"`
	RealmEnableGuestUserIndicator                  bool                           `json:"realm_enable_guest_user_indicator"`
	RealmWantAdvertiseInCommunitiesDirectory       bool                           `json:"realm_want_advertise_in_communities_directory"`
	RealmDigestEmailsEnabled                       bool                           `json:"realm_digest_emails_enabled"`
	RealmDigestWeekday                             int                            `json:"realm_digest_weekday"`
	RealmSendWelcomeEmails                         bool                           `json:"realm_send_welcome_emails"`
	RealmMessageContentAllowedInEmailNotifications bool                           `json:"realm_message_content_allowed_in_email_notifications"`
	RealmNameChangesDisabled                       bool                           `json:"realm_name_changes_disabled"`
	RealmEmailChangesDisabled                      bool                           `json:"realm_email_changes_disabled"`
	RealmAvatarChangesDisabled                     bool                           `json:"realm_avatar_changes_disabled"`
	RealmDisallowDisposableEmailAddresses          bool                           `json:"realm_disallow_disposable_email_addresses"`
	SettingsSendDigestEmails                       bool                           `json:"settings_send_digest_emails"`
	StopWords                                      []string                       `json:"stop_words"`
	// RealmURL is sent from feature level 257 on.
	RealmURL string `json:"realm_url,omitempty"`
	// ServerThumbnailFormats is sent from feature level 273 on.
	ServerThumbnailFormats []ThumbnailFormat `json:"server_thumbnail_formats,omitempty"`
	// ServerSupportedPermissionSettings describes the group-valued
	// settings (permission_settings.go); the field gate leaves it out
	// below feature level 221.
	ServerSupportedPermissionSettings *ServerSupportedPermissionSettings `json:"server_supported_permission_settings"`

	// The server's bounds (the register gate leaves each out below the
	// level that added it): the number of days a deactivated
	// organization's data is kept before deletion, at least and at most
	// (null: no bound; 332); a password's length (338); the users a
	// subscription request may have Notification Bot tell (397); a
	// reminder's note (415).
	ServerMinDeactivatedRealmDeletionDays *int `json:"server_min_deactivated_realm_deletion_days"`
	ServerMaxDeactivatedRealmDeletionDays *int `json:"server_max_deactivated_realm_deletion_days"`
	PasswordMaxLength                     int  `json:"password_max_length"`
	MaxBulkNewSubscriptionMessages        int  `json:"max_bulk_new_subscription_messages"`
	MaxReminderNoteLength                 int  `json:"max_reminder_note_length"`

	// The realm's plain settings newer than Zulip 7.0 (the register
	// gate leaves each out below its level); the edit history policy is
	// sent from feature level 358 on, next to realm_allow_edit_history.
	RealmRequireUniqueNames                 bool    `json:"realm_require_unique_names"`
	RealmEnableGuestUserDMWarning           bool    `json:"realm_enable_guest_user_dm_warning"`
	RealmRequireE2EEPushNotifications       bool    `json:"realm_require_e2ee_push_notifications"`
	RealmWelcomeMessageCustomText           string  `json:"realm_welcome_message_custom_text"`
	RealmMessageEditHistoryVisibilityPolicy *string `json:"realm_message_edit_history_visibility_policy,omitempty"`
	// RealmPushNotificationsEnabledEndTimestamp is null when no end is
	// known (231).
	RealmPushNotificationsEnabledEndTimestamp *int64 `json:"realm_push_notifications_enabled_end_timestamp"`
}

// AuthenticationMethodState is one entry of realm_authentication_methods.
type AuthenticationMethodState struct {
	Enabled   bool `json:"enabled"`
	Available bool `json:"available"`
}

// VideoChatProvider is one entry of realm_available_video_chat_providers.
type VideoChatProvider struct {
	Name string `json:"name"`
	ID   int    `json:"id"`
}

// RealmDomain is one of the realm's email domains.
type RealmDomain struct {
	Domain          string `json:"domain"`
	AllowSubdomains bool   `json:"allow_subdomains"`
}

// GiphyRatingOption is one entry of giphy_rating_options.
type GiphyRatingOption struct {
	Name string `json:"name"`
	ID   int    `json:"id"`
}

// ExternalAccountType is one entry of realm_default_external_accounts
// (none are offered here).
type ExternalAccountType struct {
	Text       string `json:"text"`
	URLPattern string `json:"url_pattern"`
}

// minDeactivatedRealmDeletionDays is Zulip's default
// MIN_DEACTIVATED_REALM_DELETION_DAYS (the maximum is unset: null).
const minDeactivatedRealmDeletionDays = 14
