package realm

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/upload"
)

// Rows 306 "event realm update" and "event realm update_dict data
// max_file_upload_size_mib / upload_quota_mib": a plan change is a realm
// update of plan_type with extra_data's upload_quota in bytes below 306,
// an update_dict of plan_type, upload_quota_mib and
// max_file_upload_size_mib from it.
func TestPlanChangeEventFollowsLevel(t *testing.T) {
	atLevels(t, []int{changePlanUpdateDict.Level() - 1, changePlanUpdateDict.Level()}, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
		if err := r.SetPlanType(PlanTypeLimited); err != nil {
			t.Fatal(err)
		}
		evs := eventsOf(t, r, idHamlet, q, "realm")
		// Spectator access is turned off first (the dev realm has it on).
		if len(evs) != 2 || evs[0]["property"] != "enable_spectator_access" || evs[0]["value"] != false {
			t.Fatalf("level %d: events %v", level, evs)
		}
		got, _ := json.Marshal(evs[1])
		want := `{"extra_data":{"upload_quota":5368709120},"id":1,"op":"update","property":"plan_type","type":"realm","value":2}`
		if level >= changePlanUpdateDict.Level() {
			want = `{"data":{"max_file_upload_size_mib":10,"plan_type":2,"upload_quota_mib":5120},"id":1,"op":"update_dict","property":"default","type":"realm"}`
		}
		if string(got) != want {
			t.Errorf("level %d: plan event %s, want %s", level, got, want)
		}
	})
}

// The largest file follows the plan from 306 only (a constant of the
// server before), in register and in what uploads take.
func TestMaxFileUploadSizeFollowsPlanFrom306(t *testing.T) {
	atLevels(t, []int{changePlanUpdateDict.Level() - 1, changePlanUpdateDict.Level()}, func(t *testing.T, r *Realm, level int) {
		if err := r.SetPlanType(PlanTypeLimited); err != nil {
			t.Fatal(err)
		}
		want := 25
		if level >= changePlanUpdateDict.Level() {
			want = 10
		}
		if got := realmState(t, r, idHamlet).MaxFileUploadSizeMiB; got != want {
			t.Errorf("level %d: max_file_upload_size_mib %d, want %d", level, got, want)
		}
		_, err := r.As(idHamlet).Upload(bg, UploadRequest{Name: "big.bin", Body: bytes.NewReader(make([]byte, 11*upload.MiB))})
		_, startErr := r.As(idHamlet).StartResumableUpload(bg, ResumableUploadRequest{Name: "big.bin", Length: 11 * upload.MiB})
		if level < changePlanUpdateDict.Level() {
			if err != nil || startErr != nil {
				t.Errorf("level %d: an 11 MiB file refused: %v, %v", level, err, startErr)
			}
			return
		}
		wantCode(t, err, CodeBadRequest, "limit of 10 MiB")
		if re := wantCode(t, startErr, CodeBadRequest, "10 MiB"); re.Status != 413 {
			t.Errorf("resumable: status %d", re.Status)
		}
	})
	// The server's limit bounds every plan's.
	l := DefaultLimits()
	l.MaxFileUploadSizeMiB = 5
	r, _ := newTestRealm(t, WithLimits(l), WithPlanType(PlanTypeLimited))
	if got := realmState(t, r, idHamlet).MaxFileUploadSizeMiB; got != 5 {
		t.Errorf("limited plan under a 5 MiB server: %d", got)
	}
	for p, want := range map[PlanType]int{PlanTypeSelfHosted: 25, PlanTypeStandard: 25, PlanTypeStandardFree: 25, PlanTypePlus: 25} {
		r, _ := newTestRealm(t, WithPlanType(p))
		if got := realmState(t, r, idHamlet).MaxFileUploadSizeMiB; got != want {
			t.Errorf("plan %d: max_file_upload_size_mib %d, want %d", p, got, want)
		}
	}
}

// Row 251 "POST /register realm_upload_quota_mib": MiB from 251, bytes
// (Zulip's mistake) below; null on a self-hosted plan.
func TestRegisterUploadQuotaUnitFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeUploadQuotaMiB.Level() - 1, changeUploadQuotaMiB.Level()}, func(t *testing.T, r *Realm, level int) {
		if q := realmState(t, r, idHamlet).RealmUploadQuotaMiB; q != nil {
			t.Errorf("level %d: self-hosted quota %d", level, *q)
		}
		if err := r.SetPlanType(PlanTypeStandardFree); err != nil {
			t.Fatal(err)
		}
		want := int64(50 << 30)
		if level >= changeUploadQuotaMiB.Level() {
			want = 50 << 10
		}
		if q := realmState(t, r, idHamlet).RealmUploadQuotaMiB; q == nil || *q != want {
			t.Errorf("level %d: realm_upload_quota_mib %v, want %d", level, q, want)
		}
	})
}

