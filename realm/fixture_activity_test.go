package realm

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/upload"
)

// activityRealm is the rich realm with statuses (text, a Unicode emoji,
// a custom emoji deactivated since, away alone), presence (active, idle,
// turned off), reminders (one worded as now, one about a message edited
// since) and uploads (claimed by a channel message, by a direct message,
// and unclaimed). It returns the direct message's file.
func activityRealm(t *testing.T) (*Realm, *clock.Manual, string) {
	t.Helper()
	r, clock := richRealm(t)
	hamlet, iago, cordelia := r.As(idHamlet), r.As(idIago), r.As(idCordelia)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(hamlet.UpdateStatus(bg, StatusUpdate{StatusText: str("In a meeting"), EmojiName: str("calendar")}))
	must(iago.UpdateStatus(bg, StatusUpdate{EmojiName: str("green_tick")}))
	must(iago.DeactivateRealmEmoji(bg, "green_tick"))
	must(cordelia.UpdateStatus(bg, StatusUpdate{Away: ptrTo(true)}))
	_, err := hamlet.UpdatePresence(bg, PresenceRequest{Status: PresenceActive, PingOnly: true})
	must(err)
	clock.Advance(2 * time.Minute)
	_, err = iago.UpdatePresence(bg, PresenceRequest{Status: PresenceIdle, PingOnly: true})
	must(err)
	clock.Advance(2 * time.Minute)
	_, err = hamlet.UpdatePresence(bg, PresenceRequest{Status: PresenceIdle, PingOnly: true})
	must(err)

	public, err := hamlet.Upload(bg, UploadRequest{Name: "notes.txt", Body: strings.NewReader("to be")})
	must(err)
	private, err := hamlet.Upload(bg, UploadRequest{Name: "skull.png", ContentType: "image/x-skull", Body: strings.NewReader("\x89PNG bones")})
	must(err)
	_, err = iago.Upload(bg, UploadRequest{Name: "draft%20plan.pdf", Body: strings.NewReader("")})
	must(err)
	sent, err := hamlet.SendChannelMessage(bg, "Verona", "files", "[notes]("+public.URI+")")
	must(err)
	dm, err := hamlet.SendDirectMessage(bg, []int{idOthello}, "look: [skull]("+private.URI+")")
	must(err)

	at := clock.Now().Add(time.Hour).Unix()
	_, err = hamlet.CreateReminder(bg, sent.ID, at, "answer this")
	must(err)
	_, err = hamlet.CreateReminder(bg, dm.ID, at+60, "")
	must(err)
	_, err = hamlet.UpdateMessage(bg, UpdateMessageRequest{MessageID: dm.ID, Content: str("look again: [skull](" + private.URI + ")")})
	must(err)
	return r, clock, private.PathID
}

// readFile opens a file as a user and reads it.
func readFile(r *Realm, uid int, pathID string) ([]byte, error) {
	f, err := r.As(uid).OpenUpload(bg, pathID)
	if err != nil {
		return nil, err
	}
	defer f.Blob.Close()
	return io.ReadAll(f.Blob)
}

