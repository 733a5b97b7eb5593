package user

import (
	"fmt"
	"slices"
	"strconv"
)

// SettingKind is the JSON type of a personal setting's value.
type SettingKind int

// The kinds of setting values: Go bool, int and string.
const (
	BoolSetting SettingKind = iota
	IntSetting
	StringSetting
)

// LegacyEvent is the event, older than the user_settings event (feature
// level 89), that Zulip also sends when a setting changes, to clients
// without the user_settings_object capability.
type LegacyEvent int

// The legacy settings events.
const (
	NoLegacyEvent LegacyEvent = iota
	// LegacyDisplay is update_display_settings.
	LegacyDisplay
	// LegacyNotification is update_global_notifications.
	LegacyNotification
)

// SettingDef describes one personal setting of PATCH /settings: its API
// name, value kind, allowed values and where Settings keeps it.
type SettingDef struct {
	Name   string
	Kind   SettingKind
	Legacy LegacyEvent
	// check refuses values beyond the kind, at a feature level.
	check func(v any, level int) error
	b     func(*Settings) *bool
	i     func(*Settings) *int
	s     func(*Settings) *string
}

// Get reads the setting from s: a bool, an int or a string.
func (d SettingDef) Get(s *Settings) any {
	switch d.Kind {
	case BoolSetting:
		return *d.b(s)
	case IntSetting:
		return *d.i(s)
	}
	return *d.s(s)
}

// Set stores v, which Check accepted, in s, in the spelling Settings
// keep (web_home_view "recent" as "recent_topics").
func (d SettingDef) Set(s *Settings, v any) {
	if d.Name == "web_home_view" && v == "recent" {
		v = "recent_topics"
	}
	switch d.Kind {
	case BoolSetting:
		*d.b(s) = v.(bool)
	case IntSetting:
		*d.i(s) = v.(int)
	default:
		*d.s(s) = v.(string)
	}
}

// Check reports whether v is a value of the setting at the feature level
// the realm advertises, with Zulip's message when it is not.
func (d SettingDef) Check(v any, level int) error {
	ok := false
	switch v.(type) {
	case bool:
		ok = d.Kind == BoolSetting
	case int:
		ok = d.Kind == IntSetting
	case string:
		ok = d.Kind == StringSetting
	}
	if !ok {
		return &SettingError{Name: d.Name, Msg: d.Name + " is not " + [...]string{"a boolean", "an integer", "a string"}[d.Kind]}
	}
	if d.check != nil {
		return d.check(v, level)
	}
	return nil
}

// LookupSetting finds a setting by API name.
func LookupSetting(name string) (SettingDef, bool) {
	i := slices.IndexFunc(SettingDefs, func(d SettingDef) bool { return d.Name == name })
	if i < 0 {
		return SettingDef{}, false
	}
	return SettingDefs[i], true
}

// WebChannelDefaultViewListLevel is the feature level from which
// web_channel_default_view may be 3 (list of topics).
const WebChannelDefaultViewListLevel = 383

// WebChannelDefaultViewTopUnreadLevel is the feature level from which
// web_channel_default_view may be 4 (top unread topic in channel).
const WebChannelDefaultViewTopUnreadLevel = 401

// WebHomeViewRecentLevel is the first feature level above the OpenAPI
// description's (about 420): from it on the recent conversations view is
// called "recent", the spec's name; below it "recent_topics", Zulip's.
const WebHomeViewRecentLevel = 421

// WebHomeViewName is how the API names a stored web_home_view value at a
// feature level. Settings store Zulip's "recent_topics".
func WebHomeViewName(stored string, level int) string {
	if stored == "recent_topics" && level >= WebHomeViewRecentLevel {
		return "recent"
	}
	return stored
}

// Maximum email notification batching period: one week.
const maxBatchingPeriodSeconds = 7 * 24 * 60 * 60

// maxSmallPositive is the largest value of Zulip's small positive integer
// columns (font size, line height).
const maxSmallPositive = 32767

func boolDef(name string, legacy LegacyEvent, f func(*Settings) *bool) SettingDef {
	return SettingDef{Name: name, Kind: BoolSetting, Legacy: legacy, b: f}
}

