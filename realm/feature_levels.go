package realm

// firstTabledLevel is the first feature level the table of changes
// (feature_changes.tsv) covers: Zulip 7.0.
const firstTabledLevel = 185

// The changes of the table (feature_changes.tsv) that code asks about by
// name: a realm advertising a lower level (WithFeatureLevel) behaves as
// servers before the change did.
var (
	// changeRealmURL: realm_url is sent next to the deprecated
	// realm_uri (Zulip 9.0).
	changeRealmURL = newChange("realmURL")
	// ChangeAnnouncementsRename: realm_notifications_stream_id and
	// realm_signup_notifications_stream_id became
	// realm_new_stream_announcements_stream_id and
	// realm_signup_announcements_stream_id (Zulip 9.0).
	ChangeAnnouncementsRename = newChange("announcementsRename")
	// changeZulipUpdateAnnouncements: realm_zulip_update_announcements_stream_id.
	changeZulipUpdateAnnouncements = newChange("zulipUpdateAnnouncements")
	// changeModerationRequestChannel: the realm's moderation_request_channel_id
	// (register's realm_moderation_request_channel_id, PATCH /realm's
	// moderation_request_channel_id, Zulip 10.0).
	changeModerationRequestChannel = newChange("moderationRequestChannel")
	// changeSubscribersKeyedByID: subscription results are keyed by user ID
	// rather than by API email.
	changeSubscribersKeyedByID = newChange("subscribersKeyedByID")
	// changeDeactivatedGroupSubgroups: a deactivated group's subgroups may
	// be changed.
	changeDeactivatedGroupSubgroups = newChange("deactivatedGroupSubgroups")
	// changeNewSubscriptionMessages: send_new_subscription_messages and
	// new_subscription_messages_sent.
	changeNewSubscriptionMessages = newChange("newSubscriptionMessages")
	// changeNavigationViews: users' navigation views (Zulip 11.0).
	changeNavigationViews = newChange("navigationViews")
	// changeBillingAdminRemoved: is_billing_admin left user objects.
	changeBillingAdminRemoved = newChange("billingAdminRemoved")
	// changeImportedStubField: user objects carry is_imported_stub
	// (Zulip 12.0).
	changeImportedStubField = newChange("importedStubField")
	// changeDateJoinedMinutes: user objects' date_joined is to the minute
	// (Zulip PR #31190, backported to 9.x: from 9.2's 278); before, to the
	// second as the fake keeps it.
	changeDateJoinedMinutes = newChange("dateJoinedMinutes")
	// changeDenseModeRemoved: dense_mode left the personal settings.
	changeDenseModeRemoved = newChange("denseModeRemoved")
	// changeReactionUserRemoved: the deprecated user object left message
	// objects' reactions and reaction events (Zulip 10.0).
	changeReactionUserRemoved = newChange("reactionUserRemoved")
	// changeReactionEventUserRestored: reaction events carry the user
	// object again (Zulip 10.0); message objects' reactions do not.
	changeReactionEventUserRestored = newChange("reactionEventUserRestored")
	// changeBotMembershipLookup: bots may be looked up as group members.
	changeBotMembershipLookup = newChange("botMembershipLookup")
	// changeBotGroupRequests: bots may use the group membership endpoints.
	changeBotGroupRequests = newChange("botGroupRequests")
	// changeSimplifiedPresenceEvents: the simplified_presence_events client
	// capability (Zulip 11.0).
	changeSimplifiedPresenceEvents = newChange("simplifiedPresenceEvents")
)

