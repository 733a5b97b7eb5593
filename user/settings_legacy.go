package user

// LegacyDisplaySettings are the top-level display settings keys of POST
// /register for clients without the user_settings_object capability
// (deprecated at feature level 89): Zulip's display_settings_legacy list
// (zerver/models/users.py), emojiset_choices and timezone.
type LegacyDisplaySettings struct {
	ColorScheme                 int              `json:"color_scheme"`
	DefaultLanguage             string           `json:"default_language"`
	WebHomeView                 string           `json:"web_home_view"`
	DemoteInactiveStreams       int              `json:"demote_inactive_streams"`
	DenseMode                   *bool            `json:"dense_mode,omitempty"` // below feature level 364
	Emojiset                    string           `json:"emojiset"`
	EnableDraftsSynchronization bool             `json:"enable_drafts_synchronization"`
	EnterSends                  bool             `json:"enter_sends"`
	FluidLayoutWidth            bool             `json:"fluid_layout_width"`
	HighContrastMode            bool             `json:"high_contrast_mode"`
	LeftSideUserlist            bool             `json:"left_side_userlist"`
	StarredMessageCounts        bool             `json:"starred_message_counts"`
	TranslateEmoticons          bool             `json:"translate_emoticons"`
	TwentyFourHourTime          bool             `json:"twenty_four_hour_time"`
	EmojisetChoices             []EmojisetChoice `json:"emojiset_choices"`
	Timezone                    string           `json:"timezone"`
}

// LegacyNotificationSettings are the top-level notification settings keys
// of POST /register for clients without the user_settings_object
// capability: Zulip's notification_settings_legacy list and
// available_notification_sounds.
type LegacyNotificationSettings struct {
	DesktopIconCountDisplay                 int      `json:"desktop_icon_count_display"`
	EmailNotificationsBatchingPeriodSeconds int      `json:"email_notifications_batching_period_seconds"`
	EnableDesktopNotifications              bool     `json:"enable_desktop_notifications"`
	EnableDigestEmails                      bool     `json:"enable_digest_emails"`
	EnableLoginEmails                       bool     `json:"enable_login_emails"`
	EnableMarketingEmails                   bool     `json:"enable_marketing_emails"`
	EnableOfflineEmailNotifications         bool     `json:"enable_offline_email_notifications"`
	EnableOfflinePushNotifications          bool     `json:"enable_offline_push_notifications"`
	EnableOnlinePushNotifications           bool     `json:"enable_online_push_notifications"`
	EnableSounds                            bool     `json:"enable_sounds"`
	EnableStreamAudibleNotifications        bool     `json:"enable_stream_audible_notifications"`
	EnableStreamDesktopNotifications        bool     `json:"enable_stream_desktop_notifications"`
	EnableStreamEmailNotifications          bool     `json:"enable_stream_email_notifications"`
	EnableStreamPushNotifications           bool     `json:"enable_stream_push_notifications"`
	MessageContentInEmailNotifications      bool     `json:"message_content_in_email_notifications"`
	NotificationSound                       string   `json:"notification_sound"`
	PMContentInDesktopNotifications         bool     `json:"pm_content_in_desktop_notifications"`
	PresenceEnabled                         bool     `json:"presence_enabled"`
	RealmNameInEmailNotificationsPolicy     int      `json:"realm_name_in_email_notifications_policy"`
	WildcardMentionsNotify                  bool     `json:"wildcard_mentions_notify"`
	AvailableNotificationSounds             []string `json:"available_notification_sounds"`
}

// LegacyDisplay is v's display settings in their legacy top-level form.
func (v SettingsView) LegacyDisplay() LegacyDisplaySettings {
	return LegacyDisplaySettings{
		ColorScheme:                 v.ColorScheme,
		DefaultLanguage:             v.DefaultLanguage,
		WebHomeView:                 v.WebHomeView,
		DemoteInactiveStreams:       v.DemoteInactiveStreams,
		DenseMode:                   v.DenseMode,
		Emojiset:                    v.Emojiset,
		EnableDraftsSynchronization: v.EnableDraftsSynchronization,
		EnterSends:                  v.EnterSends,
		FluidLayoutWidth:            v.FluidLayoutWidth,
		HighContrastMode:            v.HighContrastMode,
		LeftSideUserlist:            v.LeftSideUserlist,
		StarredMessageCounts:        v.StarredMessageCounts,
		TranslateEmoticons:          v.TranslateEmoticons,
		TwentyFourHourTime:          v.TwentyFourHourTime,
		EmojisetChoices:             v.EmojisetChoices,
		Timezone:                    v.Timezone,
	}
}

// LegacyNotification is v's notification settings in their legacy
// top-level form.
func (v SettingsView) LegacyNotification() LegacyNotificationSettings {
	return LegacyNotificationSettings{
		DesktopIconCountDisplay:                 v.DesktopIconCountDisplay,
		EmailNotificationsBatchingPeriodSeconds: v.EmailNotificationsBatchingPeriodSeconds,
		EnableDesktopNotifications:              v.EnableDesktopNotifications,
		EnableDigestEmails:                      v.EnableDigestEmails,
		EnableLoginEmails:                       v.EnableLoginEmails,
		EnableMarketingEmails:                   v.EnableMarketingEmails,
		EnableOfflineEmailNotifications:         v.EnableOfflineEmailNotifications,
		EnableOfflinePushNotifications:          v.EnableOfflinePushNotifications,
		EnableOnlinePushNotifications:           v.EnableOnlinePushNotifications,
		EnableSounds:                            v.EnableSounds,
		EnableStreamAudibleNotifications:        v.EnableStreamAudibleNotifications,
		EnableStreamDesktopNotifications:        v.EnableStreamDesktopNotifications,
		EnableStreamEmailNotifications:          v.EnableStreamEmailNotifications,
		EnableStreamPushNotifications:           v.EnableStreamPushNotifications,
		MessageContentInEmailNotifications:      v.MessageContentInEmailNotifications,
		NotificationSound:                       v.NotificationSound,
		PMContentInDesktopNotifications:         v.PMContentInDesktopNotifications,
		PresenceEnabled:                         v.PresenceEnabled,
		RealmNameInEmailNotificationsPolicy:     v.RealmNameInEmailNotificationsPolicy,
		WildcardMentionsNotify:                  v.WildcardMentionsNotify,
		AvailableNotificationSounds:             v.AvailableNotificationSounds,
	}
}
