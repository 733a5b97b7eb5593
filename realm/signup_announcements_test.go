package realm

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The realm's signup_announcements_stream_id (zerver/views/realm.py
// update_realm, access_stream_by_id): set by administrators to a channel
// they can read, -1 turns it off, sent in register and announced with a
// realm update event; archiving the channel turns it off. Below feature
// level 241 it is signup_notifications_stream_id.
func TestSignupAnnouncementsSetting(t *testing.T) {
	r, _ := newTestRealm(t)
	denmark := r.channels.byName[channelKey("Denmark")].ID
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	if v := *realmState(t, r, idHamlet).RealmSignupAnnouncementsStreamID; v != -1 {
		t.Fatalf("default %d", v)
	}
	unknown, off := 999, -1
	if _, err := r.As(idHamlet).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &denmark}); err == nil {
		t.Fatal("a member set it")
	}
	_, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &unknown, Name: str("Elsinore")})
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	if r.settings.Name == "Elsinore" {
		t.Fatal("a refused update changed the name")
	}
	changes, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &denmark})
	if err != nil || changes["signup_announcements_stream_id"] != denmark {
		t.Fatalf("%v %v", changes, err)
	}
	if v := *realmState(t, r, idHamlet).RealmSignupAnnouncementsStreamID; v != denmark {
		t.Fatalf("register %d", v)
	}
	evs := eventsOfType(t, r, idHamlet, q, "realm")
	if len(evs) != 1 || evs[0]["op"] != "update" || evs[0]["property"] != "signup_announcements_stream_id" || evs[0]["value"] != float64(denmark) {
		t.Fatalf("events %v", evs)
	}
	// Archiving the channel turns the announcements off, telling everyone.
	if err := r.As(idIago).ArchiveChannel(bg, denmark); err != nil {
		t.Fatal(err)
	}
	evs = eventsOfType(t, r, idHamlet, q, "realm")
	if len(evs) != 2 || evs[1]["op"] != "update_dict" || evs[1]["property"] != "default" ||
		!cmp.Equal(evs[1]["data"], map[string]any{"signup_announcements_stream_id": float64(-1)}) {
		t.Fatalf("after archiving %v", evs)
	}
	_, err = r.As(idIago).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &denmark})
	wantCode(t, err, CodeBadRequest, "Invalid channel ID")
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &off}); err != nil {
		t.Fatal(err)
	}

	old, _ := newTestRealm(t, WithFeatureLevel(ChangeAnnouncementsRename.Level()-1, "8.0"))
	verona := old.channels.byName[channelKey("Verona")].ID
	oq := mustQueue(t, old, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	if _, err := old.As(idIago).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &verona}); err != nil {
		t.Fatal(err)
	}
	if v := realmState(t, old, idHamlet).RealmSignupNotificationsStreamID; v == nil || *v != verona {
		t.Fatalf("register below 241: %v", v)
	}
	if evs := eventsOfType(t, old, idHamlet, oq, "realm"); len(evs) != 1 || evs[0]["property"] != "signup_notifications_stream_id" {
		t.Fatalf("events below 241: %v", evs)
	}
}

// A new user, signing up through an invitation or created with POST
// /users, is welcomed as Zulip's process_new_human_user does
// (zerver/actions/create_user.py): Notification Bot announces them in
// the signups topic of the signup announcements channel, then Welcome
// Bot sends its welcome message (starred for them,
// zerver/lib/onboarding.py send_initial_direct_message) and the
// invitation's custom message.
func TestNewUserWelcome(t *testing.T) {
	r, _ := newTestRealm(t)
	verona := r.channels.byName[channelKey("Verona")].ID
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &verona}); err != nil {
		t.Fatal(err)
	}
	custom := "Read #**Verona** first."
	if err := r.As(idIago).SendInvites(bg, InviteRequest{InviteeEmails: "ada@zulip.com", WelcomeMessageCustomText: &custom,
		StreamIDs: []int{verona}}); err != nil {
		t.Fatal(err)
	}
	id, err := r.AcceptInvitation(lastInviteKey(t, r, "ada@zulip.com"), Signup{FullName: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.As(id).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 3, IncludeAnchor: true})
	if err != nil || len(res.Messages) != 3 {
		t.Fatalf("%v %v", res.Messages, err)
	}
	notice, welcome, second := res.Messages[0], res.Messages[1], res.Messages[2]
	wantNotice := "@_**Ada|" + itoa(id) + "** joined this organization."
	if notice.SenderEmail != notificationBotEmail || notice.StreamID != verona || notice.Subject != "signups" || notice.Content != wantNotice {
		t.Fatalf("notice %+v", notice)
	}
	if welcome.SenderEmail != welcomeBotEmail || !strings.HasPrefix(welcome.Content, "Hello, and welcome to Zulip!") ||
		!slices.Contains(welcome.Flags, "starred") || slices.Contains(welcome.Flags, "read") {
		t.Fatalf("welcome %+v", welcome)
	}
	if strings.Contains(welcome.Content, "moving your organization") {
		t.Fatal("a member was pointed to the administrators' guide")
	}
	if second.SenderEmail != welcomeBotEmail || second.Content != custom || slices.Contains(second.Flags, "starred") {
		t.Fatalf("custom message %+v", second)
	}

	// POST /users: no custom text; with the announcements off, no notice.
	off := -1
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{SignupAnnouncementsStreamID: &off}); err != nil {
		t.Fatal(err)
	}
	before := r.messages.store.Len()
	created, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("bo@zulip.com", "pw", "Bo"))
	if err != nil {
		t.Fatal(err)
	}
	if r.messages.store.Len() != before+1 {
		t.Fatalf("%d messages for a created user, want 1", r.messages.store.Len()-before)
	}
	if m, _ := r.LastMessage(bg, created); m.SenderEmail != welcomeBotEmail {
		t.Fatalf("last message %+v", m)
	}
	// A refused signup welcomes nobody.
	before = r.messages.store.Len()
	if _, err := r.AcceptInvitation("nokey", Signup{FullName: "X"}); err == nil {
		t.Fatal("unknown key accepted")
	}
	if r.messages.store.Len() != before {
		t.Fatal("a refused signup sent messages")
	}
}