// The changes of request parameters, for adapters that read a request by
// the realm's level (httpapi, Realm.Has): a parameter the advertised
// level lacks goes unread, and so is reported as ignored.
var (
	// ChangePresenceLastUpdateID: presence is fetched incrementally by
	// last_update_id, and answers carry presence_last_update_id (Zulip 9.0).
	ChangePresenceLastUpdateID = newChange("presenceLastUpdateID")
	// ChangePresenceHistoryLimit: history_limit_days and register's
	// presence_history_limit_days (Zulip 10.0).
	ChangePresenceHistoryLimit = newChange("presenceHistoryLimit")
	// ChangeTopicsPolicy: the realm's topics_policy (register's
	// realm_topics_policy, PATCH /realm's topics_policy) replaced
	// mandatory_topics (Zulip 11.0).
	ChangeTopicsPolicy = newChange("topicsPolicy")
	// ChangeEditHistoryPolicy: the realm's
	// message_edit_history_visibility_policy (all, moves, none) replaced
	// the allow_edit_history boolean in register, events and PATCH
	// /realm (Zulip 10.0).
	ChangeEditHistoryPolicy = newChange("editHistoryPolicy")
	// changeOnboardingSteps: register's hotspots became onboarding_steps,
	// the hotspots event onboarding_steps and POST /users/me/hotspots
	// POST /users/me/onboarding_steps; steps carry a type, and one-time
	// notices join the hotspots (Zulip 8.0).
	changeOnboardingSteps = newChange("onboardingSteps")
	// changeHotspotTrigger: hotspot objects carry has_trigger (Zulip 8.0).
	changeHotspotTrigger = newChange("hotspotTrigger")
	// changeHotspotsRemoved: the tutorial's hotspots left the onboarding
	// steps, one-time notices remain (Zulip 9.0).
	changeHotspotsRemoved = newChange("hotspotsRemoved")
	// ChangeMessageIDsFetch: GET /messages's message_ids (Zulip 10.0).
	ChangeMessageIDsFetch = newChange("messageIDsFetch")
	// ChangeIdleQueueTimeout: register's idle_queue_timeout, and
	// idle_queue_timeout_secs in its answer (Zulip 12.0).
	ChangeIdleQueueTimeout = newChange("idleQueueTimeout")
)

// The feature levels of scheduled messages and reminders.
var (
	// changeScheduledMessages: register's scheduled_messages section and
	// scheduled_messages events (Zulip 7.0).
	changeScheduledMessages = newChange("scheduledMessages")
	// changeReminders: register's reminders section, GET /reminders,
	// DELETE /reminders/{id} and reminders events (Zulip 11.0); POST
	// /reminders came at 381, its note parameter at 415.
	changeReminders = newChange("reminders")
)

// The feature levels of channel folders (Zulip 11.0).
var (
	// changeChannelFolders: channel folders, register's channel_folders
	// section and channel_folder events.
	changeChannelFolders = newChange("channelFolders")
	// changeChannelFolderLimits: register's max_channel_folder_name_length
	// and max_channel_folder_description_length.
	changeChannelFolderLimits = newChange("channelFolderLimits")
	// changeChannelFolderOrder: folders carry an order and are listed by
	// it; PATCH /channel_folders reorders them.
	changeChannelFolderOrder = newChange("channelFolderOrder")
	// changeChannelFolderReorderEvent: reordering sends a channel_folder
	// reorder event.
	changeChannelFolderReorderEvent = newChange("channelFolderReorderEvent")
)