// TestDumpLoadCarriesActivity: statuses, presence, reminders and uploads
// survive Dump → Load → Dump unchanged, and the loaded realm answers for
// them as the original: files are served at their paths to the same
// users, reminders go out on the loaded realm's clock.
func TestDumpLoadCarriesActivity(t *testing.T) {
	r, clock, private := activityRealm(t)
	first := mustDump(t, r)
	loadedClock := manualAt(clock.Now())
	loaded, err := Load(first, WithClock(loadedClock))
	if err != nil {
		t.Fatal(err)
	}
	if second := mustDump(t, loaded); !bytes.Equal(first, second) {
		t.Fatalf("dump → load → dump differs:\n%s", cmp.Diff(string(first), string(second)))
	}
	for _, want := range []string{`"status_text": "In a meeting"`, `"reaction_type": "realm_emoji"`, `"user_id": 8`,
		`"idle_timestamp"`, `"note": "answer this"`, `"content": "You requested a reminder`, `"name": "draft plan.pdf"`,
		`"content_type": "image/x-skull"`, `"data": "dG8gYmU="`, `"data": ""`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("the dump lacks %s", want)
		}
	}
	if n := bytes.Count(first, []byte(`"content": "You requested`)); n != 1 {
		t.Errorf("%d reminders carry their content, want only the stale one", n)
	}
	if loaded.presence.lastUpdateID != len(loaded.presence.byUser) || len(loaded.presence.byUser) != 3 {
		t.Errorf("presence: %d records, %d updates", len(loaded.presence.byUser), loaded.presence.lastUpdateID)
	}
	for _, uid := range []int{idIago, idHamlet, idOthello} {
		a, b := r.As(uid), loaded.As(uid)
		for name, get := range map[string]func(*Actor) (any, error){
			"presence":    func(x *Actor) (any, error) { return x.RealmPresence(bg) },
			"reminders":   func(x *Actor) (any, error) { return x.Reminders(bg) },
			"attachments": func(x *Actor) (any, error) { return x.Attachments(bg) },
			"statuses": func(x *Actor) (any, error) {
				var all []UserStatus
				for _, id := range []int{idHamlet, idIago, idCordelia, idOthello} {
					s, err := x.UserStatus(bg, id)
					if err != nil {
						return nil, err
					}
					all = append(all, s)
				}
				return all, nil
			},
			"file": func(x *Actor) (any, error) {
				b, err := readFile(x.r, x.id, private)
				return string(b), err
			},
		} {
			want, err1 := get(a)
			got, err2 := get(b)
			if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
				t.Fatalf("user %d's %s: %v, loaded %v", uid, name, err1, err2)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("user %d's %s differ (-original +loaded):\n%s", uid, name, diff)
			}
		}
	}
	if b, err := readFile(loaded, idOthello, private); err != nil || string(b) != "\x89PNG bones" {
		t.Errorf("the recipient reads %q, %v", b, err)
	}
	if _, err := readFile(loaded, idCordelia, private); err == nil || !strings.Contains(err.Error(), "not authorized") {
		t.Errorf("an outsider reads the direct message's file: %v", err)
	}
	if s, _ := loaded.As(idHamlet).UserStatus(bg, idIago); s.EmojiName != "green_tick" {
		t.Errorf("iago's deactivated custom emoji is lost: %+v", s)
	}
	if s, _ := loaded.As(idHamlet).UserStatus(bg, idCordelia); !s.Away || s.StatusText != "" {
		t.Errorf("cordelia's away status: %+v", s)
	}
	// New IDs follow the loaded ones.
	up, err := loaded.As(idIago).Upload(bg, UploadRequest{Name: "next.txt", Body: strings.NewReader("x")})
	if err != nil || loaded.files.byPath[up.PathID].id != r.files.nextID {
		t.Errorf("next upload: %+v %v, want ID %d", up, err, r.files.nextID)
	}
	// The reminders go out on the loaded realm's clock, as the
	// Notification Bot's direct messages to hamlet.
	loadedClock.Advance(2 * time.Hour)
	if list, _ := loaded.As(idHamlet).Reminders(bg); len(list) != 0 {
		t.Fatalf("reminders after their time: %+v", list)
	}
	res, err := loaded.As(idHamlet).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1})
	if err != nil || len(res.Messages) != 1 || !strings.HasPrefix(res.Messages[0].Content, "You requested a reminder for the following direct message.") {
		t.Fatalf("delivered: %v %+v", err, res.Messages)
	}
	// Reset brings the reminders back, and the files as loaded.
	loaded.Reset()
	if again := mustDump(t, loaded); !bytes.Equal(first, again) {
		t.Fatalf("reset of a loaded realm:\n%s", cmp.Diff(string(first), string(again)))
	}
}

