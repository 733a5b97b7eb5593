package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file is Zulip's bot storage (/bot_storage): a key-value store of
// strings each user keeps for itself, which the bots of python-zulip-api
// use for their state. Zulip lets any user keep one, bot or not, and
// tells no one of changes.

// Storage answers GET /bot_storage: the actor's entries for keys, or all
// of them when keys is nil. A key the storage lacks refuses the request
// ("Key does not exist.").
func (a *Actor) Storage(ctx context.Context, keys []string) (entries map[string]string, err error) {
	err = a.read(ctx, func(me *user.User) error {
		s := a.r.storage.byUser[me.ID]
		if keys == nil {
			entries = maps.Clone(s)
			if entries == nil {
				entries = map[string]string{}
			}
			return nil
		}
		if err := s.CheckHas(keys); err != nil {
			return BadRequest("%s", err.Error())
		}
		entries = make(map[string]string, len(keys))
		for _, k := range keys {
			entries[k] = s[k]
		}
		return nil
	})
	return entries, err
}

// PutStorage answers PUT /bot_storage: entries are added to the actor's
// storage or replace the values there, all of them or, when the storage
// would pass its limit (user.MaxStorageSize) or a key is too long, none.
func (a *Actor) PutStorage(ctx context.Context, entries map[string]string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		s := r.storage.byUser[me.ID]
		if err := s.CheckPut(entries); err != nil {
			return BadRequest("%s", err.Error())
		}
		if len(entries) == 0 {
			return nil
		}
		if s == nil {
			s = user.Storage{}
			if r.storage.byUser == nil {
				r.storage.byUser = map[int]user.Storage{}
			}
			r.storage.byUser[me.ID] = s
		}
		maps.Copy(s, entries)
		return nil
	})
}

// RemoveStorage answers DELETE /bot_storage: keys leave the actor's
// storage, or every key when keys is nil. A key the storage lacks
// refuses the request, and nothing is removed.
func (a *Actor) RemoveStorage(ctx context.Context, keys []string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		s := r.storage.byUser[me.ID]
		if keys == nil {
			delete(r.storage.byUser, me.ID)
			return nil
		}
		if err := s.CheckHas(keys); err != nil {
			return BadRequest("%s", err.Error())
		}
		for _, k := range keys {
			delete(s, k)
		}
		if len(s) == 0 {
			delete(r.storage.byUser, me.ID)
		}
		return nil
	})
}

// storageTable holds each user's key-value storage.
type storageTable struct {
	byUser map[int]user.Storage
}

func (t *storageTable) clone() storageTable {
	c := storageTable{}
	for uid, s := range t.byUser {
		if c.byUser == nil {
			c.byUser = make(map[int]user.Storage, len(t.byUser))
		}
		c.byUser[uid] = maps.Clone(s)
	}
	return c
}

// dump adds the storage to f, by user.
func (t *storageTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(r.storage.byUser)) {
		f.BotStorage = append(f.BotStorage, fixture.Storage{UserID: uid, Storage: maps.Clone(r.storage.byUser[uid])})
	}
	return nil
}

// load checks each user's storage as PUT /bot_storage does (key
// length, the size limit); a user has one entry.
func (t *storageTable) load(r *Realm, f *fixture.Document) error {
	seen := map[int]bool{}
	for i, fs := range f.BotStorage {
		at := fmt.Sprintf("bot_storage[%d]", i)
		if r.realmUser(fs.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fs.UserID)
		}
		if seen[fs.UserID] {
			return badItem(at+".user_id", "user %d has another entry", fs.UserID)
		}
		seen[fs.UserID] = true
		if err := user.Storage(nil).CheckPut(fs.Storage); err != nil {
			return badItem(at+".storage", "%s", err.Error())
		}
		if len(fs.Storage) == 0 {
			continue
		}
		if r.storage.byUser == nil {
			r.storage.byUser = map[int]user.Storage{}
		}
		r.storage.byUser[fs.UserID] = maps.Clone(fs.Storage)
	}
	return nil
}