// The feature levels of events' shapes.
var (
	// changeTypingDirect: direct message typing events say message_type
	// "direct", not "private" (Zulip 8.0).
	changeTypingDirect = newChange("typingDirect")
	// changeFirstMessageIDEvent: a channel whose oldest message changes
	// gets a stream update of first_message_id (Zulip 9.0).
	changeFirstMessageIDEvent = newChange("firstMessageIDEvent")
	// changePrevRenderedVersionRemoved: update_message events of content
	// edits no longer carry prev_rendered_content_version (Zulip 10.0).
	changePrevRenderedVersionRemoved = newChange("prevRenderedVersionRemoved")
	// changeEmptyTopicCapability: the empty_topic_name client capability
	// exists (Zulip 10.0); below it queues and register answers are as
	// for clients without it.
	changeEmptyTopicCapability = newChange("emptyTopicCapability")
	// changeDeleteEventHolders: a channel message's deletion is told to
	// every user who held it, not only the channel's subscribers
	// (Zulip 9.0).
	changeDeleteEventHolders = newChange("deleteEventHolders")
	// changeDeactivationPeerRemove: a user's deactivation removes them
	// from their channels' subscribers with peer_remove events before
	// the realm_user event (Zulip 10.0).
	changeDeactivationPeerRemove = newChange("deactivationPeerRemove")
	// changeRoleChannelEvents: a role change that shows or hides
	// channels sends stream create (with peer_add of their subscribers)
	// and delete events to the user (Zulip 8.0).
	changeRoleChannelEvents = newChange("roleChannelEvents")
	// changeInvitesChangedToReferrer: invites_changed reaches the
	// invitation's author too, not only administrators (Zulip 8.0).
	changeInvitesChangedToReferrer = newChange("invitesChangedToReferrer")
	// changeGuestWebPublicEvents: guests hear of web-public channels'
	// creation and of the subscribers of the public channels they see
	// (Zulip 8.0).
	changeGuestWebPublicEvents = newChange("guestWebPublicEvents")
	// changeActiveUpdates: (de)activation is a realm_user update of
	// is_active; before it a deactivation was realm_user remove (and
	// realm_bot remove) and a reactivation realm_user add (Zulip 8.0).
	changeActiveUpdates = newChange("activeUpdates")
	// changeGuestAccessEvents: user_status and realm_user update events
	// go only to the users who may access their user, and
	// a guest hears realm_user add and remove as it gains and loses access
	// to users (Zulip 8.0, can_access_all_users_group).
	changeGuestAccessEvents = newChange("guestAccessEvents")
	// changeArchivedChannelsCapability: the archived_channels client
	// capability (Zulip 10.0).
	changeArchivedChannelsCapability = newChange("archivedChannelsCapability")
	// changeGuestSubscribeStreamCreate: a guest subscribed to a public
	// channel it could not see first gets its stream create (Zulip 8.0).
	changeGuestSubscribeStreamCreate = newChange("guestSubscribeStreamCreate")
	// changeFollowedTopics: the followed visibility policy (3) of user
	// topics (Zulip 8.0); below it neither a request nor the automatic
	// rules make a topic followed.
	changeFollowedTopics = newChange("followedTopics")
	// changeDesktopIconCountFollowed: desktop_icon_count_display gained
	// "DMs, mentions, and followed topics" as 2, the later options
	// renumbered (Zulip 8.0); below it requests and answers use the old
	// numbering (settings_numbering.go).
	changeDesktopIconCountFollowed = newChange("desktopIconCountFollowed")
	// changeEmptyTopicOnly: a channel's topics_policy may be
	// "empty_topic_only" (Zulip 11.0).
	changeEmptyTopicOnly = newChange("emptyTopicOnly")
)

// The feature levels of messages.
var (
	// changeLastMovedTimestamp: last_moved_timestamp is sent and
	// last_edit_timestamp counts only content edits (Zulip 10.0).
	changeLastMovedTimestamp = newChange("lastMovedTimestamp")
	// changeIgnoredChannels: flag updates that mark messages unread report
	// the channels they skipped (ignored_because_not_subscribed_channels).
	changeIgnoredChannels = newChange("ignoredChannels")
)

// The changes that let group settings hold any group
// (group_setting_forms.go).
var (
	// ChangeRemoveSubscribersAnyGroup: a channel's
	// can_remove_subscribers_group may be any group-setting value, and
	// PATCH /streams takes it as {"new", "old"}; before it, the ID of a
	// system group, sent as a plain integer (Zulip 10.0).
	ChangeRemoveSubscribersAnyGroup = newChange("removeSubscribersAnyGroup")
	// changeRealmAccessSettingsAnonymous: the realm's
	// can_access_all_users_group and create_multiuse_invite_group may be
	// anonymous groups (Zulip 10.0).
	changeRealmAccessSettingsAnonymous = newChange("realmAccessSettingsAnonymous")
	// ChangeGroupSettingChangeObjects: PATCH /user_groups/{id} takes a
	// group setting as {"new", "old"}; before it, as a plain value
	// (Zulip 9.0).
	ChangeGroupSettingChangeObjects = newChange("groupSettingChangeObjects")
	// changeUserGroupSettingsAnonymous: a user group's permission
	// settings (can_mention_group, the only one then) may be anonymous
	// groups; before it, group IDs only (Zulip 9.0).
	changeUserGroupSettingsAnonymous = newChange("userGroupSettingsAnonymous")
)

