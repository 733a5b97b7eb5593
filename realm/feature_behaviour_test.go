package realm

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/user"
)

// The changes of behaviour of the table, each checked one level below
// its row and at it: below, the realm answers as servers of that level
// did.

// belowAndAt runs check on a fresh realm at the level before c and at c's.
func belowAndAt(t *testing.T, c Change, check func(t *testing.T, r *Realm, has bool)) {
	t.Helper()
	for _, level := range []int{c.Level() - 1, c.Level()} {
		r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
		t.Run(itoa(level), func(t *testing.T) { check(t, r, level >= c.Level()) })
	}
}

func TestMutingBotsFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeMuteBots, func(t *testing.T, r *Realm, has bool) {
		err := r.As(idHamlet).MuteUser(bg, idDefaultBot)
		if !has {
			wantCode(t, err, CodeBadRequest, "No such user")
			wantCode(t, r.As(idHamlet).UnmuteUser(bg, idDefaultBot), CodeBadRequest, "No such user")
			if r.hasMuted(idHamlet, idDefaultBot) {
				t.Fatal("a refused mute muted the bot")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := r.As(idHamlet).UnmuteUser(bg, idDefaultBot); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDeactivatingAMissingEmojiFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeEmojiNotFound404, func(t *testing.T, r *Realm, has bool) {
		re := wantCode(t, r.As(idIago).DeactivateRealmEmoji(bg, "no_such_emoji"), CodeBadRequest, "Emoji 'no_such_emoji' does not exist")
		if want := map[bool]int{false: 400, true: 404}[has]; re.Status != want {
			t.Fatalf("status %d, want %d", re.Status, want)
		}
	})
}

func TestReactionErrorCodesFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeReactionErrorCodes, func(t *testing.T, r *Realm, has bool) {
		id := send(t, r, idHamlet, "Denmark", "t", "x")
		req := ReactionRequest{MessageID: id, EmojiName: str("smile")}
		if err := r.As(idIago).AddReaction(bg, req); err != nil {
			t.Fatal(err)
		}
		exists, missing := CodeBadRequest, CodeBadRequest
		if has {
			exists, missing = CodeReactionAlreadyExists, CodeReactionDoesNotExist
		}
		wantCode(t, r.As(idIago).AddReaction(bg, req), exists, "Reaction already exists.")
		wantCode(t, r.As(idHamlet).RemoveReaction(bg, req), missing, "Reaction doesn't exist.")
	})
}

func TestWildcardMentionCodeFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeStreamWildcardMentionCode, func(t *testing.T, r *Realm, has bool) {
		id := send(t, r, idHamlet, "devel", "big", "hello")
		want := map[bool]Code{false: CodeBadRequest, true: CodeStreamWildcardMentionNotAllow}[has]
		wantCode(t, edit(r, idHamlet, UpdateMessageRequest{MessageID: id, Content: str("@**all** look")}), want, "channel wildcard mentions")
	})
}

func TestAPNsAppIDFollowsFeatureLevel(t *testing.T) {
	const token = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"
	belowAndAt(t, changeAPNsAppIDRequired, func(t *testing.T, r *Realm, has bool) {
		err := r.As(idHamlet).AddPushDevice(bg, user.PushAPNs, str(token), nil)
		if has {
			wantCode(t, err, CodeRequestVariableMissing, "appid")
			return
		}
		if err != nil {
			t.Fatalf("appid was optional: %v", err)
		}
	})
}

func TestGroupInUseCodeFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeGroupInUseCode, func(t *testing.T, r *Realm, has bool) {
		a := r.As(idIago)
		used, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "moderation"})
		if _, err := a.CreateUserGroup(bg, CreateGroupRequest{Name: "parent", Subgroups: []int{used}}); err != nil {
			t.Fatal(err)
		}
		err := a.DeactivateUserGroup(bg, used)
		if !has {
			if re := wantCode(t, err, CodeBadRequest, "Cannot deactivate user group in use."); re.Extra["objections"] != nil {
				t.Fatalf("objections before the code existed: %v", re.Extra)
			}
			return
		}
		wantCode(t, err, CodeCannotDeactivateGroupInUse, "Cannot deactivate user group in use.")
	})
}

func TestIsModeratorFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeModeratorOrAbove, func(t *testing.T, r *Realm, has bool) {
		for _, c := range []struct {
			id   int
			want bool
		}{{idIago, has}, {idShiva, true}, {idHamlet, false}} {
			state, err := r.As(c.id).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_user"}})
			if err != nil {
				t.Fatal(err)
			}
			if state.RealmUserState.IsModerator != c.want {
				t.Errorf("user %d: is_moderator %v, want %v", c.id, state.RealmUserState.IsModerator, c.want)
			}
		}
	})
}

// Below 334 the empty topic does not exist: sending or moving to it is
// refused, its display name and "(no topic)" are ordinary names, and an
// empty topic_name marks the whole channel read.
func TestEmptyTopicFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeEmptyTopic, func(t *testing.T, r *Realm, has bool) {
		a := r.As(idHamlet)
		_, err := a.SendChannelMessage(bg, "Denmark", "", "x")
		if !has {
			wantCode(t, err, CodeBadRequest, "Topic can't be empty!")
		} else if err != nil {
			t.Fatal(err)
		}
		id := send(t, r, idHamlet, "Denmark", "castle", "x")
		err = edit(r, idHamlet, UpdateMessageRequest{MessageID: id, Topic: str("")})
		if !has {
			wantCode(t, err, CodeBadRequest, "Topic can't be empty!")
		} else if err != nil {
			t.Fatal(err)
		}
		alias := send(t, r, idHamlet, "Denmark", "general chat", "x")
		m, _, err := a.Message(bg, alias, ViewOptions{AllowEmptyTopicName: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "general chat", true: ""}[has]; m.Subject != want {
			t.Fatalf("topic %q, want %q", m.Subject, want)
		}
		other := send(t, r, idHamlet, "Denmark", "elsewhere", "x")
		if err := r.As(idIago).MarkTopicAsRead(bg, channelID(t, r, "Denmark"), ""); err != nil {
			t.Fatal(err)
		}
		if unread := slices.Contains(unreadIDs(r, idIago), other); unread == !has {
			t.Fatalf("an empty topic_name marked another topic read: %v (want %v)", !unread, !has)
		}
	})
}

// "(no topic)" names the empty topic from 370 when sending, from 372 in
// typing notifications.
func TestNoTopicAliasFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeNoTopicAlias, func(t *testing.T, r *Realm, has bool) {
		id := send(t, r, idHamlet, "Denmark", "(no topic)", "x")
		m, _, err := r.As(idHamlet).Message(bg, id, ViewOptions{AllowEmptyTopicName: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "(no topic)", true: ""}[has]; m.Subject != want {
			t.Fatalf("topic %q, want %q", m.Subject, want)
		}
	})
	belowAndAt(t, changeTypingNoTopicAlias, func(t *testing.T, r *Realm, has bool) {
		q := mustQueue(t, r, idIago, QueueOptions{Capabilities: ClientCapabilities{StreamTypingNotifications: true, EmptyTopicName: true}})
		if err := r.As(idHamlet).SetTyping(bg, TypingRequest{Type: "stream", Op: "start", StreamID: 2, Topic: str("(no topic)")}); err != nil {
			t.Fatal(err)
		}
		evs := pending(t, r, idIago, q, -1)
		if len(evs) != 1 {
			t.Fatalf("events %v", evs)
		}
		if want := map[bool]string{false: "(no topic)", true: ""}[has]; eventJSON(t, evs[0])["topic"] != want {
			t.Fatalf("typing topic %v, want %q", eventJSON(t, evs[0])["topic"], want)
		}
	})
}

func TestWebChannelDefaultViewTopUnreadFollowsFeatureLevel(t *testing.T) {
	for _, level := range []int{user.WebChannelDefaultViewTopUnreadLevel - 1, user.WebChannelDefaultViewTopUnreadLevel} {
		r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
		err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"web_channel_default_view": 4}})
		if level < user.WebChannelDefaultViewTopUnreadLevel {
			wantCode(t, err, CodeBadRequest, "web_channel_default_view")
		} else if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
	}
}

func TestPrincipalErrorsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changePrincipalErrors, func(t *testing.T, r *Realm, has bool) {
		_, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Denmark"}}, Principals: Principals{IDs: []int{999}}})
		_, err2 := r.As(idIago).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Denmark"}, Principals: Principals{Emails: []string{"nobody@zulip.com"}}})
		if has {
			wantCode(t, err, CodeBadRequest, "No such user")
			wantCode(t, err2, CodeBadRequest, "No such user")
			return
		}
		if re := wantCode(t, err, CodeUnauthorizedPrincipal, "User not authorized to execute queries on behalf of '999'"); re.Status != 403 {
			t.Fatalf("status %d, want 403", re.Status)
		}
		wantCode(t, err2, CodeUnauthorizedPrincipal, "on behalf of 'nobody@zulip.com'")
	})
}

func TestInviteLinksByGroupFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeInviteLinksByGroup, func(t *testing.T, r *Realm, has bool) {
		r.UpdateSettings(func(s *Settings) { s.CreateMultiuseInviteGroup = NamedGroupSetting(gidMembers) })
		_, err := r.As(idHamlet).CreateInviteLink(bg, InviteRequest{})
		if !has {
			wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
			if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{}); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := r.As(idHamlet).RevokeInviteLink(bg, 1); err != nil {
			t.Fatal(err)
		}
	})
}

// Below 327 a direct message's recipient_id is its recipient's personal
// one, so the two directions of a conversation differ; from it they share
// the conversation's.
func TestDirectMessageRecipientIDFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDMPairRecipient, func(t *testing.T, r *Realm, has bool) {
		out, err := r.As(idHamlet).SendDirectMessage(bg, []int{idIago}, "hi")
		if err != nil {
			t.Fatal(err)
		}
		back, err := r.As(idIago).SendDirectMessage(bg, []int{idHamlet}, "hello")
		if err != nil {
			t.Fatal(err)
		}
		m1, _, _ := r.As(idHamlet).Message(bg, out.ID, ViewOptions{})
		m2, _, _ := r.As(idHamlet).Message(bg, back.ID, ViewOptions{})
		if (m1.RecipientID == m2.RecipientID) != has {
			t.Fatalf("recipient_id %d and %d: shared %v, want %v", m1.RecipientID, m2.RecipientID, !has, has)
		}
		if !has && m1.RecipientID != r.recipients.personal[idIago] {
			t.Fatalf("recipient_id %d, want Iago's personal %d", m1.RecipientID, r.recipients.personal[idIago])
		}
	})
}

// Below 294 every client hears of deactivated groups as capable ones do
// now: register lists them and deactivating one is an update.
func TestDeactivatedGroupsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDeactivatedGroupsCapability, func(t *testing.T, r *Realm, has bool) {
		a := r.As(idIago)
		g, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "retired"})
		q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"user_group"}})
		if err := a.DeactivateUserGroup(bg, g); err != nil {
			t.Fatal(err)
		}
		evs := pending(t, r, idHamlet, q, -1)
		if len(evs) != 1 {
			t.Fatalf("events %v", evs)
		}
		if want := map[bool]string{false: "update", true: "remove"}[has]; eventJSON(t, evs[0])["op"] != want {
			t.Fatalf("event %v, want op %s", eventJSON(t, evs[0]), want)
		}
		state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm_user_groups"}})
		if err != nil {
			t.Fatal(err)
		}
		listed := slices.ContainsFunc(state.RealmUserGroupsState.RealmUserGroups, func(ug UserGroup) bool { return ug.ID == g })
		if listed == has {
			t.Fatalf("deactivated group listed %v, want %v", listed, !has)
		}
	})
}

