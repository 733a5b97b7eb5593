package realm

import (
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
// walking only the user's unread index.
func (r *Realm) unreadMessages(me *user.User) UnreadMessages {
	res := UnreadMessages{PMs: []unreadDM{}, Streams: []unreadStream{}, Huddles: []unreadHuddle{}, Mentions: []int64{}}
	streams := map[topicRef]*unreadStream{}
	dms := map[int]*unreadDM{}
	huddles := map[string]*unreadHuddle{}
	var streamOrder []topicRef
	var dmOrder []int
	var huddleOrder []string
	r.messages.UnreadCopies(me.ID, func(um store.Copy) bool {
		m := um.Message
		res.Count++
		if um.Flags&(message.Mentioned|message.WildcardMentioned) != 0 {
			res.Mentions = append(res.Mentions, m.ID)
		}
		switch {
		case m.Type == message.Channel:
			ref := topicRef{m.ChannelID, m.Topic}
			s := streams[ref]
			if s == nil {
				s = &unreadStream{StreamID: m.ChannelID, Topic: m.Topic}
				streams[ref] = s
				streamOrder = append(streamOrder, ref)
			}
			s.UnreadMessageIDs = append(s.UnreadMessageIDs, m.ID)
		case len(m.DMUserIDs) > 2:
			key := joinIDs(m.DMUserIDs)
			h := huddles[key]
			if h == nil {
				h = &unreadHuddle{UserIDsString: key}
				huddles[key] = h
				huddleOrder = append(huddleOrder, key)
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
				dmOrder = append(dmOrder, other)
			}
			d.UnreadMessageIDs = append(d.UnreadMessageIDs, m.ID)
		}
		return true
	})
	for _, ref := range streamOrder {
		res.Streams = append(res.Streams, *streams[ref])
	}
	for _, id := range dmOrder {
		res.PMs = append(res.PMs, *dms[id])
	}
	for _, key := range huddleOrder {
		res.Huddles = append(res.Huddles, *huddles[key])
	}
	return res
}

// recentConversation is one entry of recent_private_conversations.
type recentConversation struct {
	MaxMessageID int64 `json:"max_message_id"`
	UserIDs      []int `json:"user_ids"`
}

func fillRecentPrivateConversations(r *Realm, me *user.User, req *RegisterRequest, out RegisterResult) {
	latest := map[string]*recentConversation{}
	r.messages.CopiesDescending(me.ID, AnchorNewest+1, func(um store.Copy) bool {
		m := um.Message
		if m.Type != message.Direct {
			return true
		}
		key := joinIDs(m.DMUserIDs)
		if latest[key] == nil {
			others := []int{}
			for _, id := range m.DMUserIDs {
				if id != me.ID {
					others = append(others, id)
				}
			}
			latest[key] = &recentConversation{MaxMessageID: m.ID, UserIDs: others}
		}
		return len(latest) < 1000
	})
	list := make([]recentConversation, 0, len(latest))
	for _, c := range latest {
		list = append(list, *c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].MaxMessageID > list[j].MaxMessageID })
	out["recent_private_conversations"] = list
}

// The legacy realm_wildcard_mention_policy values register still reports,
// derived from can_mention_many_users_group.
const (
	wildcardMentionEveryone = 1
	wildcardMentionAdmins   = 5
)

