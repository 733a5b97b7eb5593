package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Zulip's email_allowed_for_realm cases, and the disposable and "+"
// rules.
func TestEmailRefusalOf(t *testing.T) {
	r, _ := newTestRealm(t)
	r.settings.EmailsRestrictedToDomains = true
	r.domains.list = []storedDomain{{id: 1, RealmDomain: RealmDomain{Domain: "test1.com"}},
		{id: 2, RealmDomain: RealmDomain{Domain: "test2.test1.com", AllowSubdomains: true}}}
	for _, c := range []struct {
		email string
		want  emailRefusal
	}{
		{"user@test1.com", emailAllowed},
		{"user@TEST1.com", emailAllowed},
		{"user@test2.test1.com", emailAllowed},
		{"user@test3.test2.test1.com", emailAllowed},
		{"user@a.b.test2.test1.com", emailAllowed},
		{"user@test3.test1.com", emailOutsideDomains},
		{"user@test2.com", emailOutsideDomains},
		{"user@xtest1.com", emailOutsideDomains},
		{"user+tag@test1.com", emailContainsPlus},
		{"user@mailinator.com", emailOutsideDomains}, // restricted realms do no disposable check
	} {
		if got := r.emailRefusalOf(c.email); got != c.want {
			t.Errorf("restricted: %s: %d, want %d", c.email, got, c.want)
		}
	}
	r.domains.list[0].AllowSubdomains = true
	if got := r.emailRefusalOf("user@test3.test1.com"); got != emailAllowed {
		t.Errorf("subdomains allowed: %d", got)
	}
	r.settings.EmailsRestrictedToDomains = false
	for _, c := range []struct {
		email string
		want  emailRefusal
	}{
		{"user@acme.com", emailAllowed},
		{"user+tag@acme.com", emailAllowed},
		{"user@Mailinator.COM", emailDisposable},
		{"user@mailnator.com", emailDisposable},
		{"user@sub.mailinator.com", emailAllowed}, // the list names exact domains
	} {
		if got := r.emailRefusalOf(c.email); got != c.want {
			t.Errorf("unrestricted: %s: %d, want %d", c.email, got, c.want)
		}
	}
	r.settings.DisallowDisposableEmailAddresses = false
	if got := r.emailRefusalOf("user@mailinator.com"); got != emailAllowed {
		t.Errorf("disposable allowed: %d", got)
	}
}

// The two settings are the owners' to change through PATCH /realm; every
// user hears of a change, and register reports them.
func TestUpdateRealmEmailRules(t *testing.T) {
	e := newRealmUpdateEnv(t)
	e.refused(idIago, RealmUpdate{EmailsRestrictedToDomains: boolPtr(true)}, CodeUnauthorizedPrincipal, "Must be an organization owner")
	e.refused(idIago, RealmUpdate{DisallowDisposableEmailAddresses: boolPtr(false)}, CodeUnauthorizedPrincipal, "Must be an organization owner")
	state, _ := e.r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if state.RealmEmailsRestrictedToDomains || !state.RealmDisallowDisposableEmailAddresses {
		t.Fatalf("dev realm: restricted %v, disallow disposable %v", state.RealmEmailsRestrictedToDomains, state.RealmDisallowDisposableEmailAddresses)
	}
	changes := e.update(idDesdemona, RealmUpdate{EmailsRestrictedToDomains: boolPtr(true), DisallowDisposableEmailAddresses: boolPtr(false)})
	if diff := cmp.Diff(RealmChanges{"emails_restricted_to_domains": true, "disallow_disposable_email_addresses": false}, changes); diff != "" {
		t.Fatalf("changes (-want +got):\n%s", diff)
	}
	want := map[string]any{"emails_restricted_to_domains": true, "disallow_disposable_email_addresses": false}
	if diff := cmp.Diff(want, e.lastData()); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	state, _ = e.r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if !state.RealmEmailsRestrictedToDomains || state.RealmDisallowDisposableEmailAddresses {
		t.Fatalf("after update: restricted %v, disallow disposable %v", state.RealmEmailsRestrictedToDomains, state.RealmDisallowDisposableEmailAddresses)
	}
	// Setting the same values again changes nothing and tells nobody.
	if changes := e.update(idDesdemona, RealmUpdate{EmailsRestrictedToDomains: boolPtr(true)}); len(changes) != 0 {
		t.Fatalf("changes %v", changes)
	}
	if evs := e.next(idHamlet, e.hamletQ); len(evs) != 0 {
		t.Fatalf("events %v", evs)
	}
}

