package realm

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/internal/store"
	"github.com/minizulip/minizulip/user"
)

// notState are the Realm fields besides its tables: machinery that
// snapshots neither take nor restore.
var notState = []string{"mu", "sendLock", "opts", "clock", "createdAt", "startedAt", "renderer", "events", "clockMu", "serviceCalls",
	"initial", "snapshots",
	// the data directory, if any (durable.go)
	"dur",
	// the send path's generation moves on every write, restores included; its test hook
	"generation", "sendPrepared", "writing", "derivedCache",
	// the clock timer of the next scheduled delivery, set again from the scheduled items
	"delivery",
	// the clock timer of the next full-member promotion, set again from the users
	"fullMembers"}

// TestEveryRealmFieldIsClassified fails when a field is added to Realm
// or to a table without deciding whether snapshots copy it: a Realm field
// is a table or machinery, every field of tables is a registered domain's
// table, and every field of every table is set in a snapshot of the dev
// realm (a clone that forgot it would leave it zero) unless listed as
// empty there.
func TestEveryRealmFieldIsClassified(t *testing.T) {
	realmType := reflect.TypeFor[Realm]()
	for i := range realmType.NumField() {
		if name := realmType.Field(i).Name; name != "tables" && !slices.Contains(notState, name) {
			t.Errorf("Realm.%s is neither a table nor listed as not state", name)
		}
	}
	var probe tables
	registered := map[uintptr]string{}
	for _, d := range domains {
		if tab := d.of(&probe); tab != nil {
			registered[reflect.ValueOf(tab).Pointer()] = d.name
		}
	}
	r, _ := newTestRealm(t)
	snap := reflect.ValueOf(r.Snapshot().state).Elem()
	pv := reflect.ValueOf(&probe).Elem()
	for i := range pv.NumField() {
		name := pv.Type().Field(i).Name
		if _, ok := registered[pv.Field(i).Addr().Pointer()]; !ok {
			t.Errorf("tables.%s is not a registered domain's table (domains.go)", name)
			continue
		}
		table := snap.Field(i)
		if table.Kind() != reflect.Struct {
			if table.IsZero() && !slices.Contains(emptyInDevRealm, name) {
				t.Errorf("the snapshot's %s is zero", name)
			}
			continue
		}
		for j := range table.NumField() {
			field := name + "." + table.Type().Field(j).Name
			if table.Field(j).IsZero() && !slices.Contains(emptyInDevRealm, field) {
				t.Errorf("the snapshot's %s is zero", field)
			}
		}
	}
}

// emptyInDevRealm are the state fields (table.field) a new dev realm
// leaves empty.
var emptyInDevRealm = []string{
	"settings.MandatoryTopics",
	"settings.EmailsRestrictedToDomains",
	"settings.EmailChangesDisabled",
	"settings.NameChangesDisabled",
	"settings.AvatarChangesDisabled",
	"settings.SignupAnnouncementsStreamID",    // the dev realm announces no signups
	"settings.NewStreamAnnouncementsStreamID", // nor new channels
	"settings.PresenceDisabled",
	"settings.JitsiServerURL", // the server's
	"settings.RequireUniqueNames",
	"settings.RequireE2EEPushNotifications",
	"settings.WelcomeMessageCustomText",
	"settings.PushNotificationsEnabled",
	"settings.PushNotificationsEnabledEnd",
	"presence.lastUpdateID",
	"presence.byUser",
	"statuses.byUser",
	"snippets.byUser",
	"navigationViews.byUser",
	"playgrounds.list",
	"channelFolders.list",
	"userTopics.byUser",
	"mail.outbox",
	"mail.pending",
	"mutedUsers.byUser",
	"alertWords.byUser",
	"storage.byUser",
	"messages.lastSubmessageID",
	"scheduled.byID",
	"scheduled.lastID",
	"invites.email",
	"invites.links",
	"invites.lastEmailID",
	"invites.lastLinkID",
	"invites.sent",
	"push.devices",
	"push.sent",
	"files.spaceUsed",
	"calls.everyone",
	"exports.list",
}

// stateDiff compares the state (everything but messages) of two realms.
func stateDiff(a, b *tables) string {
	return cmp.Diff(a, b,
		cmp.Exporter(func(reflect.Type) bool { return true }),
		cmpopts.IgnoreFields(messageTable{}, "store"),
		cmpopts.IgnoreFields(uploadTable{}, "store", "thumbs"),
		cmpopts.IgnoreFields(callTable{}, "providers"),
		cmp.Comparer(func(a, b *linkifier.Linkifier) bool { return a.ID == b.ID && reflect.DeepEqual(a.Spec, b.Spec) }),
	)
}

