package realm

import (
	"context"
	"maps"

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
		s := a.r.storage[me.ID]
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
		s := r.storage[me.ID]
		if err := s.CheckPut(entries); err != nil {
			return BadRequest("%s", err.Error())
		}
		if len(entries) == 0 {
			return nil
		}
		if s == nil {
			s = user.Storage{}
			if r.storage == nil {
				r.storage = map[int]user.Storage{}
			}
			r.storage[me.ID] = s
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
		s := r.storage[me.ID]
		if keys == nil {
			delete(r.storage, me.ID)
			return nil
		}
		if err := s.CheckHas(keys); err != nil {
			return BadRequest("%s", err.Error())
		}
		for _, k := range keys {
			delete(s, k)
		}
		if len(s) == 0 {
			delete(r.storage, me.ID)
		}
		return nil
	})
}
