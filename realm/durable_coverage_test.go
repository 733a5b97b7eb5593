package realm

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/user"
)

// durabilityProbes change each state table (domains.go) through the
// realm's methods, by table name: TestEveryTableIsDurable runs them on a
// realm with a data directory and checks that the table comes back
// whole from a crash and from a clean restart. A table with no probe
// fails the test.
var durabilityProbes = map[string]func(t *testing.T, r *Realm){
	"recipients": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).SendDirectMessage(bg, []int{idPolonius, idProspero}, "a new conversation")))
	},
	"users": func(t *testing.T, r *Realm) {
		must(t, errOf(r.AddUser(NewUser{Email: "new@zulip.com", FullName: "New"})))
		must(t, r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{FullName: str("Prince Hamlet")}))
		must(t, r.SetPassword(idHamlet, "a new password"))
	},
	"groups": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).CreateUserGroup(bg, CreateGroupRequest{Name: "players", Description: "the players", Members: []int{idHamlet}})))
	},
	"settings": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).UpdateRealm(bg, RealmUpdate{Name: str("Elsinore")})))
		must(t, r.SetPlanType(PlanTypeStandard))
	},
	"channelFolders": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).CreateChannelFolder(bg, "plays", "the plays")))
	},
	"channels": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).CreateChannel(bg, CreateChannelRequest{Name: "stage", Description: "the stage", Subscribers: []int{idIago, idHamlet}})))
	},
	"linkifiers": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).AddLinkifier(bg, linkifier.Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://example.com/{id}"})))
	},
	"playgrounds": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).AddPlayground(bg, "Python", "python", "https://python.example/?code={code}")))
	},
	"realmEmoji": func(t *testing.T, r *Realm) {
		must(t, r.As(idIago).AddRealmEmoji(bg, emojiUpload("yorick", "yorick.png", testPNG(t))))
	},
	"messages": func(t *testing.T, r *Realm) {
		res, err := r.As(idIago).SendChannelMessage(bg, "Verona", "probe", "probe")
		must(t, err)
		must(t, errOf(r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: res.ID, Content: str("probe, edited")})))
	},
	"drafts": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idHamlet).CreateDrafts(bg, []DraftInput{{Type: "", Content: "to be or not"}})))
	},
	"mutedUsers": func(t *testing.T, r *Realm) { must(t, r.As(idHamlet).MuteUser(bg, idPolonius)) },
	"onboarding": func(t *testing.T, r *Realm) {
		must(t, r.SetOnboardingStepsSeen(idHamlet, nil))
		must(t, r.As(idHamlet).MarkOnboardingStepSeen(bg, str("intro_inbox_view_modal")))
	},
	"alertWords": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idHamlet).AddAlertWords(bg, []string{"ghost"})))
	},
	"storage": func(t *testing.T, r *Realm) {
		must(t, r.As(idDefaultBot).PutStorage(bg, map[string]string{"k": "v"}))
	},
	"userTopics": func(t *testing.T, r *Realm) {
		must(t, r.As(idHamlet).SetUserTopic(bg, UserTopicRequest{ChannelName: "Verona", Topic: "castle", Policy: PolicyMuted}))
	},
	"profileFields": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idIago).CreateProfileField(bg, ProfileFieldSpec{Name: "Castle", Type: 1})))
	},
	"navigationViews": func(t *testing.T, r *Realm) {
		must(t, r.As(idHamlet).AddNavigationView(bg, "narrow/channel/3-Verona", true, str("Verona")))
	},
	"snippets": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idHamlet).CreateSavedSnippet(bg, "soliloquy", "to be")))
	},
	"settingsDefaults": func(t *testing.T, r *Realm) {
		must(t, r.As(idIago).UpdateUserSettingsDefaults(bg, map[string]any{"twenty_four_hour_time": true}))
	},
	"scheduled": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idHamlet).CreateScheduledMessage(bg, ScheduledMessageInput{Type: "stream", To: itoa(r.channelIDOf(t, "Verona")), Topic: str("later"),
			Content: "scheduled", DeliverAt: r.Now().Add(time.Hour).Unix()})))
	},
	"statuses": func(t *testing.T, r *Realm) {
		must(t, r.As(idHamlet).UpdateStatus(bg, StatusUpdate{StatusText: str("mourning")}))
	},
	"presence": func(t *testing.T, r *Realm) {
		must(t, errOf(r.As(idHamlet).UpdatePresence(bg, PresenceRequest{Status: "idle"})))
	},
	"mail": func(t *testing.T, r *Realm) {
		must(t, r.As(idHamlet).UpdateSettings(bg, SettingsUpdate{Email: str("prince@zulip.com")}))
	},
	"calls": func(t *testing.T, r *Realm) { must(t, r.SetCallToken(idHamlet, "zoom", true)) },
	"invites": func(t *testing.T, r *Realm) {
		must(t, r.As(idIago).SendInvites(bg, InviteRequest{InviteeEmails: "rosencrantz@zulip.com", StreamIDs: []int{r.channelIDOf(t, "Verona")}}))
		must(t, errOf(r.As(idIago).CreateInviteLink(bg, InviteRequest{StreamIDs: []int{r.channelIDOf(t, "Verona")}})))
	},
	"domains": func(t *testing.T, r *Realm) {
		must(t, errOf3(r.As(idDesdemona).AddRealmDomain(bg, "elsinore.dk", true)))
	},
	"push": func(t *testing.T, r *Realm) {
		must(t, r.As(idHamlet).AddPushDevice(bg, user.PushFCM, str("android-token"), nil))
		must(t, r.As(idHamlet).SendTestPushNotification(bg, nil))
	},
	"exports": func(t *testing.T, r *Realm) { must(t, errOf(r.As(idDesdemona).ExportRealm(bg, 1))) },
	"files": func(t *testing.T, r *Realm) {
		up, err := r.As(idHamlet).Upload(bg, UploadRequest{Name: "notes.txt", ContentType: "text/plain", Body: strings.NewReader("words, words, words")})
		must(t, err)
		// A temporary URL's token, a struct with a time held in a map.
		must(t, errOf(r.As(idHamlet).TemporaryUploadURL(bg, up.PathID)))
	},
}

