package realm

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/user"
)

func TestUserObjectShapes(t *testing.T) {
	r, _ := newTestRealm(t)
	h, err := r.As(idHamlet).User(bg, idIago, UserViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, keys := usersKeys(t, h)
	usersWantKeys(t, "human", keys, usersBaseKeys...)
	for k, want := range map[string]any{"user_id": float64(idIago), "delivery_email": nil, "email": "user11@zulipdev.com",
		"full_name": "Iago", "date_joined": "2026-01-02T03:04+00:00", "is_active": true, "is_owner": false,
		"is_admin": true, "is_guest": false, "is_bot": false, "bot_type": nil,
		"bot_owner_id": nil, "role": float64(200), "timezone": "America/New_York", "avatar_version": float64(1),
		"is_imported_stub": false} {
		if m[k] != want {
			t.Errorf("%s = %#v, want %#v", k, m[k], want)
		}
	}
	if url, _ := m["avatar_url"].(string); !strings.HasPrefix(url, "https://secure.gravatar.com/avatar/") || !strings.HasSuffix(url, "?d=identicon&version=1") {
		t.Errorf("avatar_url %v", m["avatar_url"])
	}

	// Requested profile data appears for humans, as an empty object when
	// the user has no values.
	withFields := UserViewOptions{IncludeCustomProfileFields: true}
	aaron, _ := r.As(idHamlet).User(bg, idAaron, withFields)
	m, keys = usersKeys(t, aaron)
	usersWantKeys(t, "human with fields", keys, append(slices.Clone(usersBaseKeys), "profile_data")...)
	if pd, ok := m["profile_data"].(map[string]any); !ok || len(pd) != 0 {
		t.Errorf("aaron's profile_data %v", m["profile_data"])
	}

	// Bots: bot_type and bot_owner_id set, never profile_data, real email
	// visible to everyone.
	bot, _ := r.As(idHamlet).User(bg, idDefaultBot, withFields)
	m, keys = usersKeys(t, bot)
	usersWantKeys(t, "bot", keys, usersBaseKeys...)
	if m["bot_type"] != float64(1) || m["bot_owner_id"] != float64(idDesdemona) || m["email"] != "default-bot@zulip.com" ||
		m["delivery_email"] != "default-bot@zulip.com" || m["is_bot"] != true || m["role"] != float64(400) {
		t.Errorf("bot %v", m)
	}
	webhook, _ := r.As(idHamlet).User(bg, 17, UserViewOptions{})
	if *webhook.BotType != 2 || *webhook.BotOwnerID != idZoe {
		t.Errorf("webhook bot %+v", webhook)
	}

	guest, _ := r.As(idIago).User(bg, idPolonius, UserViewOptions{})
	m, _ = usersKeys(t, guest)
	if m["is_guest"] != true || m["role"] != float64(600) || m["is_admin"] != false || m["delivery_email"] != "polonius@zulip.com" {
		t.Errorf("guest %v", m)
	}
	owner, _ := r.As(idHamlet).User(bg, idDesdemona, UserViewOptions{})
	if !owner.IsOwner || !owner.IsAdmin || owner.Role != 100 {
		t.Errorf("owner %+v", owner)
	}
	shiva, _ := r.As(idHamlet).User(bg, idShiva, UserViewOptions{})
	if shiva.IsAdmin || shiva.Role != 300 || shiva.FullName != "शिव" {
		t.Errorf("moderator %+v", shiva)
	}

	// is_deleted appears only when true.
	r.users.byID[idOthello].IsActive, r.users.byID[idOthello].IsDeleted = false, true
	gone, err := r.As(idHamlet).User(bg, idOthello, UserViewOptions{})
	if err != nil {
		t.Fatalf("deactivated users are found: %v", err)
	}
	m, keys = usersKeys(t, gone)
	usersWantKeys(t, "deleted user", keys, append(slices.Clone(usersBaseKeys), "is_deleted")...)
	if m["is_active"] != false || m["is_deleted"] != true {
		t.Errorf("deleted user %v", m)
	}
}

func TestUserEmailAndAvatarVisibility(t *testing.T) {
	r, _ := newTestRealm(t)
	gravatar := UserViewOptions{ClientGravatar: true}
	// Administrators see real addresses; with client_gravatar the client
	// computes the Gravatar URL from it, so avatar_url is null.
	h, _ := r.As(idIago).User(bg, idHamlet, gravatar)
	if h.DeliveryEmail == nil || *h.DeliveryEmail != "hamlet@zulip.com" || h.Email != "user10@zulipdev.com" || h.AvatarURL != nil {
		t.Fatalf("iago's view of hamlet: %+v", h)
	}
	h, _ = r.As(idIago).User(bg, idHamlet, UserViewOptions{})
	if h.AvatarURL == nil || *h.AvatarURL != user.GravatarURL("hamlet@zulip.com", 1) {
		t.Fatalf("without client_gravatar: %v", h.AvatarURL)
	}
	// Members, moderators and guests do not see an administrator's real
	// address, and so always get the URL.
	for _, viewer := range []int{idHamlet, idShiva, idPolonius} {
		i, _ := r.As(viewer).User(bg, idIago, gravatar)
		if i.DeliveryEmail != nil || i.AvatarURL == nil {
			t.Errorf("viewer %d sees iago as %+v", viewer, i)
		}
	}
	// Everyone sees their own address and bots' addresses.
	self, _ := r.As(idHamlet).User(bg, idHamlet, gravatar)
	bot, _ := r.As(idPolonius).User(bg, idDefaultBot, gravatar)
	if self.DeliveryEmail == nil || self.AvatarURL != nil || bot.DeliveryEmail == nil || bot.AvatarURL != nil {
		t.Fatalf("self %+v bot %+v", self, bot)
	}
	// With email visibility "everyone", API emails are the real ones.
	r.UpdateSettings(func(s *Settings) { s.EmailAddressVisibility = user.EmailVisibilityEveryone })
	i, _ := r.As(idHamlet).User(bg, idIago, gravatar)
	if i.Email != "iago@zulip.com" || i.DeliveryEmail == nil || i.AvatarURL != nil {
		t.Fatalf("visibility everyone: %+v", i)
	}
}

func TestGetUserUnknown(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, id := range []int{0, -1, 999, idNotificationBot} {
		_, err := r.As(idHamlet).User(bg, id, UserViewOptions{})
		wantCode(t, err, CodeBadRequest, "No such user")
	}
	_, err := r.As(999).User(bg, idHamlet, UserViewOptions{})
	wantCode(t, err, CodeUnauthorized, "Invalid API key")
}

func TestOwnUser(t *testing.T) {
	r, _ := newTestRealm(t)
	me, err := r.As(idHamlet).OwnUser(bg)
	if err != nil {
		t.Fatal(err)
	}
	m, keys := usersKeys(t, me)
	usersWantKeys(t, "own user", keys, "avatar_url", "avatar_version", "email", "full_name", "is_admin", "is_owner",
		"role", "is_guest", "is_bot", "is_active", "is_imported_stub", "timezone", "date_joined",
		"max_message_id", "user_id", "delivery_email", "profile_data")
	for k, want := range map[string]any{"user_id": float64(idHamlet), "email": "user10@zulipdev.com",
		"delivery_email": "hamlet@zulip.com", "full_name": "King Hamlet", "max_message_id": float64(-1),
		"timezone": "", "role": float64(400), "date_joined": "2026-01-02T03:04+00:00",
		"avatar_url": user.GravatarURL("hamlet@zulip.com", 1)} {
		if m[k] != want {
			t.Errorf("%s = %#v, want %#v", k, m[k], want)
		}
	}
	pd := m["profile_data"].(map[string]any)
	if len(pd) != 9 || pd["1"].(map[string]any)["value"] != "+0-11-23-456-7890" {
		t.Errorf("profile_data %v", pd)
	}

	res, _ := r.As(idIago).SendDirectMessage(bg, []int{idHamlet}, "x")
	if me, _ = r.As(idHamlet).OwnUser(bg); me.MaxMessageID != res.ID {
		t.Fatalf("max_message_id %d, want %d", me.MaxMessageID, res.ID)
	}
	if other, _ := r.As(idOthello).OwnUser(bg); other.MaxMessageID != -1 {
		t.Fatalf("othello received nothing: %d", other.MaxMessageID)
	}

	bot, _ := r.As(idDefaultBot).OwnUser(bg)
	m, keys = usersKeys(t, bot)
	if !slices.Contains(keys, "bot_type") || slices.Contains(keys, "profile_data") || m["bot_owner_id"] != float64(idDesdemona) {
		t.Fatalf("bot's own user %v", m)
	}

	r.users.byID[idHamlet].IsActive = false
	_, err = r.As(idHamlet).OwnUser(bg)
	wantCode(t, err, CodeUnauthorized, "Account is deactivated")
}

func TestListUsers(t *testing.T) {
	r, _ := newTestRealm(t)
	list, err := r.As(idHamlet).Users(bg, UserListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 16 || list[0].UserID != idAaron || list[len(list)-1].FullName != "Zulip Trac Bot" {
		t.Fatalf("%d users, first %d", len(list), list[0].UserID)
	}
	bots := 0
	for i, u := range list {
		if u.IsSystemBot || u.UserID <= 5 {
			t.Errorf("system bot %d listed", u.UserID)
		}
		if i > 0 && list[i-1].UserID >= u.UserID {
			t.Errorf("not sorted by ID at %d", i)
		}
		if u.IsBot {
			bots++
		}
		if u.ProfileData != nil {
			t.Errorf("profile_data without include_custom_profile_fields for %d", u.UserID)
		}
	}
	if bots != 6 {
		t.Fatalf("%d bots", bots)
	}

	// Deactivated users stay in the list.
	r.users.byID[idOthello].IsActive = false
	if usersCount(t, r) != 16 {
		t.Fatal("deactivated user dropped")
	}

	some, _ := r.As(idHamlet).Users(bg, UserListOptions{UserIDs: []int{idIago, 999, idNotificationBot, idDefaultBot, idIago}})
	if len(some) != 2 || some[0].UserID != idIago || some[1].UserID != idDefaultBot {
		t.Fatalf("user_ids filter: %+v", some)
	}
	none, _ := r.As(idHamlet).Users(bg, UserListOptions{UserIDs: []int{}})
	if none == nil || len(none) != 0 {
		t.Fatalf("empty user_ids: %v", none)
	}

	withFields, _ := r.As(idHamlet).Users(bg, UserListOptions{UserViewOptions: UserViewOptions{IncludeCustomProfileFields: true}})
	for _, u := range withFields {
		if u.IsBot != (u.ProfileData == nil) {
			t.Errorf("user %d: bot %v, profile_data %v", u.UserID, u.IsBot, u.ProfileData)
		}
	}
}

func TestGetUserByEmail(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, c := range []struct {
		viewer int
		email  string
		want   int
	}{
		{idIago, "HAMLET@zulip.COM", idHamlet},            // real address visible to admins
		{idHamlet, "hamlet@zulip.com", idHamlet},          // own address
		{idHamlet, "User11@ZulipDev.com", idIago},         // API address, any case
		{idHamlet, "default-bot@zulip.com", idDefaultBot}, // bots' addresses are public
		{idHamlet, "user16@zulipdev.com", idDefaultBot},   // dummy address works for every user
		{idPolonius, " aaron@zulip.com ", 0},              // hidden real address
		{idHamlet, "iago@zulip.com", 0},
		{idHamlet, "notification-bot@zulip.com", 0}, // system bots are not realm users
		{idHamlet, "user4@zulipdev.com", 0},
		{idHamlet, "user@zulipdev.com", 0},
		{idHamlet, "user1x@zulipdev.com", 0},
		{idHamlet, "user999@zulipdev.com", 0},
		{idHamlet, "ghost@zulip.com", 0},
		{idHamlet, "", 0},
	} {
		u, err := r.As(c.viewer).UserByEmail(bg, c.email, UserViewOptions{})
		if c.want == 0 {
			wantCode(t, err, CodeBadRequest, "No such user")
			continue
		}
		if err != nil || u.UserID != c.want {
			t.Errorf("%d looks up %q: %d, %v; want %d", c.viewer, c.email, u.UserID, err, c.want)
		}
	}
	r.UpdateSettings(func(s *Settings) { s.EmailAddressVisibility = user.EmailVisibilityEveryone })
	if u, err := r.As(idHamlet).UserByEmail(bg, "iago@zulip.com", UserViewOptions{}); err != nil || u.UserID != idIago {
		t.Fatalf("visible address: %v %v", u.UserID, err)
	}
	if u, err := r.As(idHamlet).UserByEmail(bg, "user11@zulipdev.com", UserViewOptions{}); err != nil || u.UserID != idIago {
		t.Fatalf("dummy address with visibility everyone: %v %v", u.UserID, err)
	}
}

func TestCreateUserPermissions(t *testing.T) {
	r, _ := newTestRealm(t)
	before, next := usersCount(t, r), r.users.nextID
	for _, id := range []int{idHamlet, idShiva, idPolonius, idDefaultBot} {
		_, err := r.As(id).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New Person"))
		wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	}
	// The role check comes before the parameters.
	_, err := r.As(idHamlet).CreateUser(bg, CreateUserRequest{})
	wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	for _, id := range []int{idDesdemona} {
		_, err := r.As(id).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New Person"))
		wantCode(t, err, CodeBadRequest, "User not authorized to create users")
	}
	if err := r.SetCanCreateUsers(999, true); !errors.Is(err, ErrBadRequest) {
		t.Fatalf("unknown user: %v", err)
	}
	if usersCount(t, r) != before || r.users.nextID != next {
		t.Fatal("refused creations changed the realm")
	}
	if err := r.SetCanCreateUsers(idHamlet, true); err != nil {
		t.Fatal(err)
	}
	_, err = r.As(idHamlet).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New Person"))
	wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	_ = r.SetCanCreateUsers(idIago, true)
	if id, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New Person")); err != nil || id != next {
		t.Fatalf("created %d, %v; want %d", id, err, next)
	}
	_ = r.SetCanCreateUsers(idIago, false)
	_, err = r.As(idIago).CreateUser(bg, NewCreateUserRequest("newer@zulip.com", "pw", "Newer Person"))
	wantCode(t, err, CodeBadRequest, "User not authorized to create users")
}

func TestCreateUserValidation(t *testing.T) {
	r, _ := newTestRealm(t)
	_ = r.SetCanCreateUsers(idIago, true)
	iago := r.As(idIago)
	before, next := usersCount(t, r), r.users.nextID
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		p    CreateUserRequest
		code Code
		msg  string
	}{
		{CreateUserRequest{}, CodeRequestVariableMissing, "Missing 'email' argument"},
		{CreateUserRequest{Email: s("a@zulip.com")}, CodeRequestVariableMissing, "Missing 'password' argument"},
		{CreateUserRequest{Email: s("a@zulip.com"), Password: s("")}, CodeRequestVariableMissing, "Missing 'full_name' argument"},
		// The name is checked before the address.
		{CreateUserRequest{s("bad"), s("pw"), s("X")}, CodeBadRequest, "Name too short!"},
		{CreateUserRequest{s("a@zulip.com"), s("pw"), s("   ")}, CodeBadRequest, "Name too short!"},
		{CreateUserRequest{s("a@zulip.com"), s("pw"), s(strings.Repeat("é", 101))}, CodeBadRequest, "Name too long!"},
		{CreateUserRequest{s("a@zulip.com"), s("pw"), s("a@b")}, CodeBadRequest, "Invalid characters in name!"},
		{CreateUserRequest{s("a@zulip.com"), s("pw"), s("Tab\there")}, CodeBadRequest, "Invalid characters in name!"},
		{CreateUserRequest{s("a@zulip.com"), s("pw"), s("Zero\u200bwidth")}, CodeBadRequest, "Invalid characters in name!"},
		{CreateUserRequest{s("a@zulip.com"), s("pw"), s("Name|15")}, CodeBadRequest, "Invalid format!"},
		{CreateUserRequest{s("not-an-email"), s("pw"), s("Someone")}, CodeBadRequest, "Bad name or username"},
		{CreateUserRequest{s("a@b"), s("pw"), s("Someone")}, CodeBadRequest, "Bad name or username"},
		{CreateUserRequest{s("a b@zulip.com"), s("pw"), s("Someone")}, CodeBadRequest, "Bad name or username"},
		{CreateUserRequest{s(""), s("pw"), s("Someone")}, CodeBadRequest, "Bad name or username"},
		{CreateUserRequest{s("HAMLET@zulip.com"), s("pw"), s("Someone")}, CodeBadRequest, "Email 'HAMLET@zulip.com' already in use"},
		{CreateUserRequest{s("default-bot@ZULIP.com"), s("pw"), s("Someone")}, CodeBadRequest, "Email 'default-bot@ZULIP.com' already in use"},
		{CreateUserRequest{s("welcome-bot@zulip.com"), s("pw"), s("Someone")}, CodeBadRequest, "Email 'welcome-bot@zulip.com' already in use"},
	} {
		_, err := iago.CreateUser(bg, c.p)
		e := wantCode(t, err, c.code, c.msg)
		if e != nil && e.Msg != c.msg {
			t.Errorf("msg %q, want %q", e.Msg, c.msg)
		}
	}
	if usersCount(t, r) != before || r.users.nextID != next {
		t.Fatal("rejected creations added users")
	}
}

