package realm

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/user"
)

// unreadStream is one topic's unread messages in unread_msgs.
type unreadStream struct {
	StreamID         int     `json:"stream_id"`
	Topic            string  `json:"topic"`
	UnreadMessageIDs []int64 `json:"unread_message_ids"`
}

// unreadDM is one 1:1 conversation's unread messages.
type unreadDM struct {
	OtherUserID      int     `json:"other_user_id"`
	SenderID         int     `json:"sender_id"`
	UnreadMessageIDs []int64 `json:"unread_message_ids"`
}

// unreadHuddle is one group conversation's unread messages.
type unreadHuddle struct {
	UserIDsString    string  `json:"user_ids_string"`
	UnreadMessageIDs []int64 `json:"unread_message_ids"`
}

// UnreadMessages is the unread_msgs object of POST /register.
type UnreadMessages struct {
	Count             int            `json:"count"`
	PMs               []unreadDM     `json:"pms"`
	Streams           []unreadStream `json:"streams"`
	Huddles           []unreadHuddle `json:"huddles"`
	Mentions          []int64        `json:"mentions"`
	OldUnreadsMissing bool           `json:"old_unreads_missing"`
}

// unreadMessages groups the user's unread messages by conversation,
// walking only the user's unread index, as Zulip does: channel topics
// grouped case-insensitively and ordered by channel ID and topic, 1:1
// conversations by the other user's ID, group ones by their user ID
// lists. count leaves out the channel messages the user has muted (a
// muted channel or topic), which streams still lists; mentions too,
// unless the user was mentioned by name or group rather than by a
// wildcard. Topics obey the empty_topic_name capability.
func (r *Realm) unreadMessages(me *user.User, allowEmptyTopicName bool) UnreadMessages {
	res := UnreadMessages{PMs: []unreadDM{}, Streams: []unreadStream{}, Huddles: []unreadHuddle{}, Mentions: []int64{}}
	type topicKey struct {
		channelID int
		folded    string
	}
	streams := map[topicKey]*unreadStream{}
	dms := map[int]*unreadDM{}
	huddles := map[string]*unreadHuddle{}
	rules := r.topicRules()
	r.messages.store.UnreadCopies(me.ID, func(um store.Copy) bool {
		m := um.Message
		muted := r.mutedFor(me.ID, m)
		if !muted {
			res.Count++
		}
		if um.Flags&message.Mentioned != 0 || um.Flags&message.WildcardMentioned != 0 && !muted {
			res.Mentions = append(res.Mentions, m.ID)
		}
		switch {
		case m.Type == message.Channel:
			key := topicKey{m.ChannelID, strings.ToLower(m.Topic)}
			s := streams[key]
			if s == nil {
				s = &unreadStream{StreamID: m.ChannelID, Topic: rules.Display(m.Topic, allowEmptyTopicName)}
				streams[key] = s
			}
			s.UnreadMessageIDs = append(s.UnreadMessageIDs, m.ID)
		case len(m.DMUserIDs) > 2:
			key := conversationKey(m.DMUserIDs)
			h := huddles[key]
			if h == nil {
				h = &unreadHuddle{UserIDsString: key}
				huddles[key] = h
			}
			h.UnreadMessageIDs = append(h.UnreadMessageIDs, m.ID)
		default:
			other := me.ID
			for _, id := range m.DMUserIDs {
				if id != me.ID {
					other = id
				}
			}
			d := dms[other]
			if d == nil {
				d = &unreadDM{OtherUserID: other, SenderID: other}
				dms[other] = d
			}
			d.UnreadMessageIDs = append(d.UnreadMessageIDs, m.ID)
		}
		return true
	})
	for _, key := range slices.SortedFunc(maps.Keys(streams), func(a, b topicKey) int {
		return cmp.Or(cmp.Compare(a.channelID, b.channelID), strings.Compare(a.folded, b.folded))
	}) {
		res.Streams = append(res.Streams, *streams[key])
	}
	for _, id := range slices.Sorted(maps.Keys(dms)) {
		res.PMs = append(res.PMs, *dms[id])
	}
	for _, key := range slices.Sorted(maps.Keys(huddles)) {
		res.Huddles = append(res.Huddles, *huddles[key])
	}
	return res
}

