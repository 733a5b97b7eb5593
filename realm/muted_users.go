package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// MutedUser is a user the caller muted, with when (Unix seconds).
type MutedUser struct {
	ID        int   `json:"id"`
	Timestamp int64 `json:"timestamp"`
}

// MutedUsersEvent is a muted_users event: the caller's whole list, sent
// to the caller only.
type MutedUsersEvent struct {
	MutedUsers []MutedUser `json:"muted_users"`
}

// MuteUser answers POST /users/me/muted_users/{muted_user_id}: the caller
// stops hearing from a user (deactivated users included, bots from
// feature level 188, see mutableUser). The
// muted user's unread messages to the caller are marked read, and so are
// the ones they send from now on.
func (a *Actor) MuteUser(ctx context.Context, mutedID int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if mutedID == me.ID {
			return BadRequest("Cannot mute self")
		}
		if r.mutableUser(mutedID) == nil {
			return noSuchUser()
		}
		if r.hasMuted(me.ID, mutedID) {
			return BadRequest("User already muted")
		}
		if r.mutedUsers.byUser == nil {
			r.mutedUsers.byUser = map[int][]MutedUser{}
		}
		r.mutedUsers.byUser[me.ID] = append(r.mutedUsers.byUser[me.ID], MutedUser{ID: mutedID, Timestamp: r.clock.Now().Unix()})
		r.markRead(me, func(m *message.Message) bool { return m.SenderID == mutedID })
		r.emit("muted_users", MutedUsersEvent{MutedUsers: r.mutedUserList(me.ID)}, me.ID)
		return nil
	})
}

// UnmuteUser answers DELETE /users/me/muted_users/{muted_user_id}.
func (a *Actor) UnmuteUser(ctx context.Context, mutedID int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if r.mutableUser(mutedID) == nil {
			return noSuchUser()
		}
		if !r.hasMuted(me.ID, mutedID) {
			return BadRequest("User is not muted")
		}
		r.mutedUsers.byUser[me.ID] = slices.DeleteFunc(r.mutedUsers.byUser[me.ID], func(m MutedUser) bool { return m.ID == mutedID })
		r.emit("muted_users", MutedUsersEvent{MutedUsers: r.mutedUserList(me.ID)}, me.ID)
		return nil
	})
}

// mutableUser is the user of that ID that may be muted or unmuted: any
// user of the realm; before feature level 188 not a bot (Zulip's
// access_user_by_id without allow_bots: "No such user").
func (r *Realm) mutableUser(id int) *user.User {
	u := r.realmUser(id)
	if u != nil && u.IsBot() && !r.has(changeMuteBots) {
		return nil
	}
	return u
}

// hasMuted reports whether userID muted mutedID.
func (r *Realm) hasMuted(userID, mutedID int) bool {
	return slices.ContainsFunc(r.mutedUsers.byUser[userID], func(m MutedUser) bool { return m.ID == mutedID })
}

// mutedUserList is a copy of the user's muted users, in muting order.
func (r *Realm) mutedUserList(userID int) []MutedUser {
	return append([]MutedUser{}, r.mutedUsers.byUser[userID]...)
}

// mutedUserTable holds each user's muted users, in muting order.
type mutedUserTable struct {
	byUser map[int][]MutedUser
}

func (t *mutedUserTable) clone() mutedUserTable {
	return mutedUserTable{byUser: cloneNested(t.byUser, func(m MutedUser) MutedUser { return m })}
}

// dump adds the mutings to f, by user and in muting order.
func (t *mutedUserTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(r.mutedUsers.byUser)) {
		for _, m := range r.mutedUsers.byUser[uid] {
			f.MutedUsers = append(f.MutedUsers, fixture.MutedUser{UserID: uid, MutedUserID: m.ID, Timestamp: m.Timestamp})
		}
	}
	return nil
}

// load checks each muting as POST /users/me/muted_users/{id}
// does: two users of the realm (not a system bot), not oneself, not twice.
func (t *mutedUserTable) load(r *Realm, f *fixture.Document) error {
	now := r.clock.Now().Unix()
	for i, fm := range f.MutedUsers {
		at := fmt.Sprintf("muted_users[%d]", i)
		if r.realmUser(fm.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fm.UserID)
		}
		if r.realmUser(fm.MutedUserID) == nil {
			return badItem(at+".muted_user_id", "no user %d", fm.MutedUserID)
		}
		if fm.MutedUserID == fm.UserID {
			return badItem(at+".muted_user_id", "Cannot mute self")
		}
		if r.hasMuted(fm.UserID, fm.MutedUserID) {
			return badItem(at, "User already muted (user %d mutes user %d twice)", fm.UserID, fm.MutedUserID)
		}
		ts := fm.Timestamp
		if ts == 0 {
			ts = now
		}
		if r.mutedUsers.byUser == nil {
			r.mutedUsers.byUser = map[int][]MutedUser{}
		}
		r.mutedUsers.byUser[fm.UserID] = append(r.mutedUsers.byUser[fm.UserID], MutedUser{ID: fm.MutedUserID, Timestamp: ts})
	}
	return nil
}

func (t *mutedUserTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("muted_users") {
		fillMutedUsers(r, me, req, out)
	}
}

func fillMutedUsers(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.MutedUsersState = &MutedUsersState{MutedUsers: r.mutedUserList(me.ID)}
}