// activityDoc is a hand-written document with statuses, presence,
// reminders and uploads, every optional field absent.
func activityDoc() map[string]any {
	b64 := base64.StdEncoding.EncodeToString
	return map[string]any{
		"minizulip_fixture": 1,
		"users": []any{
			map[string]any{"id": 1, "email": "ada@example.com", "full_name": "Ada", "role": 200},
			map[string]any{"id": 2, "email": "bob@example.com", "full_name": "Bob", "date_joined": 100},
			map[string]any{"id": 3, "email": "bot@example.com", "full_name": "Bot", "bot_type": 1, "bot_owner_id": 1},
			map[string]any{"id": 4, "email": "notification-bot@zulip.com", "full_name": "Notification Bot", "bot_type": 1, "is_system_bot": true},
		},
		"channels":      []any{map[string]any{"id": 1, "name": "general", "description": ""}},
		"subscriptions": []any{map[string]any{"user_id": 1, "channel_id": 1}, map[string]any{"user_id": 2, "channel_id": 1}},
		"messages": []any{
			map[string]any{"id": 10, "sender_id": 1, "channel_id": 1, "topic": "news", "timestamp": 500,
				"content": "see [f](/user_uploads/2/ab/tok/f.txt)", "flags": map[string]any{"1": []any{"read"}, "2": []any{}}},
			map[string]any{"id": 11, "sender_id": 1, "to": []any{2}, "timestamp": 600,
				"content": "psst [g](/user_uploads/2/cd/tok2/g.png)", "flags": map[string]any{"1": []any{"read"}, "2": []any{}}},
		},
		"scheduled_messages": []any{map[string]any{"id": 3, "sender_id": 1, "channel_id": 1, "topic": "news", "content": "later",
			"scheduled_delivery_timestamp": 4000000000}},
		"user_statuses": []any{map[string]any{"user_id": 2, "status_text": " lunch ", "emoji_name": "smile"}},
		"presence": []any{
			map[string]any{"user_id": 2, "idle_timestamp": 1200},
			map[string]any{"user_id": 1, "active_timestamp": 1000, "idle_timestamp": 1100},
		},
		"reminders": []any{
			map[string]any{"id": 4, "user_id": 2, "message_id": 10, "note": "read this", "scheduled_delivery_timestamp": 1000},
			map[string]any{"id": 5, "user_id": 1, "message_id": 11, "scheduled_delivery_timestamp": 2000, "failed": true, "failure": "nope"},
		},
		"uploads": []any{
			map[string]any{"id": 1, "owner_id": 1, "name": "f.txt", "path_id": "2/ab/tok/f.txt", "message_ids": []any{10}, "data": b64([]byte("hello"))},
			map[string]any{"id": 2, "owner_id": 1, "name": "g.png", "path_id": "2/cd/tok2/g.png", "message_ids": []any{11}, "data": b64([]byte("PNG"))},
			map[string]any{"id": 7, "owner_id": 2, "name": "draft.txt", "path_id": "2/ef/tok3/draft.txt", "data": b64([]byte("x"))},
		},
	}
}