func fillRecentPrivateConversations(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	latest := map[string]*RecentConversation{}
	r.messages.store.CopiesDescending(me.ID, AnchorNewest+1, func(um store.Copy) bool {
		m := um.Message
		if m.Type != message.Direct {
			return true
		}
		key := conversationKey(m.DMUserIDs)
		if latest[key] == nil {
			others := []int{}
			for _, id := range m.DMUserIDs {
				if id != me.ID {
					others = append(others, id)
				}
			}
			latest[key] = &RecentConversation{MaxMessageID: m.ID, UserIDs: others}
		}
		return len(latest) < 1000
	})
	list := make([]RecentConversation, 0, len(latest))
	for _, c := range latest {
		list = append(list, *c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].MaxMessageID > list[j].MaxMessageID })
	out.RecentPrivateConversationsState = &RecentPrivateConversationsState{RecentPrivateConversations: list}
}

// wildcardMentionPolicies are the legacy realm_wildcard_mention_policy
// values register still reports, derived from can_mention_many_users_group
// as Zulip does: the policy of the system group the setting names, 1
// (everyone) for any other value.
var wildcardMentionPolicies = map[string]int{
	group.Everyone:       1,
	group.Members:        2,
	group.FullMembers:    3,
	group.Administrators: 5,
	group.Nobody:         6,
	group.Moderators:     7,
}

// wildcardMentionPolicy is realm_wildcard_mention_policy.
func (r *Realm) wildcardMentionPolicy() int {
	if g := r.groups.byID[r.settings.CanMentionManyUsersGroup.GroupID]; g != nil && g.IsSystem {
		if p, ok := wildcardMentionPolicies[g.Name]; ok {
			return p
		}
	}
	return wildcardMentionPolicies[group.Everyone]
}

