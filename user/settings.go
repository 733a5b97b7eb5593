package user

// AutoTopicPolicy is the value of the automatically_follow_topics_policy
// and automatically_unmute_topics_in_muted_streams_policy settings: when
// sending to a topic makes the sender follow (or unmute) it.
type AutoTopicPolicy int

// The automatic topic policies, with Zulip's values.
const (
	AutoOnParticipation AutoTopicPolicy = 1
	AutoOnSend          AutoTopicPolicy = 2
	AutoOnInitiation    AutoTopicPolicy = 3
	AutoNever           AutoTopicPolicy = 4
)

// Valid reports whether p is one of the four policies.
func (p AutoTopicPolicy) Valid() bool { return p >= AutoOnParticipation && p <= AutoNever }

// The values of the resolved_topic_notice_auto_read_policy setting.
const (
	ResolvedNoticeReadAlways         = "always"
	ResolvedNoticeReadExceptFollowed = "except_followed"
	ResolvedNoticeReadNever          = "never"
)

// ResolvedNoticeRead reports whether a notice that a topic was resolved
// or unresolved arrives read for a user with the policy, who follows
// the topic or not.
func ResolvedNoticeRead(policy string, followsTopic bool) bool {
	switch policy {
	case ResolvedNoticeReadAlways:
		return true
	case ResolvedNoticeReadNever:
		return false
	}
	return !followsTopic
}

// DesktopIconCountFromOld maps a desktop_icon_count_display value of the
// numbering before Zulip 8.0 (1 all unread messages, 2 DMs and mentions,
// 3 none) to the one Settings keep (1 all, 2 DMs, mentions and followed
// topics, 3 DMs and mentions, 4 none); ok is false for a value the old
// numbering lacks.
func DesktopIconCountFromOld(v int) (_ int, ok bool) {
	switch v {
	case 1:
		return 1, true
	case 2, 3:
		return v + 1, true
	}
	return 0, false
}

// DesktopIconCountToOld is a desktop_icon_count_display value in the
// numbering before Zulip 8.0, which lacks the followed topics option:
// that one is sent as "DMs and mentions".
func DesktopIconCountToOld(v int) int {
	if v >= 3 {
		return v - 1
	}
	return v
}

// Settings are a user's personal settings (PATCH /settings), each under
// the Go name of its API name. The time zone and the full name live on
// User. Settings is comparable: the zero value means "not set up yet".
type Settings struct {
	TwentyFourHourTime                 bool
	WebMarkReadOnScrollPolicy          int
	WebChannelDefaultView              int
	StarredMessageCounts               bool
	ReceivesTypingNotifications        bool
	WebSuggestUpdateTimezone           bool
	FluidLayoutWidth                   bool
	HighContrastMode                   bool
	WebFontSizePx                      int
	WebLineHeightPercent               int
	ColorScheme                        int
	EnableDraftsSynchronization        bool
	TranslateEmoticons                 bool
	DisplayEmojiReactionUsers          bool
	DefaultLanguage                    string
	WebHomeView                        string // "recent_topics", "inbox" or "all_messages"
	WebEscapeNavigatesToHomeView       bool
	LeftSideUserlist                   bool
	Emojiset                           string
	DemoteInactiveStreams              int
	UserListStyle                      int
	WebAnimateImagePreviews            string
	WebStreamUnreadsCountDisplayPolicy int
	HideAiFeatures                     bool
	WebInboxShowChannelFolders         bool
	WebLeftSidebarUnreadsCountSummary  bool
	WebLeftSidebarShowChannelFolders   bool
	EnterSends                         bool

	EnableStreamDesktopNotifications          bool
	EnableStreamEmailNotifications            bool
	EnableStreamPushNotifications             bool
	EnableStreamAudibleNotifications          bool
	NotificationSound                         string
	EnableDesktopNotifications                bool
	EnableSounds                              bool
	EmailNotificationsBatchingPeriodSeconds   int
	EnableOfflineEmailNotifications           bool
	EnableOfflinePushNotifications            bool
	EnableOnlinePushNotifications             bool
	EnableFollowedTopicDesktopNotifications   bool
	EnableFollowedTopicEmailNotifications     bool
	EnableFollowedTopicPushNotifications      bool
	EnableFollowedTopicAudibleNotifications   bool
	EnableFollowedTopicWildcardMentionsNotify bool
	EnableDigestEmails                        bool
	EnableMarketingEmails                     bool
	EnableLoginEmails                         bool
	MessageContentInEmailNotifications        bool
	PMContentInDesktopNotifications           bool
	WildcardMentionsNotify                    bool
	DesktopIconCountDisplay                   int
	RealmNameInEmailNotificationsPolicy       int

	AutomaticallyFollowTopicsPolicy               AutoTopicPolicy
	AutomaticallyUnmuteTopicsInMutedStreamsPolicy AutoTopicPolicy
	AutomaticallyFollowTopicsWhereMentioned       bool
	// ResolvedTopicNoticeAutoReadPolicy is when Notification Bot's
	// notices that a topic was (un)resolved arrive already read:
	// "always", "except_followed" (unless the user follows the topic)
	// or "never".
	ResolvedTopicNoticeAutoReadPolicy string
	PresenceEnabled                   bool
	SendPrivateTypingNotifications    bool
	SendStreamTypingNotifications     bool
	SendReadReceipts                  bool
	AllowPrivateDataExport            bool
	// EmailAddressVisibility is who may see the user's real address; 0
	// means the realm's default (its email_address_visibility setting).
	EmailAddressVisibility   EmailVisibility
	WebNavigateToSentMessage bool
}