// messagesOf describes every stored message and every user's copies.
func messagesOf(r *tables) string {
	var b strings.Builder
	r.messages.store.All().Up(0, func(m *message.Message) bool {
		c := m.Changes()
		fmt.Fprintf(&b, "%d %d/%q %q %q reactions=%v edits=%d edited=%d moved=%d\n", m.ID, m.ChannelID, m.Topic,
			m.Content, m.Rendered, c.Reactions, c.Edits.Len(), c.LastEditTS, c.LastMovedTS)
		return true
	})
	for _, u := range r.users.sorted() {
		fmt.Fprintf(&b, "user %d:", u.ID)
		r.messages.store.Copies(u.ID, 0, func(c store.Copy) bool {
			fmt.Fprintf(&b, " %d/%v", c.Message.ID, c.Flags.Names())
			return true
		})
		b.WriteString("\n")
	}
	return b.String()
}

// frozen is a copy of r's whole state, for comparing later.
func frozen(r *Realm) (*tables, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := &tables{}
	f.copyFrom(&r.tables)
	return f, messagesOf(&r.tables)
}

// seedForSnapshots gives the dev realm messages, reactions and flags.
func seedForSnapshots(t *testing.T, r *Realm) (channelMsg, dm int64) {
	t.Helper()
	res, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "first **words**")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "castle", "a reply"); err != nil {
		t.Fatal(err)
	}
	dmRes, err := r.As(idIago).SendDirectMessage(bg, []int{idHamlet}, "psst")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).AddReaction(bg, ReactionRequest{MessageID: res.ID, EmojiName: str("octopus")}); err != nil {
		t.Fatal(err)
	}
	return res.ID, dmRes.ID
}

// TestSnapshotIsUntouchedByLaterChanges changes every kind of state after
// a snapshot, in place and through the API, and checks that the snapshot
// kept the state of its moment, and that Restore brings it back whole.
func TestSnapshotIsUntouchedByLaterChanges(t *testing.T) {
	r, _ := newTestRealm(t)
	msgID, dmID := seedForSnapshots(t, r)
	seedPushDevices(t, r)
	want, wantMsgs := frozen(r)
	snap := r.Snapshot()

	changes := []struct {
		name   string
		change func()
	}{
		{"user", func() {
			_ = r.update(func() error {
				u := r.users.byID[idHamlet]
				u.FullName, u.Role = "Prince", user.RoleAdmin
				u.Settings.TranslateEmoticons = !u.Settings.TranslateEmoticons
				u.ProfileData[1] = user.ProfileValue{Value: "changed"}
				return nil
			})
		}},
		{"new user", func() {
			if _, err := r.AddUser(NewUser{Email: "new@zulip.com", FullName: "New"}); err != nil {
				t.Fatal(err)
			}
		}},
		{"channel", func() {
			_ = r.update(func() error {
				ch := r.channels.byName["verona"]
				ch.Description, ch.InviteOnly = "changed", true
				ch.Permissions = map[string]GroupSetting{"x": {DirectMembers: []int{1}}}
				return nil
			})
		}},
		{"subscription", func() {
			if err := r.As(idHamlet).UpdateSubscriptionProperties(bg, []SubscriptionPropertyChange{
				{ChannelID: r.channels.byName["verona"].ID, Property: "color", Value: "#000000"}}); err != nil {
				t.Fatal(err)
			}
			_ = r.update(func() error {
				on := true
				r.channels.subs[r.channels.byName["denmark"].ID][idIago].PushNotifications = &on
				return nil
			})
		}},
		{"group", func() {
			_ = r.update(func() error {
				g := r.groups.byName["hamletcharacters"]
				g.Members[idIago] = struct{}{}
				g.Description = "changed"
				return nil
			})
		}},
		{"reaction", func() {
			if err := r.As(idHamlet).RemoveReaction(bg, ReactionRequest{MessageID: msgID, EmojiName: str("octopus")}); err != nil {
				t.Fatal(err)
			}
			if err := r.As(idIago).AddReaction(bg, ReactionRequest{MessageID: msgID, EmojiName: str("smile")}); err != nil {
				t.Fatal(err)
			}
			if err := r.As(idHamlet).AddReaction(bg, ReactionRequest{MessageID: dmID, EmojiName: str("smile")}); err != nil {
				t.Fatal(err)
			}
		}},
		{"message content edit", func() {
			if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: msgID, Content: str("edited")}); err != nil {
				t.Fatal(err)
			}
			if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: dmID, Content: str("edited dm")}); err != nil {
				t.Fatal(err)
			}
		}},
		{"topic move", func() {
			if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: msgID, Topic: str("moat"),
				PropagateMode: ChangeAll}); err != nil {
				t.Fatal(err)
			}
		}},
		{"flags", func() {
			if _, err := r.As(idHamlet).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{msgID, dmID}, Op: "add", Flag: "starred"}); err != nil {
				t.Fatal(err)
			}
			if _, err := r.As(idHamlet).MarkAllAsRead(bg); err != nil {
				t.Fatal(err)
			}
		}},
		{"new message", func() {
			if _, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "new", "later"); err != nil {
				t.Fatal(err)
			}
		}},
		{"settings", func() {
			r.UpdateSettings(func(s *Settings) {
				s.Name = "changed"
				*s.MessageContentEditLimitSeconds = 1
				s.CanCreateGroups.DirectMembers = append(s.CanCreateGroups.DirectMembers, idIago)
			})
		}},
		{"push devices", func() {
			_ = r.As(idHamlet).AddPushDevice(bg, user.PushFCM, str("t1"), nil)
			_ = r.As(idIago).RemovePushDevice(bg, user.PushAPNs, str("c0ffee"))
			_ = r.As(idIago).SendTestPushNotification(bg, nil)
		}},
		{"emoji and linkifiers", func() {
			_ = r.update(func() error {
				r.realmEmoji.list[0].Deactivated = true
				r.linkifiers.list[0] = r.linkifiers.list[len(r.linkifiers.list)-1]
				return nil
			})
		}},
	}
	for _, c := range changes {
		name := c.name
		c.change()
		if diff := stateDiff(want, snap.state); diff != "" {
			t.Fatalf("after %s the snapshot changed (-want +got):\n%s", name, diff)
		}
		if got := messagesOf(snap.state); got != wantMsgs {
			t.Fatalf("after %s the snapshot's messages changed:\n%s", name, cmp.Diff(wantMsgs, got))
		}
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if diff := stateDiff(want, &r.tables); diff != "" {
		t.Fatalf("restored state differs (-want +got):\n%s", diff)
	}
	if got := messagesOf(&r.tables); got != wantMsgs {
		t.Fatalf("restored messages differ:\n%s", cmp.Diff(wantMsgs, got))
	}
	// The restored realm works: the same edit succeeds again, and a second
	// restore undoes it.
	if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: msgID, Content: str("again")}); err != nil {
		t.Fatal(err)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := messagesOf(&r.tables); got != wantMsgs {
		t.Fatalf("second restore:\n%s", cmp.Diff(wantMsgs, got))
	}
}