func TestCreateUserResult(t *testing.T) {
	r, clock := newTestRealm(t)
	_ = r.SetCanCreateUsers(idIago, true)
	hamletQ := mustQueue(t, r, idHamlet, QueueOptions{})
	iagoQ := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"realm_user"}})
	before := usersCount(t, r)
	id, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("New@Zulip.com", "pw", "  New Person "))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := r.As(idIago).User(bg, id, UserViewOptions{IncludeCustomProfileFields: true})
	if u.FullName != "New Person" || u.Role != 400 || u.IsBot || !u.IsActive || u.Email != "user22@zulipdev.com" ||
		*u.DeliveryEmail != "New@Zulip.com" || u.Timezone != "" || u.DateJoined != r.dateJoined(clock.Now().Unix()) ||
		usersCount(t, r) != before+1 || len(u.ProfileData) != 0 || u.ProfileData == nil {
		t.Fatalf("created %+v", u)
	}
	if _, key, ok := r.APIKey("new@zulip.com"); !ok {
		t.Fatal("no key")
	} else if a, err := r.Authenticate("NEW@zulip.com", key); err != nil || a.UserID() != id {
		t.Fatalf("new user cannot authenticate: %v", err)
	}
	for _, g := range []string{"role:members", "role:fullmembers"} {
		if _, ok := r.groups.byName[g].Members[id]; !ok {
			t.Errorf("a new member is a direct member of %s", g)
		}
	}
	if !r.inGroup(r.groups.byName["role:everyone"].ID, id) || r.inGroup(r.groups.byName["role:moderators"].ID, id) {
		t.Error("role-group membership")
	}
	me, _ := r.As(id).OwnUser(bg)
	// Welcome Bot's message is the new user's first (process_new_human_user).
	if me.UserID != id || me.MaxMessageID != 1 {
		t.Fatalf("new user's own view %+v", me)
	}

	// Everyone is told; only those who may see the address get it.
	hev := pending(t, r, idHamlet, hamletQ, -1)
	if len(hev) != 1 || hev[0].Type != "realm_user" {
		t.Fatalf("hamlet's events %+v", hev)
	}
	hm := eventJSON(t, hev[0])
	person := hm["person"].(map[string]any)
	if hm["op"] != "add" || person["user_id"] != float64(id) || person["delivery_email"] != nil ||
		person["avatar_url"] == nil || person["email"] != "user22@zulipdev.com" {
		t.Fatalf("hamlet's event %v", hm)
	}
	if pd, ok := person["profile_data"].(map[string]any); !ok || len(pd) != 0 {
		t.Fatalf("person profile_data %v", person["profile_data"])
	}
	iev := pending(t, r, idIago, iagoQ, -1)
	if len(iev) != 1 || eventJSON(t, iev[0])["person"].(map[string]any)["delivery_email"] != "New@Zulip.com" {
		t.Fatalf("iago's events %+v", iev)
	}
}

