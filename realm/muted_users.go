package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/message"
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
// stops hearing from a user (bots and deactivated users included). The
// muted user's unread messages to the caller are marked read, and so are
// the ones they send from now on.
func (a *Actor) MuteUser(ctx context.Context, mutedID int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if mutedID == me.ID {
			return BadRequest("Cannot mute self")
		}
		if r.realmUser(mutedID) == nil {
			return noSuchUser()
		}
		if r.hasMuted(me.ID, mutedID) {
			return BadRequest("User already muted")
		}
		if r.mutedUsers == nil {
			r.mutedUsers = map[int][]MutedUser{}
		}
		r.mutedUsers[me.ID] = append(r.mutedUsers[me.ID], MutedUser{ID: mutedID, Timestamp: r.clock.Now().Unix()})
		r.markRead(me, func(m *message.Message) bool { return m.SenderID == mutedID })
		r.emit("muted_users", MutedUsersEvent{MutedUsers: r.mutedUserList(me.ID)}, me.ID)
		return nil
	})
}

// UnmuteUser answers DELETE /users/me/muted_users/{muted_user_id}.
func (a *Actor) UnmuteUser(ctx context.Context, mutedID int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if r.realmUser(mutedID) == nil {
			return noSuchUser()
		}
		if !r.hasMuted(me.ID, mutedID) {
			return BadRequest("User is not muted")
		}
		r.mutedUsers[me.ID] = slices.DeleteFunc(r.mutedUsers[me.ID], func(m MutedUser) bool { return m.ID == mutedID })
		r.emit("muted_users", MutedUsersEvent{MutedUsers: r.mutedUserList(me.ID)}, me.ID)
		return nil
	})
}

// hasMuted reports whether userID muted mutedID.
func (r *Realm) hasMuted(userID, mutedID int) bool {
	return slices.ContainsFunc(r.mutedUsers[userID], func(m MutedUser) bool { return m.ID == mutedID })
}

// mutedUserList is a copy of the user's muted users, in muting order.
func (r *Realm) mutedUserList(userID int) []MutedUser {
	return append([]MutedUser{}, r.mutedUsers[userID]...)
}

func fillMutedUsers(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.MutedUsersState = &MutedUsersState{MutedUsers: r.mutedUserList(me.ID)}
}