// Invitations obey the realm's email rules: a refused address refuses
// the whole request, with its reason beside the others'.
func TestSendInvitesObeyEmailRules(t *testing.T) {
	r, _ := newTestRealm(t)
	log := newEventLog(t, r, idHamlet, "invites_changed")
	failure := func(req InviteRequest, errs ...[]any) {
		t.Helper()
		before := r.Snapshot()
		err := r.As(idHamlet).SendInvites(bg, req)
		e := wantCode(t, err, CodeInvitationFailed, "Some emails did not validate, so we didn't send any invitations.")
		if e.Extra["sent_invitations"] != false || e.Extra["daily_limit_reached"] != false {
			t.Fatalf("error %+v", e)
		}
		if diff := cmp.Diff(errs, e.Extra["errors"]); diff != "" {
			t.Fatalf("errors (-want +got):\n%s", diff)
		}
		unchanged(t, r, before, log)
	}
	// Disposable addresses are refused by default.
	failure(expiring("new@zulip.com, fake@mailinator.com", 60),
		[]any{"fake@mailinator.com", "Please use your real email address.", false})
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{EmailsRestrictedToDomains: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	log.read()
	failure(expiring("new@zulip.com, out@acme.com, a+b@zulip.com, hamlet@zulip.com", 60),
		[]any{"out@acme.com", "Outside your domain.", false},
		[]any{"a+b@zulip.com", "Email addresses containing + are not allowed.", false},
		[]any{"hamlet@zulip.com", "Already has an account.", false})
	// A domain whose subdomains are allowed lets them in.
	if _, _, err := r.As(idDesdemona).AddRealmDomain(bg, "acme.com", true); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).SendInvites(bg, expiring("new@zulip.com, out@acme.com, x@eng.acme.com", 60)); err != nil {
		t.Fatal(err)
	}
	if got := inviteTargets(mustInvites(t, r, idHamlet)); !cmp.Equal(got, []string{"new@zulip.com", "out@acme.com", "x@eng.acme.com"}) {
		t.Fatalf("invited %v", got)
	}
	// Reusable links take no addresses, and are not checked.
	if _, err := r.As(idIago).CreateInviteLink(bg, InviteRequest{}); err != nil {
		t.Fatal(err)
	}
}

// POST /users obeys the realm's email rules, with its own messages.
func TestCreateUserObeysEmailRules(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.SetCanCreateUsers(idIago, true); err != nil {
		t.Fatal(err)
	}
	log := newEventLog(t, r, idHamlet)
	refused := func(email, msg string) {
		t.Helper()
		before := r.Snapshot()
		_, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest(email, "pw", "New"))
		if re := wantCode(t, err, CodeBadRequest, msg); re.Msg != msg {
			t.Fatalf("message %q, want %q", re.Msg, msg)
		}
		unchanged(t, r, before, log)
	}
	refused("new@mailinator.com", "Disposable email addresses are not allowed in this organization")
	r.settings.EmailsRestrictedToDomains = true
	refused("new@acme.com", "Email 'new@acme.com' not allowed in this organization")
	refused("new+x@zulip.com", "Email addresses containing + are not allowed.")
	if _, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("new@zulip.com", "pw", "New")); err != nil {
		t.Fatal(err)
	}
}

// An email change obeys the realm's email rules, with the messages of
// invitations.
func TestEmailChangeObeysEmailRules(t *testing.T) {
	r, _ := newTestRealm(t)
	log := newEventLog(t, r, idHamlet)
	refused := func(email, msg string) {
		t.Helper()
		before := r.Snapshot()
		err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Email: &email})
		if re := wantCode(t, err, CodeBadRequest, msg); re.Msg != msg {
			t.Fatalf("message %q, want %q", re.Msg, msg)
		}
		unchanged(t, r, before, log)
	}
	refused("hamlet@mailinator.com", "Please use your real email address.")
	r.settings.EmailsRestrictedToDomains = true
	refused("hamlet@acme.com", "Outside your domain.")
	refused("hamlet+x@zulip.com", "Email addresses containing + are not allowed.")
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Email: str("prince@zulip.com")}); err != nil {
		t.Fatal(err)
	}
}
