package user

// EmojisetChoice is one emoji set a user may pick.
type EmojisetChoice struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// Fixed choices the server offers, as register reports them.
var (
	// EmojisetChoices are the emoji sets a user may pick.
	EmojisetChoices = []EmojisetChoice{
		{Key: "google", Text: "Google"},
		{Key: "twitter", Text: "Twitter"},
		{Key: "text", Text: "Plain text"},
	}
	// NotificationSounds are the sounds a user may pick.
	NotificationSounds = []string{"chime-sequence", "ding", "zulip"}
)

// SettingsView is every personal setting under its API name: the
// user_settings object of POST /register.
type SettingsView struct {
	TwentyFourHourTime                            bool             `json:"twenty_four_hour_time"`
	WebMarkReadOnScrollPolicy                     int              `json:"web_mark_read_on_scroll_policy"`
	WebChannelDefaultView                         int              `json:"web_channel_default_view"`
	StarredMessageCounts                          bool             `json:"starred_message_counts"`
	ReceivesTypingNotifications                   bool             `json:"receives_typing_notifications"`
	WebSuggestUpdateTimezone                      bool             `json:"web_suggest_update_timezone"`
	FluidLayoutWidth                              bool             `json:"fluid_layout_width"`
	HighContrastMode                              bool             `json:"high_contrast_mode"`
	WebFontSizePx                                 int              `json:"web_font_size_px"`
	WebLineHeightPercent                          int              `json:"web_line_height_percent"`
	ColorScheme                                   int              `json:"color_scheme"`
	EnableDraftsSynchronization                   bool             `json:"enable_drafts_synchronization"`
	TranslateEmoticons                            bool             `json:"translate_emoticons"`
	DisplayEmojiReactionUsers                     bool             `json:"display_emoji_reaction_users"`
	DefaultLanguage                               string           `json:"default_language"`
	WebHomeView                                   string           `json:"web_home_view"`
	WebEscapeNavigatesToHomeView                  bool             `json:"web_escape_navigates_to_home_view"`
	LeftSideUserlist                              bool             `json:"left_side_userlist"`
	Emojiset                                      string           `json:"emojiset"`
	DemoteInactiveStreams                         int              `json:"demote_inactive_streams"`
	UserListStyle                                 int              `json:"user_list_style"`
	WebAnimateImagePreviews                       string           `json:"web_animate_image_previews"`
	WebStreamUnreadsCountDisplayPolicy            int              `json:"web_stream_unreads_count_display_policy"`
	HideAiFeatures                                bool             `json:"hide_ai_features"`
	WebInboxShowChannelFolders                    bool             `json:"web_inbox_show_channel_folders"`
	Timezone                                      string           `json:"timezone"`
	WebLeftSidebarUnreadsCountSummary             bool             `json:"web_left_sidebar_unreads_count_summary"`
	WebLeftSidebarShowChannelFolders              bool             `json:"web_left_sidebar_show_channel_folders"`
	EnterSends                                    bool             `json:"enter_sends"`
	DenseMode                                     *bool            `json:"dense_mode,omitempty"` // below feature level 364; see WithDenseMode
	EnableStreamDesktopNotifications              bool             `json:"enable_stream_desktop_notifications"`
	EnableStreamEmailNotifications                bool             `json:"enable_stream_email_notifications"`
	EnableStreamPushNotifications                 bool             `json:"enable_stream_push_notifications"`
	EnableStreamAudibleNotifications              bool             `json:"enable_stream_audible_notifications"`
	NotificationSound                             string           `json:"notification_sound"`
	EnableDesktopNotifications                    bool             `json:"enable_desktop_notifications"`
	EnableSounds                                  bool             `json:"enable_sounds"`
	EmailNotificationsBatchingPeriodSeconds       int              `json:"email_notifications_batching_period_seconds"`
	EnableOfflineEmailNotifications               bool             `json:"enable_offline_email_notifications"`
	EnableOfflinePushNotifications                bool             `json:"enable_offline_push_notifications"`
	EnableOnlinePushNotifications                 bool             `json:"enable_online_push_notifications"`
	EnableFollowedTopicDesktopNotifications       bool             `json:"enable_followed_topic_desktop_notifications"`
	EnableFollowedTopicEmailNotifications         bool             `json:"enable_followed_topic_email_notifications"`
	EnableFollowedTopicPushNotifications          bool             `json:"enable_followed_topic_push_notifications"`
	EnableFollowedTopicAudibleNotifications       bool             `json:"enable_followed_topic_audible_notifications"`
	EnableFollowedTopicWildcardMentionsNotify     bool             `json:"enable_followed_topic_wildcard_mentions_notify"`
	EnableDigestEmails                            bool             `json:"enable_digest_emails"`
	EnableMarketingEmails                         bool             `json:"enable_marketing_emails"`
	EnableLoginEmails                             bool             `json:"enable_login_emails"`
	MessageContentInEmailNotifications            bool             `json:"message_content_in_email_notifications"`
	PMContentInDesktopNotifications               bool             `json:"pm_content_in_desktop_notifications"`
	WildcardMentionsNotify                        bool             `json:"wildcard_mentions_notify"`
	DesktopIconCountDisplay                       int              `json:"desktop_icon_count_display"`
	RealmNameInEmailNotificationsPolicy           int              `json:"realm_name_in_email_notifications_policy"`
	AutomaticallyFollowTopicsPolicy               AutoTopicPolicy  `json:"automatically_follow_topics_policy"`
	AutomaticallyUnmuteTopicsInMutedStreamsPolicy AutoTopicPolicy  `json:"automatically_unmute_topics_in_muted_streams_policy"`
	AutomaticallyFollowTopicsWhereMentioned       bool             `json:"automatically_follow_topics_where_mentioned"`
	ResolvedTopicNoticeAutoReadPolicy             string           `json:"resolved_topic_notice_auto_read_policy"`
	PresenceEnabled                               bool             `json:"presence_enabled"`
	SendPrivateTypingNotifications                bool             `json:"send_private_typing_notifications"`
	SendStreamTypingNotifications                 bool             `json:"send_stream_typing_notifications"`
	SendReadReceipts                              bool             `json:"send_read_receipts"`
	AllowPrivateDataExport                        bool             `json:"allow_private_data_export"`
	EmailAddressVisibility                        EmailVisibility  `json:"email_address_visibility"`
	WebNavigateToSentMessage                      bool             `json:"web_navigate_to_sent_message"`
	EmojisetChoices                               []EmojisetChoice `json:"emojiset_choices"`
	AvailableNotificationSounds                   []string         `json:"available_notification_sounds"`
}

