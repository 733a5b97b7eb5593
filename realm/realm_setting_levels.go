package realm

import "slices"

// HasRealmSetting reports whether a server of the realm's feature level
// has the realm setting name (its API name, as PATCH /realm takes it):
// the table's field row for the setting in realm update_dict data says
// the level that added it; a setting without one is older than the
// table. Adapters leave a newer setting's parameter unread.
func (r *Realm) HasRealmSetting(name string) bool {
	for _, w := range wireFields {
		if w.field == name && slices.Contains(w.kinds, "realm_data") {
			return r.has(Change{name: fieldGate, level: w.level})
		}
	}
	return true
}