// enumDef is an integer setting that takes one of values.
func enumDef(name string, legacy LegacyEvent, values []int, f func(*Settings) *int) SettingDef {
	return SettingDef{Name: name, Kind: IntSetting, Legacy: legacy, i: f, check: func(v any, _ int) error {
		if !slices.Contains(values, v.(int)) {
			return &SettingError{Name: name}
		}
		return nil
	}}
}

// positiveDef is an integer setting that takes 1 up to max.
func positiveDef(name string, max int, f func(*Settings) *int) SettingDef {
	return SettingDef{Name: name, Kind: IntSetting, i: f, check: func(v any, _ int) error {
		if n := v.(int); n <= 0 || n > max {
			return &SettingError{Name: name}
		}
		return nil
	}}
}

// choiceDef is a string setting that takes one of values.
func choiceDef(name string, legacy LegacyEvent, values []string, f func(*Settings) *string) SettingDef {
	return SettingDef{Name: name, Kind: StringSetting, Legacy: legacy, s: f, check: func(v any, _ int) error {
		if !slices.Contains(values, v.(string)) {
			return &SettingError{Name: name}
		}
		return nil
	}}
}

// autoPolicy views an AutoTopicPolicy field as an int.
func autoPolicy(p *AutoTopicPolicy) *int { return (*int)(p) }

var (
	oneToThree = []int{1, 2, 3}
	oneToFour  = []int{1, 2, 3, 4}
)