// View returns the settings as register's user_settings object: timezone
// is the user's, emailVisibility the effective email_address_visibility
// (see EffectiveEmailVisibility) and level the advertised feature level,
// which decides how web_home_view is spelled.
func (s Settings) View(timezone string, emailVisibility EmailVisibility, level int) SettingsView {
	return SettingsView{
		TwentyFourHourTime:                            s.TwentyFourHourTime,
		WebMarkReadOnScrollPolicy:                     s.WebMarkReadOnScrollPolicy,
		WebChannelDefaultView:                         s.WebChannelDefaultView,
		StarredMessageCounts:                          s.StarredMessageCounts,
		ReceivesTypingNotifications:                   s.ReceivesTypingNotifications,
		WebSuggestUpdateTimezone:                      s.WebSuggestUpdateTimezone,
		FluidLayoutWidth:                              s.FluidLayoutWidth,
		HighContrastMode:                              s.HighContrastMode,
		WebFontSizePx:                                 s.WebFontSizePx,
		WebLineHeightPercent:                          s.WebLineHeightPercent,
		ColorScheme:                                   s.ColorScheme,
		EnableDraftsSynchronization:                   s.EnableDraftsSynchronization,
		TranslateEmoticons:                            s.TranslateEmoticons,
		DisplayEmojiReactionUsers:                     s.DisplayEmojiReactionUsers,
		DefaultLanguage:                               s.DefaultLanguage,
		WebHomeView:                                   WebHomeViewName(s.WebHomeView, level),
		WebEscapeNavigatesToHomeView:                  s.WebEscapeNavigatesToHomeView,
		LeftSideUserlist:                              s.LeftSideUserlist,
		Emojiset:                                      s.Emojiset,
		DemoteInactiveStreams:                         s.DemoteInactiveStreams,
		UserListStyle:                                 s.UserListStyle,
		WebAnimateImagePreviews:                       s.WebAnimateImagePreviews,
		WebStreamUnreadsCountDisplayPolicy:            s.WebStreamUnreadsCountDisplayPolicy,
		HideAiFeatures:                                s.HideAiFeatures,
		WebInboxShowChannelFolders:                    s.WebInboxShowChannelFolders,
		WebLeftSidebarUnreadsCountSummary:             s.WebLeftSidebarUnreadsCountSummary,
		WebLeftSidebarShowChannelFolders:              s.WebLeftSidebarShowChannelFolders,
		Timezone:                                      timezone,
		EnterSends:                                    s.EnterSends,
		EnableStreamDesktopNotifications:              s.EnableStreamDesktopNotifications,
		EnableStreamEmailNotifications:                s.EnableStreamEmailNotifications,
		EnableStreamPushNotifications:                 s.EnableStreamPushNotifications,
		EnableStreamAudibleNotifications:              s.EnableStreamAudibleNotifications,
		NotificationSound:                             s.NotificationSound,
		EnableDesktopNotifications:                    s.EnableDesktopNotifications,
		EnableSounds:                                  s.EnableSounds,
		EmailNotificationsBatchingPeriodSeconds:       s.EmailNotificationsBatchingPeriodSeconds,
		EnableOfflineEmailNotifications:               s.EnableOfflineEmailNotifications,
		EnableOfflinePushNotifications:                s.EnableOfflinePushNotifications,
		EnableOnlinePushNotifications:                 s.EnableOnlinePushNotifications,
		EnableFollowedTopicDesktopNotifications:       s.EnableFollowedTopicDesktopNotifications,
		EnableFollowedTopicEmailNotifications:         s.EnableFollowedTopicEmailNotifications,
		EnableFollowedTopicPushNotifications:          s.EnableFollowedTopicPushNotifications,
		EnableFollowedTopicAudibleNotifications:       s.EnableFollowedTopicAudibleNotifications,
		EnableFollowedTopicWildcardMentionsNotify:     s.EnableFollowedTopicWildcardMentionsNotify,
		EnableDigestEmails:                            s.EnableDigestEmails,
		EnableMarketingEmails:                         s.EnableMarketingEmails,
		EnableLoginEmails:                             s.EnableLoginEmails,
		MessageContentInEmailNotifications:            s.MessageContentInEmailNotifications,
		PMContentInDesktopNotifications:               s.PMContentInDesktopNotifications,
		WildcardMentionsNotify:                        s.WildcardMentionsNotify,
		DesktopIconCountDisplay:                       s.DesktopIconCountDisplay,
		RealmNameInEmailNotificationsPolicy:           s.RealmNameInEmailNotificationsPolicy,
		AutomaticallyFollowTopicsPolicy:               s.AutomaticallyFollowTopicsPolicy,
		AutomaticallyUnmuteTopicsInMutedStreamsPolicy: s.AutomaticallyUnmuteTopicsInMutedStreamsPolicy,
		AutomaticallyFollowTopicsWhereMentioned:       s.AutomaticallyFollowTopicsWhereMentioned,
		ResolvedTopicNoticeAutoReadPolicy:             s.ResolvedTopicNoticeAutoReadPolicy,
		PresenceEnabled:                               s.PresenceEnabled,
		SendPrivateTypingNotifications:                s.SendPrivateTypingNotifications,
		SendStreamTypingNotifications:                 s.SendStreamTypingNotifications,
		SendReadReceipts:                              s.SendReadReceipts,
		AllowPrivateDataExport:                        s.AllowPrivateDataExport,
		EmailAddressVisibility:                        emailVisibility,
		WebNavigateToSentMessage:                      s.WebNavigateToSentMessage,
		EmojisetChoices:                               EmojisetChoices,
		AvailableNotificationSounds:                   NotificationSounds,
	}
}

// WithDenseMode adds the dense_mode setting (true, its old default), which
// servers below feature level 364 still send.
func (v SettingsView) WithDenseMode() SettingsView {
	on := true
	v.DenseMode = &on
	return v
}
