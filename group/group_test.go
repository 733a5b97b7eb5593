package group

import (
	"fmt"
	"slices"
	"testing"

	"github.com/minizulip/minizulip/user"
)

// graph is a test group store.
type graph map[int]*Group

func (g graph) lookup(id int) *Group { return g[id] }

func (g graph) add(id int, members ...int) *Group {
	gr := New(id, fmt.Sprint("g", id), "", false)
	for _, m := range members {
		gr.Members[m] = struct{}{}
	}
	g[id] = gr
	return gr
}

func (g graph) link(parent, child int) { g[parent].Subgroups[child] = struct{}{} }

func TestHasMemberThroughSubgroups(t *testing.T) {
	g := graph{}
	g.add(1, 10)
	g.add(2, 20)
	g.add(3, 30)
	g.link(1, 2)
	g.link(2, 3)
	cases := []struct {
		group, user int
		want        bool
	}{{1, 10, true}, {1, 20, true}, {1, 30, true}, {2, 10, false}, {3, 20, false}, {1, 99, false}}
	for _, c := range cases {
		if got := HasMember(g[c.group], c.user, g.lookup); got != c.want {
			t.Errorf("HasMember(g%d, %d) = %v", c.group, c.user, got)
		}
	}
	g[2].Deactivated = true
	if HasMember(g[1], 30, g.lookup) || HasMember(g[1], 20, g.lookup) {
		t.Error("members of a deactivated subgroup must not count")
	}
	g[2].Deactivated = false
	if got := MemberIDs(g[1], g.lookup, func(id int) bool { return id != 20 }); !slices.Equal(sorted(got), []int{10, 30}) {
		t.Errorf("MemberIDs %v", got)
	}
}

func sorted(s []int) []int { slices.Sort(s); return s }

func TestWouldCycle(t *testing.T) {
	g := graph{}
	for i := 1; i <= 4; i++ {
		g.add(i)
	}
	g.link(1, 2)
	g.link(2, 3)
	cases := []struct {
		parent, child int
		want          bool
	}{{3, 1, true}, {2, 1, true}, {1, 1, true}, {1, 3, false}, {4, 1, false}, {3, 4, false}}
	for _, c := range cases {
		if got := WouldCycle(g[c.parent], g[c.child], g.lookup); got != c.want {
			t.Errorf("WouldCycle(%d <- %d) = %v, want %v", c.parent, c.child, got, c.want)
		}
	}
}

// BenchmarkHasMemberDeepChain checks membership through 50 nested
// subgroups in a store of 10,000 groups; unrelated groups are never
// visited.
func BenchmarkHasMemberDeepChain(b *testing.B) {
	g := graph{}
	for i := 1; i <= 10000; i++ {
		g.add(i, 100000+i)
	}
	for i := 1; i < 50; i++ {
		g.link(i, i+1)
	}
	for i := 51; i < 10000; i++ { // unrelated structure
		g.link(i, i+1)
	}
	user := 100000 + 50 // member of the deepest group of the chain
	b.ReportAllocs()
	for b.Loop() {
		if !HasMember(g[1], user, g.lookup) {
			b.Fatal("not a member")
		}
	}
}

func TestRoleGroup(t *testing.T) {
	for role, want := range map[user.Role]string{
		user.RoleOwner: Owners, user.RoleAdmin: Administrators, user.RoleModerator: Moderators,
		user.RoleMember: Members, user.RoleGuest: Everyone,
	} {
		if got := RoleGroup(role); got != want {
			t.Errorf("role %d: %s, want %s", role, got, want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	cases := []struct {
		g    *Group
		want string
	}{
		{New(1, Everyone, "", true), "Everyone"},
		{New(2, FullMembers, "", true), "Full members"},
		{New(3, Internet, "", true), "Everyone on the internet"},
		{New(4, "hamletcharacters", "", false), "hamletcharacters"},
		{New(5, "role:members", "", false), "role:members"}, // not a system group
	}
	for _, c := range cases {
		if got := DisplayName(c.g); got != c.want {
			t.Errorf("DisplayName(%q) = %q, want %q", c.g.Name, got, c.want)
		}
	}
}
