package realm

import (
	"testing"

	"github.com/minizulip/minizulip/group"
)

// hasCopy reports whether userID holds a copy of message id.
func hasCopy(r *Realm, userID int, id int64) bool {
	r.readLock()
	defer r.readUnlock()
	return r.messages.store.HasCopy(userID, id)
}

// A send reaches the channel's subscribers as they are at the send, not
// as they were cached at an earlier one.
func TestSendsFollowSubscriptionChanges(t *testing.T) {
	r, _ := newTestRealm(t)
	send := func() int64 {
		t.Helper()
		res, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "hello")
		if err != nil {
			t.Fatal(err)
		}
		return res.ID
	}
	before := send()
	if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}, Principals: Principals{IDs: []int{idDefaultBot}}}); err != nil {
		t.Fatal(err)
	}
	joined := send()
	if _, err := r.As(idIago).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Verona"}, Principals: Principals{IDs: []int{idOthello}}}); err != nil {
		t.Fatal(err)
	}
	left := send()
	if hasCopy(r, idDefaultBot, before) || !hasCopy(r, idDefaultBot, joined) || !hasCopy(r, idDefaultBot, left) {
		t.Fatalf("the bot's copies of %d, %d, %d: %v %v %v, want false true true", before, joined, left,
			hasCopy(r, idDefaultBot, before), hasCopy(r, idDefaultBot, joined), hasCopy(r, idDefaultBot, left))
	}
	if !hasCopy(r, idOthello, joined) || hasCopy(r, idOthello, left) {
		t.Fatalf("othello's copies of %d, %d: want true false", joined, left)
	}
}

// A channel's send permission follows changes to its group's members.
func TestSendPermissionFollowsGroupMembership(t *testing.T) {
	r, _ := newTestRealm(t)
	g, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "senders", Members: []int{idIago, idHamlet}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "crew-only"}},
		Principals:    Principals{IDs: []int{idIago, idHamlet}},
		GroupSettings: map[string]GroupSetting{"can_send_message_group": NamedGroupSetting(g)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "crew-only", "t", "first"); err != nil {
		t.Fatalf("member's send: %v", err)
	}
	if err := r.As(idIago).UpdateGroupMembers(bg, g, nil, []int{idHamlet}); err != nil {
		t.Fatal(err)
	}
	_, err = r.As(idHamlet).SendChannelMessage(bg, "crew-only", "t", "second")
	wantCode(t, err, CodeBadRequest, "You do not have permission to post in this channel.")
	if err := r.As(idIago).UpdateGroupMembers(bg, g, []int{idHamlet}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "crew-only", "t", "third"); err != nil {
		t.Fatalf("member again: %v", err)
	}
}

// A write sees its own changes: the derived caches are not used under
// the write lock, where a value computed halfway would outlive the
// change.
func TestWritesDoNotUseDerivedCaches(t *testing.T) {
	r, _ := newTestRealm(t)
	g, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "crew", Members: []int{idHamlet}})
	if err != nil {
		t.Fatal(err)
	}
	_ = r.update(func() error {
		if !r.inGroup(g, idHamlet) {
			t.Fatal("hamlet not in crew before the change")
		}
		delete(r.groups.byID[g].Members, idHamlet)
		if r.inGroup(g, idHamlet) {
			t.Fatal("the write does not see hamlet leave crew")
		}
		return nil
	})
	_ = r.view(func() error {
		if r.inGroup(g, idHamlet) || !r.inGroup(r.groups.byName[group.Administrators].ID, idIago) {
			t.Fatal("after the write: membership wrong")
		}
		return nil
	})
}
