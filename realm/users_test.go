package realm

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/minizulip/minizulip/user"
)

func TestGetUserVisibilityRules(t *testing.T) {
	r, _ := newTestRealm(t)
	// An administrator sees real emails; Gravatar avatars are then null
	// with client_gravatar, since the client can compute them.
	h, err := r.As(idIago).GetUser(bg, idHamlet, UserViewOptions{ClientGravatar: true})
	if err != nil {
		t.Fatal(err)
	}
	if h.DeliveryEmail == nil || *h.DeliveryEmail != "hamlet@zulip.com" || h.Email != "user10@zulipdev.com" || h.AvatarURL != nil {
		t.Fatalf("iago's view of hamlet: %+v", h)
	}
	// A member sees neither; the avatar URL is always given then.
	i, _ := r.As(idHamlet).GetUser(bg, idIago, UserViewOptions{ClientGravatar: true})
	if i.DeliveryEmail != nil || i.AvatarURL == nil || !i.IsAdmin || i.IsOwner || i.Role != 200 {
		t.Fatalf("hamlet's view of iago: %+v", i)
	}
	// Users see their own real email.
	self, _ := r.As(idHamlet).GetUser(bg, idHamlet, UserViewOptions{})
	if self.DeliveryEmail == nil || self.AvatarURL == nil {
		t.Fatalf("self view %+v", self)
	}
	bot, _ := r.As(idHamlet).GetUser(bg, idDefaultBot, UserViewOptions{IncludeCustomProfileFields: true})
	if !bot.IsBot || bot.BotType == nil || *bot.BotType != 1 || bot.BotOwnerID == nil || *bot.BotOwnerID != idDesdemona ||
		bot.Email != "default-bot@zulip.com" || bot.DeliveryEmail == nil || bot.ProfileData != nil {
		t.Fatalf("bot view %+v", bot)
	}
	guest, _ := r.As(idHamlet).GetUser(bg, idPolonius, UserViewOptions{})
	if !guest.IsGuest || guest.Role != 600 || guest.BotType != nil || guest.BotOwnerID != nil || guest.ProfileData != nil {
		t.Fatalf("guest view %+v", guest)
	}
	_, err = r.As(idHamlet).GetUser(bg, 999, UserViewOptions{})
	wantCode(t, err, CodeBadRequest, "No such user")
	_, err = r.As(idHamlet).GetUser(bg, idNotificationBot, UserViewOptions{})
	wantCode(t, err, CodeBadRequest, "No such user")
}

func TestUserJSONShape(t *testing.T) {
	r, _ := newTestRealm(t)
	h, _ := r.As(idHamlet).GetUser(bg, idIago, UserViewOptions{IncludeCustomProfileFields: true})
	b, _ := json.Marshal(h)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	for _, k := range []string{"user_id", "delivery_email", "email", "full_name", "date_joined", "is_active", "is_owner", "is_admin",
		"is_guest", "is_bot", "bot_type", "bot_owner_id", "role", "timezone", "avatar_url", "avatar_version", "is_imported_stub", "profile_data"} {
		if _, ok := m[k]; !ok {
			t.Errorf("user object lacks %s", k)
		}
	}
	for _, k := range []string{"is_deleted", "is_system_bot"} {
		if _, ok := m[k]; ok {
			t.Errorf("%s must be absent unless true", k)
		}
	}
	if m["delivery_email"] != nil || m["bot_type"] != nil || m["timezone"] != "America/New_York" || m["date_joined"] != "2026-01-02T03:04:05+00:00" {
		t.Fatalf("values %v", m)
	}
	pd := m["profile_data"].(map[string]any)
	bio := pd["2"].(map[string]any)
	if bio["value"] != "Betrayer of Othello." || bio["rendered_value"] != "<p>Betrayer of Othello.</p>" {
		t.Fatalf("profile_data %v", pd)
	}
	if _, ok := pd["5"].(map[string]any)["rendered_value"]; ok {
		t.Fatal("a date field has no rendered_value")
	}
	aaron, _ := r.As(idHamlet).GetUser(bg, idAaron, UserViewOptions{IncludeCustomProfileFields: true})
	b, _ = json.Marshal(aaron)
	_ = json.Unmarshal(b, &m)
	if pd, ok := m["profile_data"].(map[string]any); !ok || len(pd) != 0 {
		t.Fatalf("a human without values has an empty profile_data: %v", m["profile_data"])
	}
}