// Below 215 channel typing names the channel by the one ID of to.
func TestChannelTypingTargetFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeTypingStreamID, func(t *testing.T, r *Realm, has bool) {
		q := mustQueue(t, r, idIago, QueueOptions{Capabilities: ClientCapabilities{StreamTypingNotifications: true}})
		a := r.As(idHamlet)
		byTo := TypingRequest{Type: "stream", Op: "start", To: []int{2}, Topic: str("castle")}
		byID := TypingRequest{Type: "stream", Op: "start", StreamID: 2, Topic: str("castle")}
		if has {
			wantCode(t, a.SetTyping(bg, byTo), CodeBadRequest, "Missing 'stream_id' argument")
			if err := a.SetTyping(bg, byID); err != nil {
				t.Fatal(err)
			}
		} else {
			wantCode(t, a.SetTyping(bg, byID), CodeBadRequest, "Missing 'to' argument")
			wantCode(t, a.SetTyping(bg, TypingRequest{Type: "stream", Op: "start", To: []int{2, 3}, Topic: str("castle")}), CodeBadRequest, "Cannot send to multiple streams")
			if err := a.SetTyping(bg, byTo); err != nil {
				t.Fatal(err)
			}
		}
		evs := pending(t, r, idIago, q, -1)
		if len(evs) != 1 || eventJSON(t, evs[0])["stream_id"] != float64(2) {
			t.Fatalf("events %v", evs)
		}
	})
}

// Below 367 resolving a topic is a rename like any other: it needs the
// permission to move messages between topics.
func TestResolvingTopicsFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeResolveTopicsGroup, func(t *testing.T, r *Realm, has bool) {
		r.UpdateSettings(func(s *Settings) {
			s.CanMoveMessagesBetweenTopicsGroup = NamedGroupSetting(gidAdministrators)
			s.CanResolveTopicsGroup = NamedGroupSetting(gidMembers)
		})
		id := send(t, r, idHamlet, "Denmark", "bug", "x")
		err := edit(r, idHamlet, UpdateMessageRequest{MessageID: id, Topic: str("✔ bug"), PropagateMode: "change_all"})
		if has && err != nil {
			t.Fatalf("a member resolving: %v", err)
		}
		if !has && err == nil {
			t.Fatal("a member without the move permission resolved a topic")
		}
	})
}

// Below 302 GET /users/{email} finds a user by the address of user
// objects only, even for a viewer who may see the real one.
func TestUserByRealEmailFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeRealEmailLookup, func(t *testing.T, r *Realm, has bool) {
		u, err := r.As(idIago).UserByEmail(bg, "hamlet@zulip.com", UserViewOptions{})
		if has && (err != nil || u.UserID != idHamlet) {
			t.Fatalf("an administrator's lookup by real address: %v %v", u.UserID, err)
		}
		if !has {
			wantCode(t, err, CodeBadRequest, "No such user")
		}
		if u, err := r.As(idIago).UserByEmail(bg, "USER10@zulipdev.com", UserViewOptions{}); err != nil || u.UserID != idHamlet {
			t.Fatalf("lookup by API address: %v %v", u.UserID, err)
		}
		if u, err := r.As(idHamlet).UserByEmail(bg, "default-bot@zulip.com", UserViewOptions{}); err != nil || u.UserID != idDefaultBot {
			t.Fatalf("a bot's address: %v %v", u.UserID, err)
		}
	})
}

