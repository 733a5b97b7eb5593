package user

import (
	"strings"
	"testing"
)

func TestCheckFullName(t *testing.T) {
	for raw, want := range map[string]string{
		"  Ann  ": "Ann", "Ann\u00a0": "Ann", "\x1cAnn": "Ann", "शिव": "शिव", "O'Neil, Jr. (he/him)": "O'Neil, Jr. (he/him)",
		"Name|x": "Name|x", "Name 15": "Name 15", "|15 a": "|15 a",
	} {
		if got, err := CheckFullName(raw); err != nil || got != want {
			t.Errorf("CheckFullName(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for raw, msg := range map[string]string{
		"A": "Name too short!", "": "Name too short!", strings.Repeat("x", 101): "Name too long!",
		"a*b": "Invalid characters in name!", "a`b": "Invalid characters in name!", `a\b`: "Invalid characters in name!",
		"a>b": "Invalid characters in name!", `a"b`: "Invalid characters in name!", "a\u0378b": "Invalid characters in name!",
		"ab|1": "Invalid format!", "ab|١٢": "Invalid format!", "ab|12\n": "Invalid format!",
	} {
		_, err := CheckFullName(raw)
		if err == nil || err.Error() != msg {
			t.Errorf("CheckFullName(%q) = %v, want %q", raw, err, msg)
		}
	}
	if _, err := CheckFullName(strings.Repeat("x", 100)); err != nil {
		t.Errorf("100 characters are allowed: %v", err)
	}
}

func TestValidNewEmail(t *testing.T) {
	for _, ok := range []string{"a@zulip.com", "A.B+c@sub.example.org", "x@localhost", `"a\ b"@zulip.com`, "a@[127.0.0.1]",
		"a@xn--bcher-kva.example", "a@bücher.example", "o'neil@zulip.com", strings.Repeat("a", 244) + "@zulip.com"} {
		if !ValidNewEmail(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "a", "a@", "@zulip.com", "a@b", "a@b.c", "a..b@zulip.com", ".a@zulip.com", "a b@zulip.com",
		"a@-zulip.com", "a@zulip-.com", "a@zulip.com-", "a@[nonsense]", "a@zulip..com", `"a b"@zulip.com`, strings.Repeat("a", 245) + "@zulip.com", "a\x00b@zulip.com"} {
		if ValidNewEmail(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLooksLikeEmail(t *testing.T) {
	for email, want := range map[string]bool{
		"iago@zulip.com": true, "a@b": true, "": false, "@zulip.com": false, "iago@": false,
		"a@b@c": false, "a b@c.com": false, "a@b.com,c@d.com": false, "<a@b.com>": false,
	} {
		if LooksLikeEmail(email) != want {
			t.Errorf("LooksLikeEmail(%q) = %v", email, !want)
		}
	}
}

func TestFakeEmails(t *testing.T) {
	if FakeEmail(12) != "user12@zulipdev.com" {
		t.Fatal(FakeEmail(12))
	}
	for email, want := range map[string]int{"user12@zulipdev.com": 12, " USER7@ZulipDev.com ": 7, "user0@zulipdev.com": 0} {
		if id, ok := ParseFakeEmail(email); !ok || id != want {
			t.Errorf("%q: %d, %v", email, id, ok)
		}
	}
	for _, bad := range []string{"user@zulipdev.com", "userx@zulipdev.com", "user12@zulip.com", "iago@zulipdev.com", "user1234567890@zulipdev.com", "user-1@zulipdev.com"} {
		if id, ok := ParseFakeEmail(bad); ok {
			t.Errorf("%q parsed as %d", bad, id)
		}
	}
}

func TestEmailVisibility(t *testing.T) {
	owner := &User{ID: 1, Role: RoleOwner, DeliveryEmail: "owner@zulip.com"}
	admin := &User{ID: 2, Role: RoleAdmin}
	mod := &User{ID: 3, Role: RoleModerator}
	member := &User{ID: 4, Role: RoleMember, DeliveryEmail: "member@zulip.com"}
	guest := &User{ID: 5, Role: RoleGuest}
	bot := &User{ID: 6, Role: RoleMember, BotType: GenericBot, DeliveryEmail: "bot@zulip.com"}
	viewers := []*User{owner, admin, mod, member, guest}
	// Which viewers (in the order above) see member's real address.
	for policy, want := range map[EmailVisibility][5]bool{
		EmailVisibilityEveryone:   {true, true, true, true, true},
		EmailVisibilityMembers:    {true, true, true, true, false},
		EmailVisibilityAdmins:     {true, true, false, true, false}, // member sees their own
		EmailVisibilityModerators: {true, true, true, true, false},
		EmailVisibilityNobody:     {false, false, false, true, false},
	} {
		for i, v := range viewers {
			if got := policy.CanSeeDeliveryEmail(v, member); got != want[i] {
				t.Errorf("policy %d, viewer role %d: %v", policy, v.Role, got)
			}
			if !policy.CanSeeDeliveryEmail(v, bot) {
				t.Errorf("policy %d hides a bot's address", policy)
			}
		}
	}
	if EmailVisibilityEveryone.APIEmail(member, FakeEmailDomain) != "member@zulip.com" ||
		EmailVisibilityAdmins.APIEmail(member, FakeEmailDomain) != "user4@zulipdev.com" ||
		EmailVisibilityAdmins.APIEmail(member, "zulip.testserver") != "user4@zulip.testserver" ||
		EmailVisibilityNobody.APIEmail(bot, FakeEmailDomain) != "bot@zulip.com" {
		t.Fatal("API emails")
	}
	// A user's own choice wins over the realm's default; bots always show theirs.
	if member.EmailVisibility(EmailVisibilityAdmins) != EmailVisibilityAdmins {
		t.Fatal("default visibility")
	}
	member.Settings.EmailAddressVisibility = EmailVisibilityEveryone
	if member.EmailVisibility(EmailVisibilityAdmins) != EmailVisibilityEveryone || bot.EmailVisibility(EmailVisibilityNobody) != EmailVisibilityEveryone {
		t.Fatal("own visibility")
	}
	if !EmailVisibilityModerators.Valid() || EmailVisibility(0).Valid() || EmailVisibility(6).Valid() {
		t.Fatal("Valid")
	}
}

func TestRoles(t *testing.T) {
	for _, c := range []struct {
		role              Role
		valid, admin, mod bool
	}{
		{RoleOwner, true, true, true}, {RoleAdmin, true, true, true}, {RoleModerator, true, false, true},
		{RoleMember, true, false, false}, {RoleGuest, true, false, false}, {Role(0), false, false, false}, {Role(500), false, false, false},
	} {
		if c.role.Valid() != c.valid || (c.valid && (c.role.IsAdmin() != c.admin || c.role.IsModeratorOrAbove() != c.mod)) {
			t.Errorf("role %d", c.role)
		}
	}
	if !(&User{Role: RoleGuest}).IsGuest() || (&User{BotType: NotABot}).IsBot() || !(&User{BotType: IncomingWebhook}).IsBot() {
		t.Fatal("IsGuest/IsBot")
	}
}

func TestGravatarURL(t *testing.T) {
	// md5("iago@zulip.com"), folded to lower case first.
	want := "https://secure.gravatar.com/avatar/af4f06322c177ef4e1e9b2c424986b54?d=identicon&version=1"
	if got := GravatarURL(" IAGO@zulip.com", 1); got != want {
		t.Fatalf("got %s", got)
	}
}

func TestDefaultSettings(t *testing.T) {
	s := DefaultSettings()
	if !s.ReceivesTypingNotifications || s.AutomaticallyFollowTopicsPolicy != 3 || s.AutomaticallyUnmuteTopicsInMutedStreamsPolicy != 2 ||
		!s.AutomaticallyFollowTopicsWhereMentioned || s.EnterSends {
		t.Fatalf("%+v", s)
	}
	view := s.View("Europe/Paris", EmailVisibilityAdmins, 496)
	if view.Timezone != "Europe/Paris" || view.EmailAddressVisibility != EmailVisibilityAdmins || !view.ReceivesTypingNotifications ||
		view.AutomaticallyFollowTopicsPolicy != AutoOnInitiation || len(view.EmojisetChoices) != 3 {
		t.Fatalf("view %v", view)
	}
}

func TestValidateSettings(t *testing.T) {
	if err := DefaultSettings().Validate(); err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings()
	s.AutomaticallyUnmuteTopicsInMutedStreamsPolicy = 5
	if err := s.Validate(); err == nil || err.Error() != "Invalid automatically_unmute_topics_in_muted_streams_policy" {
		t.Fatalf("bad unmute policy: %v", err)
	}
	s = DefaultSettings()
	s.AutomaticallyFollowTopicsPolicy = 0
	if err := s.Validate(); err == nil || err.Error() != "Invalid automatically_follow_topics_policy" {
		t.Fatalf("bad follow policy: %v", err)
	}
}

func TestAPIKeys(t *testing.T) {
	a, b := NewAPIKey(), NewAPIKey()
	if !WellFormedAPIKey(a) || a == b {
		t.Fatalf("keys %q %q", a, b)
	}
	for _, bad := range []string{"", "short", strings.Repeat("a", 31), strings.Repeat("a", 33), strings.Repeat("a", 31) + "-", strings.Repeat("é", 16)} {
		if WellFormedAPIKey(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestDerivedAPIKeys(t *testing.T) {
	a := DerivedAPIKey("suite", "Iago@zulip.com")
	if a != DerivedAPIKey("suite", "iago@ZULIP.com") || !WellFormedAPIKey(a) {
		t.Fatalf("derived key %q is not stable or well formed", a)
	}
	if a == DerivedAPIKey("other", "iago@zulip.com") || a == DerivedAPIKey("suite", "hamlet@zulip.com") {
		t.Fatal("keys of other seeds or emails collide")
	}
}

func TestPasswords(t *testing.T) {
	h := HashPassword("s3cret")
	if !CheckPassword(h, "s3cret") || CheckPassword(h, "S3cret") || CheckPassword(h, "") || strings.Contains(h, "s3cret") {
		t.Fatalf("hash %q", h)
	}
	if HashPassword("s3cret") == h {
		t.Fatal("two hashes of one password share a salt")
	}
	if CheckPassword("", "") || CheckPassword("nohash", "nohash") {
		t.Fatal("an account without a password accepted one")
	}
}

func TestFakeEmailDomainFor(t *testing.T) {
	for host, want := range map[string]string{
		"localhost:9991": FakeEmailDomain, "": FakeEmailDomain, "zulip.testserver": "zulip.testserver",
		"Chat.Example.COM": "chat.example.com", "localhost": "localhost", "under_score.com": FakeEmailDomain,
	} {
		if got := FakeEmailDomainFor(host); got != want {
			t.Errorf("%q: got %q, want %q", host, got, want)
		}
	}
	if id, ok := ParseFakeEmailIn("USER12@zulip.testserver", "zulip.testserver"); !ok || id != 12 {
		t.Fatalf("parse: %d %v", id, ok)
	}
	if _, ok := ParseFakeEmailIn("user12@zulipdev.com", "zulip.testserver"); ok {
		t.Fatal("an address of another domain parsed")
	}
}
