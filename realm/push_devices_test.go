package realm

import (
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/user"

	"github.com/google/go-cmp/cmp"
)

const apnsToken = "c0ffee"

// seedPushDevices registers an FCM device for hamlet, an APNs one for
// iago and a test notification to both of iago's and hamlet's devices.
func seedPushDevices(t *testing.T, r *Realm) {
	t.Helper()
	if err := r.As(idHamlet).AddPushDevice(bg, user.PushFCM, str("android-token"), nil); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).AddPushDevice(bg, user.PushAPNs, str(apnsToken), str("org.zulip.Zulip")); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int{idHamlet, idIago} {
		if err := r.As(id).SendTestPushNotification(bg, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// wantPushDevices checks the realm's devices, for all users.
func wantPushDevices(t *testing.T, r *Realm, want []PushDevice) {
	t.Helper()
	if diff := cmp.Diff(want, r.PushDevices(0)); diff != "" {
		t.Fatalf("devices (-want +got):\n%s", diff)
	}
}

func TestAddAndRemovePushDevices(t *testing.T) {
	r, clock := newTestRealm(t)
	start := r.Now()
	h := r.As(idHamlet)
	if err := h.AddPushDevice(bg, user.PushFCM, str("android-token"), nil); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if err := h.AddPushDevice(bg, user.PushAPNs, str(apnsToken), str("org.zulip.Zulip")); err != nil {
		t.Fatal(err)
	}
	// The same token of the other kind is another device.
	if err := h.AddPushDevice(bg, user.PushFCM, str(apnsToken), nil); err != nil {
		t.Fatal(err)
	}
	// Adding again succeeds and changes nothing, not even the app ID or
	// the time.
	clock.Advance(time.Minute)
	if err := h.AddPushDevice(bg, user.PushAPNs, str(apnsToken), str("org.zulip.Other")); err != nil {
		t.Fatal(err)
	}
	if err := h.AddPushDevice(bg, user.PushFCM, str("android-token"), nil); err != nil {
		t.Fatal(err)
	}
	// Another user may register the same token.
	if err := r.As(idIago).AddPushDevice(bg, user.PushFCM, str("android-token"), nil); err != nil {
		t.Fatal(err)
	}
	later := start.Add(time.Minute)
	all := []PushDevice{
		{UserID: idHamlet, Kind: user.PushFCM, Token: "android-token", Registered: start},
		{UserID: idHamlet, Kind: user.PushAPNs, Token: apnsToken, AppID: "org.zulip.Zulip", Registered: later},
		{UserID: idHamlet, Kind: user.PushFCM, Token: apnsToken, Registered: later},
		{UserID: idIago, Kind: user.PushFCM, Token: "android-token", Registered: later.Add(time.Minute)},
	}
	wantPushDevices(t, r, all)
	if got := r.PushDevices(idIago); len(got) != 1 || got[0] != all[3] {
		t.Fatalf("iago's devices %+v", got)
	}
	if got := r.PushDevices(idCordelia); got == nil || len(got) != 0 {
		t.Fatalf("cordelia's devices %#v", got)
	}

	// Removing: the kind must match, and the device must be the user's.
	wantCode(t, h.RemovePushDevice(bg, user.PushAPNs, str("abcd1234")), CodeBadRequest, "Token does not exist")
	wantCode(t, r.As(idCordelia).RemovePushDevice(bg, user.PushFCM, str("android-token")), CodeBadRequest, "Token does not exist")
	wantCode(t, r.As(idIago).RemovePushDevice(bg, user.PushAPNs, str(apnsToken)), CodeBadRequest, "Token does not exist")
	wantPushDevices(t, r, all)
	if err := h.RemovePushDevice(bg, user.PushFCM, str(apnsToken)); err != nil {
		t.Fatal(err)
	}
	if err := h.RemovePushDevice(bg, user.PushFCM, str("android-token")); err != nil {
		t.Fatal(err)
	}
	wantPushDevices(t, r, []PushDevice{all[1], all[3]})
	wantCode(t, h.RemovePushDevice(bg, user.PushFCM, str("android-token")), CodeBadRequest, "Token does not exist")
	if err := h.RemovePushDevice(bg, user.PushAPNs, str(apnsToken)); err != nil {
		t.Fatal(err)
	}
	wantPushDevices(t, r, []PushDevice{all[3]})
}

// Every refusal of the device endpoints, in Zulip's order, changes
// nothing.
func TestPushDeviceRefusals(t *testing.T) {
	r, _ := newTestRealm(t)
	seedPushDevices(t, r)
	devices, sent := r.PushDevices(0), r.PushNotifications(0)
	long := strings.Repeat("a", 4097)
	bot := r.As(idDefaultBot)
	h := r.As(idHamlet)
	for _, c := range []struct {
		name string
		err  error
		code Code
		msg  string
	}{
		{"bot adds FCM", bot.AddPushDevice(bg, user.PushFCM, str("bot-token"), nil), CodeBadRequest, "This endpoint does not accept bot requests."},
		// the bot check comes before the parameters'
		{"bot adds APNs without params", bot.AddPushDevice(bg, user.PushAPNs, nil, nil), CodeBadRequest, "This endpoint does not accept bot requests."},
		{"bot removes", bot.RemovePushDevice(bg, user.PushFCM, nil), CodeBadRequest, "This endpoint does not accept bot requests."},
		{"bot tests", bot.SendTestPushNotification(bg, nil), CodeBadRequest, "This endpoint does not accept bot requests."},
		{"no token", h.AddPushDevice(bg, user.PushFCM, nil, nil), CodeRequestVariableMissing, "Missing 'token' argument"},
		{"no APNs token", h.AddPushDevice(bg, user.PushAPNs, nil, str("org.zulip.Zulip")), CodeRequestVariableMissing, "Missing 'token' argument"},
		// appid is read before token
		{"no appid", h.AddPushDevice(bg, user.PushAPNs, nil, nil), CodeRequestVariableMissing, "Missing 'appid' argument"},
		{"bad appid", h.AddPushDevice(bg, user.PushAPNs, nil, str("'; tables --")), CodeBadRequest, "appid has invalid format"},
		{"empty appid", h.AddPushDevice(bg, user.PushAPNs, str(apnsToken), str("")), CodeBadRequest, "appid has invalid format"},
		{"empty token", h.AddPushDevice(bg, user.PushFCM, str(""), nil), CodeBadRequest, "Empty or invalid length token"},
		{"long token", h.AddPushDevice(bg, user.PushFCM, &long, nil), CodeBadRequest, "Empty or invalid length token"},
		{"long APNs token", h.AddPushDevice(bg, user.PushAPNs, &long, str("org.zulip.Zulip")), CodeBadRequest, "Empty or invalid length token"},
		{"non-hex APNs token", h.AddPushDevice(bg, user.PushAPNs, str("android-token"), str("org.zulip.Zulip")), CodeBadRequest, "Invalid APNS token"},
		{"odd APNs token", h.AddPushDevice(bg, user.PushAPNs, str("c0ffe"), str("org.zulip.Zulip")), CodeBadRequest, "Invalid APNS token"},
		// removals check the token the same way first
		{"remove without token", h.RemovePushDevice(bg, user.PushFCM, nil), CodeRequestVariableMissing, "Missing 'token' argument"},
		{"remove empty", h.RemovePushDevice(bg, user.PushFCM, str("")), CodeBadRequest, "Empty or invalid length token"},
		{"remove long", h.RemovePushDevice(bg, user.PushAPNs, &long), CodeBadRequest, "Empty or invalid length token"},
		{"remove non-hex", h.RemovePushDevice(bg, user.PushAPNs, str("android-token")), CodeBadRequest, "Invalid APNS token"},
		{"test unknown token", h.SendTestPushNotification(bg, str("nope")), CodeInvalidPushDeviceToken, "Device not recognized"},
		// a token of another user is not the user's device
		{"test other's token", h.SendTestPushNotification(bg, str(apnsToken)), CodeInvalidPushDeviceToken, "Device not recognized"},
	} {
		e := wantCode(t, c.err, c.code, c.msg)
		if e.Msg != c.msg || e.Status != 400 {
			t.Errorf("%s: %d %q", c.name, e.Status, e.Msg)
		}
	}
	if e := wantCode(t, h.AddPushDevice(bg, user.PushFCM, nil, nil), CodeRequestVariableMissing, ""); e.Extra["var_name"] != "token" {
		t.Errorf("var_name %v", e.Extra)
	}
	if diff := cmp.Diff(devices, r.PushDevices(0)); diff != "" {
		t.Fatalf("a refusal changed the devices:\n%s", diff)
	}
	if diff := cmp.Diff(sent, r.PushNotifications(0)); diff != "" {
		t.Fatalf("a refusal sent notifications:\n%s", diff)
	}
}

// Snapshots, restores and forks carry the devices and the record.
func TestPushStateInSnapshotsAndForks(t *testing.T) {
	r, _ := newTestRealm(t)
	seedPushDevices(t, r)
	devices, sent := r.PushDevices(0), r.PushNotifications(0)
	snap := r.Snapshot()
	fork := r.Fork()
	if err := r.As(idHamlet).RemovePushDevice(bg, user.PushFCM, str("android-token")); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).SendTestPushNotification(bg, nil); err != nil {
		t.Fatal(err)
	}
	if err := fork.As(idCordelia).AddPushDevice(bg, user.PushFCM, str("fork-token"), nil); err != nil {
		t.Fatal(err)
	}
	if len(r.PushDevices(0)) != 1 || len(r.PushNotifications(0)) != 3 || len(fork.PushDevices(0)) != 3 {
		t.Fatalf("devices %v, fork %v", r.PushDevices(0), fork.PushDevices(0))
	}
	if diff := cmp.Diff(sent, fork.PushNotifications(0)); diff != "" {
		t.Fatalf("the fork's record:\n%s", diff)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(devices, r.PushDevices(0)); diff != "" {
		t.Fatalf("restored devices:\n%s", diff)
	}
	if diff := cmp.Diff(sent, r.PushNotifications(0)); diff != "" {
		t.Fatalf("restored record:\n%s", diff)
	}
	r.Reset()
	if len(r.PushDevices(0)) != 0 || len(r.PushNotifications(0)) != 0 {
		t.Fatal("reset kept push state")
	}
}