// A direct message's history names its topic "", never the empty
// topic's display name (at every level; below 334 there is none).
func TestDirectMessageHistoryTopicIsEmpty(t *testing.T) {
	for _, level := range []int{185, DefaultFeatureLevel} {
		r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
		res, err := r.As(idHamlet).SendDirectMessage(bg, []int{idIago}, "hi")
		if err != nil {
			t.Fatal(err)
		}
		if err := edit(r, idHamlet, UpdateMessageRequest{MessageID: res.ID, Content: str("hi there")}); err != nil {
			t.Fatal(err)
		}
		hist, err := r.As(idHamlet).MessageHistory(bg, res.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range hist {
			if s.Topic != "" {
				t.Fatalf("level %d: a direct message's history topic %q", level, s.Topic)
			}
		}
	}
}

// Below 205 a guest's register streams are its subscriptions: the
// web-public Rome is left out.
func TestGuestRegisterStreamsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeRegisterWebPublicStreams, func(t *testing.T, r *Realm, has bool) {
		state, err := r.As(idPolonius).Register(bg, RegisterRequest{FetchEventTypes: []string{"stream"}})
		if err != nil {
			t.Fatal(err)
		}
		listed := slices.ContainsFunc(state.StreamState.Streams, func(s Stream) bool { return s.Name == "Rome" })
		if listed != has {
			t.Fatalf("web-public Rome listed %v, want %v", listed, has)
		}
		if r.isSubscribed(channelID(t, r, "Rome"), idPolonius) {
			t.Fatal("the guest is subscribed to Rome: the test shows nothing")
		}
	})
}

// Below 362 never_subscribed leaves archived channels out, even for
// clients with the archived_channels capability.
func TestArchivedNeverSubscribedFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeArchivedNeverSubscribed, func(t *testing.T, r *Realm, has bool) {
		rome := channelID(t, r, "Rome")
		if err := r.As(idIago).ArchiveChannel(bg, rome); err != nil {
			t.Fatal(err)
		}
		req := RegisterRequest{FetchEventTypes: []string{"subscription"}}
		req.Queue.Capabilities.ArchivedChannels = true
		state, err := r.As(idHamlet).Register(bg, req)
		if err != nil {
			t.Fatal(err)
		}
		listed := slices.ContainsFunc(state.SubscriptionState.NeverSubscribed, func(s NeverSubscribedView) bool { return s.StreamID == rome })
		if listed != has {
			t.Fatalf("archived Rome in never_subscribed %v, want %v", listed, has)
		}
	})
}

// Below 340 a deactivated group may only be renamed; below 391 its
// members may not change.
func TestDeactivatedGroupEditsFollowFeatureLevel(t *testing.T) {
	for _, c := range []struct {
		change Change
		edit   func(r *Realm, g int) error
		msg    string
	}{
		{changeDeactivatedGroupEdits, func(r *Realm, g int) error {
			return r.As(idIago).UpdateUserGroup(bg, g, UpdateGroupRequest{Description: str("old")})
		}, "You can only change name of deactivated user groups"},
		{changeDeactivatedGroupMembers, func(r *Realm, g int) error {
			return r.As(idIago).UpdateGroupMembers(bg, g, []int{idHamlet}, nil)
		}, "User group is deactivated."},
	} {
		belowAndAt(t, c.change, func(t *testing.T, r *Realm, has bool) {
			g, _ := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "retired"})
			if err := r.As(idIago).DeactivateUserGroup(bg, g); err != nil {
				t.Fatal(err)
			}
			err := c.edit(r, g)
			if has && err != nil {
				t.Fatal(err)
			}
			if !has {
				wantCode(t, err, CodeBadRequest, c.msg)
			}
			name := "retired (old)"
			if err := r.As(idIago).UpdateUserGroup(bg, g, UpdateGroupRequest{Name: &name}); err != nil {
				t.Fatalf("renaming a deactivated group: %v", err)
			}
		})
	}
}

// Below 303 a deactivated member is still shown as a member of its
// groups; from it, not.
func TestDeactivatedGroupMembersFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDeactivatedMembersHidden, func(t *testing.T, r *Realm, has bool) {
		a := r.As(idIago)
		g, err := a.CreateUserGroup(bg, CreateGroupRequest{Name: "crew", Members: []int{idOthello, idHamlet}})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.DeactivateUser(bg, idOthello); err != nil {
			t.Fatal(err)
		}
		members, _ := a.GroupMembers(bg, GroupQuery{GroupID: g, DirectOnly: true})
		groups, _ := a.UserGroups(bg, UserGroupsRequest{})
		i := slices.IndexFunc(groups, func(ug UserGroup) bool { return ug.ID == g })
		isMember, _ := a.IsGroupMember(bg, GroupMemberQuery{GroupID: g, UserID: idOthello, DirectOnly: true})
		shown := slices.Contains(members, idOthello)
		if shown == has || slices.Contains(groups[i].Members, idOthello) == has || isMember == has {
			t.Fatalf("deactivated member shown: members %v, group %v, is member %v; want %v", members, groups[i].Members, isMember, !has)
		}
	})
}

