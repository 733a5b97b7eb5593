package realm

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
)

// renderedContent is message id's rendered content as userID sees it.
func renderedContent(t *testing.T, r *Realm, userID int, id int64) string {
	t.Helper()
	m, _, err := r.As(userID).Message(bg, id, ViewOptions{ApplyMarkdown: true})
	if err != nil {
		t.Fatal(err)
	}
	return m.Content
}

// noneMentioned fails if any recipient of message id has the mentioned flag.
func noneMentioned(t *testing.T, r *Realm, id int64, userIDs ...int) {
	t.Helper()
	for _, uid := range userIDs {
		if f := flagsOf(t, r, uid, id); f&message.Mentioned != 0 {
			t.Errorf("user %d flags %v: want no mentioned", uid, f.Names())
		}
	}
}

func TestSystemGroupMentions(t *testing.T) {
	r, _ := newTestRealm(t)
	// A silent mention of a system group renders with its display name
	// and flags nobody.
	res, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "@_*role:everyone* and @_*role:fullmembers*")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`<p><span class="user-group-mention silent" data-user-group-id="%d">Everyone</span> and `+
		`<span class="user-group-mention silent" data-user-group-id="%d">Full members</span></p>`, gidEveryone, gidFullMembers)
	if got := renderedContent(t, r, idHamlet, res.ID); got != want {
		t.Errorf("content\n got %s\nwant %s", got, want)
	}
	noneMentioned(t, r, res.ID, idHamlet, idIago, idOthello)

	// A system group's can_mention_group is role:nobody: nobody, not
	// even an owner, mentions it out loud; nothing is stored.
	before := r.MessageCount()
	for _, sender := range []int{idHamlet, idIago, idDesdemona} {
		_, err := r.As(sender).SendChannelMessage(bg, "Denmark", "castle", "hi @*role:members*")
		e := wantCode(t, err, CodeBadRequest, "")
		if e.Msg != "You are not allowed to mention user group 'role:members'." || e.Status != 400 {
			t.Errorf("sender %d: %d %q", sender, e.Status, e.Msg)
		}
		_, err = r.As(sender).SendDirectMessage(bg, []int{idOthello}, "@*role:everyone*")
		wantCode(t, err, CodeBadRequest, "You are not allowed to mention user group 'role:everyone'.")
	}
	if r.MessageCount() != before {
		t.Errorf("refused sends stored messages: %d -> %d", before, r.MessageCount())
	}

	// Quoted, the mention is silent, so allowed.
	res, err = r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "> @*role:members*")
	if err != nil {
		t.Fatal(err)
	}
	if got := renderedContent(t, r, idHamlet, res.ID); !strings.Contains(got,
		fmt.Sprintf(`<span class="user-group-mention silent" data-user-group-id="%d">Members</span>`, gidMembers)) {
		t.Errorf("quoted content %s", got)
	}
	noneMentioned(t, r, res.ID, idHamlet, idIago, idOthello)

	// Rendering alone checks no permission.
	rr, err := r.As(idHamlet).RenderMessage(bg, "@*role:internet* @*role:nobody*")
	if err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf(`<p><span class="user-group-mention" data-user-group-id="%d">@Everyone on the internet</span> `+
		`<span class="user-group-mention" data-user-group-id="%d">@Nobody</span></p>`, gidInternet, gidNobody)
	if rr.Rendered != want {
		t.Errorf("render\n got %s\nwant %s", rr.Rendered, want)
	}
	// Names match exactly: another case is not the group.
	rr, _ = r.As(idHamlet).RenderMessage(bg, "@_*Role:Everyone*")
	if strings.Contains(rr.Rendered, "user-group-mention") {
		t.Errorf("case-folded name matched: %s", rr.Rendered)
	}
}