// notKept are the state fields (table.field) a restart does not bring
// back, each for a reason README gives.
var notKept = map[string]string{
	"calls.providers":   "configuration (WithCallProvider), given again at every start",
	"files.store":       "the upload store, compared by the files' bytes below",
	"files.pinnedBelow": "machinery: which files the snapshots in memory hold, and a restart's Reset snapshot holds them all",
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// errOf3 is the error of a call's three results.
func errOf3[A, B any](_ A, _ B, err error) error { return err }

// tableDiff compares one table of two realms, field by field.
func tableDiff(name string, a, b *tables) string {
	for _, d := range domains {
		if d.name != name {
			continue
		}
		x, y := d.of(a), d.of(b)
		var ignore []cmp.Option
		v := reflect.ValueOf(x).Elem()
		if v.Kind() == reflect.Struct {
			var skip []string
			for i := range v.NumField() {
				if _, ok := notKept[name+"."+v.Type().Field(i).Name]; ok {
					skip = append(skip, v.Type().Field(i).Name)
				}
			}
			if len(skip) > 0 {
				ignore = append(ignore, cmpopts.IgnoreFields(v.Interface(), skip...))
			}
		}
		if name == "messages" {
			if ma, mb := messagesOf(a), messagesOf(b); ma != mb {
				return lineDiff(ma, mb)
			}
			ignore = append(ignore, cmpopts.IgnoreFields(messageTable{}, "store"))
		}
		return cmp.Diff(x, y, append(ignore,
			cmp.Exporter(func(reflect.Type) bool { return true }),
			cmp.Comparer(func(a, b *linkifier.Linkifier) bool { return a.ID == b.ID && reflect.DeepEqual(a.Spec, b.Spec) }),
		)...)
	}
	return "no such table"
}

// TestEveryTableIsDurable walks the realm's state tables: each has a
// probe that changes it, and after the probes a crash and a clean restart
// both give every table back as it was (but for the fields notKept lists).
func TestEveryTableIsDurable(t *testing.T) {
	for _, d := range domains {
		if durabilityProbes[d.name] == nil {
			t.Errorf("table %s has no durability probe: add one to durabilityProbes, and make the data directory keep it", d.name)
		}
	}
	dir := t.TempDir()
	c := clock.NewManual(t0)
	r, _ := openTestDir(t, dir, c, WithCallProvider(NewFakeCallProvider("zoom", "https://zoom.example")))
	for _, d := range domains {
		probe := durabilityProbes[d.name]
		if probe == nil {
			continue
		}
		before := &tables{}
		r.mu.Lock()
		before.copyFrom(&r.tables)
		r.mu.Unlock()
		seq := r.dur.seq
		probe(t, r)
		// Each is journaled: an operation record or a tables record
		// (durable_tables.go), never a snapshot of every message.
		if r.dur.seq != seq {
			t.Errorf("the probe of table %s wrote a snapshot, want it journaled", d.name)
		}
		if tableDiff(d.name, before, &r.tables) == "" {
			t.Errorf("the probe of table %s did not change it", d.name)
		}
		c.Advance(time.Second)
	}
	// The journaled operations again, after the last snapshot.
	coreOperations(t, r, c)
	want := &tables{}
	r.mu.Lock()
	want.copyFrom(&r.tables)
	r.mu.Unlock()
	wantFiles := filesOf(t, r)

	check := func(how string, r2 *Realm) {
		t.Helper()
		for _, d := range domains {
			if diff := tableDiff(d.name, want, &r2.tables); diff != "" {
				t.Errorf("after %s, table %s differs (-before +after):\n%s", how, d.name, diff)
			}
		}
		if got := filesOf(t, r2); got != wantFiles {
			t.Errorf("after %s the uploaded files differ:\n%s", how, lineDiff(wantFiles, got))
		}
	}
	crash(r)
	r2, _ := openTestDir(t, dir, clock.NewManual(c.Now()), WithCallProvider(NewFakeCallProvider("zoom", "https://zoom.example")))
	check("a crash", r2)
	if err := r2.Close(); err != nil {
		t.Fatal(err)
	}
	r3, _ := openTestDir(t, dir, clock.NewManual(c.Now()), WithCallProvider(NewFakeCallProvider("zoom", "https://zoom.example")))
	defer r3.Close()
	check("a clean restart", r3)
}

// filesOf lists the uploaded files with their bytes.
func filesOf(t *testing.T, r *Realm) string {
	t.Helper()
	var b strings.Builder
	_ = r.view(func() error {
		paths := slices.Sorted(maps.Keys(r.files.byPath))
		for _, p := range paths {
			data, err := r.files.read(p)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(p + " " + string(data) + "\n")
		}
		return nil
	})
	return b.String()
}
