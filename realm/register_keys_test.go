package realm

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each state section puts exactly its own keys in the register answer, and
// fetching everything gives the union of them all.
func TestRegisterSectionKeys(t *testing.T) {
	r, _ := newTestRealm(t)
	always := []string{"idle_queue_timeout_secs", "last_event_id", "queue_id", "zulip_feature_level", "zulip_merge_base", "zulip_version"}
	var all []string
	for _, name := range slices.Sorted(maps.Keys(wantSectionKeys)) {
		want := wantSectionKeys[name]
		state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{name}})
		if err != nil {
			t.Fatal(err)
		}
		got := jsonKeyList(jsonKeys(t, state))
		if diff := cmp.Diff(sortedStrings(append(append([]string{}, always...), want...)), got); diff != "" {
			t.Errorf("section %s (-want +got):\n%s", name, diff)
		}
		all = append(all, want...)
	}
	// muted_topics gives way to user_topic, and unread_msgs needs message.
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{})
	got := jsonKeyList(jsonKeys(t, state))
	all = slices.DeleteFunc(append(all, always...), func(k string) bool { return k == "muted_topics" })
	all = append(all, "unread_msgs")
	if diff := cmp.Diff(sortedStrings(all), got); diff != "" {
		t.Errorf("every section (-want +got):\n%s", diff)
	}
}

func jsonKeyList(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return sortedStrings(out)
}

