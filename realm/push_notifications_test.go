package realm

import (
	"testing"
	"time"

	"github.com/minizulip/minizulip/user"

	"github.com/google/go-cmp/cmp"
)

func TestTestPushNotifications(t *testing.T) {
	r, clock := newTestRealm(t)
	h := r.As(idHamlet)
	// No device: success, nothing sent.
	if err := h.SendTestPushNotification(bg, nil); err != nil {
		t.Fatal(err)
	}
	if got := r.PushNotifications(0); got == nil || len(got) != 0 {
		t.Fatalf("sent %#v", got)
	}
	for _, add := range []struct {
		kind         user.PushKind
		token, appID *string
	}{{user.PushFCM, str("android-token"), nil}, {user.PushAPNs, str(apnsToken), str("org.zulip.Zulip")}} {
		if err := h.AddPushDevice(bg, add.kind, add.token, add.appID); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.As(idIago).AddPushDevice(bg, user.PushFCM, str("iago-token"), nil); err != nil {
		t.Fatal(err)
	}
	fcm, apns := r.PushDevices(idHamlet)[0], r.PushDevices(idHamlet)[1]
	clock.Advance(time.Hour)
	now := r.Now()
	// Without a token: every device of the user, APNs first.
	if err := h.SendTestPushNotification(bg, nil); err != nil {
		t.Fatal(err)
	}
	base := PushPayload{Server: "localhost:9991", RealmID: 2, RealmURI: "http://localhost:9991",
		RealmURL: "http://localhost:9991", RealmName: r.Settings().Name, UserID: idHamlet, Event: "test"}
	withTime := base
	withTime.Time = now.Unix()
	wantAPNs := PushNotification{Device: apns, Sent: now, Data: base, Sound: "default",
		Alert: PushAlert{Title: "Test notification", Body: "This is a test notification from " + r.Settings().Name + " (http://localhost:9991)."}}
	wantFCM := PushNotification{Device: fcm, Sent: now, Data: withTime, Priority: "high"}
	want := []PushNotification{wantAPNs, wantFCM}
	if diff := cmp.Diff(want, r.PushNotifications(0)); diff != "" {
		t.Fatalf("sent (-want +got):\n%s", diff)
	}
	// With a token: that device only, whichever its kind.
	if err := h.SendTestPushNotification(bg, str("android-token")); err != nil {
		t.Fatal(err)
	}
	if err := h.SendTestPushNotification(bg, str(apnsToken)); err != nil {
		t.Fatal(err)
	}
	want = append(want, wantFCM, wantAPNs)
	if diff := cmp.Diff(want, r.PushNotifications(idHamlet)); diff != "" {
		t.Fatalf("sent (-want +got):\n%s", diff)
	}
	if got := r.PushNotifications(idIago); len(got) != 0 {
		t.Fatalf("iago's devices got %v", got)
	}
	// Another user's token is not recognized; nothing is sent.
	wantCode(t, h.SendTestPushNotification(bg, str("iago-token")), CodeInvalidPushDeviceToken, "Device not recognized")
	if len(r.PushNotifications(0)) != 4 {
		t.Fatal("a refused test sent something")
	}
}

// Older servers' test payloads: event test-by-device-token and no
// realm_name before 234, no realm_url before 257.
func TestTestPushPayloadAtOlderLevels(t *testing.T) {
	for _, c := range []struct {
		level            int
		event, name, url string
		body             string
	}{
		{233, "test-by-device-token", "", "", "This is a test notification from http://localhost:9991."},
		{256, "test", "Zulip Dev", "", "This is a test notification from Zulip Dev (http://localhost:9991)."},
		{257, "test", "Zulip Dev", "http://localhost:9991", "This is a test notification from Zulip Dev (http://localhost:9991)."},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, "test"))
		r.UpdateSettings(func(s *Settings) { s.Name = "Zulip Dev" })
		if err := r.As(idHamlet).AddPushDevice(bg, user.PushAPNs, str(apnsToken), str("org.zulip.Zulip")); err != nil {
			t.Fatal(err)
		}
		if err := r.As(idHamlet).SendTestPushNotification(bg, nil); err != nil {
			t.Fatal(err)
		}
		n := r.PushNotifications(0)[0]
		if n.Data.Event != c.event || n.Data.RealmName != c.name || n.Data.RealmURL != c.url ||
			n.Data.RealmURI != "http://localhost:9991" || n.Alert.Body != c.body {
			t.Errorf("level %d: %+v", c.level, n)
		}
	}
}

