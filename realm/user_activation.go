package realm

import (
	"context"
	"maps"
	"slices"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// RealmUserUpdateEvent reports changed fields of a user.
type RealmUserUpdateEvent struct {
	Op     string         `json:"op"`
	Person map[string]any `json:"person"`
}

// DeactivateUser answers DELETE /users/{id}: administrators deactivate
// anyone but the last owner, owners only by an owner; a bot's owner may
// deactivate the bot.
func (a *Actor) DeactivateUser(ctx context.Context, userID int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		target := r.users.byID[userID]
		if target == nil || target.IsSystemBot {
			return noSuchUser()
		}
		if !me.Role.IsAdmin() && !(target.IsBot() && target.BotOwnerID == me.ID) {
			return UnauthorizedPrincipal("Must be an organization administrator")
		}
		if target.Role == user.RoleOwner && me.Role != user.RoleOwner {
			return UnauthorizedPrincipal("Must be an organization owner")
		}
		if !target.IsActive {
			return BadRequest("User is already deactivated")
		}
		if target.Role == user.RoleOwner && r.activeOwnerCount() == 1 {
			return cannotDeactivateLast(true)
		}
		target.IsActive = false
		r.emitActiveChange(target)
		r.expireInvitesBy(target.ID)
		return nil
	})
}

// DeactivateOwnUser answers DELETE /users/me: a user deactivates their
// own account, unless they are the organization's only active user or
// only owner.
func (a *Actor) DeactivateOwnUser(ctx context.Context) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if r.activeAccountCount() == 1 {
			return cannotDeactivateLast(false)
		}
		if me.Role == user.RoleOwner && !me.IsBot() && r.activeOwnerCount() == 1 {
			return cannotDeactivateLast(true)
		}
		me.IsActive = false
		r.emitActiveChange(me)
		r.expireInvitesBy(me.ID)
		return nil
	})
}

// cannotDeactivateLast is Zulip's CANNOT_DEACTIVATE_LAST_USER error, for
// the only owner or the only user.
func cannotDeactivateLast(owner bool) *Error {
	entity := "user"
	if owner {
		entity = "organization owner"
	}
	return &Error{Code: CodeCannotDeactivateLastUser, Msg: "Cannot deactivate the only " + entity,
		Status: statusBadRequest, Extra: map[string]any{"is_last_owner": owner, "entity": entity}}
}

// activeAccountCount counts the organization's active accounts, bots
// included; the system bots are not the organization's.
func (r *Realm) activeAccountCount() int {
	n := 0
	for _, u := range r.users.byID {
		if u.IsActive && !u.IsSystemBot {
			n++
		}
	}
	return n
}

// ReactivateUser answers POST /users/{id}/reactivate (administrators).
func (a *Actor) ReactivateUser(ctx context.Context, userID int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		target := r.users.byID[userID]
		if target == nil || target.IsSystemBot {
			return noSuchUser()
		}
		if target.IsActive {
			return BadRequest("User is already active")
		}
		target.IsActive = true
		r.emitActiveChange(target)
		r.emitExportConsent(target)
		if r.has(changeDeactivatedMembersHidden) {
			r.emitReturningMember(target)
		}
		return nil
	})
}

// emitReturningMember tells every active user that a reactivated user
// is again a member of what deactivation hid them from (from
// changeDeactivatedMembersHidden): an add_members of each group they are
// a direct member of, by group ID, then the settings holding them
// (emitSettingsHolding). (The matching events of a deactivation go only
// to users who cannot access the deactivated user:
// emitDeactivationByAccess.)
func (r *Realm) emitReturningMember(u *user.User) {
	for _, id := range slices.Sorted(maps.Keys(r.groups.byID)) {
		if _, ok := r.groups.byID[id].Members[u.ID]; ok {
			r.emitGroupChange(true, UserGroupMembersEvent{Op: "add_members", GroupID: id, UserIDs: []int{u.ID}})
		}
	}
	r.emitSettingsHolding(u, r.activeUserIDs())
}

