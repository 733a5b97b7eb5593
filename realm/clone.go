package realm

// This file holds the helpers of the tables' clone methods. Snapshots,
// restores and forks copy every table (domains.go): messages and personal
// copies are shared copy-on-write (store.Clone and message_cow.go);
// everything else is small and copied deeply, so that nothing one realm
// (or snapshot) changes in place is seen by another. What may be shared
// is what is never changed in place: strings, linkifiers (replaced whole
// on update), emoji images and uploaded bytes.

// clonePointerMap copies a map of pointers to plain structs, each value
// copied.
func clonePointerMap[K comparable, V any](m map[K]*V) map[K]*V {
	if m == nil {
		return nil
	}
	out := make(map[K]*V, len(m))
	for k, v := range m {
		c := *v
		out[k] = &c
	}
	return out
}

// cloneNested copies a map of slices, each element copied by cp.
func cloneNested[K comparable, V any](m map[K][]V, cp func(V) V) map[K][]V {
	if m == nil {
		return nil
	}
	out := make(map[K][]V, len(m))
	for k, list := range m {
		c := make([]V, len(list))
		for i, v := range list {
			c[i] = cp(v)
		}
		out[k] = c
	}
	return out
}

// cloneIntPtr copies an optional number.
func cloneIntPtr(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneBoolPtr copies an optional flag.
func cloneBoolPtr(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneIndexed copies a table's objects by ID, each copied by cp, and a
// second index of them that then points into the copies.
func cloneIndexed[K comparable, V any](byID map[int]V, byKey map[K]V, cp func(V) V, id func(V) int) (map[int]V, map[K]V) {
	ids := make(map[int]V, len(byID))
	for i, v := range byID {
		ids[i] = cp(v)
	}
	keys := make(map[K]V, len(byKey))
	for k, v := range byKey {
		keys[k] = ids[id(v)]
	}
	return ids, keys
}
