package realm

import (
	"encoding/json"
	"fmt"
	"testing"
)

// wireOf is v as JSON.
func wireOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// From feature level 303 a deactivated user is left out of the
// direct_members of every anonymous group-setting value sent (register's
// realm settings, user group objects, and the events of a change);
// below it they are still listed. (No channel setting took an anonymous
// group below 320: TestChannelGroupSettingLeavesOutDeactivatedUsers.) The 'old' value a client
// checks a change against is the value it was sent.
func TestGroupSettingValueDirectMembersFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeDeactivatedMembersHidden, func(t *testing.T, r *Realm, has bool) {
		characters := groupID(t, r, "hamletcharacters")
		anonymous := GroupSetting{DirectMembers: []int{idIago, idOthello}}
		r.mu.Lock()
		r.settings.CanDeleteAnyMessageGroup = anonymous.Clone()
		r.groups.byID[characters].Settings.CanMention = anonymous.Clone()
		r.mu.Unlock()
		if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, idIago)
		if !has {
			want = fmt.Sprintf(`{"direct_members":[%d,%d],"direct_subgroups":[]}`, idIago, idOthello)
		}
		st, err := r.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := wireOf(t, st.RealmCanDeleteAnyMessageGroup); got != want {
			t.Errorf("register realm_can_delete_any_message_group %s, want %s", got, want)
		}
		if got := wireOf(t, userGroupByID(t, r, characters).CanMentionGroup); got != want {
			t.Errorf("user group can_mention_group %s, want %s", got, want)
		}

		// The 'old' value is what was sent: without Othello from 303,
		// with him below.
		sent := GroupSetting{DirectMembers: []int{idIago}}
		if !has {
			sent.DirectMembers = append(sent.DirectMembers, idOthello)
		}
		q := mustQueue(t, r, idIago, QueueOptions{})
		next := GroupSetting{DirectMembers: []int{idIago, idHamlet}}
		if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{
			"can_delete_any_message_group": {New: next, Old: &sent}}}); err != nil {
			t.Fatalf("realm setting with the old value as sent: %v", err)
		}
		if err := r.As(idDesdemona).UpdateUserGroup(bg, characters, UpdateGroupRequest{
			Settings: map[string]GroupSetting{"can_mention_group": next}, OldSettings: map[string]GroupSetting{"can_mention_group": sent}}); err != nil {
			t.Fatalf("user group setting with the old value as sent: %v", err)
		}
		wantNext := fmt.Sprintf(`{"direct_members":[%d,%d],"direct_subgroups":[]}`, idHamlet, idIago)
		var seen int
		for _, e := range pending(t, r, idIago, q, -1) {
			ev := eventJSON(t, e)
			var v any
			switch ev["type"] {
			case "realm":
				v = ev["data"].(map[string]any)["can_delete_any_message_group"]
			case "user_group":
				v = ev["data"].(map[string]any)["can_mention_group"]
			default:
				continue
			}
			seen++
			if got := wireOf(t, v); got != wantNext {
				t.Errorf("%v event value %s, want %s", ev["type"], got, wantNext)
			}
		}
		if seen != 2 {
			t.Errorf("%d setting events, want 2", seen)
		}
	})
}