func TestGroupMentionPermission(t *testing.T) {
	r, _ := newTestRealm(t)
	gid, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "support", Members: []int{idOthello}})
	if err != nil {
		t.Fatal(err)
	}
	// The default can_mention_group is role:everyone: anyone, a guest
	// too, mentions it and its members are mentioned.
	for _, sender := range []int{idHamlet, idPolonius} {
		res, err := r.As(sender).SendDirectMessage(bg, []int{idOthello, idCordelia}, "@*support* help")
		if err != nil {
			t.Fatalf("sender %d: %v", sender, err)
		}
		if f := flagsOf(t, r, idOthello, res.ID); f&message.Mentioned == 0 {
			t.Errorf("othello flags %v: want mentioned", f.Names())
		}
		noneMentioned(t, r, res.ID, idCordelia, sender)
	}

	// Only administrators may mention it now.
	if err := r.As(idIago).UpdateUserGroup(bg, gid, UpdateGroupRequest{Settings: map[string]GroupSetting{"can_mention_group": NamedGroupSetting(gidAdministrators)}}); err != nil {
		t.Fatal(err)
	}
	before := r.MessageCount()
	_, err = r.As(idHamlet).SendChannelMessage(bg, "Denmark", "help", "@*support* help")
	wantCode(t, err, CodeBadRequest, "You are not allowed to mention user group 'support'.")
	if r.MessageCount() != before {
		t.Error("a refused send stored a message")
	}
	res, err := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "help", "@_*support* silently")
	if err != nil {
		t.Fatal(err)
	}
	noneMentioned(t, r, res.ID, idOthello)
	if _, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "help", "@*support* from an admin"); err != nil {
		t.Fatal(err)
	}
	// An edit is checked too, and a refused one changes nothing.
	_, err = r.As(idHamlet).UpdateMessage(bg, UpdateMessageRequest{MessageID: res.ID, Content: str("now @*support*")})
	wantCode(t, err, CodeBadRequest, "You are not allowed to mention user group 'support'.")
	if got := renderedContent(t, r, idHamlet, res.ID); !strings.Contains(got, "silent") {
		t.Errorf("refused edit changed content: %s", got)
	}
	// A system bot may mention only a group everyone may mention.
	sys := r.users.byID[idNotificationBot]
	if r.mayMentionGroup(sys, r.groups.byID[gid]) || !r.mayMentionGroup(sys, r.groups.byID[gidHamletChars]) {
		t.Error("system bot: want refused for support, allowed for hamletcharacters")
	}

	// A deactivated group's mention is silent: no flag, no permission check.
	if err := r.As(idIago).DeactivateUserGroup(bg, gid); err != nil {
		t.Fatal(err)
	}
	res, err = r.As(idHamlet).SendChannelMessage(bg, "Denmark", "help", "@*support* gone")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`<p><span class="user-group-mention silent" data-user-group-id="%d">support</span> gone</p>`, gid)
	if got := renderedContent(t, r, idHamlet, res.ID); got != want {
		t.Errorf("content\n got %s\nwant %s", got, want)
	}
	noneMentioned(t, r, res.ID, idOthello)
}

// A group mentioned out loud flags its members through subgroups; the
// permission goes through subgroups as well.
func TestGroupMentionThroughSubgroups(t *testing.T) {
	r, _ := newTestRealm(t)
	_, err := r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "outer", Subgroups: []int{gidHamletChars},
		Settings: map[string]GroupSetting{"can_mention_group": NamedGroupSetting(gidHamletChars)}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.As(idCordelia).SendChannelMessage(bg, "Denmark", "t", "@*outer*")
	if err != nil {
		t.Fatal(err)
	}
	if f := flagsOf(t, r, idHamlet, res.ID); f&message.Mentioned == 0 {
		t.Errorf("hamlet flags %v: want mentioned", f.Names())
	}
	_, err = r.As(idOthello).SendChannelMessage(bg, "Denmark", "t", "@*outer*")
	wantCode(t, err, CodeBadRequest, "You are not allowed to mention user group 'outer'.")
}

// Scheduling checks group mentions as sending does.
func TestScheduledGroupMentionRefused(t *testing.T) {
	r, clock := newTestRealm(t)
	_, err := r.As(idHamlet).CreateScheduledMessage(bg, ScheduledMessageInput{Type: "direct", To: "[12]",
		Content: "@*role:members*", DeliverAt: clock.Now().Add(time.Hour).Unix()})
	wantCode(t, err, CodeBadRequest, "You are not allowed to mention user group 'role:members'.")
	if list, _ := r.As(idHamlet).ScheduledMessages(bg); len(list) != 0 {
		t.Errorf("refused schedule stored %d items", len(list))
	}
}
