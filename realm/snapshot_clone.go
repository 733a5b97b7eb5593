package realm

import (
	"maps"
	"slices"

	"github.com/minizulip/minizulip/user"
)

// This file copies a realm's state for snapshots, restores and forks.
// Messages and personal copies are shared copy-on-write (store.Clone and
// message_cow.go); everything else is small and copied deeply, so that
// nothing one realm (or snapshot) changes in place is seen by another.
// What may be shared is what is never changed in place: strings, linkifiers
// (replaced whole on update), emoji images and uploaded bytes.

// copyStateFrom makes r's state a copy of src's: every table, counter and
// message. The caller holds r's write lock and has src to itself (src's
// store is marked shared as it is cloned). It leaves alone what is not
// state: options, clock, renderer, event queues, snapshot bookkeeping,
// the delivery timer (rearmAfterCopy sets it for the items copied).
func (r *tables) copyRest(src *tables) {

	r.profileFields = slices.Clone(src.profileFields)
	r.nextProfileFieldID = src.nextProfileFieldID
	r.snippets = cloneNested(src.snippets, func(s *SavedSnippet) *SavedSnippet { c := *s; return &c })
	r.navigationViews = cloneNested(src.navigationViews, func(v *NavigationView) *NavigationView { c := *v; return &c })
	r.nextSnippetID = src.nextSnippetID
	r.settingsDefaults = src.settingsDefaults
	r.mutedUsers = cloneNested(src.mutedUsers, func(m MutedUser) MutedUser { return m })
	r.alertWords = cloneNested(src.alertWords, func(w string) string { return w })
	r.storage = nil
	for uid, s := range src.storage {
		if r.storage == nil {
			r.storage = make(map[int]user.Storage, len(src.storage))
		}
		r.storage[uid] = maps.Clone(s)
	}
	r.userTopics = make(map[int]map[topicRef]*UserTopic, len(src.userTopics))
	for uid, byTopic := range src.userTopics {
		m := make(map[topicRef]*UserTopic, len(byTopic))
		for ref, ut := range byTopic {
			c := *ut
			m[ref] = &c
		}
		r.userTopics[uid] = m
	}

}

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

func cloneUser(u *user.User) *user.User {
	c := *u
	c.ProfileData = maps.Clone(u.ProfileData)
	c.EditedSettings = maps.Clone(u.EditedSettings)
	return &c
}