// The plans' quotas: none self-hosted, 5 GiB free, 50 sponsored, 5 a seat
// and at least 50 paid; register says the plan.
func TestPlanQuotasAndRegister(t *testing.T) {
	r, _ := newTestRealm(t)
	if st := realmState(t, r, idHamlet); st.RealmPlanType != 1 || st.RealmUploadQuotaMiB != nil {
		t.Fatalf("new realm: plan %d quota %v", st.RealmPlanType, st.RealmUploadQuotaMiB)
	}
	seats := r.seatCount()
	if seats < 5 {
		t.Fatalf("dev realm seats %d", seats)
	}
	for p, want := range map[PlanType]int64{PlanTypeLimited: 5 << 10, PlanTypeStandardFree: 50 << 10,
		PlanTypeStandard: int64(max(seats*5, 50)) << 10, PlanTypePlus: int64(max(seats*5, 50)) << 10} {
		if err := r.SetPlanType(p); err != nil {
			t.Fatal(err)
		}
		st := realmState(t, r, idHamlet)
		if st.RealmPlanType != int(p) || st.RealmUploadQuotaMiB == nil || *st.RealmUploadQuotaMiB != want {
			t.Errorf("plan %d: register plan %d quota %v, want %d", p, st.RealmPlanType, st.RealmUploadQuotaMiB, want)
		}
	}
	// Past 10 seats a paid plan's quota grows with them.
	r.settings.PlanType = PlanTypeStandard
	for i := range 12 {
		if _, err := r.AddUser(NewUser{Email: "seat" + string(rune('a'+i)) + "@zulip.com", FullName: "Seat"}); err != nil {
			t.Fatal(err)
		}
	}
	if q := r.uploadQuotaBytes(); q == nil || *q != int64(r.seatCount()*5)<<30 || r.seatCount() <= 10 {
		t.Errorf("paid quota %v with %d seats", q, r.seatCount())
	}
}

// An upload past the plan's quota is refused with Zulip's error and
// leaves nothing; a self-hosted realm has no quota.
func TestUploadQuotaOfThePlan(t *testing.T) {
	r, _ := newTestRealm(t, WithPlanType(PlanTypeLimited))
	a := r.As(idHamlet)
	r.files.spaceUsed = 5<<30 - 100 // as if 5 GiB less 100 bytes were uploaded
	_, err := a.Upload(bg, UploadRequest{Name: "over.txt", Body: bytes.NewReader(make([]byte, 101))})
	if re := wantCode(t, err, CodeRealmUploadQuota, "Upload would exceed your organization's upload quota."); re.Status != 400 {
		t.Errorf("status %d", re.Status)
	}
	if n := r.UploadStore().(*upload.MemoryStore).Len(); n != 0 {
		t.Errorf("refused upload left %d blobs", n)
	}
	_, err = a.StartResumableUpload(bg, ResumableUploadRequest{Name: "over.txt", Length: 101})
	if re := wantCode(t, err, CodeRealmUploadQuota, "upload quota"); re.Status != 413 {
		t.Errorf("resumable status %d", re.Status)
	}
	if _, err := a.Upload(bg, UploadRequest{Name: "fits.txt", Body: bytes.NewReader(make([]byte, 100))}); err != nil {
		t.Fatalf("an upload that fits: %v", err)
	}
	// Self-hosted: no quota at all.
	if err := r.SetPlanType(PlanTypeSelfHosted); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Upload(bg, UploadRequest{Name: "more.txt", Body: bytes.NewReader(make([]byte, 101))}); err != nil {
		t.Fatalf("self-hosted upload: %v", err)
	}
}

// A plan change does what Zulip's billing does to the settings.
func TestSetPlanTypeSettings(t *testing.T) {
	r, _ := newTestRealm(t)
	members := group.Named(r.groups.byName[group.Members].ID)
	r.settings.CanAccessAllUsersGroup = members
	q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm"}})
	if err := r.SetPlanType(PlanTypePlus); err != nil { // self-hosted to Plus keeps the restriction
		t.Fatal(err)
	}
	if !sameGroupSetting(r.settings.CanAccessAllUsersGroup, members) || r.settings.MaxInvites != 3000 || !r.settings.EnableSpectatorAccess {
		t.Fatalf("after Plus: %+v", r.settings)
	}
	if err := r.SetPlanType(PlanTypePlus); err != nil { // no change, no event
		t.Fatal(err)
	}
	if err := r.SetPlanType(PlanTypeLimited); err != nil {
		t.Fatal(err)
	}
	s := r.settings
	if s.EnableSpectatorAccess || !sameGroupSetting(s.CanAccessAllUsersGroup, group.Named(r.groups.byName[group.Everyone].ID)) ||
		s.MaxInvites != DefaultMaxInvites || r.PlanType() != PlanTypeLimited {
		t.Fatalf("after Limited: %+v", s)
	}
	var got []string
	for _, ev := range eventsOf(t, r, idHamlet, q, "realm") {
		if data, ok := ev["data"].(map[string]any); ok {
			for k := range data {
				got = append(got, "dict:"+k)
			}
			continue
		}
		got = append(got, ev["property"].(string))
	}
	slices.Sort(got)
	want := []string{"dict:can_access_all_users_group", "dict:max_file_upload_size_mib", "dict:max_file_upload_size_mib",
		"dict:plan_type", "dict:plan_type", "dict:upload_quota_mib", "dict:upload_quota_mib", "enable_spectator_access"}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	for _, bad := range []PlanType{0, 5, -1, 11} {
		wantCode(t, r.SetPlanType(bad), CodeBadRequest, "Invalid plan_type")
	}
	if r.PlanType() != PlanTypeLimited {
		t.Fatal("a refused plan changed the realm")
	}
}

