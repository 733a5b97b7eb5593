package realm

import (
	"strings"
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

// A fenced block naming no language is rendered in the realm's
// default_code_block_language (highlighted as that language, or a quote
// when the default is quote), as Zulip renders it; a block naming its
// own language keeps it, and without a default it is plain code.
func TestDefaultCodeBlockLanguageRendersFences(t *testing.T) {
	r, _ := newTestRealm(t)
	const fence = "```\ndef f(): pass\n```"
	if got := renderAs(t, r, idHamlet, fence); strings.Contains(got, "data-code-language") {
		t.Fatalf("no default: %s", got)
	}
	py := "python"
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{DefaultCodeBlockLanguage: &py}}); err != nil {
		t.Fatal(err)
	}
	got := renderAs(t, r, idHamlet, fence)
	if !strings.Contains(got, `data-code-language="Python"`) || !strings.Contains(got, `<span class="k">def</span>`) {
		t.Fatalf("default python: %s", got)
	}
	if got := renderAs(t, r, idHamlet, "```js\nlet x\n```"); !strings.Contains(got, `data-code-language="JavaScript"`) {
		t.Fatalf("a fence's own language: %s", got)
	}
	quote := "quote"
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{DefaultCodeBlockLanguage: &quote}}); err != nil {
		t.Fatal(err)
	}
	if got := renderAs(t, r, idHamlet, "```\nwise words\n```"); got != "<blockquote>\n<p>wise words</p>\n</blockquote>" {
		t.Fatalf("default quote: %q", got)
	}
}

// With inline_image_preview off, links to images (and to uploaded
// images) get no preview, as Zulip's is_image says no; they stay links.
func TestInlineImagePreviewOff(t *testing.T) {
	r, _ := newTestRealm(t)
	const img = "https://example.com/cat.png"
	if got := renderAs(t, r, idHamlet, img); !strings.Contains(got, "message_inline_image") {
		t.Fatalf("preview on: %s", got)
	}
	off := false
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{InlineImagePreview: &off}}); err != nil {
		t.Fatal(err)
	}
	got := renderAs(t, r, idHamlet, img)
	if strings.Contains(got, "message_inline_image") || !strings.Contains(got, `href="https://example.com/cat.png"`) {
		t.Fatalf("preview off: %s", got)
	}
}

// video_chat_provider takes none, Jitsi Meet, or a provider the server
// has configured (realm_available_video_chat_providers), and register's
// realm_video_chat_provider says the realm's choice.
func TestVideoChatProviderFollowsConfiguredProviders(t *testing.T) {
	bare, _ := newTestRealm(t)
	zoom := 3
	wantCode(t, errOf(bare.As(idIago).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{VideoChatProvider: &zoom}})),
		CodeBadRequest, "Invalid video_chat_provider 3")
	r, _ := newTestRealm(t, WithCallProvider(NewFakeCallProvider(CallZoom, "https://zoom.example")))
	if st := realmState(t, r, idHamlet); st.RealmVideoChatProvider != 1 {
		t.Fatalf("default provider %d, want Jitsi Meet (1)", st.RealmVideoChatProvider)
	}
	if _, err := r.As(idIago).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{VideoChatProvider: &zoom}}); err != nil {
		t.Fatal(err)
	}
	if st := realmState(t, r, idHamlet); st.RealmVideoChatProvider != 3 || st.RealmAvailableVideoChatProviders["zoom"].ID != 3 {
		t.Fatalf("provider %d of %v", st.RealmVideoChatProvider, st.RealmAvailableVideoChatProviders)
	}
}