// TestLoadActivityFillsDefaults: a status's text is trimmed and its
// emoji looked up by name; presence updates are numbered in the order
// listed and seeded presence is not added; a reminder without content is
// worded as POST /reminders words it, one past its time is delivered at
// once (a failed one is not); a file's create time is the load's, its
// type the extension's, it is served to its message's readers only, and
// a file no message claims is swept as unclaimed uploads are.
func TestLoadActivityFillsDefaults(t *testing.T) {
	doc := mustJSON(t, activityDoc())
	clock := clock.NewManual(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	r, err := Load(doc, WithClock(clock), WithSeededPresence())
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.As(1).UserStatus(bg, 2); s.StatusText != "lunch" || s.EmojiName != "smile" || s.EmojiCode == "" || s.ReactionType != "unicode_emoji" {
		t.Errorf("status: %+v", s)
	}
	if len(r.presence.byUser) != 2 || r.presence.byUser[2].updateID != 1 || r.presence.byUser[1].updateID != 2 || r.presence.lastUpdateID != 2 ||
		!r.presence.byUser[2].lastActive.IsZero() || r.presence.byUser[1].lastActive.Unix() != 1000 {
		t.Errorf("presence: %+v, %d updates", r.presence.byUser, r.presence.lastUpdateID)
	}
	p, _ := r.As(1).UserPresence(bg, "2")
	if p["aggregated"].Status != "offline" || p["website"].Timestamp != 1200 || p["website"].Status != PresenceIdle {
		t.Errorf("bob's presence: %+v", p)
	}
	want, _ := r.reminderContent(r.users.byID[2], mustMessage(t, r, 10), "read this")
	if it := r.scheduled.byID[4]; it == nil || it.content != want || !strings.Contains(it.rendered, "read this") {
		t.Fatalf("reminder: %+v", it)
	}
	// The due reminder goes out once the clock's timers run; the failed
	// one stays.
	clock.Advance(0)
	if it := r.scheduled.byID[5]; len(r.scheduled.byID) != 2 || r.scheduled.byID[3] == nil || it == nil || !it.failed || it.failure != "nope" {
		t.Fatalf("scheduled after load: %+v", r.scheduled.byID)
	}
	res, err := r.As(2).Messages(bg, FetchRequest{Anchor: Anchor{ID: AnchorNewest}, NumBefore: 1})
	if err != nil || len(res.Messages) != 1 || !strings.Contains(res.Messages[0].Content, "read this") {
		t.Fatalf("delivered: %v %+v", err, res.Messages)
	}
	if id, err := r.As(1).CreateReminder(bg, 10, clock.Now().Unix()+60, ""); err != nil || id != 6 {
		t.Errorf("next reminder: %d %v", id, err)
	}
	// Files.
	list, _ := r.As(1).Attachments(bg)
	if len(list.Attachments) != 2 || list.UploadSpaceUsed != 9 || list.Attachments[1].CreateTime != clock.Now().Unix() ||
		list.Attachments[0].MessageIDs[0] != 11 {
		t.Errorf("attachments: %+v", list)
	}
	if f := r.files.byID[1]; f.contentType != "text/plain" || r.files.nextID != 8 {
		t.Errorf("content type %q, next ID %d", f.contentType, r.files.nextID)
	}
	if b, err := readFile(r, 2, "2/cd/tok2/g.png"); err != nil || string(b) != "PNG" {
		t.Errorf("the recipient reads %q, %v", b, err)
	}
	if _, err := readFile(r, 3, "2/cd/tok2/g.png"); err == nil {
		t.Error("the bot reads a direct message's file it did not get")
	}
	if b, err := readFile(r, 3, "2/ab/tok/f.txt"); err != nil || string(b) != "hello" {
		t.Errorf("a public channel's file: %q, %v", b, err)
	}
	clock.Advance(UnclaimedUploadLifetime)
	if r.files.byID[7] != nil || r.files.byID[1] == nil {
		t.Error("the unclaimed file outlives its lifetime, or a claimed one is swept")
	}
	// The loaded state is what Reset goes back to: the swept file's bytes
	// stay for it.
	r.Reset()
	if r.files.byID[7] == nil {
		t.Fatal("Reset does not bring the swept file back")
	}
	if b, err := r.UploadStore().Open("2/ef/tok3/draft.txt"); err != nil {
		t.Error("Reset brings back a swept file without its bytes")
	} else {
		b.Close()
	}
}

// TestLoadActivityReplacesStoredFiles: a file the upload store already
// holds at a document's path_id (a directory kept from an earlier run)
// is replaced by the document's bytes.
func TestLoadActivityReplacesStoredFiles(t *testing.T) {
	store := upload.NewMemoryStore()
	if _, err := store.Append("2/ab/tok/f.txt", strings.NewReader("stale bytes")); err != nil {
		t.Fatal(err)
	}
	r, err := Load(mustJSON(t, activityDoc()), WithUploadStore(store))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := readFile(r, 1, "2/ab/tok/f.txt"); err != nil || string(b) != "hello" {
		t.Errorf("read %q, %v", b, err)
	}
}

// TestLoadRefusesBadActivity: each bad status, presence, reminder or
// upload is refused with an error naming it, and a refused document
// leaves no timer and no file behind.
func TestLoadRefusesBadActivity(t *testing.T) {
	item, add := docItem, docAppend
	cases := []struct {
		name   string
		change func(d map[string]any)
		want   string
	}{
		{"status user", func(d map[string]any) { item(d, "user_statuses", 0)["user_id"] = 9 }, "user_statuses[0].user_id: no user 9"},
		{"status bot", func(d map[string]any) { item(d, "user_statuses", 0)["user_id"] = 3 },
			"user_statuses[0].user_id: This endpoint does not accept bot requests."},
		{"status twice", func(d map[string]any) { add(d, "user_statuses", map[string]any{"user_id": 2}) },
			"user_statuses[1].user_id: user 2 has another status"},
		{"status text", func(d map[string]any) { item(d, "user_statuses", 0)["status_text"] = strings.Repeat("a", 61) },
			"user_statuses[0].status_text: status_text is too long (limit: 60 characters)"},
		{"status emoji", func(d map[string]any) { item(d, "user_statuses", 0)["emoji_name"] = "nosuch" },
			"user_statuses[0].emoji_name: Emoji 'nosuch' does not exist"},
		{"status emoji code", func(d map[string]any) { item(d, "user_statuses", 0)["emoji_code"] = "1f600" },
			"user_statuses[0]: Invalid emoji name."},
		{"status emoji type", func(d map[string]any) { item(d, "user_statuses", 0)["reaction_type"] = "fancy_emoji" },
			"user_statuses[0]: Invalid emoji type."},
		{"status code alone", func(d map[string]any) {
			s := item(d, "user_statuses", 0)
			delete(s, "emoji_name")
			s["emoji_code"] = "1f600"
		}, "user_statuses[0]: Client must pass emoji_name if they pass either emoji_code or reaction_type."},
		{"presence user", func(d map[string]any) { item(d, "presence", 0)["user_id"] = 9 }, "presence[0].user_id: no user 9"},
		{"presence bot", func(d map[string]any) { item(d, "presence", 0)["user_id"] = 3 },
			"presence[0].user_id: This endpoint does not accept bot requests."},
		{"presence twice", func(d map[string]any) { add(d, "presence", map[string]any{"user_id": 2, "idle_timestamp": 5}) },
			"presence[2].user_id: user 2 has another presence"},
		{"presence idle", func(d map[string]any) { delete(item(d, "presence", 0), "idle_timestamp") },
			"presence[0].idle_timestamp: 0 is not a time"},
		{"presence active late", func(d map[string]any) { item(d, "presence", 1)["active_timestamp"] = 1101 },
			"presence[1].active_timestamp: 1101 is not a time at or before idle_timestamp 1100"},
		{"presence active negative", func(d map[string]any) { item(d, "presence", 1)["active_timestamp"] = -1 },
			"presence[1].active_timestamp: -1 is not a time at or before idle_timestamp 1100"},
		{"reminder message", func(d map[string]any) { item(d, "reminders", 0)["message_id"] = 99 },
			"reminders[0].message_id: Invalid message(s): user 2 cannot read message 99"},
		{"reminder unreadable", func(d map[string]any) { item(d, "reminders", 1)["user_id"] = 3 },
			"reminders[1].message_id: Invalid message(s): user 3 cannot read message 11"},
		{"reminder user", func(d map[string]any) { item(d, "reminders", 0)["user_id"] = 9 }, "reminders[0].user_id: no user 9"},
		{"reminder id", func(d map[string]any) { item(d, "reminders", 1)["id"] = 3 },
			"reminders[1].id: duplicate reminder ID 3 (reminders and scheduled messages share IDs)"},
		{"reminder zero id", func(d map[string]any) { item(d, "reminders", 0)["id"] = 0 },
			"reminders[0].id: invalid reminder ID 0 (reminders and scheduled messages share IDs)"},
		{"reminder time", func(d map[string]any) { item(d, "reminders", 0)["scheduled_delivery_timestamp"] = -5 },
			"reminders[0].scheduled_delivery_timestamp: -5 is not a time"},
		{"reminder note", func(d map[string]any) { item(d, "reminders", 0)["note"] = strings.Repeat("n", 1001) },
			"reminders[0].note: Maximum reminder note length: 1000 characters"},
		{"reminder content", func(d map[string]any) { item(d, "reminders", 0)["content"] = " " }, "reminders[0].content: empty content"},
		{"reminder failure", func(d map[string]any) { item(d, "reminders", 1)["failed"] = false },
			"reminders[1].failure: a failure without failed"},
		{"upload id", func(d map[string]any) { item(d, "uploads", 1)["id"] = 1 }, "uploads[1].id: duplicate upload ID 1"},
		{"upload owner", func(d map[string]any) { item(d, "uploads", 0)["owner_id"] = 9 }, "uploads[0].owner_id: no user 9"},
		{"upload name", func(d map[string]any) { item(d, "uploads", 0)["name"] = "a/b.txt" }, `uploads[0].name: "a/b.txt" is not a file name`},
		{"upload path", func(d map[string]any) { item(d, "uploads", 0)["path_id"] = "2/../x/f.txt" },
			`uploads[0].path_id: "2/../x/f.txt" is not a path_id of this realm (2/<hex>/<token>/<name>)`},
		{"upload realm", func(d map[string]any) { item(d, "uploads", 0)["path_id"] = "3/ab/tok/f.txt" },
			`uploads[0].path_id: "3/ab/tok/f.txt" is not a path_id of this realm (2/<hex>/<token>/<name>)`},
		{"upload path twice", func(d map[string]any) { item(d, "uploads", 2)["path_id"] = "2/ab/tok/f.txt" },
			`uploads[2].path_id: duplicate path_id "2/ab/tok/f.txt"`},
		{"upload base64", func(d map[string]any) { item(d, "uploads", 2)["data"] = "no*base64" },
			"uploads[2].data: not base64: illegal base64 data at input byte 2"},
		{"upload data absent", func(d map[string]any) { item(d, "uploads", 2)["data"] = "eA" }, "uploads[2].data: not base64: "},
		{"upload too large", func(d map[string]any) {
			item(d, "uploads", 2)["data"] = base64.StdEncoding.EncodeToString(make([]byte, 1<<20+1))
		}, "uploads[2].data: Uploaded file is larger than the allowed limit of 1 MiB"},
		{"upload message", func(d map[string]any) { item(d, "uploads", 0)["message_ids"] = []any{10, 99} },
			"uploads[0].message_ids[1]: no message 99"},
		{"upload unlinked", func(d map[string]any) { item(d, "uploads", 0)["message_ids"] = []any{11} },
			"uploads[0].message_ids[0]: message 11 does not link /user_uploads/2/ab/tok/f.txt"},
		{"upload order", func(d map[string]any) { item(d, "uploads", 0)["message_ids"] = []any{10, 10} },
			"uploads[0].message_ids[1]: message IDs must be positive and ascending (10 after 10)"},
		{"upload time", func(d map[string]any) { item(d, "uploads", 0)["create_time"] = -1 }, "uploads[0].create_time: -1 is not a time"},
	}
	limits := DefaultLimits()
	limits.MaxFileUploadSizeMiB = 1
	load := func(d map[string]any) (*Realm, error, *clock.Manual, int) {
		clock := clock.NewManual(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
		store := upload.NewMemoryStore()
		r, err := Load(mustJSON(t, d), WithClock(clock), WithUploadStore(store), WithLimits(limits))
		return r, err, clock, store.Len()
	}
	// The timers a refused document leaves: those of a realm's creation.
	baseline := func() int {
		d := activityDoc()
		item(d, "users", 1)["id"] = 1
		r, err, clock, _ := load(d)
		if r != nil || err == nil {
			t.Fatal("baseline document loaded")
		}
		return clock.PendingTimers()
	}()
	if _, err, _, _ := load(activityDoc()); err != nil {
		t.Fatalf("the document itself is refused: %v", err)
	}
	for _, c := range cases {
		d := activityDoc()
		c.change(d)
		r, err, clock, files := load(d)
		want := "fixture: " + c.want
		var fe *FixtureError
		if r != nil || !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), want) ||
			(!strings.HasSuffix(want, ": ") && err.Error() != want) {
			t.Errorf("%s: got %v, want %q", c.name, err, want)
		}
		if n := clock.PendingTimers(); n != baseline {
			t.Errorf("%s: a refused load left %d timers", c.name, n)
		}
		if files != 0 {
			t.Errorf("%s: a refused load left %d files in the store", c.name, files)
		}
	}
}

// TestExportCarriesExportedFilesOnly: a public export holds the files
// of its public messages (their claims cut to the exported messages), no
// reminders, and still loads; the direct message's file stays out.
func TestExportCarriesExportedFilesOnly(t *testing.T) {
	r, _, private := activityRealm(t)
	var f fixture.Document
	_ = r.view(func() (err error) {
		f, err = r.exportFixture(ExportPublic)
		return err
	})
	if len(f.Reminders) != 0 || len(f.Uploads) != 1 || f.Uploads[0].Name != "notes.txt" || len(f.Uploads[0].MessageIDs) != 1 {
		t.Fatalf("export: reminders %+v, uploads %+v", f.Reminders, f.Uploads)
	}
	for _, u := range f.Uploads {
		if u.PathID == private {
			t.Error("the direct message's file is exported")
		}
	}
	if _, err := Load(mustJSON(t, f)); err != nil {
		t.Fatalf("the export does not load: %v", err)
	}
}