// emitSettingsHolding tells the users to of the new value of each setting set to an
// anonymous group u is a direct member of, as Zulip's
// send_update_events_for_anonymous_group_settings does when u is
// (de)activated: a user_group update for a user group's setting, a realm
// update_dict for the realm's. (A channel's setting gets none: Zulip
// sends none.)
func (r *Realm) emitSettingsHolding(u *user.User, to []int) {
	for _, g := range r.sortedGroups() {
		for _, name := range group.SettingNames {
			if v, _ := g.Settings.Get(name); v.HasDirectMember(u.ID) {
				r.emit("user_group", UserGroupUpdateEvent{Op: "update", GroupID: g.ID,
					Data: map[string]any{name: r.apiGroupSetting(v)}}, to...)
			}
		}
	}
	for _, g := range r.settings.groupSettings() {
		if g.id.GroupID == 0 && slices.Contains(g.id.DirectMembers, u.ID) {
			r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default",
				Data: map[string]any{g.name: r.apiGroupSetting(*g.id)}}, to...)
		}
	}
}

func (r *Realm) activeOwnerCount() int {
	n := 0
	for _, u := range r.users.byID {
		if u.IsActive && u.Role == user.RoleOwner && !u.IsBot() {
			n++
		}
	}
	return n
}

// emitActiveChange tells every active user that u was (de)activated.
// From changeDeactivationPeerRemove, a deactivation is first told to
// each of u's channels' audiences as a peer_remove of u.
func (r *Realm) emitActiveChange(u *user.User) {
	if !u.IsActive && r.has(changeDeactivationPeerRemove) {
		for _, c := range r.channelsByNameOrder() {
			if r.isSubscribed(c.ID, u.ID) {
				r.emit("subscription", SubscriptionPeerEvent{Op: "peer_remove", StreamIDs: []int{c.ID}, UserIDs: []int{u.ID}},
					without(r.peerAudience(c), u.ID)...)
			}
		}
	}
	if !r.has(changeActiveUpdates) {
		r.emitLegacyActiveChange(u)
		return
	}
	if !u.IsActive && !u.IsBot() && r.has(changeGuestAccessEvents) {
		r.emitDeactivationByAccess(u)
		return
	}
	r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "is_active": u.IsActive}},
		r.activeUserIDs()...)
}

// RemovedPerson is the person (or bot) of the legacy realm_user and
// realm_bot remove events.
type RemovedPerson struct {
	UserID   int    `json:"user_id"`
	FullName string `json:"full_name"`
}

// RealmUserRemoveEvent is realm_user op remove: below changeActiveUpdates,
// a deactivation told to every user.
type RealmUserRemoveEvent struct {
	Op     string        `json:"op"`
	Person RemovedPerson `json:"person"`
}

// RealmBotRemoveEvent is realm_bot op remove: below changeActiveUpdates,
// a bot's deactivation told to every user.
type RealmBotRemoveEvent struct {
	Op  string        `json:"op"`
	Bot RemovedPerson `json:"bot"`
}

func (RealmUserRemoveEvent) isEventPayload() {}
func (RealmBotRemoveEvent) isEventPayload()  {}

// emitLegacyActiveChange tells every active user of u's (de)activation
// as servers before Zulip 8.0 did: a deactivation is realm_user remove
// (and, for a bot, realm_bot remove), a reactivation realm_user add with
// the whole user object.
func (r *Realm) emitLegacyActiveChange(u *user.User) {
	if u.IsActive {
		r.emitRealmUserAdd(u)
		return
	}
	gone := RemovedPerson{UserID: u.ID, FullName: u.FullName}
	r.emit("realm_user", RealmUserRemoveEvent{Op: "remove", Person: gone}, r.activeUserIDs()...)
	if u.IsBot() {
		r.emit("realm_bot", RealmBotRemoveEvent{Op: "remove", Bot: gone}, r.activeUserIDs()...)
	}
}
