package user

// Fixed choices the server offers, as register reports them.
var (
	// EmojisetChoices are the emoji sets a user may pick.
	EmojisetChoices = []map[string]string{
		{"key": "google", "text": "Google"},
		{"key": "twitter", "text": "Twitter"},
		{"key": "text", "text": "Plain text"},
	}
	// NotificationSounds are the sounds a user may pick.
	NotificationSounds = []string{"chime-sequence", "ding", "zulip"}
)

// View returns every personal setting under its API name, as the
// `user_settings` object of POST /register has them. Settings minizulip does
// not model yet are reported at Zulip's defaults.
func (s Settings) View(timezone string, emailVisibility EmailVisibility) map[string]any {
	return map[string]any{
		"twenty_four_hour_time":                               false,
		"web_mark_read_on_scroll_policy":                      1,
		"web_channel_default_view":                            1,
		"starred_message_counts":                              true,
		"receives_typing_notifications":                       s.ReceivesTypingNotifications,
		"web_suggest_update_timezone":                         true,
		"fluid_layout_width":                                  false,
		"high_contrast_mode":                                  false,
		"web_font_size_px":                                    16,
		"web_line_height_percent":                             140,
		"color_scheme":                                        1,
		"enable_drafts_synchronization":                       true,
		"translate_emoticons":                                 false,
		"display_emoji_reaction_users":                        true,
		"default_language":                                    "en",
		"web_home_view":                                       "recent",
		"web_escape_navigates_to_home_view":                   true,
		"left_side_userlist":                                  false,
		"emojiset":                                            "google",
		"demote_inactive_streams":                             1,
		"user_list_style":                                     2,
		"web_animate_image_previews":                          "on_hover",
		"web_stream_unreads_count_display_policy":             2,
		"hide_ai_features":                                    false,
		"web_inbox_show_channel_folders":                      true,
		"timezone":                                            timezone,
		"enter_sends":                                         s.EnterSends,
		"dense_mode":                                          true,
		"enable_stream_desktop_notifications":                 false,
		"enable_stream_email_notifications":                   false,
		"enable_stream_push_notifications":                    false,
		"enable_stream_audible_notifications":                 false,
		"notification_sound":                                  "zulip",
		"enable_desktop_notifications":                        true,
		"enable_sounds":                                       true,
		"email_notifications_batching_period_seconds":         120,
		"enable_offline_email_notifications":                  true,
		"enable_offline_push_notifications":                   true,
		"enable_online_push_notifications":                    true,
		"enable_followed_topic_desktop_notifications":         true,
		"enable_followed_topic_email_notifications":           true,
		"enable_followed_topic_push_notifications":            true,
		"enable_followed_topic_audible_notifications":         true,
		"enable_followed_topic_wildcard_mentions_notify":      true,
		"enable_digest_emails":                                true,
		"enable_marketing_emails":                             true,
		"enable_login_emails":                                 true,
		"message_content_in_email_notifications":              true,
		"pm_content_in_desktop_notifications":                 true,
		"wildcard_mentions_notify":                            true,
		"desktop_icon_count_display":                          1,
		"realm_name_in_email_notifications_policy":            1,
		"automatically_follow_topics_policy":                  s.AutomaticallyFollowTopicsPolicy,
		"automatically_unmute_topics_in_muted_streams_policy": s.AutomaticallyUnmuteTopicsInMutedStreamsPolicy,
		"automatically_follow_topics_where_mentioned":         s.AutomaticallyFollowTopicsWhereMentioned,
		"presence_enabled":                                    true,
		"send_private_typing_notifications":                   true,
		"send_stream_typing_notifications":                    true,
		"send_read_receipts":                                  true,
		"allow_private_data_export":                           false,
		"email_address_visibility":                            emailVisibility,
		"web_navigate_to_sent_message":                        true,
		"emojiset_choices":                                    EmojisetChoices,
		"available_notification_sounds":                       NotificationSounds,
	}
}
