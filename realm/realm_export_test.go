package realm

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
)

// readExport opens an export's tarball as iago and decodes its realm.json.
func readExport(t *testing.T, r *Realm, x RealmExport) (name string, f fixture.Document) {
	t.Helper()
	if x.ExportURL == nil {
		t.Fatalf("export %+v has no URL", x)
	}
	pathID := strings.TrimPrefix(*x.ExportURL, r.opts.URL+"/user_uploads/")
	file, err := r.As(idIago).OpenUpload(bg, pathID)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Blob.Close()
	gz, err := gzip.NewReader(file.Blob)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	hdr, err := tr.Next()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(tr)
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return hdr.Name, f
}

func TestRealmExportLifecycle(t *testing.T) {
	r, clock := newTestRealm(t)
	iq := mustQueue(t, r, idIago, QueueOptions{})
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	dq := mustQueue(t, r, idDesdemona, QueueOptions{})
	if _, err := r.As(idHamlet).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idOthello}}, Content: "secret dm"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idIago).SendChannelMessage(bg, "core team", "t", "private channel talk"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "public talk"); err != nil {
		t.Fatal(err)
	}

	// Members may not export, list, delete or see consents.
	wantCode(t, func() error { _, err := r.As(idHamlet).ExportRealm(bg, ExportPublic); return err }(), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	wantCode(t, func() error { _, err := r.As(idHamlet).RealmExports(bg); return err }(), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	wantCode(t, func() error { _, err := r.As(idHamlet).ExportConsents(bg); return err }(), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	wantCode(t, r.As(idHamlet).DeleteRealmExport(bg, 1), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	wantCode(t, func() error { _, err := r.As(idIago).ExportRealm(bg, 3); return err }(), CodeBadRequest, "Invalid export_type")
	if list, _ := r.As(idIago).RealmExports(bg); len(list) != 0 {
		t.Fatalf("refusals made exports: %+v", list)
	}

	id, err := r.As(idIago).ExportRealm(bg, ExportPublic)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := r.As(idIago).RealmExports(bg)
	if len(list) != 1 || list[0].ID != id || list[0].ActingUserID != idIago || list[0].Pending || list[0].ExportURL == nil ||
		list[0].DeletedTimestamp != nil || list[0].FailedTimestamp != nil || *list[0].ExportType != ExportPublic ||
		list[0].ExportTime != clock.Now().Unix() {
		t.Fatalf("exports %+v", list)
	}
	name, f := readExport(t, r, list[0])
	if !strings.HasPrefix(name, "zulip-export-") || !strings.HasSuffix(name, "/realm.json") || !strings.Contains(*list[0].ExportURL, "/zulip-export-") {
		t.Fatalf("tarball entry %q url %q", name, *list[0].ExportURL)
	}
	var contents []string
	for _, m := range f.Messages {
		contents = append(contents, m.Content)
		if len(m.Flags) != 0 {
			t.Fatalf("public export has flags: %+v", m)
		}
	}
	joined := strings.Join(contents, "|")
	if !strings.Contains(joined, "public talk") || strings.Contains(joined, "secret dm") || strings.Contains(joined, "private channel talk") {
		t.Fatalf("public export messages %q", joined)
	}
	for _, c := range f.Channels {
		if c.InviteOnly {
			t.Fatalf("public export has private channel %s", c.Name)
		}
	}
	for _, u := range f.Users {
		if u.APIKey != "" {
			t.Fatalf("export carries %s's API key", u.Email)
		}
	}
	// Only administrators may download it.
	pathID := strings.TrimPrefix(*list[0].ExportURL, r.opts.URL+"/user_uploads/")
	if _, err := r.As(idHamlet).OpenUpload(bg, pathID); err == nil {
		t.Fatal("a member downloaded the export")
	}
	if _, err := r.OpenUploadAsVisitor(bg, pathID); err == nil {
		t.Fatal("a visitor downloaded the export")
	}

	// Events: requested (pending), then done, to administrators only; the
	// Notification Bot tells the requester.
	evs := eventsOfType(t, r, idDesdemona, dq, "realm_export")
	if len(evs) != 2 {
		t.Fatalf("owner events %v", evs)
	}
	first := evs[0]["exports"].([]any)[0].(map[string]any)
	second := evs[1]["exports"].([]any)[0].(map[string]any)
	if first["pending"] != true || first["export_url"] != nil || second["pending"] != false || second["export_url"] == nil {
		t.Fatalf("events %v", evs)
	}
	if len(eventsOfType(t, r, idHamlet, hq, "realm_export")) != 0 {
		t.Fatal("a member heard of the export")
	}
	msgs := eventsOfType(t, r, idIago, iq, "message")
	last := msgs[len(msgs)-1]["message"].(map[string]any)
	if last["sender_email"] != "notification-bot@zulip.com" || !strings.Contains(last["content"].(string), "Your data export is complete.") {
		t.Fatalf("notification %v", last)
	}

	// Deleting: unknown ID, then success, then again.
	wantCode(t, r.As(idIago).DeleteRealmExport(bg, id+1), CodeBadRequest, "Invalid data export ID")
	clock.Advance(time.Minute)
	if err := r.As(idDesdemona).DeleteRealmExport(bg, id); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idIago).DeleteRealmExport(bg, id), CodeBadRequest, "Export already deleted")
	list, _ = r.As(idIago).RealmExports(bg)
	if list[0].DeletedTimestamp == nil || *list[0].DeletedTimestamp != clock.Now().Unix() || list[0].ExportURL != nil {
		t.Fatalf("deleted export %+v", list[0])
	}
	if _, err := r.As(idIago).OpenUpload(bg, pathID); err == nil {
		t.Fatal("a deleted export still downloads")
	}
	if evs := eventsOfType(t, r, idIago, iq, "realm_export"); len(evs) != 3 {
		t.Fatalf("iago heard %d realm_export events", len(evs))
	}
}

func TestRealmExportRateLimit(t *testing.T) {
	r, clock := newTestRealm(t)
	a := r.As(idIago)
	for i := range exportLimit {
		if _, err := a.ExportRealm(bg, ExportPublic); err != nil {
			t.Fatal(i, err)
		}
		clock.Advance(time.Hour)
	}
	wantCode(t, func() error { _, err := a.ExportRealm(bg, ExportPublic); return err }(), CodeBadRequest, "Exceeded rate limit.")
	// Deleted exports still count; the window is a week by the realm's clock.
	clock.Advance(exportWindow - time.Duration(exportLimit)*time.Hour + time.Second)
	if _, err := a.ExportRealm(bg, ExportFullWithConsent); err != nil {
		t.Fatal(err)
	}
	wantCode(t, func() error { _, err := a.ExportRealm(bg, ExportPublic); return err }(), CodeBadRequest, "Exceeded rate limit.")
	if list, _ := a.RealmExports(bg); len(list) != exportLimit+1 {
		t.Fatalf("%d exports", len(list))
	}
}

func TestRealmExportSizeLimits(t *testing.T) {
	r, _ := newTestRealm(t)
	old := maxExportMessages
	maxExportMessages = r.messages.store.Len() - 1
	defer func() { maxExportMessages = old }()
	wantCode(t, func() error { _, err := r.As(idIago).ExportRealm(bg, ExportPublic); return err }(), CodeBadRequest,
		"Please request a manual export from desdemona+admin@zulip.com.")
	if list, _ := r.As(idIago).RealmExports(bg); len(list) != 0 {
		t.Fatalf("refused export recorded: %+v", list)
	}
}

func TestRealmExportWithConsent(t *testing.T) {
	r, _ := newTestRealm(t)
	iq := mustQueue(t, r, idIago, QueueOptions{})
	if _, err := r.As(idHamlet).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idOthello}}, Content: "hamlet to othello"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idCordelia).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idOthello}}, Content: "cordelia to othello"}); err != nil {
		t.Fatal(err)
	}
	consents, _ := r.As(idIago).ExportConsents(bg)
	for _, c := range consents {
		if c.Consented || c.UserID == 1 {
			t.Fatalf("consents %+v", consents)
		}
	}
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"allow_private_data_export": true}}); err != nil {
		t.Fatal(err)
	}
	evs := eventsOfType(t, r, idIago, iq, "realm_export_consent")
	if len(evs) != 1 || evs[0]["user_id"] != float64(idHamlet) || evs[0]["consented"] != true {
		t.Fatalf("consent events %v", evs)
	}
	consents, _ = r.As(idIago).ExportConsents(bg)
	found := false
	for _, c := range consents {
		if c.UserID == idHamlet {
			found = c.Consented
		}
	}
	if !found {
		t.Fatalf("hamlet's consent missing: %+v", consents)
	}
	if _, err := r.As(idIago).ExportRealm(bg, ExportFullWithConsent); err != nil {
		t.Fatal(err)
	}
	list, _ := r.As(idIago).RealmExports(bg)
	_, f := readExport(t, r, list[0])
	var dms []string
	for _, m := range f.Messages {
		if len(m.To) > 0 {
			dms = append(dms, m.Content)
			for uid := range m.Flags {
				if uid != idHamlet {
					t.Fatalf("flags of user %d exported", uid)
				}
			}
		}
	}
	if len(dms) != 1 || dms[0] != "hamlet to othello" {
		t.Fatalf("exported direct messages %q", dms)
	}
	if *list[0].ExportType != ExportFullWithConsent {
		t.Fatalf("type %+v", list[0])
	}
}

