package group

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckName(t *testing.T) {
	if got, err := CheckName("  players "); err != nil || got != "players" {
		t.Fatalf("%q %v", got, err)
	}
	for raw, msg := range map[string]string{
		"   ":                    "User group name can't be empty!",
		strings.Repeat("é", 101): "User group name cannot exceed 100 characters.",
		"role:admins":            "User group name cannot start with 'role:'.",
		"@team":                  "User group name cannot start with '@'.",
		"nul\x00name":            "Invalid character in user group name, at position 4.",
		"channel:x":              "User group name cannot start with 'channel:'.",
	} {
		if _, err := CheckName(raw); err == nil || err.Error() != msg {
			t.Errorf("%q: %v, want %q", raw, err, msg)
		}
	}
	if _, err := CheckName(strings.Repeat("é", 100)); err != nil {
		t.Errorf("100 characters are allowed: %v", err)
	}
}

func TestAddWouldCycle(t *testing.T) {
	g := graph{}
	for id := 1; id <= 4; id++ {
		g[id] = New(id, "", "", false)
	}
	g[2].Subgroups[3] = struct{}{} // 2 ⊃ 3
	g[4].Subgroups[1] = struct{}{} // 4 ⊃ 1
	if AddWouldCycle(g[1], []int{2}, g.lookup) {
		t.Fatal("1 ⊃ 2 ⊃ 3 has no cycle")
	}
	if !AddWouldCycle(g[1], []int{4}, g.lookup) {
		t.Fatal("1 ⊃ 4 ⊃ 1 is a cycle")
	}
	if !AddWouldCycle(g[1], []int{1}, g.lookup) {
		t.Fatal("a group cannot contain itself")
	}
	// 3 gains 1 only if 1 gains 2 in the same change: a cycle closed
	// through the new subgroups.
	g[3].Subgroups[1] = struct{}{}
	if !AddWouldCycle(g[1], []int{2}, g.lookup) {
		t.Fatal("1 ⊃ 2 ⊃ 3 ⊃ 1")
	}
	if len(g[1].Subgroups) != 0 {
		t.Fatal("AddWouldCycle changed the group")
	}
}

func TestUsesByGroups(t *testing.T) {
	target := New(5, "target", "", false)
	a := New(6, "a", "", false)
	a.Settings.CanJoin, a.Settings.CanManage = Named(5), Named(5)
	a.Settings.CanMention = Setting{DirectMembers: []int{1}, DirectSubgroups: []int{4, 5}}
	a.Subgroups[5] = struct{}{}
	sys := New(7, Members, "", true)
	sys.Subgroups[5] = struct{}{}
	off := New(8, "off", "", false)
	off.Deactivated = true
	off.Settings.CanJoin = Named(5)
	uses, supers := UsesByGroups(target, []*Group{target, a, sys, off})
	if diff := cmp.Diff([]GroupUse{{GroupID: 6, Settings: []string{"can_join_group", "can_manage_group", "can_mention_group"}}}, uses); diff != "" {
		t.Fatalf("uses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{6}, supers); diff != "" {
		t.Fatalf("supergroups: %s", diff)
	}
}