func TestOwnUserAndList(t *testing.T) {
	r, _ := newTestRealm(t)
	me, err := r.As(idHamlet).OwnUser(bg)
	if err != nil {
		t.Fatal(err)
	}
	if me.UserID != idHamlet || me.DeliveryEmail != "hamlet@zulip.com" || me.MaxMessageID != -1 || me.FullName != "King Hamlet" || me.ProfileData == nil {
		t.Fatalf("own user %+v", me)
	}
	res, _ := r.As(idIago).SendDirectMessage(bg, []int{idHamlet}, "x")
	me, _ = r.As(idHamlet).OwnUser(bg)
	if me.MaxMessageID != res.ID {
		t.Fatalf("max_message_id %d", me.MaxMessageID)
	}
	list, _ := r.As(idHamlet).ListUsers(bg, UserViewOptions{})
	if len(list) != 16 || list[0].UserID != idAaron || list[len(list)-1].FullName != "Zulip Trac Bot" {
		t.Fatalf("%d users, first %d", len(list), list[0].UserID)
	}
	byEmail, err := r.As(idHamlet).GetUserByEmail(bg, "IAGO@zulip.COM", UserViewOptions{})
	if err != nil || byEmail.UserID != idIago {
		t.Fatalf("by email: %v %v", byEmail.UserID, err)
	}
	byAPIEmail, err := r.As(idHamlet).GetUserByEmail(bg, "user11@zulipdev.com", UserViewOptions{})
	if err != nil || byAPIEmail.UserID != idIago {
		t.Fatalf("by API email: %v %v", byAPIEmail.UserID, err)
	}
	_, err = r.As(idHamlet).GetUserByEmail(bg, "ghost@zulip.com", UserViewOptions{})
	wantCode(t, err, CodeBadRequest, "No such user")
}

func TestCreateUserPermissions(t *testing.T) {
	r, _ := newTestRealm(t)
	count := func() int { l, _ := r.As(idIago).ListUsers(bg, UserViewOptions{}); return len(l) }
	before := count()
	_, err := r.As(idHamlet).CreateUser(bg, "new@zulip.com", "pw", "New Person")
	wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	_, err = r.As(idIago).CreateUser(bg, "new@zulip.com", "pw", "New Person")
	wantCode(t, err, CodeBadRequest, "User not authorized to create users")
	if err := r.SetCanCreateUsers(idIago, true); err != nil {
		t.Fatal(err)
	}
	for email, msg := range map[string]string{"HAMLET@zulip.com": "Email 'HAMLET@zulip.com' already in use", "not-an-email": "Bad name or username"} {
		_, err = r.As(idIago).CreateUser(bg, email, "pw", "Someone")
		wantCode(t, err, CodeBadRequest, msg)
	}
	for name, msg := range map[string]string{"  ": "Name too short!", "a@b": "Invalid characters in name!"} {
		_, err = r.As(idIago).CreateUser(bg, "fresh@zulip.com", "pw", name)
		wantCode(t, err, CodeBadRequest, msg)
	}
	if count() != before {
		t.Fatal("rejected creations added users")
	}
	id, err := r.As(idIago).CreateUser(bg, "new@zulip.com", "pw", " New Person ")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := r.As(idIago).GetUser(bg, id, UserViewOptions{})
	if u.FullName != "New Person" || u.Role != int(user.RoleMember) || count() != before+1 {
		t.Fatalf("created %+v", u)
	}
	if _, key, ok := r.APIKey("new@zulip.com"); !ok {
		t.Fatal("no key")
	} else if _, err := r.Authenticate("NEW@zulip.com", key); err != nil {
		t.Fatalf("new user cannot authenticate: %v", err)
	}
	if !r.inGroup(r.groupByName["role:members"].ID, id) {
		t.Fatal("a new member joins role:members")
	}
	if _, err := r.AddUser(NewUser{Email: "bot2@zulip.com", FullName: "Bot", BotType: user.GenericBot, BotOwnerID: 999}); !errors.Is(err, ErrBadRequest) {
		t.Fatalf("unknown bot owner: %v", err)
	}
}