func TestE2EEPushEndpoints(t *testing.T) {
	r, _ := newTestRealm(t)
	full := func() E2EEPushRegistration {
		return E2EEPushRegistration{TokenKind: str("fcm"), PushAccountID: str("2408"), PushPublicKey: str("push-public-key"),
			BouncerPublicKey: str("bouncer-public-key"), EncryptedPushRegistration: str("encrypted-push-registration-data")}
	}
	for _, c := range []struct {
		name string
		edit func(*E2EEPushRegistration)
		as   int
		code Code
		msg  string
	}{
		{"complete", func(*E2EEPushRegistration) {}, idHamlet, CodePushServiceNotConfigured, "Server is not configured to use push notification service."},
		{"apns", func(q *E2EEPushRegistration) { q.TokenKind = str("apns") }, idHamlet, CodePushServiceNotConfigured, "Server is not configured to use push notification service."},
		{"bot", func(q *E2EEPushRegistration) { *q = E2EEPushRegistration{} }, idDefaultBot, CodeBadRequest, "This endpoint does not accept bot requests."},
		{"no kind", func(q *E2EEPushRegistration) { *q = E2EEPushRegistration{} }, idHamlet, CodeRequestVariableMissing, "Missing 'token_kind' argument"},
		{"bad kind", func(q *E2EEPushRegistration) { q.TokenKind, q.PushAccountID = str("gcm"), nil }, idHamlet, CodeBadRequest, "Invalid token_kind: Value error, Not in the list of possible values"},
		{"no account", func(q *E2EEPushRegistration) { q.PushAccountID = nil }, idHamlet, CodeRequestVariableMissing, "Missing 'push_account_id' argument"},
		{"account not JSON", func(q *E2EEPushRegistration) { q.PushAccountID = str("abc") }, idHamlet, CodeBadRequest, "push_account_id is not valid JSON"},
		{"account trailing", func(q *E2EEPushRegistration) { q.PushAccountID = str("1 2") }, idHamlet, CodeBadRequest, "push_account_id is not valid JSON"},
		{"account float", func(q *E2EEPushRegistration) { q.PushAccountID = str("1.5") }, idHamlet, CodeBadRequest, "push_account_id is not an integer"},
		{"account string", func(q *E2EEPushRegistration) { q.PushAccountID = str(`"12"`) }, idHamlet, CodeBadRequest, "push_account_id is not an integer"},
		{"no public key", func(q *E2EEPushRegistration) { q.PushPublicKey, q.BouncerPublicKey = nil, nil }, idHamlet, CodeRequestVariableMissing, "Missing 'push_public_key' argument"},
		{"no bouncer key", func(q *E2EEPushRegistration) { q.BouncerPublicKey = nil }, idHamlet, CodeRequestVariableMissing, "Missing 'bouncer_public_key' argument"},
		{"no registration", func(q *E2EEPushRegistration) { q.EncryptedPushRegistration = nil }, idHamlet, CodeRequestVariableMissing, "Missing 'encrypted_push_registration' argument"},
	} {
		q := full()
		c.edit(&q)
		e := wantCode(t, r.As(c.as).RegisterE2EEPushDevice(bg, q), c.code, c.msg)
		if e.Msg != c.msg || e.Status != 400 {
			t.Errorf("%s: %d %q", c.name, e.Status, e.Msg)
		}
	}
	for _, c := range []struct {
		as   int
		id   *string
		code Code
		msg  string
	}{
		{idHamlet, nil, CodeNoActivePushDevice, "No active registered push device"},
		{idHamlet, str(" 2408 "), CodeNoActivePushDevice, "No active registered push device"},
		{idHamlet, str("x"), CodeBadRequest, "push_account_id is not valid JSON"},
		{idDefaultBot, str("x"), CodeBadRequest, "This endpoint does not accept bot requests."},
	} {
		e := wantCode(t, r.As(c.as).SendE2EETestPushNotification(bg, c.id), c.code, c.msg)
		if e.Msg != c.msg || e.Status != 400 {
			t.Errorf("%v: %d %q", c.id, e.Status, e.Msg)
		}
	}
	if len(r.PushDevices(0)) != 0 || len(r.PushNotifications(0)) != 0 {
		t.Fatal("the E2EE endpoints changed something")
	}
}

// Register's push_devices is {} from feature level 406, absent before.
func TestRegisterPushDevices(t *testing.T) {
	for level, want := range map[int]bool{405: false, 406: true, DefaultFeatureLevel: true} {
		r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
		res, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"push_device"}})
		if err != nil {
			t.Fatal(err)
		}
		keys := jsonKeys(t, res)
		if keys["push_devices"] != want {
			t.Fatalf("level %d: keys %v", level, keys)
		}
		if want && (res.PushDevices == nil || len(res.PushDevices) != 0) {
			t.Fatalf("level %d: %#v", level, res.PushDevices)
		}
		if res, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}}); res.PushDevicesState != nil {
			t.Fatal("push_devices without push_device")
		}
	}
}