// The feature levels of channels and subscriptions.
var (
	// changeRemoveSubscribersGroupName: a channel's
	// can_remove_subscribers_group_id took its name without _id (Zulip
	// 8.0).
	changeRemoveSubscribersGroupName = newChange("removeSubscribersGroupName")
	// changeMentionGroupName: a user group's can_mention_group_id took its
	// name without _id (Zulip 8.0).
	changeMentionGroupName = newChange("mentionGroupName")
	// changeManageAllGroupsAnyGroup: the members of can_manage_all_groups
	// manage every group; before it, only those they belong to unless
	// they are moderators or above (Zulip 10.0).
	changeManageAllGroupsAnyGroup = newChange("manageAllGroupsAnyGroup")
	// changeStreamDeleteIDs: stream delete events list stream_ids, and
	// their streams hold only IDs (Zulip 10.0).
	changeStreamDeleteIDs = newChange("streamDeleteIDs")
	// changeArchivedChannelEvents: archiving is a stream update of
	// is_archived for clients with the archived_channels capability, a
	// delete only for the others (Zulip 11.0).
	changeArchivedChannelEvents = newChange("archivedChannelEvents")
	// changeDefaultStreamIDs: default channels are listed by ID; before it
	// they were channel objects.
	changeDefaultStreamIDs = newChange("defaultStreamIDs")
	// changeIsMutedEvents: a change of is_muted or in_home_view sends an
	// event for each of the two names.
	changeIsMutedEvents = newChange("isMutedEvents")
)

// The feature levels at which the shapes of uploads changed.
var (
	// changeUploadURL: an upload's answer has url next to the deprecated
	// uri.
	changeUploadURL = newChange("uploadURL")
	// changeUploadFilename: an upload's answer has filename;
	// detached_uploads.
	changeUploadFilename = newChange("uploadFilename")
	// changeAttachmentSeconds: attachments' create_time is in seconds, not
	// milliseconds.
	changeAttachmentSeconds = newChange("attachmentSeconds")
	// changeAttachmentMessageIDs: attachments' message_ids replaces
	// messages.
	changeAttachmentMessageIDs = newChange("attachmentMessageIDs")
)

// The changes of image thumbnails (Zulip's api_docs/message-formatting.md,
// "Changes to image formatting", and the OpenAPI's register).
var (
	// changeServerThumbnailFormats: register's server_thumbnail_formats
	// (Zulip 9.0).
	changeServerThumbnailFormats = newChange("serverThumbnailFormats")
	// changeThumbnailing: uploaded images are previewed by their
	// thumbnails (or a loading placeholder), served under
	// /user_uploads/thumbnail/; other images by their own URL rather
	// than /thumbnail?url= (Zulip 9.0).
	changeThumbnailing = newChange("thumbnailing")
	// changeThumbnailDimensions: thumbnails carry
	// data-original-dimensions (Zulip 9.0).
	changeThumbnailDimensions = newChange("thumbnailDimensions")
	// changeThumbnailContentType: images and placeholders carry
	// data-original-content-type (Zulip 10.0).
	changeThumbnailContentType = newChange("thumbnailContentType")
	// changePlaceholderDimensions: loading placeholders carry
	// data-original-dimensions (Zulip 9.2) ...
	changePlaceholderDimensions = newChange("placeholderDimensions")
	// changePlaceholderDimensionsGap: ... except at the Zulip 10.0
	// development levels from this one ...
	changePlaceholderDimensionsGap = newChange("placeholderDimensionsGap")
	// changePlaceholderDimensionsBack: ... to this one, where 10.0 got it.
	changePlaceholderDimensionsBack = newChange("placeholderDimensionsBack")
)

// placeholderDimensions: loading placeholders carry
// data-original-dimensions at feature levels 278-279 and from 287.
func (r *Realm) placeholderDimensions() bool {
	return r.has(changePlaceholderDimensions) && !r.has(changePlaceholderDimensionsGap) || r.has(changePlaceholderDimensionsBack)
}