func fillRealmState(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	s := r.settings
	l := r.opts.Limits
	host := strings.TrimPrefix(strings.TrimPrefix(r.opts.URL, "http://"), "https://")
	state := &RealmState{
		RealmName:                           s.Name,
		RealmDescription:                    s.Description,
		RealmURI:                            r.opts.URL,
		RealmDateCreated:                    r.createdAt.Unix(),
		RealmDefaultLanguage:                s.DefaultLanguage,
		RealmAllowMessageEditing:            s.AllowMessageEditing,
		RealmMessageContentEditLimitSeconds: s.MessageContentEditLimitSeconds,
		RealmMoveMessagesWithinStreamLimitSeconds:      s.MoveMessagesWithinStreamLimitSeconds,
		RealmMoveMessagesBetweenStreamsLimitSeconds:    s.MoveMessagesBetweenStreamsLimitSeconds,
		RealmMessageContentDeleteLimitSeconds:          s.MessageContentDeleteLimitSeconds,
		RealmCanResolveTopicsGroup:                     r.apiGroupSetting(s.CanResolveTopicsGroup),
		RealmCanMoveMessagesBetweenChannelsGroup:       r.apiGroupSetting(s.CanMoveMessagesBetweenChannelsGroup),
		RealmCanMoveMessagesBetweenTopicsGroup:         r.apiGroupSetting(s.CanMoveMessagesBetweenTopicsGroup),
		RealmCanMentionManyUsersGroup:                  r.apiGroupSetting(s.CanMentionManyUsersGroup),
		RealmCanDeleteOwnMessageGroup:                  r.apiGroupSetting(s.CanDeleteOwnMessageGroup),
		RealmCanDeleteAnyMessageGroup:                  r.apiGroupSetting(s.CanDeleteAnyMessageGroup),
		RealmCanCreatePublicChannelGroup:               r.apiGroupSetting(s.CanCreatePublicChannelGroup),
		RealmCanCreatePrivateChannelGroup:              r.apiGroupSetting(s.CanCreatePrivateChannelGroup),
		RealmCanAddSubscribersGroup:                    r.apiGroupSetting(s.CanAddSubscribersGroup),
		RealmCanAddCustomEmojiGroup:                    r.apiGroupSetting(s.CanAddCustomEmojiGroup),
		RealmCanCreateGroups:                           r.apiGroupSetting(s.CanCreateGroups),
		RealmCanManageAllGroups:                        r.apiGroupSetting(s.CanManageAllGroups),
		RealmCanInviteUsersGroup:                       r.apiGroupSetting(s.CanInviteUsersGroup),
		RealmCreateMultiuseInviteGroup:                 r.apiGroupSetting(s.CreateMultiuseInviteGroup),
		RealmCanAccessAllUsersGroup:                    r.apiGroupSetting(s.CanAccessAllUsersGroup),
		RealmDirectMessageInitiatorGroup:               r.apiGroupSetting(s.DirectMessageInitiatorGroup),
		RealmDirectMessagePermissionGroup:              r.apiGroupSetting(s.DirectMessagePermissionGroup),
		RealmCanCreateWebPublicChannelGroup:            r.apiGroupSetting(s.CanCreateWebPublicChannelGroup),
		RealmCanCreateBotsGroup:                        r.apiGroupSetting(s.CanCreateBotsGroup),
		RealmCanCreateWriteOnlyBotsGroup:               r.apiGroupSetting(s.CanCreateWriteOnlyBotsGroup),
		RealmCanSummarizeTopicsGroup:                   r.apiGroupSetting(s.CanSummarizeTopicsGroup),
		RealmCanManageBillingGroup:                     r.apiGroupSetting(s.CanManageBillingGroup),
		RealmCanSetTopicsPolicyGroup:                   r.apiGroupSetting(s.CanSetTopicsPolicyGroup),
		RealmCanSetDeleteMessagePolicyGroup:            r.apiGroupSetting(s.CanSetDeleteMessagePolicyGroup),
		RealmWildcardMentionPolicy:                     r.wildcardMentionPolicy(),
		RealmMandatoryTopics:                           s.MandatoryTopics,
		RealmEmptyTopicDisplayName:                     s.EmptyTopicDisplayName,
		RealmEnableSpectatorAccess:                     s.EnableSpectatorAccess,
		RealmAllowEditHistory:                          allowEditHistory(s.EditHistoryPolicy),
		RealmEnableReadReceipts:                        s.EnableReadReceipts,
		RealmInviteRequired:                            s.InviteRequired,
		RealmEmailsRestrictedToDomains:                 s.EmailsRestrictedToDomains,
		RealmPlanType:                                  int(s.planType()),
		RealmOrgType:                                   s.OrgType,
		RealmMessageRetentionDays:                      s.MessageRetentionDays,
		RealmVideoChatProvider:                         s.VideoChatProvider,
		RealmGiphyRating:                               s.GiphyRating,
		RealmWaitingPeriodThreshold:                    s.WaitingPeriodThreshold,
		RealmInlineImagePreview:                        s.InlineImagePreview,
		RealmInlineURLEmbedPreview:                     s.InlineURLEmbedPreview,
		RealmDefaultCodeBlockLanguage:                  s.DefaultCodeBlockLanguage,
		RealmIconURL:                                   realmIconURL(realmStringID),
		RealmIconSource:                                "G",
		RealmLogoURL:                                   r.opts.URL + "/static/images/logo/zulip-org-logo.svg",
		RealmLogoSource:                                "D",
		RealmNightLogoURL:                              r.opts.URL + "/static/images/logo/zulip-org-logo.svg",
		RealmNightLogoSource:                           "D",
		RealmBotDomain:                                 host,
		RealmPresenceDisabled:                          s.PresenceDisabled,
		RealmPushNotificationsEnabled:                  s.PushNotificationsEnabled,
		RealmUploadQuotaMiB:                            r.registerUploadQuota(),
		RealmEmailAuthEnabled:                          s.AuthenticationMethods.Email,
		RealmPasswordAuthEnabled:                       s.AuthenticationMethods.Email,
		RealmAuthenticationMethods:                     authMethodsValue(s.AuthenticationMethods, r.has(changeAuthMethodsStates)),
		RealmAvailableVideoChatProviders:               r.availableCallProviders(),
		MaxMessageLength:                               l.MaxMessageLength,
		MaxTopicLength:                                 l.MaxTopicLength,
		MaxStreamNameLength:                            l.MaxStreamNameLength,
		MaxStreamDescriptionLength:                     l.MaxStreamDescLength,
		MaxFileUploadSizeMiB:                           r.maxFileUploadSizeMiB(),
		MaxAvatarFileSizeMiB:                           5,
		MaxIconFileSizeMiB:                             5,
		MaxLogoFileSizeMiB:                             5,
		ServerGeneration:                               r.serverGeneration(),
		EventQueueLongpollTimeoutSeconds:               90,
		ServerTypingStartedExpiryPeriodMilliseconds:    15000,
		ServerTypingStoppedWaitPeriodMilliseconds:      5000,
		ServerTypingStartedWaitPeriodMilliseconds:      10000,
		ServerPresencePingIntervalSeconds:              PresencePingIntervalSeconds,
		ServerPresenceOfflineThresholdSeconds:          PresenceOfflineThresholdSeconds,
		JitsiServerURL:                                 cmp.Or(derefString(s.JitsiServerURL), serverJitsiServerURL),
		ServerJitsiServerURL:                           serverJitsiServerURL,
		DevelopmentEnvironment:                         true,
		PasswordMinLength:                              0,
		PasswordMinGuesses:                             0,
		PasswordMaxLength:                              MaxPasswordLength,
		ServerMinDeactivatedRealmDeletionDays:          intPtr(minDeactivatedRealmDeletionDays),
		MaxBulkNewSubscriptionMessages:                 MaxBulkNewSubscriptionMessages,
		MaxReminderNoteLength:                          MaxReminderNoteLength,
		RealmJitsiServerURL:                            s.JitsiServerURL,
		RealmRequireUniqueNames:                        s.RequireUniqueNames,
		RealmEnableGuestUserDMWarning:                  s.EnableGuestUserDMWarning,
		RealmRequireE2EEPushNotifications:              s.RequireE2EEPushNotifications,
		RealmWelcomeMessageCustomText:                  s.WelcomeMessageCustomText,
		RealmPushNotificationsEnabledEndTimestamp:      s.PushNotificationsEnabledEnd,
		GiphyRatingOptions:                             map[string]GiphyRatingOption{"disabled": {Name: "GIPHY integration disabled", ID: -1}},
		ServerEmojiDataURL:                             r.opts.URL + ServerEmojiDataPath,
		ServerInlineImagePreview:                       true,
		ServerInlineURLEmbedPreview:                    false,
		ServerAvatarChangesDisabled:                    false,
		ServerNameChangesDisabled:                      false,
		ServerNeedsUpgrade:                             false,
		ServerWebPublicStreamsEnabled:                  true,
		ZulipPlanIsNotLimited:                          true,
		UpgradeTextForWideOrganizationLogo:             "",
		RealmDefaultExternalAccounts:                   map[string]ExternalAccountType{},
		RealmIsZephyrMirrorRealm:                       false,
		RealmEnableGuestUserIndicator:                  s.EnableGuestUserIndicator,
		RealmWantAdvertiseInCommunitiesDirectory:       s.WantAdvertiseInCommunitiesDirectory,
		RealmDigestEmailsEnabled:                       s.DigestEmailsEnabled,
		RealmDigestWeekday:                             s.DigestWeekday,
		RealmSendWelcomeEmails:                         s.SendWelcomeEmails,
		RealmMessageContentAllowedInEmailNotifications: s.MessageContentAllowedInEmailNotifications,
		RealmNameChangesDisabled:                       s.NameChangesDisabled,
		RealmEmailChangesDisabled:                      s.EmailChangesDisabled,
		RealmAvatarChangesDisabled:                     s.AvatarChangesDisabled,
		RealmDisallowDisposableEmailAddresses:          s.DisallowDisposableEmailAddresses,
		SettingsSendDigestEmails:                       true,
		StopWords:                                      []string{},
	}
	if r.has(changeRealmURL) {
		state.RealmURL = r.opts.URL
	}
	state.ServerThumbnailFormats = r.serverThumbnailFormats()
	state.ServerSupportedPermissionSettings = r.serverSupportedPermissionSettings()
	if r.has(changeChannelFolderLimits) {
		name, description := MaxChannelFolderNameLength, MaxChannelFolderDescriptionLength
		state.MaxChannelFolderNameLength, state.MaxChannelFolderDescriptionLength = &name, &description
	}
	if r.has(ChangeEditHistoryPolicy) {
		state.RealmMessageEditHistoryVisibilityPolicy = ptr(s.EditHistoryPolicy)
	}
	if r.has(ChangeTopicsPolicy) {
		state.RealmTopicsPolicy = topicsPolicy(s.MandatoryTopics)
	}
	// The announcement channels (-1 when off), under the names of the
	// advertised feature level; Zulip's own update announcements go
	// nowhere.
	disabled, newChannels, signups := -1, newChannelAnnouncements.value(&s), signupAnnouncements.value(&s)
	if r.has(ChangeAnnouncementsRename) {
		state.RealmNewStreamAnnouncementsStreamID, state.RealmSignupAnnouncementsStreamID = &newChannels, &signups
	} else {
		state.RealmNotificationsStreamID, state.RealmSignupNotificationsStreamID = &newChannels, &signups
	}
	if r.has(changeZulipUpdateAnnouncements) {
		state.RealmZulipUpdateAnnouncementsStreamID = &disabled
	}
	if r.has(changeModerationRequestChannel) {
		state.RealmModerationRequestChannelID = intPtr(s.moderationRequestChannelValue())
	}
	out.RealmState = state
}