// The plan goes into fixtures and comes back; a fixture without one is
// self-hosted, one with an unknown plan is refused.
func TestPlanTypeFixture(t *testing.T) {
	r, _ := newTestRealm(t, WithPlanType(PlanTypeStandard))
	if r.settings.MaxInvites != 3000 {
		t.Fatalf("a new Standard realm's max_invites %d", r.settings.MaxInvites)
	}
	doc := dumpDocument(t, r)
	if doc.Settings.PlanType != 3 {
		t.Fatalf("dumped plan_type %d", doc.Settings.PlanType)
	}
	fresh, _ := newTestRealm(t)
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if fresh.PlanType() != PlanTypeStandard {
		t.Fatalf("loaded plan %d", fresh.PlanType())
	}
	doc.Settings.PlanType = 0
	if err := fresh.LoadFixture(encodeDocument(t, doc)); err != nil {
		t.Fatal(err)
	}
	if fresh.PlanType() != PlanTypeSelfHosted || dumpDocument(t, fresh).Settings.PlanType != 0 {
		t.Fatalf("a fixture without a plan: %d", fresh.PlanType())
	}
	for _, bad := range []int{5, -2} {
		doc.Settings.PlanType = bad
		if err := fresh.LoadFixture(encodeDocument(t, doc)); err == nil || !strings.Contains(err.Error(), "settings.plan_type") {
			t.Errorf("plan_type %d: %v", bad, err)
		}
	}
}

// Zulip Cloud's Free plan refuses message retention (realm and channels)
// and spectator access; only self-hosted and Plus realms may restrict
// guests' access to users. Another plan takes them.
func TestPlanGatesPaidSettings(t *testing.T) {
	r, _ := newTestRealm(t, WithPlanType(PlanTypeLimited))
	owner := r.As(idDesdemona)
	const standard, plus = "Available on Zulip Cloud Standard. Upgrade to access.", "Available on Zulip Cloud Plus. Upgrade to access."
	thirty, on := 30, true
	_, err := owner.UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{MessageRetentionDays: &RetentionDays{Days: thirty}}})
	wantCode(t, err, CodeBadRequest, standard)
	_, err = owner.UpdateRealm(bg, RealmUpdate{EnableSpectatorAccess: &on})
	wantCode(t, err, CodeBadRequest, standard)
	members := NamedGroupSetting(r.groups.byName["role:members"].ID)
	access := RealmUpdate{GroupSettings: map[string]GroupSettingChange{"can_access_all_users_group": {New: members}}}
	_, err = owner.UpdateRealm(bg, access)
	wantCode(t, err, CodeBadRequest, plus)
	_, err = owner.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "kept"}}, MessageRetentionDays: &thirty})
	wantCode(t, err, CodeBadRequest, standard)
	_, err = owner.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "open"}}, IsWebPublic: true})
	wantCode(t, err, CodeBadRequest, "Web-public channels are not enabled.")
	verona := channelID(t, r, "Verona")
	retention := &thirty
	wantCode(t, owner.UpdateChannel(bg, ChannelUpdate{ChannelID: verona, MessageRetentionDays: &retention}), CodeBadRequest, standard)
	if s := r.settings; s.MessageRetentionDays != retentionUnlimited || s.EnableSpectatorAccess || r.channels.byName["kept"] != nil {
		t.Fatalf("a refused change changed the realm: retention %d, spectators %v", s.MessageRetentionDays, s.EnableSpectatorAccess)
	}
	// On Standard all but the guests' restriction are open.
	if err := r.SetPlanType(PlanTypeStandard); err != nil {
		t.Fatal(err)
	}
	if _, err := owner.UpdateRealm(bg, RealmUpdate{EnableSpectatorAccess: &on,
		RealmPropertiesUpdate: RealmPropertiesUpdate{MessageRetentionDays: &RetentionDays{Days: thirty}}}); err != nil {
		t.Fatal(err)
	}
	if err := owner.UpdateChannel(bg, ChannelUpdate{ChannelID: verona, MessageRetentionDays: &retention}); err != nil {
		t.Fatal(err)
	}
	_, err = owner.UpdateRealm(bg, access)
	wantCode(t, err, CodeBadRequest, plus)
	for _, p := range []PlanType{PlanTypePlus, PlanTypeSelfHosted} {
		if err := r.SetPlanType(p); err != nil {
			t.Fatal(err)
		}
		if _, err := owner.UpdateRealm(bg, access); err != nil {
			t.Fatalf("plan %d: %v", p, err)
		}
	}
}