// SettingDefs are the personal settings PATCH /settings changes, in the
// order their events are sent. Time zone, full name, email and password
// are not settings of this kind: the realm handles them itself.
var SettingDefs = []SettingDef{
	boolDef("twenty_four_hour_time", LegacyDisplay, func(s *Settings) *bool { return &s.TwentyFourHourTime }),
	enumDef("web_mark_read_on_scroll_policy", NoLegacyEvent, oneToThree, func(s *Settings) *int { return &s.WebMarkReadOnScrollPolicy }),
	{Name: "web_channel_default_view", Kind: IntSetting, i: func(s *Settings) *int { return &s.WebChannelDefaultView },
		check: func(v any, level int) error {
			n := v.(int)
			if n == 1 || n == 2 || n == 3 && level >= WebChannelDefaultViewListLevel || n == 4 && level >= WebChannelDefaultViewTopUnreadLevel {
				return nil
			}
			return &SettingError{Name: "web_channel_default_view"}
		}},
	boolDef("starred_message_counts", LegacyDisplay, func(s *Settings) *bool { return &s.StarredMessageCounts }),
	boolDef("receives_typing_notifications", NoLegacyEvent, func(s *Settings) *bool { return &s.ReceivesTypingNotifications }),
	boolDef("web_suggest_update_timezone", NoLegacyEvent, func(s *Settings) *bool { return &s.WebSuggestUpdateTimezone }),
	boolDef("fluid_layout_width", LegacyDisplay, func(s *Settings) *bool { return &s.FluidLayoutWidth }),
	boolDef("high_contrast_mode", LegacyDisplay, func(s *Settings) *bool { return &s.HighContrastMode }),
	positiveDef("web_font_size_px", maxSmallPositive, func(s *Settings) *int { return &s.WebFontSizePx }),
	positiveDef("web_line_height_percent", maxSmallPositive, func(s *Settings) *int { return &s.WebLineHeightPercent }),
	enumDef("color_scheme", LegacyDisplay, oneToThree, func(s *Settings) *int { return &s.ColorScheme }),
	boolDef("enable_drafts_synchronization", LegacyDisplay, func(s *Settings) *bool { return &s.EnableDraftsSynchronization }),
	boolDef("translate_emoticons", LegacyDisplay, func(s *Settings) *bool { return &s.TranslateEmoticons }),
	boolDef("display_emoji_reaction_users", NoLegacyEvent, func(s *Settings) *bool { return &s.DisplayEmojiReactionUsers }),
	{Name: "default_language", Kind: StringSetting, Legacy: LegacyDisplay, s: func(s *Settings) *string { return &s.DefaultLanguage },
		check: func(v any, _ int) error {
			if _, ok := LanguageName(v.(string)); !ok {
				return &SettingError{Name: "default_language"}
			}
			return nil
		}},
	choiceDef("web_home_view", LegacyDisplay, []string{"recent", "recent_topics", "inbox", "all_messages"},
		func(s *Settings) *string { return &s.WebHomeView }),
	boolDef("web_escape_navigates_to_home_view", NoLegacyEvent, func(s *Settings) *bool { return &s.WebEscapeNavigatesToHomeView }),
	boolDef("left_side_userlist", LegacyDisplay, func(s *Settings) *bool { return &s.LeftSideUserlist }),
	choiceDef("emojiset", LegacyDisplay, []string{"google", "twitter", "text"}, func(s *Settings) *string { return &s.Emojiset }),
	enumDef("demote_inactive_streams", LegacyDisplay, oneToThree, func(s *Settings) *int { return &s.DemoteInactiveStreams }),
	enumDef("user_list_style", NoLegacyEvent, oneToThree, func(s *Settings) *int { return &s.UserListStyle }),
	choiceDef("web_animate_image_previews", NoLegacyEvent, []string{"always", "on_hover", "never"},
		func(s *Settings) *string { return &s.WebAnimateImagePreviews }),
	enumDef("web_stream_unreads_count_display_policy", NoLegacyEvent, oneToThree,
		func(s *Settings) *int { return &s.WebStreamUnreadsCountDisplayPolicy }),
	boolDef("hide_ai_features", NoLegacyEvent, func(s *Settings) *bool { return &s.HideAiFeatures }),
	boolDef("web_inbox_show_channel_folders", NoLegacyEvent, func(s *Settings) *bool { return &s.WebInboxShowChannelFolders }),
	boolDef("web_left_sidebar_unreads_count_summary", NoLegacyEvent,
		func(s *Settings) *bool { return &s.WebLeftSidebarUnreadsCountSummary }),
	boolDef("web_left_sidebar_show_channel_folders", NoLegacyEvent,
		func(s *Settings) *bool { return &s.WebLeftSidebarShowChannelFolders }),
	boolDef("enter_sends", LegacyDisplay, func(s *Settings) *bool { return &s.EnterSends }),

	boolDef("enable_stream_desktop_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableStreamDesktopNotifications }),
	boolDef("enable_stream_email_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableStreamEmailNotifications }),
	boolDef("enable_stream_push_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableStreamPushNotifications }),
	boolDef("enable_stream_audible_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableStreamAudibleNotifications }),
	{Name: "notification_sound", Kind: StringSetting, Legacy: LegacyNotification, s: func(s *Settings) *string { return &s.NotificationSound },
		check: func(v any, _ int) error {
			if name := v.(string); name != "none" && !slices.Contains(NotificationSounds, name) {
				return &SettingError{Name: "notification_sound", Msg: fmt.Sprintf("Invalid notification sound '%s'", name)}
			}
			return nil
		}},
	boolDef("enable_desktop_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableDesktopNotifications }),
	boolDef("enable_sounds", LegacyNotification, func(s *Settings) *bool { return &s.EnableSounds }),
	{Name: "email_notifications_batching_period_seconds", Kind: IntSetting, Legacy: LegacyNotification,
		i: func(s *Settings) *int { return &s.EmailNotificationsBatchingPeriodSeconds },
		check: func(v any, _ int) error {
			if n := v.(int); n <= 0 || n > maxBatchingPeriodSeconds {
				return &SettingError{Name: "email_notifications_batching_period_seconds",
					Msg: "Invalid email batching period: " + strconv.Itoa(n) + " seconds"}
			}
			return nil
		}},
	boolDef("enable_offline_email_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableOfflineEmailNotifications }),
	boolDef("enable_offline_push_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableOfflinePushNotifications }),
	boolDef("enable_online_push_notifications", LegacyNotification, func(s *Settings) *bool { return &s.EnableOnlinePushNotifications }),
	boolDef("enable_followed_topic_desktop_notifications", NoLegacyEvent, func(s *Settings) *bool { return &s.EnableFollowedTopicDesktopNotifications }),
	boolDef("enable_followed_topic_email_notifications", NoLegacyEvent, func(s *Settings) *bool { return &s.EnableFollowedTopicEmailNotifications }),
	boolDef("enable_followed_topic_push_notifications", NoLegacyEvent, func(s *Settings) *bool { return &s.EnableFollowedTopicPushNotifications }),
	boolDef("enable_followed_topic_audible_notifications", NoLegacyEvent, func(s *Settings) *bool { return &s.EnableFollowedTopicAudibleNotifications }),
	boolDef("enable_followed_topic_wildcard_mentions_notify", NoLegacyEvent,
		func(s *Settings) *bool { return &s.EnableFollowedTopicWildcardMentionsNotify }),
	boolDef("enable_digest_emails", LegacyNotification, func(s *Settings) *bool { return &s.EnableDigestEmails }),
	boolDef("enable_marketing_emails", LegacyNotification, func(s *Settings) *bool { return &s.EnableMarketingEmails }),
	boolDef("enable_login_emails", LegacyNotification, func(s *Settings) *bool { return &s.EnableLoginEmails }),
	boolDef("message_content_in_email_notifications", LegacyNotification,
		func(s *Settings) *bool { return &s.MessageContentInEmailNotifications }),
	boolDef("pm_content_in_desktop_notifications", LegacyNotification, func(s *Settings) *bool { return &s.PMContentInDesktopNotifications }),
	boolDef("wildcard_mentions_notify", LegacyNotification, func(s *Settings) *bool { return &s.WildcardMentionsNotify }),
	enumDef("desktop_icon_count_display", LegacyNotification, oneToFour, func(s *Settings) *int { return &s.DesktopIconCountDisplay }),
	enumDef("realm_name_in_email_notifications_policy", LegacyNotification, oneToThree,
		func(s *Settings) *int { return &s.RealmNameInEmailNotificationsPolicy }),
	enumDef("automatically_follow_topics_policy", NoLegacyEvent, oneToFour,
		func(s *Settings) *int { return autoPolicy(&s.AutomaticallyFollowTopicsPolicy) }),
	enumDef("automatically_unmute_topics_in_muted_streams_policy", NoLegacyEvent, oneToFour,
		func(s *Settings) *int { return autoPolicy(&s.AutomaticallyUnmuteTopicsInMutedStreamsPolicy) }),
	boolDef("automatically_follow_topics_where_mentioned", NoLegacyEvent,
		func(s *Settings) *bool { return &s.AutomaticallyFollowTopicsWhereMentioned }),
	choiceDef("resolved_topic_notice_auto_read_policy", NoLegacyEvent,
		[]string{ResolvedNoticeReadAlways, ResolvedNoticeReadExceptFollowed, ResolvedNoticeReadNever},
		func(s *Settings) *string { return &s.ResolvedTopicNoticeAutoReadPolicy }),
	boolDef("presence_enabled", LegacyNotification, func(s *Settings) *bool { return &s.PresenceEnabled }),
	boolDef("send_private_typing_notifications", NoLegacyEvent, func(s *Settings) *bool { return &s.SendPrivateTypingNotifications }),
	boolDef("send_stream_typing_notifications", NoLegacyEvent, func(s *Settings) *bool { return &s.SendStreamTypingNotifications }),
	boolDef("send_read_receipts", NoLegacyEvent, func(s *Settings) *bool { return &s.SendReadReceipts }),
	boolDef("allow_private_data_export", NoLegacyEvent, func(s *Settings) *bool { return &s.AllowPrivateDataExport }),
	enumDef("email_address_visibility", NoLegacyEvent, []int{1, 2, 3, 4, 5},
		func(s *Settings) *int { return (*int)(&s.EmailAddressVisibility) }),
	boolDef("web_navigate_to_sent_message", NoLegacyEvent, func(s *Settings) *bool { return &s.WebNavigateToSentMessage }),
}
