package realm

import (
	"slices"
	"strings"
	"testing"
)

// folderIDs lists the IDs of folders, in the order given.
func folderIDs(list []ChannelFolder) []int {
	var out []int
	for _, f := range list {
		out = append(out, f.ID)
	}
	return out
}

func mustCreateFolder(t *testing.T, r *Realm, name, description string) int {
	t.Helper()
	id, err := r.As(idIago).CreateChannelFolder(bg, name, description)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestCreateChannelFolder(t *testing.T) {
	r, clock := newTestRealm(t)
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	gq := mustQueue(t, r, idPolonius, QueueOptions{})
	for _, who := range []int{idHamlet, idShiva, idPolonius} {
		wantCode(t, errOf(r.As(who).CreateChannelFolder(bg, "Frontend", "")), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	}
	id := mustCreateFolder(t, r, "Frontend", "Channels for **frontend** discussions")
	desdemona, err := r.As(idDesdemona).CreateChannelFolder(bg, "Backend", "")
	if err != nil || id != 1 || desdemona != 2 {
		t.Fatalf("ids %d %d, %v", id, desdemona, err)
	}
	list, _ := r.As(idHamlet).ChannelFolders(bg, false)
	want := ChannelFolder{ID: 1, Name: "Frontend", Description: "Channels for **frontend** discussions",
		RenderedDescription: "<p>Channels for <strong>frontend</strong> discussions</p>", Order: intPtr(1),
		CreatorID: intPtr(idIago), DateCreated: clock.Now().Unix()}
	if len(list) != 2 || !sameFolder(list[0], want) || list[1].RenderedDescription != "" || *list[1].CreatorID != idDesdemona || *list[1].Order != 2 {
		t.Fatalf("folders %+v", list)
	}
	// Refusals, which change nothing.
	for _, c := range []struct{ name, description, msg string }{
		{"", "", "Channel folder name can't be empty."},
		{"   ", "", "Channel folder name can't be empty."},
		{"abc\x00", "", "Invalid character in channel folder name, at position 4."},
		{"Frontend", "", "Channel folder name already in use"},
		{"frontEND", "", "Channel folder name already in use"},
		{strings.Repeat("n", 61), "", "name is too long (limit: 60 characters)"},
		{"New", strings.Repeat("d", 1025), "description is too long (limit: 1024 characters)"},
	} {
		wantCode(t, errOf(r.As(idIago).CreateChannelFolder(bg, c.name, c.description)), CodeBadRequest, c.msg)
	}
	if _, err := r.As(idIago).CreateChannelFolder(bg, strings.Repeat("é", 60), strings.Repeat("d", 1024)); err != nil {
		t.Fatalf("limits are in code points: %v", err)
	}
	// An archived folder's name stays taken.
	if err := r.As(idIago).UpdateChannelFolder(bg, 2, ChannelFolderUpdate{IsArchived: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, errOf(r.As(idIago).CreateChannelFolder(bg, "BACKEND", "")), CodeBadRequest, "Channel folder name already in use")
	if all, _ := r.As(idIago).ChannelFolders(bg, true); len(all) != 3 {
		t.Fatalf("folders %+v", all)
	}
	// Every active user, guests included, hears of each new folder.
	for _, q := range []struct {
		id int
		q  *Queue
	}{{idHamlet, hq}, {idPolonius, gq}} {
		evs := eventsOfType(t, r, q.id, q.q, "channel_folder")
		if len(evs) != 4 || evs[0]["op"] != "add" {
			t.Fatalf("events %v", evs)
		}
		f := evs[0]["channel_folder"].(map[string]any)
		if f["id"] != float64(1) || f["name"] != "Frontend" || f["order"] != float64(1) || f["creator_id"] != float64(idIago) ||
			f["is_archived"] != false || f["rendered_description"] != want.RenderedDescription {
			t.Fatalf("add event %v", evs[0])
		}
	}
}

func sameFolder(a, b ChannelFolder) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Description == b.Description && a.RenderedDescription == b.RenderedDescription &&
		*a.Order == *b.Order && *a.CreatorID == *b.CreatorID && a.DateCreated == b.DateCreated && a.IsArchived == b.IsArchived
}

// errOf keeps the error of a two-valued call.
func errOf[T any](_ T, err error) error { return err }

func TestListChannelFolders(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, name := range []string{"Frontend", "Backend", "Marketing"} {
		mustCreateFolder(t, r, name, "")
	}
	if err := r.As(idIago).UpdateChannelFolder(bg, 3, ChannelFolderUpdate{IsArchived: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	for _, who := range []int{idIago, idHamlet, idPolonius} {
		active, _ := r.As(who).ChannelFolders(bg, false)
		all, _ := r.As(who).ChannelFolders(bg, true)
		if !slices.Equal(folderIDs(active), []int{1, 2}) || !slices.Equal(folderIDs(all), []int{1, 2, 3}) || !all[2].IsArchived {
			t.Fatalf("user %d: %v %v", who, folderIDs(active), folderIDs(all))
		}
	}
	// Listed by order once reordered.
	if err := r.As(idIago).ReorderChannelFolders(bg, []int{3, 2, 1}); err != nil {
		t.Fatal(err)
	}
	all, _ := r.As(idHamlet).ChannelFolders(bg, true)
	if !slices.Equal(folderIDs(all), []int{3, 2, 1}) || *all[0].Order != 0 || *all[2].Order != 2 {
		t.Fatalf("reordered %+v", all)
	}
	// Below feature level 414 folders have no order and are listed by ID.
	old, _ := newTestRealm(t, WithFeatureLevel(413, "11.0-dev"))
	mustCreateFolder(t, old, "A", "")
	mustCreateFolder(t, old, "B", "")
	old.channelFolders.list[0].Order = 5
	list, _ := old.As(idHamlet).ChannelFolders(bg, false)
	if !slices.Equal(folderIDs(list), []int{1, 2}) || list[0].Order != nil {
		t.Fatalf("level 413 %+v", list)
	}
}

func TestUpdateChannelFolder(t *testing.T) {
	r, _ := newTestRealm(t)
	mustCreateFolder(t, r, "Frontend", "Channels for frontend discussions")
	mustCreateFolder(t, r, "Backend", "")
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	a := r.As(idIago)
	wantCode(t, r.As(idHamlet).UpdateChannelFolder(bg, 1, ChannelFolderUpdate{Name: str("Web")}), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	wantCode(t, a.UpdateChannelFolder(bg, 999, ChannelFolderUpdate{Name: str("Web")}), CodeBadRequest, "Invalid channel folder ID")
	for _, c := range []struct {
		req ChannelFolderUpdate
		msg string
	}{
		{ChannelFolderUpdate{Name: str("")}, "Channel folder name can't be empty."},
		{ChannelFolderUpdate{Name: str("Backend")}, "Channel folder name already in use"},
		{ChannelFolderUpdate{Name: str("backEND")}, "Channel folder name already in use"},
		// A change of case only meets the folder's own name.
		{ChannelFolderUpdate{Name: str("frontend")}, "Channel folder name already in use"},
		{ChannelFolderUpdate{Name: str("abc\x00")}, "Invalid character in channel folder name, at position 4."},
		{ChannelFolderUpdate{Name: str(strings.Repeat("n", 61))}, "name is too long (limit: 60 characters)"},
		{ChannelFolderUpdate{Description: str(strings.Repeat("d", 1025))}, "description is too long (limit: 1024 characters)"},
	} {
		wantCode(t, a.UpdateChannelFolder(bg, 1, c.req), CodeBadRequest, c.msg)
	}
	// Unchanged values change nothing and announce nothing.
	if err := a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{Name: str("Frontend"), Description: str("Channels for frontend discussions"),
		IsArchived: boolPtr(false)}); err != nil {
		t.Fatal(err)
	}
	if evs := eventsOfType(t, r, idHamlet, hq, "channel_folder"); len(evs) != 0 {
		t.Fatalf("events for no change %v", evs)
	}
	if err := a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{Name: str("Web frontend"), Description: str("Channels for **web**")}); err != nil {
		t.Fatal(err)
	}
	f := r.folderByID(1)
	if f.Name != "Web frontend" || f.Description != "Channels for **web**" || f.RenderedDescription != "<p>Channels for <strong>web</strong></p>" {
		t.Fatalf("folder %+v", f)
	}
	if err := a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{Description: str("")}); err != nil {
		t.Fatal(err)
	}
	if f.Description != "" || f.RenderedDescription != "" {
		t.Fatalf("emptied %+v", f)
	}
	evs := eventsOfType(t, r, idHamlet, hq, "channel_folder")
	if len(evs) != 3 || evs[0]["op"] != "update" || evs[0]["channel_folder_id"] != float64(1) {
		t.Fatalf("events %v", evs)
	}
	if d := evs[0]["data"].(map[string]any); len(d) != 1 || d["name"] != "Web frontend" {
		t.Fatalf("name event %v", evs[0])
	}
	if d := evs[1]["data"].(map[string]any); len(d) != 2 || d["description"] != "Channels for **web**" ||
		d["rendered_description"] != "<p>Channels for <strong>web</strong></p>" {
		t.Fatalf("description event %v", evs[1])
	}
	if d := evs[2]["data"].(map[string]any); d["description"] != "" || d["rendered_description"] != "" {
		t.Fatalf("emptied event %v", evs[2])
	}
}

func TestArchiveChannelFolder(t *testing.T) {
	r, _ := newTestRealm(t)
	mustCreateFolder(t, r, "Frontend", "")
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	a := r.As(idIago)
	if err := a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{IsArchived: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{IsArchived: boolPtr(false)}); err != nil {
		t.Fatal(err)
	}
	evs := eventsOfType(t, r, idHamlet, hq, "channel_folder")
	if len(evs) != 2 || evs[0]["data"].(map[string]any)["is_archived"] != true || evs[1]["data"].(map[string]any)["is_archived"] != false {
		t.Fatalf("events %v", evs)
	}
	// A folder holding a channel, even an archived one, stays; the whole
	// request is refused.
	verona := channelID(t, r, "Verona")
	if err := a.UpdateChannel(bg, ChannelUpdate{ChannelID: verona, FolderID: ptrTo(intPtr(1))}); err != nil {
		t.Fatal(err)
	}
	const inUse = "You need to remove all the channels from this folder to archive it."
	wantCode(t, a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{Name: str("Renamed"), IsArchived: boolPtr(true)}), CodeBadRequest, inUse)
	if f := r.folderByID(1); f.Name != "Frontend" || f.IsArchived {
		t.Fatalf("refused request changed %+v", f)
	}
	if err := a.ArchiveChannel(bg, verona); err != nil {
		t.Fatal(err)
	}
	wantCode(t, a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{IsArchived: boolPtr(true)}), CodeBadRequest, inUse)
	if err := a.UpdateChannel(bg, ChannelUpdate{ChannelID: verona, FolderID: ptrTo[*int](nil)}); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateChannelFolder(bg, 1, ChannelFolderUpdate{IsArchived: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	// A channel may still be put in an archived folder, as in Zulip.
	if err := a.UpdateChannel(bg, ChannelUpdate{ChannelID: channelID(t, r, "Denmark"), FolderID: ptrTo(intPtr(1))}); err != nil {
		t.Fatal(err)
	}
}

func ptrTo[T any](v T) *T { return &v }

func TestReorderChannelFolders(t *testing.T) {
	r, _ := newTestRealm(t)
	for _, name := range []string{"A", "B", "C"} {
		mustCreateFolder(t, r, name, "")
	}
	if err := r.As(idIago).UpdateChannelFolder(bg, 2, ChannelFolderUpdate{IsArchived: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	wantCode(t, r.As(idHamlet).ReorderChannelFolders(bg, []int{3, 2, 1}), CodeUnauthorizedPrincipal, "Must be an organization administrator")
	// Every folder, archived ones included, must be listed.
	for _, order := range [][]int{{3, 1}, {}, {100, 200, 300}} {
		wantCode(t, r.As(idIago).ReorderChannelFolders(bg, order), CodeBadRequest, "Invalid order mapping.")
	}
	if r.folderByID(1).Order != 1 || r.folderByID(3).Order != 3 {
		t.Fatal("a refused reorder changed the order")
	}
	// IDs of no folder are ignored.
	if err := r.As(idIago).ReorderChannelFolders(bg, []int{3, 99, 1, 2}); err != nil {
		t.Fatal(err)
	}
	if r.folderByID(3).Order != 0 || r.folderByID(1).Order != 2 || r.folderByID(2).Order != 3 {
		t.Fatalf("orders %+v %+v %+v", r.folderByID(1), r.folderByID(2), r.folderByID(3))
	}
	evs := eventsOfType(t, r, idHamlet, hq, "channel_folder")
	if len(evs) != 1 || evs[0]["op"] != "reorder" || len(evs[0]["order"].([]any)) != 4 || evs[0]["order"].([]any)[1] != float64(99) {
		t.Fatalf("events %v", evs)
	}
	// No reorder event below feature level 418.
	old, _ := newTestRealm(t, WithFeatureLevel(417, "11.0-dev"))
	mustCreateFolder(t, old, "A", "")
	oq := mustQueue(t, old, idHamlet, QueueOptions{})
	if err := old.As(idIago).ReorderChannelFolders(bg, []int{1}); err != nil {
		t.Fatal(err)
	}
	if evs := eventsOfType(t, old, idHamlet, oq, "channel_folder"); len(evs) != 0 {
		t.Fatalf("level 417 events %v", evs)
	}
}

func TestChannelFolderOfChannels(t *testing.T) {
	r, _ := newTestRealm(t)
	mustCreateFolder(t, r, "Frontend", "")
	a := r.As(idIago)
	wantCode(t, errOf(a.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "web"}}, FolderID: intPtr(2)})), CodeBadRequest, "Invalid channel folder ID")
	wantCode(t, errOf(a.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "web"}}, FolderID: intPtr(0)})), CodeBadRequest, "Invalid channel folder ID")
	if r.channels.byName["web"] != nil {
		t.Fatal("a refused subscribe created the channel")
	}
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	if _, err := a.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "web"}}, FolderID: intPtr(1)}); err != nil {
		t.Fatal(err)
	}
	web := channelID(t, r, "web")
	if v := r.streamView(r.channels.byID[web]); v.FolderID == nil || *v.FolderID != 1 {
		t.Fatalf("folder_id %v", v.FolderID)
	}
	created := eventsOfType(t, r, idHamlet, hq, "stream")
	if len(created) != 1 {
		t.Fatalf("events %v", created)
	}
	for _, ev := range created {
		if s := ev["streams"].([]any)[0].(map[string]any); ev["op"] != "create" || s["folder_id"] != float64(1) {
			t.Fatalf("create event %v", ev)
		}
	}
	// Existing channels take the folder of no subscribe request.
	if _, err := a.Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}, FolderID: intPtr(1)}); err != nil {
		t.Fatal(err)
	}
	verona := channelID(t, r, "Verona")
	if r.channels.byID[verona].FolderID != 0 {
		t.Fatal("subscribing moved an existing channel")
	}
	wantCode(t, a.UpdateChannel(bg, ChannelUpdate{ChannelID: verona, FolderID: ptrTo(intPtr(5))}), CodeBadRequest, "Invalid channel folder ID")
	wantCode(t, r.As(idHamlet).UpdateChannel(bg, ChannelUpdate{ChannelID: verona, FolderID: ptrTo(intPtr(1))}), CodeBadRequest,
		"You do not have permission to administer this channel.")
	if err := a.UpdateChannel(bg, ChannelUpdate{ChannelID: verona, FolderID: ptrTo(intPtr(1))}); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateChannel(bg, ChannelUpdate{ChannelID: web, FolderID: ptrTo[*int](nil)}); err != nil {
		t.Fatal(err)
	}
	evs := slices.DeleteFunc(eventsOfType(t, r, idHamlet, hq, "stream"), func(ev map[string]any) bool { return ev["op"] != "update" })
	if len(evs) != 2 || evs[0]["property"] != "folder_id" || evs[0]["value"] != float64(1) || evs[0]["stream_id"] != float64(verona) ||
		evs[1]["property"] != "folder_id" || evs[1]["value"] != nil || evs[1]["name"] != "web" {
		t.Fatalf("update events %v", evs)
	}
	if r.channels.byID[web].FolderID != 0 || r.channels.byID[verona].FolderID != 1 {
		t.Fatal("folders not stored")
	}
}