// Below 333 a new channel's legacy stream_post_policy sets its
// can_send_message_group; from 333 it is not read.
func TestNewChannelPostPolicyFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, ChangeStreamPostPolicyRemoved, func(t *testing.T, r *Realm, has bool) {
		two := 2
		if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "quiet"}}, StreamPostPolicy: &two}); err != nil {
			t.Fatal(err)
		}
		ch := r.channels.byID[channelID(t, r, "quiet")]
		admins := ch.CanSendMessageGroup == gidAdministrators
		if admins == has {
			t.Fatalf("can_send_message_group %d: administrators %v, want %v", ch.CanSendMessageGroup, admins, !has)
		}
		bad := 9
		_, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "loud"}}, StreamPostPolicy: &bad})
		if !has {
			wantCode(t, err, CodeBadRequest, "Invalid stream_post_policy")
		} else if err != nil {
			t.Fatal(err)
		}
	})
}

// Below 386 deactivated=false is no parameter: nothing to change.
func TestGroupReactivationFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeGroupReactivation, func(t *testing.T, r *Realm, has bool) {
		a := r.As(idIago)
		g, _ := a.CreateUserGroup(bg, CreateGroupRequest{Name: "retired"})
		if err := a.DeactivateUserGroup(bg, g); err != nil {
			t.Fatal(err)
		}
		f := false
		err := a.UpdateUserGroup(bg, g, UpdateGroupRequest{Deactivated: &f})
		if !has {
			wantCode(t, err, CodeBadRequest, "No new data supplied")
			if !r.groups.byID[g].Deactivated {
				t.Fatal("reactivated below the level")
			}
			return
		}
		if err != nil || r.groups.byID[g].Deactivated {
			t.Fatalf("reactivation: %v", err)
		}
	})
}

// Below 357 a private channel's can_subscribe_group gives no access.
func TestCanSubscribeGroupFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeCanSubscribeGroup, func(t *testing.T, r *Realm, has bool) {
		if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "hidden"}}, InviteOnly: true}); err != nil {
			t.Fatal(err)
		}
		ch := r.channels.byID[channelID(t, r, "hidden")]
		r.mu.Lock()
		ch.Permissions = maps.Clone(ch.Permissions)
		if ch.Permissions == nil {
			ch.Permissions = map[string]GroupSetting{}
		}
		ch.Permissions["can_subscribe_group"] = NamedGroupSetting(gidMembers)
		r.mu.Unlock()
		if got := r.hasContentAccess(r.users.byID[idHamlet], ch); got != has {
			t.Fatalf("content access through can_subscribe_group %v, want %v", got, has)
		}
	})
}

// date_joined is to the minute from Zulip 9.2's level, to the second
// before, in every user object (GET /users/{id} and GET /users/me).
func TestDateJoinedPrecisionFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDateJoinedMinutes, func(t *testing.T, r *Realm, has bool) {
		other, err := r.As(idIago).User(bg, idHamlet, UserViewOptions{})
		if err != nil {
			t.Fatal(err)
		}
		own, err := r.As(idHamlet).OwnUser(bg)
		if err != nil {
			t.Fatal(err)
		}
		want := len("2006-01-02T15:04:05+00:00")
		if has {
			want = len("2006-01-02T15:04+00:00")
		}
		for what, got := range map[string]string{"GET /users/{id}": other.DateJoined, "GET /users/me": own.DateJoined} {
			if len(got) != want || !strings.HasSuffix(got, "+00:00") {
				t.Errorf("%s date_joined %q, want %d characters", what, got, want)
			}
		}
		if own.DateJoined != other.DateJoined {
			t.Errorf("the same user's date_joined differs: %q and %q", own.DateJoined, other.DateJoined)
		}
	})
}