// The feature levels of mobile push notifications.
var (
	// changeTestPushEvent: test notifications' event is "test" rather than
	// "test-by-device-token", and payloads carry realm_name (Zulip 8.0).
	changeTestPushEvent = newChange("testPushEvent")
	// changePushDevices: E2EE push registration, register's push_devices
	// section and push_device events (Zulip 11.0).
	changePushDevices = newChange("pushDevices")
)

// The feature levels of data exports.
var (
	// changeExportType: exports carry export_type, and standard exports
	// can be requested (Zulip 10.0).
	changeExportType = newChange("exportType")
	// changeExportConsentEvent: administrators hear realm_export_consent
	// events (Zulip 10.0).
	changeExportConsentEvent = newChange("exportConsentEvent")
)

// releases are the feature levels of Zulip's releases: the level a
// server of the release advertises (Zulip's API changelog, "feature level
// used for Zulip N release", and the maintenance releases that took a
// level of their own: 9.2 at 278, 10.1 at 372).
var releases = []struct {
	level   int
	version string
}{
	{156, "6.0"}, {185, "7.0"}, {237, "8.0"}, {277, "9.0"}, {278, "9.2"}, {371, "10.0"}, {372, "10.1"}, {421, "11.0"},
}

// VersionForLevel is the zulip_version a server of a feature level
// advertises: the release's version at a release's own level ("9.0"),
// the development version of the next release between two ("10.0-dev",
// with the fake's suffix), and the fake's DefaultVersion past the last
// release.
func VersionForLevel(level int) string {
	for _, rel := range releases {
		if level == rel.level {
			return rel.version
		}
		if level < rel.level {
			return rel.version + "-dev" + versionSuffix
		}
	}
	return DefaultVersion
}

// The changes of behaviour: rules and answers that were different before
// the level (issue 35, item 2).
var (
	// changeMuteBots: bots may be muted and unmuted (Zulip 8.0); before,
	// a bot's ID is "No such user".
	changeMuteBots = newChange("muteBots")
	// changeEmojiNotFound404: deactivating a custom emoji that does not
	// exist is a 404 (Zulip 8.0), a 400 before.
	changeEmojiNotFound404 = newChange("emojiNotFound404")
	// changeReactionErrorCodes: REACTION_ALREADY_EXISTS and
	// REACTION_DOES_NOT_EXIST (Zulip 8.0), BAD_REQUEST before.
	changeReactionErrorCodes = newChange("reactionErrorCodes")
	// changeStreamWildcardMentionCode: STREAM_WILDCARD_MENTION_NOT_ALLOWED
	// (Zulip 8.0), BAD_REQUEST before.
	changeStreamWildcardMentionCode = newChange("streamWildcardMentionCode")
	// changeAPNsAppIDRequired: POST /users/me/apns_device_token needs appid
	// (Zulip 8.0); before, it defaulted to Zulip's app.
	changeAPNsAppIDRequired = newChange("apnsAppIDRequired")
	// changeGroupInUseCode: CANNOT_DEACTIVATE_GROUP_IN_USE with objections
	// (Zulip 10.0), BAD_REQUEST before.
	changeGroupInUseCode = newChange("groupInUseCode")
	// changeEmptyTopic: the empty topic exists (Zulip 10.0); before, an
	// empty topic is refused on send and edit, and an empty topic_name
	// marks a whole channel read.
	changeEmptyTopic = newChange("emptyTopic")
	// changeNoTopicAlias: "(no topic)" names the empty topic when sending
	// (Zulip 10.0) ...
	changeNoTopicAlias = newChange("noTopicAlias")
	// changeTypingNoTopicAlias: ... and in typing notifications.
	changeTypingNoTopicAlias = newChange("typingNoTopicAlias")
	// changeTypingStreamID: channel typing names the channel by stream_id
	// (Zulip 8.0); before, by the one ID of to.
	changeTypingStreamID = newChange("typingStreamID")
	// changeResolveTopicsGroup: resolving a topic needs
	// can_resolve_topics_group (Zulip 10.0); before, the permission to
	// move messages between topics.
	changeResolveTopicsGroup = newChange("resolveTopicsGroup")
	// changeRealEmailLookup: GET /users/{email} finds a user by a real
	// address the caller may see (Zulip 10.0); before, only by the API
	// address of user objects.
	changeRealEmailLookup = newChange("realEmailLookup")
	// changeDeactivatedGroupEdits: a deactivated group's description and
	// settings may be changed (Zulip 10.0); before, only its name.
	changeDeactivatedGroupEdits = newChange("deactivatedGroupEdits")
	// changeDeactivatedGroupMembers: a deactivated group's members may be
	// changed (Zulip 11.0).
	changeDeactivatedGroupMembers = newChange("deactivatedGroupMembers")
	// changeDeactivatedMembersHidden: deactivated users are not shown as
	// members of groups (Zulip 10.0); before, they were.
	changeDeactivatedMembersHidden = newChange("deactivatedMembersHidden")
	// changeGuestDeactivationGroupEvents: the users who may not access a
	// deactivated user (restricted guests) hear of it as user_group
	// remove_members of each of its groups and as the new values of the
	// anonymous group settings holding it (Zulip 10.0).
	changeGuestDeactivationGroupEvents = newChange("guestDeactivationGroupEvents")
	// changeGroupReactivation: PATCH /user_groups/{id} reactivates with
	// deactivated=false (Zulip 11.0); before, there was no way.
	changeGroupReactivation = newChange("groupReactivation")
	// changeCanSubscribeGroup: a private channel's can_subscribe_group
	// lets its members subscribe themselves (Zulip 10.0).
	changeCanSubscribeGroup = newChange("canSubscribeGroup")
	// changeModeratorOrAbove: register's is_moderator is true for
	// administrators and owners too (Zulip 11.0).
	changeModeratorOrAbove = newChange("moderatorOrAbove")
	// changeDirectMessageGroups: direct_message_initiator_group and
	// direct_message_permission_group decide who may send direct
	// messages; before, private_message_policy, whose default let anyone.
	changeDirectMessageGroups = newChange("directMessageGroups")
	// changeWebPublicChannelGroup: can_create_web_public_channel_group
	// decides who may create web-public channels; before, owners only
	// (create_web_public_stream_policy's default).
	changeWebPublicChannelGroup = newChange("webPublicChannelGroup")
	// changeDeleteAnyMessageGroup: can_delete_any_message_group decides
	// who may delete any message; before, administrators.
	changeDeleteAnyMessageGroup = newChange("deleteAnyMessageGroup")
	// changeBotCreationGroups: can_create_bots_group and
	// can_create_write_only_bots_group decide who may create which bots;
	// before, every user but guests (bot_creation_policy's default).
	changeBotCreationGroups = newChange("botCreationGroups")
)