func TestAddUser(t *testing.T) {
	r, _ := newTestRealm(t)
	iagoQ := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"realm_bot"}})
	hamletQ := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_bot"}})
	othelloQ := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"realm_bot"}})
	before, next := usersCount(t, r), r.users.nextID
	key := strings.Repeat("k", 32)
	for _, bad := range []NewUser{
		{Email: "x", FullName: "X"},
		{Email: "iago@zulip.com", FullName: "Dup"},
		{Email: "b@zulip.com", FullName: " "},
		{Email: "b@zulip.com", FullName: strings.Repeat("n", 101)},
		{Email: "b@zulip.com", FullName: "B", Role: 250},
		{Email: "b@zulip.com", FullName: "B", BotType: 9},
		{Email: "b@zulip.com", FullName: "B", BotType: user.GenericBot, BotOwnerID: 999},
		{Email: "b@zulip.com", FullName: "B", BotType: user.GenericBot, BotOwnerID: idDefaultBot},
		{Email: "b@zulip.com", FullName: "B", BotOwnerID: idHamlet},
		{Email: "b@zulip.com", FullName: "B", APIKey: "short"},
		{Email: "b@zulip.com", FullName: "B", APIKey: r.users.byID[idHamlet].APIKey},
	} {
		if _, err := r.AddUser(bad); !errors.Is(err, ErrBadRequest) {
			t.Errorf("AddUser(%+v) = %v, want BAD_REQUEST", bad, err)
		}
	}
	if usersCount(t, r) != before || r.users.nextID != next {
		t.Fatal("rejected AddUser calls added users")
	}

	// Names Zulip's API would refuse are fine for embedders.
	gid, err := r.AddUser(NewUser{Email: "guest@zulip.com", FullName: "G", Role: user.RoleGuest, Timezone: "Europe/Paris",
		APIKey: key, CanCreateUsers: true})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := r.As(idIago).User(bg, gid, UserViewOptions{})
	if !g.IsGuest || g.Timezone != "Europe/Paris" || g.FullName != "G" {
		t.Fatalf("guest %+v", g)
	}
	if a, err := r.Authenticate("guest@zulip.com", key); err != nil || a.UserID() != gid {
		t.Fatalf("fixed key: %v", err)
	}
	if _, ok := r.groups.byName["role:everyone"].Members[gid]; !ok {
		t.Fatal("a guest is a direct member of role:everyone")
	}

	bid, err := r.AddUser(NewUser{Email: "helper-bot@zulip.com", FullName: "Helper", BotType: user.IncomingWebhook, BotOwnerID: idHamlet})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.As(idOthello).User(bg, bid, UserViewOptions{})
	if *b.BotType != 2 || *b.BotOwnerID != idHamlet || b.Email != "helper-bot@zulip.com" || *b.DeliveryEmail != "helper-bot@zulip.com" {
		t.Fatalf("bot %+v", b)
	}
	// The owner and the administrators hear of the bot, other members not.
	for _, q := range []struct {
		id int
		q  *Queue
	}{{idIago, iagoQ}, {idHamlet, hamletQ}} {
		ev := pending(t, r, q.id, q.q, -1)
		if len(ev) != 1 || ev[0].Type != "realm_bot" {
			t.Fatalf("user %d events %+v", q.id, ev)
		}
		m := eventJSON(t, ev[0])
		bot := m["bot"].(map[string]any)
		if m["op"] != "add" || bot["user_id"] != float64(bid) || bot["owner_id"] != float64(idHamlet) ||
			bot["owner"] != nil || bot["bot_type"] != float64(2) || bot["api_key"] == "" {
			t.Fatalf("realm_bot event %v", m)
		}
	}
	if ev := pending(t, r, idOthello, othelloQ, -1); len(ev) != 0 {
		t.Fatalf("othello heard of the bot: %+v", ev)
	}
	legacy, err := r.AddUser(NewUser{Email: "legacy-bot@zulip.com", FullName: "Legacy", BotType: user.GenericBot})
	if err != nil {
		t.Fatal(err)
	}
	if l, _ := r.As(idHamlet).User(bg, legacy, UserViewOptions{}); l.BotOwnerID != nil || *l.BotType != 1 {
		t.Fatalf("ownerless bot %+v", l)
	}
}