func TestChannelFoldersRegister(t *testing.T) {
	r, _ := newTestRealm(t)
	mustCreateFolder(t, r, "A", "")
	mustCreateFolder(t, r, "B", "")
	if err := r.As(idIago).UpdateChannelFolder(bg, 1, ChannelFolderUpdate{IsArchived: boolPtr(true)}); err != nil {
		t.Fatal(err)
	}
	res, err := r.As(idPolonius).Register(bg, RegisterRequest{FetchEventTypes: []string{"channel_folders", "realm"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ChannelFoldersState == nil || !slices.Equal(folderIDs(res.ChannelFolders), []int{1, 2}) || !res.ChannelFolders[0].IsArchived {
		t.Fatalf("register %+v", res.ChannelFoldersState)
	}
	if *res.MaxChannelFolderNameLength != 60 || *res.MaxChannelFolderDescriptionLength != 1024 {
		t.Fatal("limits")
	}
	for _, c := range []struct {
		level           int
		folders, limits bool
	}{{388, false, false}, {389, true, false}, {410, true, true}} {
		old, _ := newTestRealm(t, WithFeatureLevel(c.level, "11.0-dev"))
		res, _ := old.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"channel_folders", "realm"}})
		if (res.ChannelFoldersState != nil) != c.folders || (res.MaxChannelFolderNameLength != nil) != c.limits {
			t.Fatalf("level %d: %+v %v", c.level, res.ChannelFoldersState, res.MaxChannelFolderNameLength)
		}
	}
}

func TestChannelFoldersSnapshotRestore(t *testing.T) {
	r, _ := newTestRealm(t)
	mustCreateFolder(t, r, "A", "")
	snap := r.Snapshot()
	mustCreateFolder(t, r, "B", "")
	if err := r.As(idIago).UpdateChannelFolder(bg, 1, ChannelFolderUpdate{Name: str("Renamed")}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: channelID(t, r, "Verona"), FolderID: ptrTo(intPtr(2))}); err != nil {
		t.Fatal(err)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	list, _ := r.As(idHamlet).ChannelFolders(bg, true)
	if len(list) != 1 || list[0].Name != "A" || r.channels.byID[channelID(t, r, "Verona")].FolderID != 0 {
		t.Fatalf("restored %+v", list)
	}
	// The restored counter numbers the next folder as before.
	if id := mustCreateFolder(t, r, "B", ""); id != 2 {
		t.Fatalf("next id %d", id)
	}
	// The snapshot shares nothing with the realm it was restored into.
	r.channelFolders.list[0].Name = "changed"
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if r.channelFolders.list[0].Name != "A" {
		t.Fatal("snapshot aliased the realm's folders")
	}
}
