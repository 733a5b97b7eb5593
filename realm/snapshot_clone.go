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
	r.exports = src.exports.clone()
	r.scheduled = nil
	if src.scheduled != nil {
		r.scheduled = make(map[int]*scheduledItem, len(src.scheduled))
		for id, it := range src.scheduled {
			r.scheduled[id] = it.clone()
		}
	}
	r.nextScheduledID = src.nextScheduledID
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

	r.statuses = clonePointerMap(src.statuses)
	r.presence = clonePointerMap(src.presence)
	r.presenceUpdates = src.presenceUpdates
	r.mail = src.mail.clone()
	r.files = src.files.clone()
	r.calls = src.calls.clone()
	r.invites = src.invites.clone()
	r.domains = src.domains.clone()
	r.push = src.push.clone()
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

func (m mailState) clone() mailState {
	return mailState{outbox: slices.Clone(m.outbox), pending: maps.Clone(m.pending)}
}

// clone copies the uploads' metadata; the bytes stay in the shared upload
// store. Resumable uploads under way are not taken: like event queues,
// they belong to connections of the moment.
func (s uploadState) clone() uploadState {
	c := uploadState{store: s.store, nextID: s.nextID, spaceUsed: s.spaceUsed, pinnedBelow: s.pinnedBelow,
		byID: make(map[int]*storedAttachment, len(s.byID)), byPath: make(map[string]*storedAttachment, len(s.byPath)),
		resumable: map[string]*resumableUpload{}, tokens: maps.Clone(s.tokens)}
	copies := map[*storedAttachment]*storedAttachment{}
	cp := func(a *storedAttachment) *storedAttachment {
		if c, ok := copies[a]; ok {
			return c
		}
		ca := *a
		ca.messageIDs = slices.Clone(a.messageIDs)
		copies[a] = &ca
		return &ca
	}
	for id, a := range s.byID {
		c.byID[id] = cp(a)
	}
	for path, a := range s.byPath {
		c.byPath[path] = cp(a)
	}
	if c.tokens == nil {
		c.tokens = map[string]temporaryURL{}
	}
	return c
}

func (c callState) clone() callState {
	out := callState{providers: maps.Clone(c.providers), everyone: slices.Clone(c.everyone),
		tokens: make(map[int]map[string]bool, len(c.tokens))}
	for uid, m := range c.tokens {
		out.tokens[uid] = maps.Clone(m)
	}
	return out
}
