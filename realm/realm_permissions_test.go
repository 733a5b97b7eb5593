package realm

import (
	"testing"

	"github.com/minizulip/minizulip/user"
)

// The realm permission settings govern what they allow from the feature
// level that added them; below it, the older rule does (Zulip's default
// of the policy the setting replaced).

// dmFrom sends a direct message from one user to others.
func dmFrom(r *Realm, from int, to ...int) error {
	_, err := r.As(from).SendDirectMessage(bg, to, "hello")
	return err
}

func TestDirectMessageGroupsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDirectMessageGroups, func(t *testing.T, r *Realm, has bool) {
		r.UpdateSettings(func(s *Settings) {
			s.DirectMessagePermissionGroup = NamedGroupSetting(gidAdministrators)
			s.DirectMessageInitiatorGroup = NamedGroupSetting(gidAdministrators)
		})
		if r.conversationHasMessages([]int{idZoe, idIago}) || r.conversationHasMessages([]int{idAaron, idIago}) {
			t.Fatal("the dev realm already has the conversations this test starts")
		}
		// No administrator in the conversation.
		err := dmFrom(r, idHamlet, idAaron)
		if has {
			wantCode(t, err, CodeBadRequest, "This conversation does not include any users who can authorize it.")
		} else if err != nil {
			t.Fatal(err)
		}
		// An administrator is in it, but the sender may not start it.
		err = dmFrom(r, idZoe, idIago)
		if has {
			wantCode(t, err, CodeBadRequest, "You do not have permission to initiate direct message conversations.")
			if r.conversationHasMessages([]int{idZoe, idIago}) {
				t.Fatal("a refused first message was stored")
			}
		} else if err != nil {
			t.Fatal(err)
		}
		// Once an administrator started it, the conversation goes on.
		if err := dmFrom(r, idIago, idAaron); err != nil {
			t.Fatal(err)
		}
		if err := dmFrom(r, idAaron, idIago); err != nil {
			t.Fatal(err)
		}
		// Bots and oneself are exempt.
		if err := dmFrom(r, idHamlet, idDefaultBot); err != nil {
			t.Fatal(err)
		}
		if err := dmFrom(r, idHamlet, idHamlet); err != nil {
			t.Fatal(err)
		}
		// role:nobody turns direct messages off.
		r.UpdateSettings(func(s *Settings) { s.DirectMessagePermissionGroup = NamedGroupSetting(gidNobody) })
		err = dmFrom(r, idIago, idAaron)
		if has {
			wantCode(t, err, CodeBadRequest, "Direct messages are disabled in this organization.")
		} else if err != nil {
			t.Fatal(err)
		}
		if err := dmFrom(r, idHamlet, idDefaultBot); err != nil {
			t.Fatal(err)
		}
	})
}

// The default settings (role:everyone) let anyone start a conversation.
func TestDirectMessageGroupsDefaultToEveryone(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := dmFrom(r, idPolonius, idZoe, idAaron); err != nil {
		t.Fatal(err)
	}
	// An anonymous group counts its direct members.
	r.UpdateSettings(func(s *Settings) {
		s.DirectMessagePermissionGroup = GroupSetting{DirectMembers: []int{idZoe}}
		s.DirectMessageInitiatorGroup = GroupSetting{DirectMembers: []int{idZoe}}
	})
	if err := dmFrom(r, idZoe, idCordelia); err != nil {
		t.Fatal(err)
	}
	wantCode(t, dmFrom(r, idCordelia, idOthello), CodeBadRequest, "This conversation does not include any users who can authorize it.")
}

func TestWebPublicChannelGroupFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeWebPublicChannelGroup, func(t *testing.T, r *Realm, has bool) {
		r.UpdateSettings(func(s *Settings) { s.CanCreateWebPublicChannelGroup = NamedGroupSetting(gidModerators) })
		create := func(uid int, name string) error {
			_, err := r.As(uid).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: name}}, IsWebPublic: true})
			return err
		}
		// A moderator: below the level, owners only.
		err := create(idShiva, "shiva's web")
		if has {
			if err != nil {
				t.Fatal(err)
			}
		} else {
			wantCode(t, err, CodeBadRequest, "Insufficient permission")
		}
		wantCode(t, create(idHamlet, "hamlet's web"), CodeBadRequest, "Insufficient permission")
		if err := create(idDesdemona, "owners' web"); err != nil {
			t.Fatal(err)
		}
		// Making a channel web-public: an administrator (in the
		// moderators' group).
		err = r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: channelID(t, r, "Denmark"), IsWebPublic: boolPtr(true)})
		if has {
			if err != nil {
				t.Fatal(err)
			}
		} else {
			wantCode(t, err, CodeBadRequest, "Insufficient permission")
		}
		// role:nobody: not even owners, from the level on.
		r.UpdateSettings(func(s *Settings) { s.CanCreateWebPublicChannelGroup = NamedGroupSetting(gidNobody) })
		err = create(idDesdemona, "late web")
		if has {
			wantCode(t, err, CodeBadRequest, "Insufficient permission")
		} else if err != nil {
			t.Fatal(err)
		}
	})
}

func TestDeleteAnyMessageGroupFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDeleteAnyMessageGroup, func(t *testing.T, r *Realm, has bool) {
		r.UpdateSettings(func(s *Settings) { s.CanDeleteAnyMessageGroup = NamedGroupSetting(gidModerators) })
		id := send(t, r, idHamlet, "Denmark", "t", "one")
		// A moderator: below the level, administrators only.
		err := r.As(idShiva).DeleteMessage(bg, id)
		if has {
			if err != nil {
				t.Fatal(err)
			}
		} else {
			wantCode(t, err, CodeBadRequest, "You don't have permission to delete this message")
			if err := r.As(idIago).DeleteMessage(bg, id); err != nil {
				t.Fatal(err)
			}
		}
		// role:nobody: not even administrators, from the level on.
		r.UpdateSettings(func(s *Settings) { s.CanDeleteAnyMessageGroup = NamedGroupSetting(gidNobody) })
		id = send(t, r, idHamlet, "Denmark", "t", "two")
		err = r.As(idIago).DeleteMessage(bg, id)
		if has {
			wantCode(t, err, CodeBadRequest, "You don't have permission to delete this message")
		} else if err != nil {
			t.Fatal(err)
		}
	})
}

func TestBotCreationGroupsFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeBotCreationGroups, func(t *testing.T, r *Realm, has bool) {
		r.UpdateSettings(func(s *Settings) {
			s.CanCreateBotsGroup = NamedGroupSetting(gidAdministrators)
			s.CanCreateWriteOnlyBotsGroup = NamedGroupSetting(gidMembers)
		})
		bot := func(uid int, short string, kind user.BotType) error {
			_, err := r.As(uid).CreateBot(bg, BotRequest{FullName: short, ShortName: short, BotType: kind})
			return err
		}
		// A member: any bot below the level, incoming webhooks only at it.
		err := bot(idHamlet, "generic", user.GenericBot)
		if has {
			wantCode(t, err, CodeBadRequest, "Invalid bot type")
		} else if err != nil {
			t.Fatal(err)
		}
		if err := bot(idHamlet, "hook", user.IncomingWebhook); err != nil {
			t.Fatal(err)
		}
		if err := bot(idIago, "admins", user.GenericBot); err != nil {
			t.Fatal(err)
		}
		r.UpdateSettings(func(s *Settings) { s.CanCreateWriteOnlyBotsGroup = NamedGroupSetting(gidNobody) })
		err = bot(idHamlet, "hook2", user.IncomingWebhook)
		if has {
			wantCode(t, err, CodeBadRequest, "Invalid bot type")
		} else if err != nil {
			t.Fatal(err)
		}
		wantCode(t, bot(idPolonius, "guest", user.IncomingWebhook), CodeBadRequest, "Not allowed for guest users")
	})
}

// can_set_topics_policy_group decides who may set a channel's
// topics_policy (a parameter from feature level 392, the setting's).
func TestSetTopicsPolicyGroup(t *testing.T) {
	r, _ := newTestRealm(t)
	if _, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "hamlet's"}}}); err != nil {
		t.Fatal(err)
	}
	ch := channelID(t, r, "hamlet's")
	policy := func(uid int, p string) error {
		return r.As(uid).UpdateChannel(bg, ChannelUpdate{ChannelID: ch, TopicsPolicy: str(p)})
	}
	if err := policy(idHamlet, "disable_empty_topic"); err != nil { // role:members by default
		t.Fatal(err)
	}
	r.UpdateSettings(func(s *Settings) { s.CanSetTopicsPolicyGroup = NamedGroupSetting(gidModerators) })
	wantCode(t, policy(idHamlet, "allow_empty_topic"), CodeBadRequest, "Insufficient permission")
	_, err := r.As(idHamlet).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "another"}}, TopicsPolicy: "empty_topic_only"})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	if err := policy(idIago, "allow_empty_topic"); err != nil { // administrators always may
		t.Fatal(err)
	}
	r.UpdateSettings(func(s *Settings) { s.CanSetTopicsPolicyGroup = GroupSetting{DirectMembers: []int{idHamlet}} })
	if err := policy(idHamlet, "empty_topic_only"); err != nil {
		t.Fatal(err)
	}
}

// can_set_delete_message_policy_group decides who may change a channel's
// can_delete_*_message_group settings (parameters from feature level
// 407, the setting's).
func TestSetDeleteMessagePolicyGroup(t *testing.T) {
	r, _ := newTestRealm(t)
	if _, err := r.As(idShiva).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "shiva's"}}}); err != nil {
		t.Fatal(err)
	}
	ch := channelID(t, r, "shiva's")
	set := func(uid int, name string, v GroupSetting) error {
		return r.As(uid).UpdateChannel(bg, ChannelUpdate{ChannelID: ch,
			GroupSettings: map[string]GroupSettingChange{name: {New: v}}})
	}
	// role:moderators by default: the moderator administering the channel.
	if err := set(idShiva, "can_delete_any_message_group", NamedGroupSetting(gidModerators)); err != nil {
		t.Fatal(err)
	}
	r.UpdateSettings(func(s *Settings) { s.CanSetDeleteMessagePolicyGroup = NamedGroupSetting(gidAdministrators) })
	wantCode(t, set(idShiva, "can_delete_own_message_group", NamedGroupSetting(gidMembers)), CodeBadRequest, "Insufficient permission")
	_, err := r.As(idShiva).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "another"}},
		GroupSettings: map[string]GroupSetting{"can_delete_any_message_group": NamedGroupSetting(gidMembers)}})
	wantCode(t, err, CodeBadRequest, "Insufficient permission")
	if err := set(idIago, "can_delete_own_message_group", NamedGroupSetting(gidMembers)); err != nil {
		t.Fatal(err)
	}
	r.UpdateSettings(func(s *Settings) { s.CanSetDeleteMessagePolicyGroup = GroupSetting{DirectMembers: []int{idShiva}} })
	if err := set(idShiva, "can_delete_any_message_group", NamedGroupSetting(gidMembers)); err != nil {
		t.Fatal(err)
	}
}