// limitValue is a time limit as the API sends it: seconds or null.
func limitValue(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func fillRealmState(r *Realm, me *user.User, req *RegisterRequest, out RegisterResult) {
	s := r.settings
	l := r.opts.Limits
	host := strings.TrimPrefix(strings.TrimPrefix(r.opts.URL, "http://"), "https://")
	wildcardPolicy := wildcardMentionAdmins
	if s.CanMentionManyUsersGroup == r.groupByName[group.Members].ID || s.CanMentionManyUsersGroup == r.groupByName[group.Everyone].ID {
		wildcardPolicy = wildcardMentionEveryone
	}
	for k, v := range map[string]any{
		"realm_name":                                           s.Name,
		"realm_description":                                    s.Description,
		"realm_uri":                                            r.opts.URL,
		"realm_date_created":                                   r.createdAt.Unix(),
		"realm_default_language":                               s.DefaultLanguage,
		"realm_allow_message_editing":                          s.AllowMessageEditing,
		"realm_message_content_edit_limit_seconds":             limitValue(s.MessageContentEditLimitSeconds),
		"realm_move_messages_within_stream_limit_seconds":      limitValue(s.MoveMessagesWithinStreamLimitSeconds),
		"realm_move_messages_between_streams_limit_seconds":    limitValue(s.MoveMessagesBetweenStreamsLimitSeconds),
		"realm_message_content_delete_limit_seconds":           limitValue(s.MessageContentDeleteLimitSeconds),
		"realm_can_resolve_topics_group":                       s.CanResolveTopicsGroup,
		"realm_can_move_messages_between_channels_group":       s.CanMoveMessagesBetweenChannelsGroup,
		"realm_can_move_messages_between_topics_group":         s.CanMoveMessagesBetweenTopicsGroup,
		"realm_can_mention_many_users_group":                   s.CanMentionManyUsersGroup,
		"realm_can_delete_own_message_group":                   s.CanDeleteOwnMessageGroup,
		"realm_can_delete_any_message_group":                   s.CanDeleteAnyMessageGroup,
		"realm_can_create_public_channel_group":                s.CanCreatePublicChannelGroup,
		"realm_can_create_private_channel_group":               s.CanCreatePrivateChannelGroup,
		"realm_can_add_subscribers_group":                      s.CanAddSubscribersGroup,
		"realm_wildcard_mention_policy":                        wildcardPolicy,
		"realm_mandatory_topics":                               s.MandatoryTopics,
		"realm_empty_topic_display_name":                       s.EmptyTopicDisplayName,
		"realm_enable_spectator_access":                        s.EnableSpectatorAccess,
		"realm_allow_edit_history":                             true,
		"realm_enable_read_receipts":                           true,
		"realm_invite_required":                                false,
		"realm_emails_restricted_to_domains":                   false,
		"realm_plan_type":                                      1,
		"realm_org_type":                                       10,
		"realm_message_retention_days":                         -1,
		"realm_video_chat_provider":                            1,
		"realm_jitsi_server_url":                               nil,
		"realm_giphy_rating":                                   2,
		"realm_waiting_period_threshold":                       0,
		"realm_inline_image_preview":                           true,
		"realm_inline_url_embed_preview":                       false,
		"realm_default_code_block_language":                    "",
		"realm_icon_url":                                       realmIconURL(realmStringID),
		"realm_icon_source":                                    "G",
		"realm_logo_url":                                       r.opts.URL + "/static/images/logo/zulip-org-logo.svg",
		"realm_logo_source":                                    "D",
		"realm_night_logo_url":                                 r.opts.URL + "/static/images/logo/zulip-org-logo.svg",
		"realm_night_logo_source":                              "D",
		"realm_bot_domain":                                     host,
		"realm_presence_disabled":                              false,
		"realm_push_notifications_enabled":                     false,
		"realm_upload_quota_mib":                               nil,
		"realm_email_auth_enabled":                             true,
		"realm_password_auth_enabled":                          true,
		"realm_authentication_methods":                         map[string]any{"Email": map[string]any{"enabled": true, "available": true}, "Dev": map[string]any{"enabled": true, "available": true}},
		"realm_available_video_chat_providers":                 map[string]any{"disabled": map[string]any{"name": "None", "id": 0}, "jitsi_meet": map[string]any{"name": "Jitsi Meet", "id": 1}},
		"realm_notifications_stream_id":                        -1,
		"realm_signup_notifications_stream_id":                 -1,
		"realm_new_stream_announcements_stream_id":             -1,
		"realm_signup_announcements_stream_id":                 -1,
		"realm_zulip_update_announcements_stream_id":           -1,
		"realm_domains":                                        []map[string]any{{"domain": "zulip.com", "allow_subdomains": false}},
		"max_message_length":                                   l.MaxMessageLength,
		"max_topic_length":                                     l.MaxTopicLength,
		"max_stream_name_length":                               l.MaxStreamNameLength,
		"max_stream_description_length":                        l.MaxStreamDescLength,
		"max_file_upload_size_mib":                             l.MaxFileUploadSizeMiB,
		"max_avatar_file_size_mib":                             5,
		"max_icon_file_size_mib":                               5,
		"max_logo_file_size_mib":                               5,
		"server_generation":                                    r.createdAt.Unix(),
		"event_queue_longpoll_timeout_seconds":                 90,
		"server_typing_started_expiry_period_milliseconds":     15000,
		"server_typing_stopped_wait_period_milliseconds":       5000,
		"server_typing_started_wait_period_milliseconds":       10000,
		"server_presence_ping_interval_seconds":                60,
		"server_presence_offline_threshold_seconds":            200,
		"jitsi_server_url":                                     "https://meet.jit.si",
		"server_jitsi_server_url":                              "https://meet.jit.si",
		"development_environment":                              true,
		"password_min_length":                                  0,
		"password_min_guesses":                                 0,
		"giphy_rating_options":                                 map[string]any{"disabled": map[string]any{"name": "GIPHY integration disabled", "id": -1}},
		"server_emoji_data_url":                                r.opts.URL + "/static/generated/emoji/emoji_api.json",
		"server_inline_image_preview":                          true,
		"server_inline_url_embed_preview":                      false,
		"server_avatar_changes_disabled":                       false,
		"server_name_changes_disabled":                         false,
		"server_needs_upgrade":                                 false,
		"server_web_public_streams_enabled":                    true,
		"zulip_plan_is_not_limited":                            true,
		"upgrade_text_for_wide_organization_logo":              "",
		"realm_default_external_accounts":                      map[string]any{},
		"demo_organization_scheduled_deletion_date":            nil,
		"realm_is_zephyr_mirror_realm":                         false,
		"realm_enable_guest_user_indicator":                    true,
		"realm_want_advertise_in_communities_directory":        false,
		"realm_digest_emails_enabled":                          false,
		"realm_digest_weekday":                                 1,
		"realm_send_welcome_emails":                            true,
		"realm_message_content_allowed_in_email_notifications": true,
		"realm_name_changes_disabled":                          false,
		"realm_email_changes_disabled":                         false,
		"realm_avatar_changes_disabled":                        false,
		"realm_disallow_disposable_email_addresses":            true,
		"settings_send_digest_emails":                          true,
		"realm_playgrounds":                                    []any{},
		"stop_words":                                           []string{},
	} {
		out[k] = v
	}
	if r.opts.FeatureLevel >= realmURLFeatureLevel {
		out["realm_url"] = r.opts.URL
	}
}