// DefaultSettings are a new account's settings on a current Zulip server.
func DefaultSettings() Settings {
	return Settings{
		WebMarkReadOnScrollPolicy:                     1,
		WebChannelDefaultView:                         1,
		StarredMessageCounts:                          true,
		ReceivesTypingNotifications:                   true,
		WebSuggestUpdateTimezone:                      true,
		WebFontSizePx:                                 16,
		WebLineHeightPercent:                          140,
		ColorScheme:                                   1,
		EnableDraftsSynchronization:                   true,
		DisplayEmojiReactionUsers:                     true,
		DefaultLanguage:                               "en",
		WebHomeView:                                   "inbox",
		WebEscapeNavigatesToHomeView:                  true,
		Emojiset:                                      "google",
		DemoteInactiveStreams:                         1,
		UserListStyle:                                 2,
		WebAnimateImagePreviews:                       "on_hover",
		WebStreamUnreadsCountDisplayPolicy:            2,
		WebInboxShowChannelFolders:                    true,
		WebLeftSidebarUnreadsCountSummary:             true,
		WebLeftSidebarShowChannelFolders:              true,
		NotificationSound:                             "zulip",
		EnableDesktopNotifications:                    true,
		EnableSounds:                                  true,
		EmailNotificationsBatchingPeriodSeconds:       120,
		EnableOfflineEmailNotifications:               true,
		EnableOfflinePushNotifications:                true,
		EnableOnlinePushNotifications:                 true,
		EnableFollowedTopicDesktopNotifications:       true,
		EnableFollowedTopicEmailNotifications:         true,
		EnableFollowedTopicPushNotifications:          true,
		EnableFollowedTopicAudibleNotifications:       true,
		EnableFollowedTopicWildcardMentionsNotify:     true,
		EnableDigestEmails:                            true,
		EnableMarketingEmails:                         true,
		EnableLoginEmails:                             true,
		MessageContentInEmailNotifications:            true,
		PMContentInDesktopNotifications:               true,
		WildcardMentionsNotify:                        true,
		DesktopIconCountDisplay:                       1,
		RealmNameInEmailNotificationsPolicy:           1,
		AutomaticallyFollowTopicsPolicy:               AutoOnInitiation,
		AutomaticallyUnmuteTopicsInMutedStreamsPolicy: AutoOnSend,
		AutomaticallyFollowTopicsWhereMentioned:       true,
		ResolvedTopicNoticeAutoReadPolicy:             ResolvedNoticeReadExceptFollowed,
		PresenceEnabled:                               true,
		SendPrivateTypingNotifications:                true,
		SendStreamTypingNotifications:                 true,
		SendReadReceipts:                              true,
		WebNavigateToSentMessage:                      true,
	}
}

// SettingError names a personal setting whose value was refused, with
// Zulip's message for it.
type SettingError struct {
	Name string
	Msg  string // empty: "Invalid <name>"
}

func (e *SettingError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return "Invalid " + e.Name
}

// Validate checks every setting's value, naming the first bad one as
// Zulip's API calls it. Feature level 0 applies the oldest value sets.
func (s Settings) Validate() error {
	for _, d := range SettingDefs {
		if d.Name == "email_address_visibility" && s.EmailAddressVisibility == 0 {
			continue // the realm's default
		}
		if err := d.Check(d.Get(&s), 0); err != nil {
			return err
		}
	}
	return nil
}
