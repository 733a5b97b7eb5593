package realm

import (
	"crypto/subtle"

	"github.com/minizulip/minizulip/user"
)

// Actor performs operations on behalf of one user. Get one with Realm.As or
// Realm.Authenticate; it is cheap and safe to share between goroutines.
type Actor struct {
	r  *Realm
	id int
	// incomingWebhook is set by Authenticate for incoming-webhook bots.
	incomingWebhook bool
}

// As returns an Actor for userID. Operations fail with UNAUTHORIZED when
// the user does not exist or is deactivated.
func (r *Realm) As(userID int) *Actor { return &Actor{r: r, id: userID} }

// ActiveActor returns an Actor for userID after checking that the account
// exists and is active (UNAUTHORIZED otherwise), for adapters that
// authenticate users themselves, such as httpapi's browser sessions.
func (r *Realm) ActiveActor(userID int) (*Actor, error) {
	a := r.As(userID)
	if err := a.read(func(me *user.User) error {
		a.incomingWebhook = me.BotType == user.IncomingWebhook
		return nil
	}); err != nil {
		return nil, err
	}
	return a, nil
}

// IsIncomingWebhookBot reports whether the actor, as authenticated by
// Authenticate or ActiveActor, is an incoming-webhook bot: Zulip lets such bots call only
// the endpoints meant for them (sending messages, webhook integrations).
func (a *Actor) IsIncomingWebhookBot() bool { return a.incomingWebhook }

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
		actor = &Actor{r: r, id: u.ID, incomingWebhook: u.BotType == user.IncomingWebhook}
		return nil
	})
	return actor, err
}

// me returns the acting user; the caller holds the lock.
func (a *Actor) me() (*user.User, error) {
	u := a.r.users[a.id]
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

// The realm's lock discipline. Every operation takes the realm's lock
// through the helpers below: Actor.read and Actor.write for operations on
// behalf of a user (they also check that the user is active), Realm.view
// and Realm.update for the few with no acting user (seeding, test set-up,
// server-wide answers), and Actor.commit for the second half of a send
// (prepared under read, committed under commit). Nothing else locks r.mu.
// Every write but a send's commit moves r.generation, so work prepared
// under the read lock can tell whether the realm changed since. Lock order: the realm's mutex, then the event hub's (emitting
// under a mutation, registering a queue), then a message event's variant
// mutex (or, restoring or forking, a snapshot's mutex); GET /events takes the hub's mutex alone, so long polls never
// hold the realm. No lock is held while calling out (listeners, caller
// callbacks other than the settings editors documented as such).

// view runs fn under the realm's read lock.
func (r *Realm) view(fn func() error) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return fn()
}

// update runs fn under the realm's write lock. fn validates everything
// before it changes anything, so an error leaves the realm as it was.
func (r *Realm) update(fn func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.generation++
	return fn()
}

// checkActive reports UNAUTHORIZED unless the acting user exists and is
// active.
func (a *Actor) checkActive() error { return a.read(func(*user.User) error { return nil }) }

// read runs fn with the acting user under the realm's read lock.
func (a *Actor) read(fn func(me *user.User) error) error {
	a.r.mu.RLock()
	defer a.r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return err
	}
	return fn(me)
}

// write runs fn with the acting user under the realm's write lock. fn
// validates everything before it changes anything, so an error leaves the
// realm as it was.
func (a *Actor) write(fn func(me *user.User) error) error {
	a.r.mu.Lock()
	defer a.r.mu.Unlock()
	a.r.generation++
	me, err := a.me()
	if err != nil {
		return err
	}
	return fn(me)
}

// commit is write for a send's commit: it leaves r.generation alone, since
// storing a message changes nothing another send's preparation reads
// (recipients, permissions, what Markdown renders), only what its commit
// reads again under this lock.
func (a *Actor) commit(fn func(me *user.User) error) error {
	a.r.mu.Lock()
	defer a.r.mu.Unlock()
	me, err := a.me()
	if err != nil {
		return err
	}
	return fn(me)
}

// writeAdmin is write for administrators only.
func (a *Actor) writeAdmin(fn func(me *user.User) error) error {
	return a.write(func(me *user.User) error {
		if !me.Role.IsAdmin() {
			return UnauthorizedPrincipal("Must be an organization administrator")
		}
		return fn(me)
	})
}