func TestProfileFieldsSeed(t *testing.T) {
	r, _ := newTestRealm(t)
	if len(r.profileFields.list) != 9 {
		t.Fatalf("%d fields", len(r.profileFields.list))
	}
	names := []string{"Phone number", "Biography", "Favorite food", "Favorite editor", "Birthday", "Favorite website",
		"Mentor", "GitHub username", "Pronouns"}
	for i, f := range r.profileFields.list {
		if f.ID != i+1 || f.Order != i+1 || f.Name != names[i] || f.Type != []int{1, 2, 1, 3, 4, 5, 6, 7, 8}[i] {
			t.Errorf("field %d: %+v", i+1, f)
		}
	}
	h, _ := r.As(idIago).User(bg, idHamlet, UserViewOptions{IncludeCustomProfileFields: true})
	m, _ := usersKeys(t, h)
	pd := m["profile_data"].(map[string]any)
	want := map[string]map[string]any{
		"1": {"value": "+0-11-23-456-7890", "rendered_value": "<p>+0-11-23-456-7890</p>"},
		"2": {"value": "I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius",
			"rendered_value": "<p>I am:</p>\n<ul>\n<li>The prince of Denmark</li>\n<li>Nephew to the usurping Claudius</li>\n</ul>"},
		"3": {"value": "Dark chocolate", "rendered_value": "<p>Dark chocolate</p>"},
		"4": {"value": "0"}, "5": {"value": "1900-01-01"}, "6": {"value": "https://blog.zulig.org"},
		"7": {"value": "[11]"}, "8": {"value": "zulipbot"}, "9": {"value": "he/him"},
	}
	for id, w := range want {
		got := pd[id].(map[string]any)
		if len(got) != len(w) {
			t.Errorf("field %s: %v, want %v", id, got, w)
		}
		for k, v := range w {
			if got[k] != v {
				t.Errorf("field %s %s = %q, want %q", id, k, got[k], v)
			}
		}
	}
	iago, _ := r.As(idHamlet).OwnUser(bg)
	if iago.ProfileData["4"].Value != "0" {
		t.Errorf("hamlet's own editor %v", iago.ProfileData["4"])
	}
	if i, _ := r.As(idIago).OwnUser(bg); i.ProfileData["7"].Value != "[10]" || i.ProfileData["4"].Value != "1" {
		t.Errorf("iago's values %v", i.ProfileData)
	}
}

