package group

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/topic"
)

// ReservedPrefixes may not start a user group's name.
var ReservedPrefixes = []string{"@", "role:", "user:", "stream:", "channel:"}

// MaxNameLength is the longest group name allowed.
const MaxNameLength = 100

// NameError says why a group name was refused, with Zulip's message.
type NameError string

func (e NameError) Error() string { return string(e) }

// CheckName applies the syntax rules of a user group's name and returns
// it trimmed: not empty, printable (see topic.FirstUnprintable), at most
// MaxNameLength characters, no reserved prefix. Whether the name is free is the realm's to say.
func CheckName(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	if name == "" {
		return "", NameError("User group name can't be empty!")
	}
	if pos := topic.FirstUnprintable(name); pos > 0 {
		// Zulip's database refuses such names; minizulip says why.
		return "", NameError(fmt.Sprintf("Invalid character in user group name, at position %d.", pos))
	}
	if utf8.RuneCountInString(name) > MaxNameLength {
		return "", NameError(fmt.Sprintf("User group name cannot exceed %d characters.", MaxNameLength))
	}
	for _, p := range ReservedPrefixes {
		if strings.HasPrefix(name, p) {
			return "", NameError(fmt.Sprintf("User group name cannot start with '%s'.", p))
		}
	}
	return name, nil
}

// AddWouldCycle reports whether making the groups add subgroups of g, all
// at once, would make g reach itself, including cycles the new subgroups
// close only through each other. g is not changed.
func AddWouldCycle(g *Group, add []int, lookup Lookup) bool {
	extended := *g
	extended.Subgroups = maps.Clone(g.Subgroups)
	for _, id := range add {
		extended.Subgroups[id] = struct{}{}
	}
	look := func(id int) *Group {
		if id == g.ID {
			return &extended
		}
		return lookup(id)
	}
	return slices.ContainsFunc(add, func(id int) bool { return Reaches(look(id), g.ID, look) })
}

// GroupUse is one other group's permission settings that name g.
type GroupUse struct {
	GroupID  int
	Settings []string
}

// UsesByGroups lists where active groups other than g use it: their
// permission settings that hold g (as their group or as a subgroup of
// their anonymous group), and the non-system groups that have g
// as a direct subgroup (its supergroups), in the order of groups.
func UsesByGroups(g *Group, groups []*Group) (uses []GroupUse, supergroups []int) {
	for _, other := range groups {
		if other.ID == g.ID || other.Deactivated {
			continue
		}
		var names []string
		for _, name := range SettingNames {
			if v, _ := other.Settings.Get(name); v.Names(g.ID) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			uses = append(uses, GroupUse{GroupID: other.ID, Settings: names})
		}
		if _, ok := other.Subgroups[g.ID]; ok && !other.IsSystem {
			supergroups = append(supergroups, other.ID)
		}
	}
	return uses, supergroups
}