// TestSnapshotSharesNothingMutable walks the live state and a snapshot's
// and checks that no map, slice or pointer is reachable from both, but
// for what is never changed in place.
func TestSnapshotSharesNothingMutable(t *testing.T) {
	r, _ := newTestRealm(t)
	seedForSnapshots(t, r)
	seedPushDevices(t, r)
	r.UpdateSettings(func(s *Settings) {
		limit := 600
		s.MessageContentEditLimitSeconds = &limit
	})
	_ = r.update(func() error {
		r.channels.byName["verona"].Permissions = map[string]GroupSetting{"x": {DirectMembers: []int{1}}}
		days := 3
		r.channels.byName["verona"].MessageRetentionDays = &days
		r.statuses.byUser = map[int]*storedStatus{idIago: {text: "away"}}
		r.presence.byUser = map[int]*presenceRecord{idIago: {updateID: 1}}
		r.mail.pending = map[string]pendingEmailChange{"k": {userID: 1}}
		return nil
	})
	snap := r.Snapshot()
	live := reachable(&r.tables)
	for addr, path := range reachable(snap.state) {
		if other, ok := live[addr]; ok {
			t.Errorf("%s of the snapshot is shared with the live realm's %s", path, other)
		}
	}
}

// reachable maps the address of every map, slice array and pointer
// reachable from r's state (messages aside) to a path naming it.
func reachable(r *tables) map[uintptr]string {
	seen := map[uintptr]string{}
	v := reflect.ValueOf(r).Elem()
	for i := range v.NumField() {
		if name := v.Type().Field(i).Name; name != "messages" {
			walk(v.Field(i), name, seen)
		}
	}
	return seen
}

var sharedTypes = []reflect.Type{reflect.TypeFor[*linkifier.Linkifier](), reflect.TypeFor[[]byte]()}

