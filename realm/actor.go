package realm

import (
	"context"
	"crypto/subtle"

	"github.com/minizulip/minizulip/user"
)

// Actor performs operations on behalf of one user. Get one with Realm.As or
// Realm.Authenticate; it is cheap and safe to share between goroutines.
type Actor struct {
	r  *Realm
	id int
	// op is the journal record of the operation under way, for a realm
	// with a data directory (durable_ops.go); nil otherwise.
	op *opRecord
}

// As returns an Actor for userID. Operations fail with UNAUTHORIZED when
// the user does not exist or is deactivated, and every operation but a
// send when the user is an incoming-webhook bot (see CheckAPIAccess).
func (r *Realm) As(userID int) *Actor { return &Actor{r: r, id: userID} }

// ActiveActor returns an Actor for userID after checking that the account
// exists and is active (UNAUTHORIZED otherwise), for adapters that
// authenticate users themselves, such as httpapi's browser sessions.
func (r *Realm) ActiveActor(userID int) (*Actor, error) {
	a := r.As(userID)
	if err := r.view(func() error {
		_, err := a.me()
		return err
	}); err != nil {
		return nil, err
	}
	return a, nil
}

// CheckAPIAccess reports the error every operation but sending a message
// fails with for this actor, or nil: UNAUTHORIZED when the user does not
// exist or is deactivated, or is an incoming-webhook bot, whose
// credentials Zulip accepts for sending messages only. An adapter that
// refuses such a request before reading its parameters, as Zulip does at
// authentication, asks it first.
func (a *Actor) CheckAPIAccess() error { return a.checkActive(context.Background()) }

// UserID is the acting user's ID.
func (a *Actor) UserID() int { return a.id }

// Realm is the realm the actor acts in.
func (a *Actor) Realm() *Realm { return a.r }

// Authenticate checks HTTP Basic credentials: an email (delivery or API
// address, any case) and the API key. Every failure is UNAUTHORIZED with
// Zulip's message for it.
func (r *Realm) Authenticate(email, apiKey string) (*Actor, error) {
	if !user.WellFormedAPIKey(apiKey) {
		return nil, Unauthorized("Malformed API key")
	}
	var actor *Actor
	err := r.view(func() error {
		u := r.userByEmail(email)
		if u == nil || subtle.ConstantTimeCompare([]byte(u.APIKey), []byte(apiKey)) != 1 {
			return Unauthorized("Invalid API key")
		}
		if !u.IsActive {
			return Unauthorized("Account is deactivated")
		}
		actor = &Actor{r: r, id: u.ID}
		return nil
	})
	return actor, err
}

// me returns the acting user; the caller holds the lock.
func (a *Actor) me() (*user.User, error) {
	u := a.r.users.byID[a.id]
	if u == nil {
		return nil, Unauthorized("Invalid API key")
	}
	if !u.IsActive {
		return nil, Unauthorized("Account is deactivated")
	}
	return u, nil
}

// APIKey returns the API key of the user with that email (delivery or API
// address), for test set-up and the dev login endpoint.
func (r *Realm) APIKey(email string) (userID int, key string, ok bool) {
	_ = r.view(func() error {
		if u := r.userByEmail(email); u != nil {
			userID, key, ok = u.ID, u.APIKey, true
		}
		return nil
	})
	return userID, key, ok
}

// UserIDByEmail finds a user's ID by delivery or API email.
func (r *Realm) UserIDByEmail(email string) (int, bool) {
	id, _, ok := r.APIKey(email)
	return id, ok
}

// The realm's lock discipline. Every operation takes the realm's locks
// through the helpers below: Actor.read and Actor.write for operations on
// behalf of a user (they also check that the user is active and no
// incoming-webhook bot), Realm.view and Realm.update for the few with no
// acting user (seeding, test set-up, server-wide answers), and
// Actor.prepare and Actor.commit for the two halves of a send, the one
// operation open to incoming-webhook bots. Nothing else locks r.mu or
// r.sendLock.
//
// There are two locks. r.mu guards the realm's state; r.sendLock, taken
// only under r.mu's read lock, orders sends' commits against readers. So:
//   - a read holds both read locks;
//   - a write holds r.mu's write lock, which shuts out everyone else;
//   - a send's preparation (checks, rendering) holds r.mu's read lock
//     alone, so it runs beside readers, other preparations and a commit;
//   - a send's commit holds r.mu's read lock and r.sendLock's write lock,
//     so it waits only for readers and other commits, never for
//     preparations.
//
// A commit may therefore change only what no preparation reads: the
// message store and the state that follows each message (conversations,
// recipient IDs, topic policies, attachments' messages, events). Every
// write but a send's commit moves r.generation, so work prepared under
// the read lock can tell whether the realm changed since, and values
// derived from the state (a group's members, a channel's subscribers)
// are cached for one generation (derived.go).
//
// Lock order: r.mu, then r.sendLock, then the event hub's mutex
// (emitting under a mutation, registering a queue), then a message
// event's variant mutex (or, restoring or forking, a snapshot's mutex);
// GET /events takes the hub's mutex alone, so long polls never hold the
// realm. No lock is held while calling out (listeners, caller callbacks
// other than the settings editors documented as such).

// view runs fn under the realm's read lock.
func (r *Realm) view(fn func() error) error {
	r.readLock()
	defer r.readUnlock()
	return fn()
}

// readLock takes the read locks of a read: r.mu's and r.sendLock's.
func (r *Realm) readLock() {
	r.mu.RLock()
	r.sendLock.RLock()
}

// readUnlock releases what readLock took.
func (r *Realm) readUnlock() {
	r.sendLock.RUnlock()
	r.mu.RUnlock()
}