func TestRealmExportsSnapshot(t *testing.T) {
	r, _ := newTestRealm(t)
	s := r.Snapshot()
	if _, err := r.As(idIago).ExportRealm(bg, ExportPublic); err != nil {
		t.Fatal(err)
	}
	f := r.Fork()
	if err := r.Restore(s); err != nil {
		t.Fatal(err)
	}
	if list, _ := r.As(idIago).RealmExports(bg); len(list) != 0 {
		t.Fatalf("restore kept %+v", list)
	}
	if list, _ := f.As(idIago).RealmExports(bg); len(list) != 1 {
		t.Fatalf("fork has %+v", list)
	}
	if id, _ := r.As(idIago).ExportRealm(bg, ExportPublic); id != 1 {
		t.Fatalf("restored realm numbers the next export %d", id)
	}
}

func TestWelcomeBotCustomMessage(t *testing.T) {
	r, _ := newTestRealm(t)
	wantCode(t, func() error { _, err := r.As(idHamlet).TestWelcomeBotCustomMessage(bg, "hi"); return err }(), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	wantCode(t, func() error { _, err := r.As(idIago).TestWelcomeBotCustomMessage(bg, ""); return err }(), CodeBadRequest, "Message must not be empty")
	wantCode(t, func() error {
		_, err := r.As(idIago).TestWelcomeBotCustomMessage(bg, strings.Repeat("é", MaxWelcomeMessageCustomTextLength+1))
		return err
	}(), CodeBadRequest, "welcome_message_custom_text is too long (limit: 8000 characters)")
	id, err := r.As(idIago).TestWelcomeBotCustomMessage(bg, strings.Repeat("é", MaxWelcomeMessageCustomTextLength))
	if err != nil {
		t.Fatal(err)
	}
	id, err = r.As(idDesdemona).TestWelcomeBotCustomMessage(bg, "Welcome to **our** realm")
	if err != nil {
		t.Fatal(err)
	}
	m, raw, err := r.As(idDesdemona).Message(bg, id, ViewOptions{ApplyMarkdown: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.SenderEmail != "welcome-bot@zulip.com" || raw != "Welcome to **our** realm" || m.Type != "private" {
		t.Fatalf("message %+v raw %q", m, raw)
	}
	if _, _, err := r.As(idIago).Message(bg, id, ViewOptions{}); err == nil {
		t.Fatal("another administrator sees the preview")
	}
}

func TestExportConsentEventsOnNewAndReactivatedUsers(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	dq := mustQueue(t, r, idDesdemona, QueueOptions{})
	hq := mustQueue(t, r, idOthello, QueueOptions{})
	if err := r.As(idIago).ReactivateUser(bg, idHamlet); err != nil {
		t.Fatal(err)
	}
	newID, err := r.As(idIago).CreateUser(bg, NewCreateUserRequest("newbie@zulip.com", "pw", "Newbie"))
	if err != nil {
		t.Fatal(err)
	}
	evs := eventsOfType(t, r, idDesdemona, dq, "realm_export_consent")
	if len(evs) != 2 || evs[0]["user_id"] != float64(idHamlet) || evs[1]["user_id"] != float64(newID) || evs[1]["consented"] != false {
		t.Fatalf("consent events %v", evs)
	}
	if len(eventsOfType(t, r, idOthello, hq, "realm_export_consent")) != 0 {
		t.Fatal("a member heard a consent event")
	}
	// Realms advertising a level before 312 send none.
	old, _ := newTestRealm(t, WithFeatureLevel(311, "10.0-dev"))
	oq := mustQueue(t, old, idIago, QueueOptions{})
	if err := old.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"allow_private_data_export": true}}); err != nil {
		t.Fatal(err)
	}
	if evs := eventsOfType(t, old, idIago, oq, "realm_export_consent"); len(evs) != 0 {
		t.Fatalf("level 311 sent %v", evs)
	}
	// Before 304 every export is public, and shown without export_type.
	older, _ := newTestRealm(t, WithFeatureLevel(303, "10.0-dev"))
	if _, err := older.As(idIago).ExportRealm(bg, ExportFullWithConsent); err != nil {
		t.Fatal(err)
	}
	var typ int
	_ = older.view(func() error { typ = older.exports.list[0].exportType; return nil })
	if list, _ := older.As(idIago).RealmExports(bg); list[0].ExportType != nil || typ != ExportPublic {
		t.Fatalf("level 303 export %+v of type %d", list[0], typ)
	}
}

// Each type of export is a fixture Load accepts, with no reference to a
// channel it leaves out: a public export turns reporting off, since the
// dev realm's moderation request channel is private.
func TestRealmExportLoads(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"allow_private_data_export": true}}); err != nil {
		t.Fatal(err)
	}
	coreTeam := channelID(t, r, "core team")
	for _, typ := range []int{ExportPublic, ExportFullWithConsent} {
		if _, err := r.As(idIago).ExportRealm(bg, typ); err != nil {
			t.Fatal(err)
		}
		list, _ := r.As(idIago).RealmExports(bg)
		_, f := readExport(t, r, list[len(list)-1])
		doc, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := Load(doc)
		if err != nil {
			t.Fatalf("type %d export does not load: %v", typ, err)
		}
		wantModeration := 0
		if typ == ExportFullWithConsent && r.isSubscribed(coreTeam, idHamlet) {
			wantModeration = coreTeam
		}
		if got := loaded.settings.ModerationRequestChannelID; got != wantModeration {
			t.Errorf("type %d export: moderation request channel %d, want %d", typ, got, wantModeration)
		}
	}
}
