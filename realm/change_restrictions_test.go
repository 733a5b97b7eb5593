package realm

import (
	"testing"
)

// TestChangeRestrictionSettings: administrators (not only owners) set
// email_changes_disabled, name_changes_disabled and
// avatar_changes_disabled; users are told in realm update events and
// register reports them.
func TestChangeRestrictionSettings(t *testing.T) {
	e := newRealmUpdateEnv(t)
	e.refused(idHamlet, RealmUpdate{EmailChangesDisabled: boolPtr(true)}, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	changes := e.update(idIago, RealmUpdate{EmailChangesDisabled: boolPtr(true), NameChangesDisabled: boolPtr(true), AvatarChangesDisabled: boolPtr(true)})
	for _, name := range []string{"email_changes_disabled", "name_changes_disabled", "avatar_changes_disabled"} {
		if changes[name] != true {
			t.Errorf("changes[%s] = %v, want true", name, changes[name])
		}
	}
	data := e.lastData()
	if data["email_changes_disabled"] != true || data["name_changes_disabled"] != true || data["avatar_changes_disabled"] != true {
		t.Errorf("events told %v", data)
	}
	st, err := e.r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
	if err != nil {
		t.Fatal(err)
	}
	if !st.RealmEmailChangesDisabled || !st.RealmNameChangesDisabled || !st.RealmAvatarChangesDisabled {
		t.Errorf("register: email %v, name %v, avatar %v changes disabled", st.RealmEmailChangesDisabled, st.RealmNameChangesDisabled, st.RealmAvatarChangesDisabled)
	}
}

// TestEmailChangesDisabled: with email changes disabled, a user who is
// not an administrator cannot start one (and nothing is mailed); sending
// the current address is no change and passes; administrators still can.
func TestEmailChangesDisabled(t *testing.T) {
	r, _ := newTestRealm(t)
	r.UpdateSettings(func(s *Settings) { s.EmailChangesDisabled = true })
	mails := len(r.Outbox())
	newAddr := "hamlet2@zulip.com"
	err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Email: &newAddr})
	wantCode(t, err, CodeBadRequest, "Email address changes are disabled in this organization.")
	if len(r.Outbox()) != mails {
		t.Errorf("a refused change mailed a confirmation")
	}
	same := "hamlet@zulip.com"
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Email: &same}); err != nil {
		t.Errorf("the current address is refused: %v", err)
	}
	adminAddr := "iago2@zulip.com"
	if err := r.As(idIago).UpdateSettings(bg, SettingsUpdate{Email: &adminAddr}); err != nil {
		t.Fatalf("an administrator's change is refused: %v", err)
	}
	if len(r.Outbox()) != mails+1 {
		t.Errorf("outbox has %d mails, want %d", len(r.Outbox()), mails+1)
	}
}

// TestNameChangesDisabled: with name changes disabled, a user who is not
// an administrator sending a new name succeeds but keeps the old one, and
// nobody is told; the rest of the update applies. Administrators still
// rename themselves.
func TestNameChangesDisabled(t *testing.T) {
	r, _ := newTestRealm(t)
	q := mustQueue(t, r, idCordelia, QueueOptions{EventTypes: []string{"realm_user"}})
	r.UpdateSettings(func(s *Settings) { s.NameChangesDisabled = true })
	name := "Prince Hamlet"
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{FullName: &name, Settings: map[string]any{"translate_emoticons": true}}); err != nil {
		t.Fatalf("a silently ignored name change fails: %v", err)
	}
	if u := r.users.byID[idHamlet]; u.FullName != "King Hamlet" || !u.Settings.TranslateEmoticons {
		t.Errorf("hamlet is now %q, translate_emoticons %v (want the old name, the new setting)", u.FullName, u.Settings.TranslateEmoticons)
	}
	if evs := pending(t, r, idCordelia, q, -1); len(evs) != 0 {
		t.Errorf("an ignored name change was announced: %+v", evs)
	}
	adminName := "Iago the Admin"
	if err := r.As(idIago).UpdateSettings(bg, SettingsUpdate{FullName: &adminName}); err != nil {
		t.Fatal(err)
	}
	if u := r.users.byID[idIago]; u.FullName != adminName {
		t.Errorf("iago is %q, want %q", u.FullName, adminName)
	}
}

// TestDumpLoadCarriesChangeRestrictions: the three settings survive
// Dump → Load, and a loaded realm enforces them.
func TestDumpLoadCarriesChangeRestrictions(t *testing.T) {
	r, _ := newTestRealm(t)
	r.UpdateSettings(func(s *Settings) {
		s.EmailChangesDisabled, s.NameChangesDisabled, s.AvatarChangesDisabled = true, true, true
	})
	loaded, err := Load(mustDump(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if s := loaded.Settings(); !s.EmailChangesDisabled || !s.NameChangesDisabled || !s.AvatarChangesDisabled {
		t.Fatalf("loaded settings: email %v, name %v, avatar %v", s.EmailChangesDisabled, s.NameChangesDisabled, s.AvatarChangesDisabled)
	}
	addr := "hamlet2@zulip.com"
	err = loaded.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Email: &addr})
	wantCode(t, err, CodeBadRequest, "Email address changes are disabled in this organization.")
}