// update runs fn under the realm's write lock. fn validates everything
// before it changes anything, so an error leaves the realm as it was.
// With a data directory the change is on disk before update returns
// (durable.go).
func (r *Realm) update(fn func() error) error { return r.updateOp(nil, fn) }

// updateOp is update for an operation with a journal record (nil for
// none).
func (r *Realm) updateOp(op *opRecord, fn func() error) error {
	r.mu.Lock()
	r.generation++
	r.writing = true
	if r.dur == nil {
		defer r.unlockWrite()
		return fn()
	}
	sp, err := r.durably(op, fn, r.unlockWrite)
	if err != nil {
		return err
	}
	return sp.wait()
}

// updateVolatile is update for a write that changes no table (taking a
// snapshot, forking): a data directory has nothing to record.
func (r *Realm) updateVolatile(fn func() error) error {
	r.mu.Lock()
	defer r.unlockWrite()
	r.generation++
	r.writing = true
	return fn()
}

// exclusive runs fn under the realm's write lock as bookkeeping: no
// generation, no journal record (the data directory's own compactions and
// timer re-arming after a replay).
func (r *Realm) exclusive(fn func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fn()
}

// durably runs fn through the data directory's mutate, then unlock.
func (r *Realm) durably(op *opRecord, fn func() error, unlock func()) (sp syncPoint, err error) {
	defer unlock()
	return r.dur.mutate(r, op, fn)
}

// unlockWrite ends a write.
func (r *Realm) unlockWrite() {
	r.writing = false
	r.mu.Unlock()
}

// asMe runs fn with the acting user, or fails as a.me does. An
// incoming-webhook bot fails too: it may only send, which asSender
// admits. The caller holds the lock fn needs: a ctx done by then (before
// the call got the realm, or while it waited for it) fails the call with
// ctx's error instead, so that it changes nothing.
func (a *Actor) asMe(ctx context.Context, fn func(me *user.User) error) error {
	if err := ctxErr(ctx); err != nil {
		return err
	}
	me, err := a.me()
	if err != nil {
		return err
	}
	if me.BotType == user.IncomingWebhook {
		return webhookBotRefusal()
	}
	return fn(me)
}

// asSender is asMe for a send, the one operation an incoming-webhook
// bot may perform.
func (a *Actor) asSender(ctx context.Context, fn func(me *user.User) error) error {
	if err := ctxErr(ctx); err != nil {
		return err
	}
	me, err := a.me()
	if err != nil {
		return err
	}
	return fn(me)
}

// webhookBotRefusal is what an incoming-webhook bot hears for anything
// but a send: Zulip's validate_api_key (zerver/decorator.py) refuses its
// API key on every endpoint not marked allow_incoming_webhooks (only
// POST /messages is), and authenticated_rest_api_view sends the refusal
// as a 401.
func webhookBotRefusal() *Error {
	return Unauthorized("This API is not available to incoming webhook bots.")
}

// checkActive reports UNAUTHORIZED unless the acting user exists, is
// active and may do more than send.
func (a *Actor) checkActive(ctx context.Context) error {
	return a.read(ctx, func(*user.User) error { return nil })
}

// read runs fn with the acting user under the realm's read lock.
func (a *Actor) read(ctx context.Context, fn func(me *user.User) error) error {
	a.r.readLock()
	defer a.r.readUnlock()
	return a.asMe(ctx, fn)
}

// write runs fn with the acting user under the realm's write lock. fn
// validates everything before it changes anything, so an error leaves the
// realm as it was.
// With a data directory the change is on disk (or, with FsyncEverySec,
// written) before write returns (durable.go).
func (a *Actor) write(ctx context.Context, fn func(me *user.User) error) error {
	a.r.mu.Lock()
	a.r.generation++
	a.r.writing = true
	if a.r.dur == nil {
		defer a.r.unlockWrite()
		return a.asMe(ctx, fn)
	}
	sp, err := a.r.durably(a.op, func() error { return a.asMe(ctx, fn) }, a.r.unlockWrite)
	if err != nil {
		return err
	}
	return sp.wait()
}

// writeVolatile is write for an operation that changes no table, only
// tells clients something (typing notifications).
func (a *Actor) writeVolatile(ctx context.Context, fn func(me *user.User) error) error {
	a.r.mu.Lock()
	defer a.r.unlockWrite()
	a.r.generation++
	a.r.writing = true
	return a.asMe(ctx, fn)
}

// prepare runs a send's preparation fn with the acting user under r.mu's
// read lock alone: fn reads nothing a commit changes, and changes
// nothing.
func (a *Actor) prepare(ctx context.Context, fn func(me *user.User) error) error {
	a.r.mu.RLock()
	defer a.r.mu.RUnlock()
	return a.asSender(ctx, fn)
}

// commit runs a send's commit fn with the acting user under r.mu's read
// lock and r.sendLock's write lock. It leaves r.generation alone, since
// storing a message changes nothing another send's preparation reads
// (recipients, permissions, what Markdown renders), only what its commit
// reads again under this lock.
func (a *Actor) commit(ctx context.Context, fn func(me *user.User) error) error {
	a.r.mu.RLock()
	defer a.r.mu.RUnlock()
	a.r.sendLock.Lock()
	defer a.r.sendLock.Unlock()
	return a.asSender(ctx, fn)
}

// writeAdmin is write for administrators only.
func (a *Actor) writeAdmin(ctx context.Context, fn func(me *user.User) error) error {
	return a.write(ctx, func(me *user.User) error {
		if !me.Role.IsAdmin() {
			return UnauthorizedPrincipal("Must be an organization administrator")
		}
		return fn(me)
	})
}

// ctxErr is ctx's error, nil for a nil ctx.
func ctxErr(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}