// The changes of behaviour of direct messages, subscriptions and
// invitations.
var (
	// changePrincipalErrors: a missing or deactivated principal is a 400
	// BAD_REQUEST (Zulip 8.0); before, a 403 UNAUTHORIZED_PRINCIPAL.
	changePrincipalErrors = newChange("principalErrors")
	// changeInviteLinksByGroup: create_multiuse_invite_group decides who
	// makes reusable invitation links (Zulip 8.0); before, administrators.
	changeInviteLinksByGroup = newChange("inviteLinksByGroup")
	// changeRegisterWebPublicStreams: register's streams list a guest's
	// web-public channels too (Zulip 8.0); before, its subscriptions.
	changeRegisterWebPublicStreams = newChange("registerWebPublicStreams")
	// changeArchivedNeverSubscribed: register's never_subscribed lists
	// archived channels to clients with the archived_channels capability
	// (Zulip 10.0); before, never.
	changeArchivedNeverSubscribed = newChange("archivedNeverSubscribed")
	// changeDMPairRecipient: a 1:1 conversation has its own recipient_id,
	// shared by both directions (Zulip 10.0); before, a direct message's
	// recipient_id was its recipient's personal one.
	changeDMPairRecipient = newChange("dmPairRecipient")
)

// ChangeResumableUploads: /api/v1/tus, resumable uploads (Zulip 10.0).
var ChangeResumableUploads = newChange("resumableUploads")

