package realm

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/realm/fixture"
)

// The realm properties survive a fixture dump and load; a fixture that
// leaves them out gets a new realm's values, and bad values are refused.
func TestRealmPropertiesFixture(t *testing.T) {
	r, _ := newTestRealm(t)
	lang, on, off := "python", true, false
	four, zero, three, thirty, twenty := 4, 0, 3, 30, 20
	if _, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{
		DefaultCodeBlockLanguage: &lang, DigestEmailsEnabled: &on, DigestWeekday: &four, SendWelcomeEmails: &off,
		MessageContentAllowedInEmailNotifications: &off, WantAdvertiseInCommunitiesDirectory: &on, GiphyRating: &zero,
		InviteRequired: &on, InlineImagePreview: &off, InlineURLEmbedPreview: &on, VideoChatProvider: &zero,
		WaitingPeriodThreshold: &three, MessageRetentionDays: &RetentionDays{Days: thirty}, OrgType: &twenty}}); err != nil {
		t.Fatal(err)
	}
	want := RealmProperties{DefaultCodeBlockLanguage: "python", DigestEmailsEnabled: true, DigestWeekday: 4,
		WantAdvertiseInCommunitiesDirectory: true, InviteRequired: true, InlineURLEmbedPreview: true,
		WaitingPeriodThreshold: 3, MessageRetentionDays: 30, OrgType: 20}
	if diff := cmp.Diff(want, r.settings.RealmProperties); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	doc := dumpDocument(t, r)
	fresh, _ := newTestRealm(t)
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, fresh.settings.RealmProperties); diff != "" {
		t.Fatalf("loaded (-want +got):\n%s", diff)
	}
	doc.Settings.RealmProperties = fixture.RealmProperties{}
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(defaultRealmProperties(), fresh.settings.RealmProperties); diff != "" {
		t.Fatalf("defaults (-want +got):\n%s", diff)
	}
	for _, bad := range []func(*fixture.RealmProperties){
		func(p *fixture.RealmProperties) { p.DigestWeekday = ptr(7) },
		func(p *fixture.RealmProperties) { p.GiphyRating = ptr(9) },
		func(p *fixture.RealmProperties) { p.VideoChatProvider = ptr(3) }, // no Zoom configured
		func(p *fixture.RealmProperties) { p.WaitingPeriodThreshold = -2 },
		func(p *fixture.RealmProperties) { p.MessageRetentionDays = ptr(0) },
		func(p *fixture.RealmProperties) { p.OrgType = ptr(5) },
	} {
		d := dumpDocument(t, r)
		bad(&d.Settings.RealmProperties)
		if err := fresh.LoadFixture(encodeDocument(t, d)); err == nil {
			t.Errorf("a bad fixture loaded: %+v", d.Settings.RealmProperties)
		}
	}
}
