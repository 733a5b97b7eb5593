package realm

import (
	"slices"

	"github.com/minizulip/minizulip/group"
)

// Objection is one reason a group cannot be deactivated.
type Objection struct {
	Type          string   `json:"type"`
	Settings      []string `json:"settings,omitempty"`
	ChannelID     int      `json:"channel_id,omitempty"`
	GroupID       int      `json:"group_id,omitempty"`
	SupergroupIDs []int    `json:"supergroup_ids,omitempty"`
}

// groupObjections lists the places that use g: realm settings, channel
// and group permission settings, and active named supergroups.
func (r *Realm) groupObjections(g *group.Group) []Objection {
	var out []Objection
	var realmSettings []string
	for _, s := range r.settings.groupSettings() {
		if s.id.GroupID == g.ID || slices.Contains(s.id.DirectSubgroups, g.ID) {
			realmSettings = append(realmSettings, s.name)
		}
	}
	if len(realmSettings) > 0 {
		out = append(out, Objection{Type: "realm", Settings: realmSettings})
	}
	channels := make([]*storedChannel, 0, len(r.channels.byID))
	for _, c := range r.channels.byID {
		channels = append(channels, c)
	}
	slices.SortFunc(channels, func(a, b *storedChannel) int { return a.ID - b.ID })
	for _, c := range channels {
		var names []string
		for _, rule := range channelGroupSettings {
			v := r.channelSetting(c, rule.name)
			if v.GroupID == g.ID || slices.Contains(v.DirectSubgroups, g.ID) {
				names = append(names, rule.name)
			}
		}
		if len(names) > 0 {
			out = append(out, Objection{Type: "channel", ChannelID: c.ID, Settings: names})
		}
	}
	uses, supers := group.UsesByGroups(g, r.sortedGroups())
	for _, u := range uses {
		out = append(out, Objection{Type: "user_group", GroupID: u.GroupID, Settings: u.Settings})
	}
	if len(supers) > 0 {
		out = append(out, Objection{Type: "subgroup", SupergroupIDs: supers})
	}
	return out
}