func walk(v reflect.Value, path string, seen map[uintptr]string) {
	if slices.Contains(sharedTypes, v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if _, ok := seen[v.Pointer()]; ok {
			return
		}
		seen[v.Pointer()] = path
		walk(v.Elem(), path, seen)
	case reflect.Map:
		if v.IsNil() {
			return
		}
		seen[v.Pointer()] = path
		for it := v.MapRange(); it.Next(); {
			walk(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), seen)
		}
	case reflect.Slice:
		if v.Cap() > 0 {
			seen[v.Pointer()] = path
		}
		for i := range v.Len() {
			walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			walk(v.Field(i), path+"."+v.Type().Field(i).Name, seen)
		}
	case reflect.Interface:
		// upload stores, the thumbnail cache and call providers:
		// services, shared on purpose
	}
}

// TestRestoreDropsEventQueues: after Restore and Reset, a queue's next
// poll answers BAD_EVENT_QUEUE_ID as an expired queue does.
func TestRestoreDropsEventQueues(t *testing.T) {
	r, _ := newTestRealm(t)
	snap := r.Snapshot()
	for name, back := range map[string]func(){
		"restore": func() {
			if err := r.Restore(snap); err != nil {
				t.Fatal(err)
			}
		},
		"reset": r.Reset,
	} {
		q := mustQueue(t, r, idHamlet, QueueOptions{})
		back()
		_, err := r.As(idHamlet).Events(bg, GetEventsRequest{QueueID: q.ID(), LastEventID: -1, DontBlock: true})
		if !errors.Is(err, &Error{Code: CodeBadEventQueueID}) {
			t.Fatalf("%s: poll of a dropped queue: %v, want BAD_EVENT_QUEUE_ID", name, err)
		}
		if r.QueueCount() != 0 {
			t.Fatalf("%s: %d queues left", name, r.QueueCount())
		}
	}
}

// TestResetGoesBackToTheSeededRealm: users, channels, messages and the
// next IDs are those New made; API keys are kept; the clock is not
// turned back.
func TestResetGoesBackToTheSeededRealm(t *testing.T) {
	r, clock := newTestRealm(t)
	want, wantMsgs := frozen(r)
	_, keyBefore, _ := r.APIKey("iago@zulip.com")
	seedForSnapshots(t, r)
	if _, err := r.AddUser(NewUser{Email: "new@zulip.com", FullName: "New"}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	now := r.Now()
	r.Reset()
	if diff := stateDiff(want, &r.tables); diff != "" {
		t.Fatalf("reset state differs (-want +got):\n%s", diff)
	}
	if got := messagesOf(&r.tables); got != wantMsgs || r.messages.store.Len() != 0 {
		t.Fatalf("reset left messages:\n%s", got)
	}
	if _, key, _ := r.APIKey("iago@zulip.com"); key != keyBefore {
		t.Fatal("reset changed an API key")
	}
	if _, ok := r.UserIDByEmail("new@zulip.com"); ok {
		t.Fatal("the user added later survived the reset")
	}
	if !r.Now().Equal(now) {
		t.Fatalf("reset moved the clock to %v", r.Now())
	}
	// Numbering starts again where New left it.
	res, err := r.As(idIago).SendChannelMessage(bg, "Verona", "t", "x")
	if err != nil || res.ID != 1 {
		t.Fatalf("first message after reset: %v, %v", res.ID, err)
	}
}

// TestRestoreRefusesAForeignSnapshot: a snapshot of another realm (a fork
// included) is refused and nothing changes.
func TestRestoreRefusesAForeignSnapshot(t *testing.T) {
	r, _ := newTestRealm(t)
	other, _ := newTestRealm(t)
	fork := r.Fork()
	seedForSnapshots(t, r)
	want, wantMsgs := frozen(r)
	for name, s := range map[string]*Snapshot{"other realm": other.Snapshot(), "fork": fork.Snapshot(), "nil": nil} {
		if err := r.Restore(s); !errors.Is(err, ErrForeignSnapshot) {
			t.Fatalf("%s: %v, want ErrForeignSnapshot", name, err)
		}
		if diff := stateDiff(want, &r.tables); diff != "" || messagesOf(&r.tables) != wantMsgs {
			t.Fatalf("%s: a refused restore changed the realm: %s", name, diff)
		}
	}
}

// TestSnapshotIDsCount: snapshots are numbered from 1 and carry the time.
func TestSnapshotIDsCount(t *testing.T) {
	r, clock := newTestRealm(t)
	a := r.Snapshot()
	clock.Advance(time.Minute)
	b := r.Snapshot()
	if a.ID() != 1 || b.ID() != 2 || !b.Taken().Equal(a.Taken().Add(time.Minute)) {
		t.Fatalf("ids %d, %d; taken %v, %v", a.ID(), b.ID(), a.Taken(), b.Taken())
	}
}

// TestForkIsIndependent: writes in a fork and in its origin (sends,
// edits, reactions, flags, users) are seen only where they are made; the
// fork has no event queues, and its Reset goes back to the seeded realm.
func TestForkIsIndependent(t *testing.T) {
	r, _ := newTestRealm(t)
	msgID, _ := seedForSnapshots(t, r)
	mustQueue(t, r, idIago, QueueOptions{})
	origin, originMsgs := frozen(r)
	fork := r.Fork()
	if fork.QueueCount() != 0 {
		t.Fatalf("the fork has %d queues", fork.QueueCount())
	}
	if diff := stateDiff(origin, &fork.tables); diff != "" || messagesOf(&fork.tables) != originMsgs {
		t.Fatalf("the fork differs from its origin: %s", diff)
	}
	write := func(x *Realm, content string) {
		t.Helper()
		if err := x.As(idHamlet).RemoveReaction(bg, ReactionRequest{MessageID: msgID, EmojiName: str("octopus")}); err != nil {
			t.Fatal(err)
		}
		if _, err := x.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: msgID, Content: &content}); err != nil {
			t.Fatal(err)
		}
		if err := x.As(idIago).AddReaction(bg, ReactionRequest{MessageID: msgID, EmojiName: str("smile")}); err != nil {
			t.Fatal(err)
		}
		if _, err := x.As(idHamlet).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{msgID}, Op: "add", Flag: "starred"}); err != nil {
			t.Fatal(err)
		}
		if _, err := x.As(idIago).SendChannelMessage(bg, "Verona", "castle", content); err != nil {
			t.Fatal(err)
		}
		if _, err := x.AddUser(NewUser{Email: content + "@zulip.com", FullName: content}); err != nil {
			t.Fatal(err)
		}
	}
	write(fork, "forked")
	if diff := stateDiff(origin, &r.tables); diff != "" || messagesOf(&r.tables) != originMsgs {
		t.Fatalf("the origin saw the fork's writes: %s", diff)
	}
	forked, forkedMsgs := frozen(fork)
	write(r, "original")
	if diff := stateDiff(forked, &fork.tables); diff != "" || messagesOf(&fork.tables) != forkedMsgs {
		t.Fatalf("the fork saw the origin's writes: %s", diff)
	}
	if m, _ := fork.messages.store.Message(msgID); m.Content != "forked" {
		t.Fatalf("fork's message: %q", m.Content)
	}
	if m, _ := r.messages.store.Message(msgID); m.Content != "original" {
		t.Fatalf("origin's message: %q", m.Content)
	}
	fork.Reset()
	if fork.messages.store.Len() != 0 || r.messages.store.Len() != 4 {
		t.Fatalf("after the fork's reset: fork %d messages, origin %d", fork.messages.store.Len(), r.messages.store.Len())
	}
}