func TestRegisterUserSections(t *testing.T) {
	r, _ := newTestRealm(t)
	r.users.byID[idOthello].IsActive = false
	state := func(id int) map[string]any {
		res, err := r.As(id).Register(bg, RegisterRequest{Queue: QueueOptions{ClientGravatar: true},
			FetchEventTypes: []string{"realm_user", "realm_bot", "custom_profile_fields"}})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := usersKeys(t, res)
		return m
	}
	h := state(idHamlet)
	if n := len(h["realm_users"].([]any)); n != 15 {
		t.Errorf("%d active users", n)
	}
	inactive := h["realm_non_active_users"].([]any)
	if len(inactive) != 1 || inactive[0].(map[string]any)["user_id"] != float64(idOthello) {
		t.Errorf("inactive %v", inactive)
	}
	cross := h["cross_realm_bots"].([]any)
	if len(cross) != 5 {
		t.Fatalf("%d cross-realm bots", len(cross))
	}
	for i, raw := range cross {
		b := raw.(map[string]any)
		if b["is_system_bot"] != true || b["bot_owner_id"] != nil || b["avatar_url"] == nil ||
			(i > 0 && b["full_name"].(string) < cross[i-1].(map[string]any)["full_name"].(string)) {
			t.Errorf("cross-realm bot %v", b)
		}
	}
	for _, raw := range h["realm_users"].([]any) {
		u := raw.(map[string]any)
		if _, has := u["profile_data"]; has == (u["is_bot"] == true) {
			t.Errorf("profile_data presence for %v", u)
		}
	}
	if h["avatar_url_medium"] != strings.Replace(h["avatar_url"].(string), "identicon", "identicon&s=500", 1) ||
		h["delivery_email"] != "hamlet@zulip.com" || h["email"] != "user10@zulipdev.com" {
		t.Errorf("own fields %v %v", h["avatar_url"], h["avatar_url_medium"])
	}
	if bots := h["realm_bots"].([]any); len(bots) != 0 {
		t.Errorf("hamlet owns no bots: %v", bots)
	}
	if fields := h["custom_profile_fields"].([]any); len(fields) != 9 {
		t.Errorf("%d custom profile fields", len(fields))
	}
	// Administrators get every bot of the realm; owners their own.
	if bots := state(idIago)["realm_bots"].([]any); len(bots) != 6 {
		t.Errorf("iago gets %d bots", len(bots))
	}
	bots := state(idZoe)["realm_bots"].([]any)
	if len(bots) != 1 {
		t.Fatalf("zoe's bots %v", bots)
	}
	b := bots[0].(map[string]any)
	_, keys := usersKeys(t, b)
	usersWantKeys(t, "bot", keys, "user_id", "full_name", "api_key", "email", "avatar_url", "bot_type", "is_active",
		"owner_id", "default_sending_stream", "default_events_register_stream", "default_all_public_streams", "services")
	if b["owner_id"] != float64(idZoe) || b["email"] != "webhook-bot@zulip.com" {
		t.Errorf("zoe's bot %v", b)
	}
}

func TestAccountManagers(t *testing.T) {
	r := New()
	// The dev realm grants iago both permissions, nobody else.
	for _, id := range []int{idIago, idDesdemona, idHamlet} {
		u := r.users.byID[id]
		if u.CanCreateUsers != (id == idIago) || u.CanChangeUserEmails != (id == idIago) {
			t.Fatalf("user %d: %v %v", id, u.CanCreateUsers, u.CanChangeUserEmails)
		}
	}
	r = New(WithAccountManagers("DESDEMONA@zulip.com", "user10@zulipdev.com", "nobody@zulip.com", "notification-bot@zulip.com"))
	for _, id := range []int{idDesdemona, idHamlet} {
		if u := r.users.byID[id]; !u.CanCreateUsers || !u.CanChangeUserEmails {
			t.Fatalf("user %d not granted", id)
		}
	}
	if id, err := r.As(idDesdemona).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New Person")); err != nil || id == 0 {
		t.Fatalf("desdemona: %d %v", id, err)
	}
	if r.users.byEmail["notification-bot@zulip.com"].CanCreateUsers {
		t.Fatal("a system bot was granted")
	}
}
