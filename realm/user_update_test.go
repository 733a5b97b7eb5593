package realm

import (
	"slices"
	"testing"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

func intp(v int) *int { return &v }

// directRoleGroups lists the system groups u is a direct member of, by name.
func directRoleGroups(r *Realm, userID int) []string {
	var out []string
	for _, name := range []string{group.Owners, group.Administrators, group.Moderators, group.FullMembers, group.Members, group.Everyone} {
		if _, ok := r.groups.byName[name].Members[userID]; ok {
			out = append(out, name)
		}
	}
	return out
}

func TestUpdateUserRoleMovesGroupsAndTellsTheRealm(t *testing.T) {
	r, _ := newTestRealm(t)
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	if got := directRoleGroups(r, idOthello); !slices.Equal(got, []string{group.FullMembers, group.Members}) {
		t.Fatalf("othello starts in %v", got)
	}
	if err := r.As(idIago).UpdateUser(bg, idOthello, UserUpdate{Role: intp(int(user.RoleModerator))}); err != nil {
		t.Fatal(err)
	}
	u, _ := r.As(idIago).User(bg, idOthello, UserViewOptions{})
	if u.Role != int(user.RoleModerator) {
		t.Fatalf("role %d", u.Role)
	}
	if got := directRoleGroups(r, idOthello); !slices.Equal(got, []string{group.Moderators}) {
		t.Fatalf("othello now in %v", got)
	}
	evs := pending(t, r, idHamlet, hq, -1)
	var kinds []string
	for _, ev := range evs {
		m := eventJSON(t, ev)
		switch ev.Type {
		case "realm_user":
			p := m["person"].(map[string]any)
			if p["user_id"] != float64(idOthello) || p["role"] != float64(300) || len(p) != 2 {
				t.Fatalf("realm_user event %v", m)
			}
			kinds = append(kinds, "role")
		case "user_group":
			g := r.groups.byID[int(m["group_id"].(float64))]
			if ids := m["user_ids"].([]any); len(ids) != 1 || ids[0] != float64(idOthello) {
				t.Fatalf("user_group event %v", m)
			}
			kinds = append(kinds, m["op"].(string)+" "+g.Name)
		}
	}
	want := []string{"role", "remove_members " + group.Members, "add_members " + group.Moderators, "remove_members " + group.FullMembers}
	if !slices.Equal(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
}

func TestUpdateUserRoleChangesWhatChannelsTheUserSees(t *testing.T) {
	r, _ := newTestRealm(t)
	pq := mustQueue(t, r, idPolonius, QueueOptions{})
	// A guest sees only Verona; as a member, every public channel.
	if err := r.As(idIago).UpdateUser(bg, idPolonius, UserUpdate{Role: intp(int(user.RoleMember))}); err != nil {
		t.Fatal(err)
	}
	created := eventsOfType(t, r, idPolonius, pq, "stream")
	if len(created) != 1 || created[0]["op"] != "create" {
		t.Fatalf("stream events %v", created)
	}
	var names []string
	for _, s := range created[0]["streams"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	if slices.Contains(names, "Verona") || !slices.Contains(names, "Denmark") || slices.Contains(names, "core team") {
		t.Fatalf("gained channels %v", names)
	}
	// Back to guest: the public channels are gone again, one delete each.
	if err := r.As(idIago).UpdateUser(bg, idPolonius, UserUpdate{Role: intp(int(user.RoleGuest))}); err != nil {
		t.Fatal(err)
	}
	deleted := 0
	for _, ev := range eventsOfType(t, r, idPolonius, pq, "stream") {
		if ev["op"] == "delete" {
			deleted++
		}
	}
	if deleted != len(names) {
		t.Fatalf("%d deletes for %d channels", deleted, len(names))
	}
	if got := directRoleGroups(r, idPolonius); !slices.Equal(got, []string{group.Everyone}) {
		t.Fatalf("polonius in %v", got)
	}
}

func TestUpdateUserRolePermissions(t *testing.T) {
	r, _ := newTestRealm(t)
	cases := []struct {
		name   string
		actor  int
		target int
		role   int
		code   Code
		msg    string
	}{
		{"member", idHamlet, idOthello, 300, CodeBadRequest, "Insufficient permission"},
		{"moderator", idShiva, idOthello, 300, CodeBadRequest, "Insufficient permission"},
		{"admin grants owner", idIago, idOthello, 100, CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"admin demotes owner", idIago, idDesdemona, 400, CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"last owner", idDesdemona, idDesdemona, 200, CodeBadRequest, "The owner permission cannot be removed from the only organization owner."},
		{"bad role", idIago, idOthello, 500, CodeBadRequest, "Invalid role"},
		{"no user", idIago, 999, 400, CodeBadRequest, "No such user"},
		{"system bot", idIago, idNotificationBot, 400, CodeBadRequest, "No such user"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := r.As(c.actor).UpdateUser(bg, c.target, UserUpdate{Role: &c.role, FullName: str("Renamed")})
			wantCode(t, err, c.code, c.msg)
		})
	}
	for _, id := range []int{idOthello, idDesdemona} {
		if u := r.users.byID[id]; u.FullName == "Renamed" || (id == idOthello && u.Role != user.RoleMember) || (id == idDesdemona && u.Role != user.RoleOwner) {
			t.Fatalf("a refused update changed user %d: %+v", id, u)
		}
	}
	// An owner may make another owner, and then step down.
	if err := r.As(idDesdemona).UpdateUser(bg, idIago, UserUpdate{Role: intp(100)}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idDesdemona).UpdateUser(bg, idDesdemona, UserUpdate{Role: intp(200)}); err != nil {
		t.Fatal(err)
	}
	if r.users.byID[idIago].Role != user.RoleOwner || r.users.byID[idDesdemona].Role != user.RoleAdmin {
		t.Fatalf("roles %d %d", r.users.byID[idIago].Role, r.users.byID[idDesdemona].Role)
	}
}

func TestUpdateUserNameAndBotOwner(t *testing.T) {
	r, _ := newTestRealm(t)
	bot, err := r.As(idHamlet).CreateBot(bg, BotRequest{FullName: "Helper", ShortName: "helper"})
	if err != nil {
		t.Fatal(err)
	}
	// The owner may rename their bot, not give it a role.
	if err := r.As(idHamlet).UpdateUser(bg, bot.UserID, UserUpdate{FullName: str("  Better helper ")}); err != nil {
		t.Fatal(err)
	}
	if got := r.users.byID[bot.UserID].FullName; got != "Better helper" {
		t.Fatalf("bot name %q", got)
	}
	err = r.As(idHamlet).UpdateUser(bg, bot.UserID, UserUpdate{Role: intp(200)})
	wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	// A blank name is ignored; a bad one refused.
	if err := r.As(idIago).UpdateUser(bg, idOthello, UserUpdate{FullName: str("   ")}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, r.As(idIago).UpdateUser(bg, idOthello, UserUpdate{FullName: str("a*b")}), CodeBadRequest, "Invalid characters in name!")
	if r.users.byID[idOthello].FullName != "Othello, the Moor of Venice" {
		t.Fatalf("name %q", r.users.byID[idOthello].FullName)
	}
	// Deactivated users can be renamed, by email too.
	if err := r.As(idIago).DeactivateUser(bg, idProspero); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idIago).UpdateUserByEmail(bg, "prospero@zulip.com", UserUpdate{FullName: str("Prospero")}); err != nil {
		t.Fatal(err)
	}
	if r.users.byID[idProspero].FullName != "Prospero" {
		t.Fatalf("name %q", r.users.byID[idProspero].FullName)
	}
}

func TestUpdateUserProfileData(t *testing.T) {
	r, _ := newTestRealm(t)
	iq := mustQueue(t, r, idIago, QueueOptions{})
	// Hamlet has values for fields 1 (phone), 3 (food) and 8 (GitHub).
	err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{ProfileData: []ProfileDataUpdate{
		{ID: 3, Value: "Bread"}, {ID: 1, Value: nil}, {ID: 8, Value: ""},
	}})
	if err != nil {
		t.Fatal(err)
	}
	pd := r.users.byID[idHamlet].ProfileData
	if pd[3].Value != "Bread" || pd[3].RenderedValue != "<p>Bread</p>" {
		t.Fatalf("field 3: %+v", pd[3])
	}
	if _, ok := pd[1]; ok {
		t.Fatal("field 1 not removed")
	}
	if _, ok := pd[8]; ok {
		t.Fatal("field 8 not removed")
	}
	fields := map[float64]any{}
	for _, ev := range eventsOfType(t, r, idIago, iq, "realm_user") {
		f := ev["person"].(map[string]any)["custom_profile_field"].(map[string]any)
		fields[f["id"].(float64)] = f["value"]
	}
	if len(fields) != 3 || fields[3] != "Bread" || fields[1] != nil || fields[8] != nil {
		t.Fatalf("profile events %v", fields)
	}
	// A bad value or an unknown field changes nothing, names included.
	for _, bad := range []ProfileDataUpdate{{ID: 99, Value: "x"}, {ID: 4, Value: "not an option"}, {ID: 7, Value: []int{999}}} {
		err := r.As(idIago).UpdateUser(bg, idHamlet, UserUpdate{FullName: str("Changed"), ProfileData: []ProfileDataUpdate{{ID: 3, Value: "Cake"}, bad}})
		wantCode(t, err, CodeBadRequest, "")
	}
	if r.users.byID[idHamlet].FullName != "King Hamlet" || r.users.byID[idHamlet].ProfileData[3].Value != "Bread" {
		t.Fatalf("refused update changed hamlet: %q %+v", r.users.byID[idHamlet].FullName, r.users.byID[idHamlet].ProfileData[3])
	}
}