func sortedStrings(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// wantSectionKeys are the JSON keys each fetch_event_types section adds to
// the register answer (besides queue_id and the version keys).
var wantSectionKeys = map[string][]string{
	"alert_words":                  {"alert_words"},
	"channel_folders":              {"channel_folders"},
	"custom_profile_fields":        {"custom_profile_field_types", "custom_profile_fields"},
	"default_streams":              {"realm_default_streams"},
	"drafts":                       {"drafts"},
	"message":                      {"max_message_id"},
	"muted_topics":                 {"muted_topics"},
	"muted_users":                  {"muted_users"},
	"presence":                     {"presence_last_update_id", "presences", "server_timestamp"},
	"push_device":                  {"push_devices"},
	"realm":                        realmSectionKeys,
	"realm_bot":                    {"realm_bots"},
	"realm_billing":                {"realm_billing"},
	"realm_incoming_webhook_bots":  {"realm_incoming_webhook_bots"},
	"realm_domains":                {"realm_domains"},
	"realm_emoji":                  {"realm_emoji"},
	"realm_filters":                {"realm_filters"},
	"realm_linkifiers":             {"realm_linkifiers"},
	"realm_playgrounds":            {"realm_playgrounds"},
	"navigation_views":             {"navigation_views"},
	"onboarding_steps":             {"navigation_tour_video_url", "onboarding_steps"},
	"realm_user_settings_defaults": {"realm_user_settings_defaults"},
	"realm_user":                   {"avatar_source", "avatar_url", "avatar_url_medium", "can_create_private_streams", "can_create_public_streams", "can_create_streams", "can_create_web_public_streams", "can_invite_others_to_realm", "can_subscribe_other_users", "cross_realm_bots", "delivery_email", "email", "full_name", "is_admin", "is_guest", "is_moderator", "is_owner", "realm_non_active_users", "realm_users", "user_id"},
	"realm_user_groups":            {"realm_user_groups"},
	"recent_private_conversations": {"recent_private_conversations"},
	"reminders":                    {"reminders"},
	"saved_snippets":               {"saved_snippets"},
	"scheduled_messages":           {"scheduled_messages"},
	"starred_messages":             {"starred_messages"},
	"stream":                       {"streams"},
	"subscription":                 {"never_subscribed", "subscriptions", "unsubscribed"},
	"update_message_flags":         {},
	// The legacy settings keys, for clients without user_settings_object
	// (Zulip's fetch_initial_state_data).
	"update_display_settings": {"color_scheme", "default_language", "demote_inactive_streams", "emojiset", "emojiset_choices",
		"enable_drafts_synchronization", "enter_sends", "fluid_layout_width", "high_contrast_mode", "left_side_userlist",
		"starred_message_counts", "timezone", "translate_emoticons", "twenty_four_hour_time", "web_home_view"},
	"update_global_notifications": {"available_notification_sounds", "desktop_icon_count_display",
		"email_notifications_batching_period_seconds", "enable_desktop_notifications", "enable_digest_emails",
		"enable_login_emails", "enable_marketing_emails", "enable_offline_email_notifications",
		"enable_offline_push_notifications", "enable_online_push_notifications", "enable_sounds",
		"enable_stream_audible_notifications", "enable_stream_desktop_notifications", "enable_stream_email_notifications",
		"enable_stream_push_notifications", "message_content_in_email_notifications", "notification_sound",
		"pm_content_in_desktop_notifications", "presence_enabled", "realm_name_in_email_notifications_policy",
		"wildcard_mentions_notify"},
	"user_settings": {"user_settings"},
	"user_status":   {"user_status"},
	"user_topic":    {"user_topics"},
	"video_calls":   {"has_zoom_token"},
}

// realmSectionKeys are the keys of the realm section at feature level 496.
var realmSectionKeys = []string{
	"development_environment",
	"event_queue_longpoll_timeout_seconds", "giphy_rating_options", "jitsi_server_url",
	"max_avatar_file_size_mib", "max_channel_folder_description_length", "max_channel_folder_name_length", "max_file_upload_size_mib", "max_icon_file_size_mib", "max_logo_file_size_mib",
	"max_message_length", "max_stream_description_length", "max_stream_name_length", "max_topic_length",
	"password_min_guesses", "password_min_length", "realm_allow_edit_history", "realm_allow_message_editing",
	"realm_authentication_methods", "realm_available_video_chat_providers", "realm_avatar_changes_disabled",
	"realm_bot_domain", "realm_can_add_custom_emoji_group", "realm_can_add_subscribers_group", "realm_can_create_groups", "realm_can_create_private_channel_group",
	"realm_can_create_public_channel_group", "realm_can_delete_any_message_group",
	"realm_can_delete_own_message_group", "realm_can_invite_users_group", "realm_can_manage_all_groups", "realm_can_mention_many_users_group",
	"realm_can_move_messages_between_channels_group", "realm_can_move_messages_between_topics_group",
	"realm_can_resolve_topics_group", "realm_create_multiuse_invite_group", "realm_date_created",
	"realm_can_access_all_users_group", "realm_direct_message_initiator_group", "realm_direct_message_permission_group",
	"realm_can_create_web_public_channel_group", "realm_can_create_bots_group", "realm_can_create_write_only_bots_group",
	"realm_can_summarize_topics_group", "server_can_summarize_topics", "realm_can_manage_billing_group",
	"realm_can_set_topics_policy_group", "realm_can_set_delete_message_policy_group", "realm_default_code_block_language",
	"realm_default_external_accounts", "realm_default_language", "realm_description",
	"realm_digest_emails_enabled", "realm_digest_weekday", "realm_disallow_disposable_email_addresses",
	"realm_email_auth_enabled", "realm_email_changes_disabled",
	"realm_emails_restricted_to_domains", "realm_empty_topic_display_name", "realm_enable_guest_user_indicator",
	"realm_enable_read_receipts", "realm_enable_spectator_access", "realm_giphy_rating", "realm_icon_source",
	"realm_icon_url", "realm_inline_image_preview", "realm_inline_url_embed_preview", "realm_invite_required",
	"realm_is_zephyr_mirror_realm", "realm_jitsi_server_url", "realm_logo_source", "realm_logo_url",
	"realm_mandatory_topics", "realm_message_content_allowed_in_email_notifications",
	"realm_message_content_delete_limit_seconds", "realm_message_content_edit_limit_seconds",
	"realm_message_retention_days", "realm_moderation_request_channel_id", "realm_move_messages_between_streams_limit_seconds",
	"realm_move_messages_within_stream_limit_seconds", "realm_name", "realm_name_changes_disabled",
	"realm_new_stream_announcements_stream_id", "realm_night_logo_source", "realm_night_logo_url",
	"realm_org_type", "realm_password_auth_enabled", "realm_plan_type",
	"realm_presence_disabled", "realm_push_notifications_enabled", "realm_send_welcome_emails",
	"realm_signup_announcements_stream_id", "realm_topics_policy", "realm_upload_quota_mib",
	"realm_uri", "realm_url", "realm_video_chat_provider", "realm_waiting_period_threshold",
	"realm_want_advertise_in_communities_directory", "realm_wildcard_mention_policy",
	"realm_zulip_update_announcements_stream_id", "server_avatar_changes_disabled", "server_emoji_data_url",
	"server_generation", "server_inline_image_preview", "server_inline_url_embed_preview",
	"server_jitsi_server_url", "server_name_changes_disabled", "server_needs_upgrade",
	"server_presence_offline_threshold_seconds", "server_presence_ping_interval_seconds", "server_supported_permission_settings", "server_thumbnail_formats",
	"server_typing_started_expiry_period_milliseconds", "server_typing_started_wait_period_milliseconds",
	"server_typing_stopped_wait_period_milliseconds", "server_web_public_streams_enabled",
	"settings_send_digest_emails", "stop_words", "upgrade_text_for_wide_organization_logo",
	"zulip_plan_is_not_limited",
	"max_bulk_new_subscription_messages", "max_reminder_note_length", "password_max_length",
	"server_max_deactivated_realm_deletion_days", "server_min_deactivated_realm_deletion_days",
	"realm_enable_guest_user_dm_warning", "realm_message_edit_history_visibility_policy",
	"realm_require_e2ee_push_notifications", "realm_require_unique_names", "realm_welcome_message_custom_text",
	"realm_push_notifications_enabled_end_timestamp",
}