// A client capability newer than Zulip 7.0 whose absence changes what
// older servers sent (capabilitiesAtLevel).
var (
	// changeDeactivatedGroupsCapability: the include_deactivated_groups
	// capability (Zulip 10.0); before, every client got deactivated groups.
	changeDeactivatedGroupsCapability = newChange("deactivatedGroupsCapability")
	// changeUserListIncompleteCapability: the user_list_incomplete
	// capability (Zulip 8.0); before, every client of a restricted guest
	// got "Unknown user" placeholders for the users it may not access.
	changeUserListIncompleteCapability = newChange("userListIncompleteCapability")
)

// ChangeStreamPostPolicyRemoved: PATCH /streams/{id} and POST
// /users/me/subscriptions no longer read stream_post_policy and
// is_announcement_only (Zulip 10.0); can_send_message_group replaced them.
var ChangeStreamPostPolicyRemoved = newChange("streamPostPolicyRemoved")

// ChangeUpdateUserByEmail: PATCH /users/{email} (Zulip 10.0); before, a
// user was updated by ID only, and the email form was the GET route's.
var ChangeUpdateUserByEmail = newChange("updateUserByEmail")

// ChangeSpectatorUsers: GET /users answers logged-out visitors of a realm
// with spectator access (Zulip 11.0); before, it required a login.
var ChangeSpectatorUsers = newChange("spectatorUsers")

// The changes of channels' administration and subscriptions.
var (
	// changeStreamEmailRemoved: subscription objects no longer carry the
	// channel's email_address (Zulip 8.0); GET
	// /streams/{id}/email_address gives it.
	changeStreamEmailRemoved = newChange("streamEmailRemoved")
	// changeChannelAdminAccess: metadata access through a private
	// channel's can_administer_channel_group and
	// can_add_subscribers_group (its events, register's unsubscribed and
	// never_subscribed), content access through can_add_subscribers_group,
	// administering with metadata access only, and channel administrators
	// unsubscribing others (Zulip 10.0). Before it, see
	// channel_admin_levels.go.
	changeChannelAdminAccess = newChange("channelAdminAccess")
	// changeArchivedSubscriptions: subscriptions in archived channels
	// may be added and removed, and archived channels' privacy changed
	// (Zulip 10.0). Before it, subscribing treats an archived channel as
	// one the caller may not access, unsubscribing as one that does not
	// exist, and a privacy change answers "Invalid channel ID".
	changeArchivedSubscriptions = newChange("archivedSubscriptions")
	// changeInviteDefaultChannels: an invitation may list the default
	// channels whoever may invite (Zulip 10.0); before, only those the
	// inviter may add subscribers to.
	changeInviteDefaultChannels = newChange("inviteDefaultChannels")
)

// The changes of messages, typing and bots' requests.
var (
	// ChangePlaygroundURLTemplate: POST /realm/playgrounds reads
	// url_template, an RFC 6570 template; before, url_prefix, a URL the
	// code was appended to (Zulip 8.0).
	ChangePlaygroundURLTemplate = newChange("playgroundURLTemplate")
	// changeDirectMessageTrigger: outgoing webhooks say "direct_message"
	// for a direct message's trigger; before, "private_message" (Zulip
	// 8.0).
	changeDirectMessageTrigger = newChange("directMessageTrigger")
	// changeWildcardMentionFlags: the stream_wildcard_mentioned and
	// topic_wildcard_mentioned flags exist (Zulip 8.0); before, a request
	// naming one names an unknown flag.
	changeWildcardMentionFlags = newChange("wildcardMentionFlags")
	// changeChannelMessageType: "channel" is a message type of requests
	// (sending, scheduling, typing; Zulip 9.0); before, only "stream".
	changeChannelMessageType = newChange("channelMessageType")
	// ChangeEditTypingPath: typing notifications for message edits go to
	// POST /messages/{message_id}/typing (Zulip 10.0); before, to POST
	// /message_edit_typing with message_id in the body.
	ChangeEditTypingPath = newChange("editTypingPath")
)

// ChangePartialSubscribers: include_subscribers may be "partial" (GET
// /users/me/subscriptions, POST /register), and large channels' listings
// then carry partial_subscribers (Zulip 11.0); before, "partial" is not a
// boolean and is refused.
var ChangePartialSubscribers = newChange("partialSubscribers")