// TestForksRunConcurrently writes a realm and its fork at the same time
// (sends, edits, reactions, flags) while the realm is snapshotted and
// restored: the race detector checks that the shared messages, btree
// nodes and copy blocks are only ever read by both.
func TestForksRunConcurrently(t *testing.T) {
	r, _ := newTestRealm(t)
	msgID, _ := seedForSnapshots(t, r)
	for range 300 { // several copy blocks
		if _, err := r.As(idIago).SendChannelMessage(bg, "Verona", "castle", "filler"); err != nil {
			t.Fatal(err)
		}
	}
	base := msgID + 3 // iago's fillers
	fork := r.Fork()
	snap := r.Snapshot()
	done := make(chan error, 3)
	work := func(x *Realm, tag string) {
		for i := range 30 {
			content := fmt.Sprintf("%s %d", tag, i)
			if _, err := x.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: base + int64(i), Content: &content}); err != nil {
				done <- err
				return
			}
			if _, err := x.As(idIago).SendChannelMessage(bg, "Verona", "castle", content); err != nil {
				done <- err
				return
			}
			if _, err := x.As(idHamlet).UpdateMessageFlags(bg, FlagsRequest{Messages: []int64{base + int64(i)}, Op: "add", Flag: "starred"}); err != nil {
				done <- err
				return
			}
			_ = x.As(idOthello).AddReaction(bg, ReactionRequest{MessageID: base + int64(i), EmojiName: str("smile")})
		}
		done <- nil
	}
	go work(r, "origin")
	go work(fork, "fork")
	go func() {
		for range 10 {
			if err := r.Restore(snap); err != nil {
				done <- err
				return
			}
			_ = r.Snapshot()
		}
		done <- nil
	}()
	for range 3 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if m, _ := fork.messages.store.Message(base + 29); m.Content != "fork 29" {
		t.Fatalf("fork's last edit: %q", m.Content)
	}
}
