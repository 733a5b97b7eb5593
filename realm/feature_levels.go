package realm

// The feature levels at which behaviour the realm reproduces changed in
// Zulip. A realm advertising a lower level (WithFeatureLevel) behaves as
// servers of that level did.
const (
	// realmURLFeatureLevel: realm_url is sent next to the deprecated
	// realm_uri (Zulip 9.0).
	realmURLFeatureLevel = 257
	// announcementsRenameLevel: realm_notifications_stream_id and
	// realm_signup_notifications_stream_id became
	// realm_new_stream_announcements_stream_id and
	// realm_signup_announcements_stream_id (Zulip 9.0).
	announcementsRenameLevel = 241
	// zulipUpdateAnnouncementsLevel: realm_zulip_update_announcements_stream_id.
	zulipUpdateAnnouncementsLevel = 242
	// moderationRequestChannelLevel: the realm's moderation_request_channel_id
	// (register's realm_moderation_request_channel_id, PATCH /realm's
	// moderation_request_channel_id, Zulip 10.0).
	moderationRequestChannelLevel = 331
	// subscribersKeyedByIDLevel: subscription results are keyed by user ID
	// rather than by API email.
	subscribersKeyedByIDLevel = 289
	// deactivatedGroupSubgroupsLevel: a deactivated group's subgroups may
	// be changed.
	deactivatedGroupSubgroupsLevel = 391
	// newSubscriptionMessagesLevel: send_new_subscription_messages and
	// new_subscription_messages_sent.
	newSubscriptionMessagesLevel = 397
	// navigationViewsLevel: users' navigation views (Zulip 11.0).
	navigationViewsLevel = 390
	// billingAdminRemovedLevel: is_billing_admin left user objects.
	billingAdminRemovedLevel = 363
	// denseModeRemovedLevel: dense_mode left the personal settings.
	denseModeRemovedLevel = 364
	// reactionUserRemovedLevel: the deprecated user object left message
	// objects' reactions and reaction events (Zulip 10.0).
	reactionUserRemovedLevel = 328
	// reactionEventUserRestoredLevel: reaction events carry the user
	// object again (Zulip 10.0); message objects' reactions do not.
	reactionEventUserRestoredLevel = 339
	// botMembershipLookupLevel: bots may be looked up as group members.
	botMembershipLookupLevel = 458
	// botGroupRequestsLevel: bots may use the group membership endpoints.
	botGroupRequestsLevel = 496
	// simplifiedPresenceEventsLevel: the simplified_presence_events client
	// capability (Zulip 11.0).
	simplifiedPresenceEventsLevel = 419
)

// The feature levels at which request parameters came, for adapters
// that read a request by the realm's level (httpapi): a parameter the
// advertised level lacks goes unread, and so is reported as ignored.
const (
	// PresenceLastUpdateIDLevel: presence is fetched incrementally by
	// last_update_id, and answers carry presence_last_update_id (Zulip 9.0).
	PresenceLastUpdateIDLevel = 263
	// PresenceHistoryLimitLevel: history_limit_days and register's
	// presence_history_limit_days (Zulip 10.0).
	PresenceHistoryLimitLevel = 288
	// TopicsPolicyLevel: the realm's topics_policy (register's
	// realm_topics_policy, PATCH /realm's topics_policy) replaced
	// mandatory_topics (Zulip 11.0).
	TopicsPolicyLevel = 392
	// MessageIDsFetchLevel: GET /messages's message_ids (Zulip 10.0).
	MessageIDsFetchLevel = 300
)

// The feature levels of scheduled messages and reminders.
const (
	// scheduledMessagesLevel: register's scheduled_messages section and
	// scheduled_messages events (Zulip 7.0).
	scheduledMessagesLevel = 179
	// remindersLevel: register's reminders section, GET /reminders,
	// DELETE /reminders/{id} and reminders events (Zulip 11.0); POST
	// /reminders came at 381, its note parameter at 415.
	remindersLevel = 399
)

// The feature levels of channel folders (Zulip 11.0).
const (
	// channelFoldersLevel: channel folders, register's channel_folders
	// section and channel_folder events.
	channelFoldersLevel = 389
	// channelFolderLimitsLevel: register's max_channel_folder_name_length
	// and max_channel_folder_description_length.
	channelFolderLimitsLevel = 410
	// channelFolderOrderLevel: folders carry an order and are listed by
	// it; PATCH /channel_folders reorders them.
	channelFolderOrderLevel = 414
	// channelFolderReorderEventLevel: reordering sends a channel_folder
	// reorder event.
	channelFolderReorderEventLevel = 418
)

// The feature levels of messages.
const (
	// lastMovedTimestampLevel: last_moved_timestamp is sent and
	// last_edit_timestamp counts only content edits (Zulip 10.0).
	lastMovedTimestampLevel = 365
	// ignoredChannelsLevel: flag updates that mark messages unread report
	// the channels they skipped (ignored_because_not_subscribed_channels).
	ignoredChannelsLevel = 355
)

// The feature levels of channels and subscriptions.
const (
	// streamDeleteIDsLevel: stream delete events list stream_ids, and
	// their streams hold only IDs (Zulip 10.0).
	streamDeleteIDsLevel = 343
	// archivedChannelEventsLevel: archiving is a stream update of
	// is_archived for clients with the archived_channels capability, a
	// delete only for the others (Zulip 11.0).
	archivedChannelEventsLevel = 378
	// defaultStreamIDsLevel: default channels are listed by ID; before it
	// they were channel objects.
	defaultStreamIDsLevel = 330
	// isMutedEventsLevel: a change of is_muted or in_home_view sends an
	// event for each of the two names.
	isMutedEventsLevel = 139
)

// The feature levels at which the shapes of uploads changed.
const (
	// uploadURLLevel: an upload's answer has url next to the deprecated
	// uri.
	uploadURLLevel = 272
	// uploadFilenameLevel: an upload's answer has filename;
	// detached_uploads.
	uploadFilenameLevel = 285
	// attachmentSecondsLevel: attachments' create_time is in seconds, not
	// milliseconds.
	attachmentSecondsLevel = 443
	// attachmentMessageIDsLevel: attachments' message_ids replaces
	// messages.
	attachmentMessageIDsLevel = 472
)

// The feature levels of mobile push notifications.
const (
	// testPushEventLevel: test notifications' event is "test" rather than
	// "test-by-device-token", and payloads carry realm_name (Zulip 8.0).
	testPushEventLevel = 234
	// pushDevicesLevel: E2EE push registration, register's push_devices
	// section and push_device events (Zulip 11.0).
	pushDevicesLevel = 406
)

// The feature levels of data exports.
const (
	// exportTypeLevel: exports carry export_type, and standard exports
	// can be requested (Zulip 10.0).
	exportTypeLevel = 304
	// exportConsentEventLevel: administrators hear realm_export_consent
	// events (Zulip 10.0).
	exportConsentEventLevel = 312
)