// changeAuthMethodsStates: register's realm_authentication_methods
// gives each method an object (enabled, available), not a boolean (241);
// changeAuthMethodsEventStates: so do realm update_dict events (243).
var (
	changeAuthMethodsStates      = newChange("authMethodsStates")
	changeAuthMethodsEventStates = newChange("authMethodsEventStates")
)

// ChangeCompleteField: POST /mark_all_as_read and POST
// /streams/{id}/delete_topic answer with a complete field; a request
// stopped part way answered "result": "partially_completed" before (211).
var ChangeCompleteField = newChange("completeField")

// The permission settings' metadata (register's
// server_supported_permission_settings, permission_settings.go).
var (
	// changeAllowedSystemGroups: each entry of register's
	// server_supported_permission_settings lists allowed_system_groups
	// (225).
	changeAllowedSystemGroups = newChange("allowedSystemGroups")
	// changeOwnersGroupAnySetting: the entries lose allow_owners_group
	// and id_field_name, and role:owners is a value every setting takes
	// (326); before, a setting whose allow_owners_group was false refused
	// it.
	changeOwnersGroupAnySetting = newChange("ownersGroupAnySetting")
)

// The realm's edit_topic_policy (edit_topic_policy.go).
var (
	// changeEditTopicPolicyRemoved: can_move_messages_between_topics_group
	// replaced edit_topic_policy, and realm update_dict events name the
	// group setting rather than the policy (316).
	changeEditTopicPolicyRemoved = newChange("editTopicPolicyRemoved")
)

// The feature levels of message formatting (Zulip's
// api_docs/message-formatting.md), asked by the realm's renderer
// (message_formatting.go).
var (
	// changeChannelWildcardMention: @**channel** is a wildcard mention
	// (Zulip 9.0).
	changeChannelWildcardMention = newChange("channelWildcardMention")
	// changeChannelNarrowLinks: generated links say #narrow/channel/, not
	// #narrow/stream/ (Zulip PR #31906, no level of its own: from 280,
	// the first level of 10.0's development after 9.2's 278).
	changeChannelNarrowLinks = newChange("channelNarrowLinks")
	// changeMessageLinkSyntax: #**channel>topic@id** links to a message
	// (Zulip 10.0).
	changeMessageLinkSyntax = newChange("messageLinkSyntax")
	// changeSystemGroupMentions: system groups may be (silently)
	// mentioned (Zulip 10.0).
	changeSystemGroupMentions = newChange("systemGroupMentions")
	// changeEmptyTopicLinks: the empty topic may be linked (Zulip 10.0).
	changeEmptyTopicLinks = newChange("emptyTopicLinks")
	// changeTopicLinkWith: topic links carry /with/ the oldest readable
	// message of the topic (Zulip 10.0).
	changeTopicLinkWith = newChange("topicLinkWith")
	// changeTopicLinkWithLatest: /with/ names the latest one (Zulip 11.0).
	changeTopicLinkWithLatest = newChange("topicLinkWithLatest")
	// changeInvalidTimestampText: a global time that is not a time shows
	// as written, not as a timestamp-error span (Zulip 12.0).
	changeInvalidTimestampText = newChange("invalidTimestampText")
	// changeAudioPlayers: ![name](upload) of an uploaded audio file is an
	// <audio> player (Zulip 11.0).
	changeAudioPlayers = newChange("audioPlayers")
	// changeImageSyntax: ![alt](upload) of an uploaded image is an
	// <img class="inline-image"> (Zulip 12.0).
	changeImageSyntax = newChange("imageSyntax")
)

// The realm's plan (plan_type.go).
var (
	// changeUploadQuotaMiB: register's realm_upload_quota_mib is in MiB;
	// it was in bytes, by mistake, before (251).
	changeUploadQuotaMiB = newChange("uploadQuotaMiB")
	// changePlanUpdateDict: a plan change is a realm update_dict of
	// plan_type, upload_quota_mib and max_file_upload_size_mib, which
	// now depends on the plan; before, a realm update of plan_type with
	// extra_data's upload_quota in bytes, and the largest file a
	// constant of the server (306).
	changePlanUpdateDict = newChange("planUpdateDict")
)