// A channel's anonymous setting value leaves a deactivated user out of
// the channel object and of a change's stream event, and an 'old' value
// without them matches.
func TestChannelGroupSettingLeavesOutDeactivatedUsers(t *testing.T) {
	r, _ := newTestRealm(t)
	denmark := channelID(t, r, "Denmark")
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: denmark, GroupSettings: map[string]GroupSettingChange{
		"can_remove_subscribers_group": {New: GroupSetting{DirectMembers: []int{idIago, idOthello}}}}}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
		t.Fatal(err)
	}
	s, err := r.As(idIago).Channel(bg, denmark)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wireOf(t, s.CanRemoveSubscribersGroup), fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, idIago); got != want {
		t.Errorf("channel can_remove_subscribers_group %s, want %s", got, want)
	}
	q := mustQueue(t, r, idIago, QueueOptions{})
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: denmark, GroupSettings: map[string]GroupSettingChange{
		"can_remove_subscribers_group": {New: GroupSetting{DirectMembers: []int{idIago, idHamlet}},
			Old: &GroupSetting{DirectMembers: []int{idIago}}}}}); err != nil {
		t.Fatalf("the old value as sent: %v", err)
	}
	var values []string
	for _, e := range pending(t, r, idIago, q, -1) {
		if ev := eventJSON(t, e); ev["type"] == "stream" && ev["property"] == "can_remove_subscribers_group" {
			values = append(values, wireOf(t, ev["value"]))
		}
	}
	if want := fmt.Sprintf(`{"direct_members":[%d,%d],"direct_subgroups":[]}`, idHamlet, idIago); len(values) != 1 || values[0] != want {
		t.Errorf("stream events %v, want one of %s", values, want)
	}
}

// settingEvents lists the setting values of the user_group update and
// realm update_dict events pending for userID, as "type name value".
func settingEvents(t *testing.T, r *Realm, userID int, q *Queue) []string {
	t.Helper()
	var out []string
	for _, e := range pending(t, r, userID, q, -1) {
		ev := eventJSON(t, e)
		if (ev["type"] == "user_group" && ev["op"] == "update") || (ev["type"] == "realm" && ev["op"] == "update_dict") {
			for name, v := range ev["data"].(map[string]any) {
				out = append(out, fmt.Sprintf("%v %s %s", ev["type"], name, wireOf(t, v)))
			}
		}
	}
	return out
}

// From feature level 303 a user's deactivation tells the users who may
// not access them (restricted guests) the new value of each user group
// and realm setting set to an anonymous group holding them (they cannot
// read it from a realm_user update they do not get); the users who may
// access them get none. A reactivation tells every user the value again
// holding them. Below 303 neither sends such events: the values went on
// listing deactivated users.
func TestDeactivationSendsSettingsHoldingTheUserFromLevel303(t *testing.T) {
	c := changeGuestDeactivationGroupEvents
	for _, level := range []int{c.Level() - 1, c.Level()} {
		t.Run(itoa(level), func(t *testing.T) {
			has := level >= c.Level()
			r := restrictedRealm(t, level)
			characters := groupID(t, r, "hamletcharacters")
			r.mu.Lock()
			r.settings.CanDeleteAnyMessageGroup = GroupSetting{DirectMembers: []int{idIago, idOthello}}
			r.groups.byID[characters].Settings.CanMention = GroupSetting{DirectMembers: []int{idIago, idOthello}}
			r.mu.Unlock()
			guest := mustQueue(t, r, idPolonius, QueueOptions{EventTypes: []string{"realm", "user_group"}})
			admin := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"realm", "user_group"}})
			if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
				t.Fatal(err)
			}
			var want []string
			without := fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, idIago)
			if has {
				want = []string{"user_group can_mention_group " + without, "realm can_delete_any_message_group " + without}
			}
			if got := settingEvents(t, r, idPolonius, guest); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("the guest heard %v, want %v", got, want)
			}
			if got := settingEvents(t, r, idIago, admin); len(got) != 0 {
				t.Errorf("a user with access heard %v", got)
			}

			admin = mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"realm", "user_group"}})
			if err := r.As(idIago).ReactivateUser(bg, idOthello); err != nil {
				t.Fatal(err)
			}
			want = nil
			with := fmt.Sprintf(`{"direct_members":[%d,%d],"direct_subgroups":[]}`, idIago, idOthello)
			if has {
				want = []string{"user_group can_mention_group " + with, "realm can_delete_any_message_group " + with}
			}
			if got := settingEvents(t, r, idIago, admin); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("reactivation: heard %v, want %v", got, want)
			}
		})
	}
}
