package realm

import (
	"maps"
	"slices"

	"github.com/minizulip/minizulip/user"
)

// This file holds the realm's can_access_all_users_group restriction, as
// Zulip's zerver/lib/users.py has it: a guest outside the setting (it may
// only be role:everyone or role:members, so from role:members every guest
// is outside it) accesses only themselves, bots, and the users who share
// an active channel subscription or a direct-message conversation (group
// or 1:1: Zulip counts the 1:1 messages exchanged, or the pair's
// direct-message group where one exists, at every level) with them.
// Access is checked where user data leaves the engine: the user lists and
// lookups, register's realm_users and the event fan-out.

// InaccessibleUserName is the name Zulip gives the placeholder of a user
// the viewer may not access.
const InaccessibleUserName = "Unknown user"

// inaccessibleUserAvatar is the placeholder's avatar, Zulip's static
// image.
const inaccessibleUserAvatar = "/static/images/unknown-user-avatar.png"

// seesAllUsers reports whether v accesses every user of the realm: every
// non-guest does, a spectator does (Zulip's check_user_can_access_all_users
// for no user: a spectator's view of users is limited already), and
// guests when the realm's can_access_all_users_group holds them.
func (r *Realm) seesAllUsers(v *user.User) bool {
	return v == nil || v.ID == spectatorID || !v.IsGuest() || r.settingHas(r.settings.CanAccessAllUsersGroup, v.ID)
}

// canAccessUser reports whether v may access t's data (Zulip's
// check_can_access_user): themselves, any bot, and for a restricted guest
// the active users sharing a channel subscription or a group
// conversation with them.
func (r *Realm) canAccessUser(v, t *user.User) bool {
	if v == nil || t == nil || v.ID == t.ID || t.IsBot() || r.seesAllUsers(v) {
		return true
	}
	return t.IsActive && r.sharesRecipient(v.ID, t.ID, nil, false)
}

// readableUser is Zulip's access_user_by_id for reading a user (no
// administration): a bot is no user unless allowBots, a deactivated user
// is refused unless allowDeactivated, and a user the caller may not
// access is refused, in that order.
func (r *Realm) readableUser(me *user.User, id int, allowDeactivated, allowBots bool) (*user.User, error) {
	u := r.realmUser(id)
	switch {
	case u == nil || u.IsBot() && !allowBots:
		return nil, noSuchUser()
	case !u.IsActive && !allowDeactivated:
		return nil, BadRequest("User is deactivated")
	case !r.canAccessUser(me, u):
		return nil, BadRequest("Insufficient permission")
	}
	return u, nil
}

// sharesRecipient reports whether users a and b hold active subscriptions
// to one channel or take part in one group conversation. A subscription
// isNew reports is not counted (nil: all are). includeDeactivated counts
// a group conversation with b even when b is deactivated, as Zulip's
// register does.
func (r *Realm) sharesRecipient(a, b int, isNew func(channelID, userID int) bool, includeDeactivated bool) bool {
	bu := r.users.byID[b]
	if bu == nil {
		return false
	}
	if bu.IsActive {
		for chID, subs := range r.channels.subs {
			sa, sb := subs[a], subs[b]
			if sa == nil || !sa.Active || sb == nil || !sb.Active {
				continue
			}
			if isNew == nil || !isNew(chID, a) && !isNew(chID, b) {
				return true
			}
		}
	}
	if !bu.IsActive && !includeDeactivated {
		return false
	}
	for _, c := range r.recipients.conversations {
		if isSharedConversation(c) && slices.Contains(c.userIDs, a) && slices.Contains(c.userIDs, b) {
			return true
		}
	}
	return false
}

// isSharedConversation reports whether c brings two or more users
// together and so gives a restricted guest access to the others: a group
// conversation (Zulip subscribes its users to its recipient) or a 1:1 one
// (Zulip's check_can_access_user counted the 1:1 messages exchanged, and
// since 1:1 conversations moved to direct-message groups, their
// subscriptions). A conversation exists once a message was sent in it.
// Feature level 327 changed only the recipient_id a 1:1 message reports.
func isSharedConversation(c *conversation) bool { return len(c.userIDs) > 1 }

// accessibleUserIDs is the set of human users a restricted guest v
// accesses (Zulip's get_accessible_user_ids), or nil when v sees every
// user. includeDeactivated keeps deactivated members of v's group
// conversations.
func (r *Realm) accessibleUserIDs(v *user.User, includeDeactivated bool) map[int]bool {
	if r.seesAllUsers(v) {
		return nil
	}
	set := map[int]bool{v.ID: true}
	for _, subs := range r.channels.subs {
		if s := subs[v.ID]; s == nil || !s.Active {
			continue
		}
		for uid, s := range subs {
			if u := r.users.byID[uid]; s.Active && u != nil && u.IsActive {
				set[uid] = true
			}
		}
	}
	for _, c := range r.recipients.conversations {
		if !isSharedConversation(c) || !slices.Contains(c.userIDs, v.ID) {
			continue
		}
		for _, uid := range c.userIDs {
			if u := r.users.byID[uid]; u != nil && (u.IsActive || includeDeactivated) {
				set[uid] = true
			}
		}
	}
	return set
}

// inaccessibleUserView is the "Unknown user" placeholder Zulip sends in
// place of a user the viewer may not access: only the ID varies.
func (r *Realm) inaccessibleUserView(id int) User {
	avatar := inaccessibleUserAvatar
	return User{
		UserID: id, Email: user.FakeEmailIn(id, r.users.fakeEmailDomain), FullName: InaccessibleUserName,
		DateJoined: isoTime(0), IsActive: true, Role: int(user.RoleMember), AvatarURL: &avatar, AvatarVersion: 1,
		IsBillingAdmin: r.billingAdminField(), ProfileData: map[string]ProfileFieldValue{},
	}
}

// hearsOfUser reports whether the queues of v receive events about t's
// status and profile changes: from changeGuestAccessEvents only the users
// who may access t; before it, everyone. (Presence events reach everyone:
// Zulip limits them only under a server-level setting, off by default.)
func (r *Realm) hearsOfUser(v, t *user.User) bool {
	return !r.has(changeGuestAccessEvents) || r.canAccessUser(v, t)
}

// withAccessTo keeps of ids the users who hear of t (hearsOfUser).
func (r *Realm) withAccessTo(t *user.User, ids []int) []int {
	if t == nil || !r.has(changeGuestAccessEvents) {
		return ids
	}
	out := ids[:0:0]
	for _, id := range ids {
		if r.canAccessUser(r.users.byID[id], t) {
			out = append(out, id)
		}
	}
	return out
}

// subscriptionChanges are the subscriptions one operation began or
// ended: channel ID to the users concerned.
type subscriptionChanges map[int]map[int]bool

// add records that u's subscriptions to channels changed.
func (sc subscriptionChanges) add(u *user.User, channels []*storedChannel) {
	for _, c := range channels {
		if sc[c.ID] == nil {
			sc[c.ID] = map[int]bool{}
		}
		sc[c.ID][u.ID] = true
	}
}

// emitAccessChanges tells restricted guests of the users they gained
// (realm_user add, with the real user object) or lost (realm_user remove)
// access to when the subscriptions of changes began (gained) or ended,
// as Zulip does from changeGuestAccessEvents. The subscriptions are
// already changed; the caller holds the write lock.
func (r *Realm) emitAccessChanges(changes subscriptionChanges, gained bool) {
	if !r.has(changeGuestAccessEvents) || len(changes) == 0 {
		return
	}
	seen := map[accessPair]bool{}
	var pairs []accessPair
	consider := func(v, t *user.User) {
		p := accessPair{v.ID, t.ID}
		if v.ID == t.ID || t.IsBot() || !v.IsActive || !t.IsActive || seen[p] || r.seesAllUsers(v) {
			return
		}
		seen[p] = true
		pairs = append(pairs, p)
	}
	for _, chID := range slices.Sorted(maps.Keys(changes)) {
		subscribers := r.sortedSubscriberIDs(chID)
		for _, uid := range slices.Sorted(maps.Keys(changes[chID])) {
			u := r.users.byID[uid]
			if u == nil {
				continue
			}
			for _, id := range subscribers {
				if o := r.users.byID[id]; o != nil && !o.IsSystemBot {
					consider(u, o)
					consider(o, u)
				}
			}
		}
	}
	isNew := func(chID, uid int) bool { return changes[chID][uid] }
	for _, p := range pairs {
		v, t := r.users.byID[p.viewer], r.users.byID[p.target]
		if gained {
			// They shared nothing before, unless through subscriptions
			// older than these.
			if !r.sharesRecipient(v.ID, t.ID, isNew, false) {
				r.emit("realm_user", RealmUserAddEvent{Op: "add", Person: r.userView(v, t, UserViewOptions{IncludeCustomProfileFields: true})}, v.ID)
			}
			continue
		}
		if !r.sharesRecipient(v.ID, t.ID, nil, false) {
			r.emit("realm_user", RealmUserRemoveEvent{Op: "remove", Person: RemovedPerson{UserID: t.ID, FullName: InaccessibleUserName}}, v.ID)
		}
	}
}

// sortedSubscriberIDs lists the active subscribers of a channel by ID.
func (r *Realm) sortedSubscriberIDs(channelID int) []int {
	ids := r.subscriberIDs(channelID)
	slices.Sort(ids)
	return ids
}

// checkRecipientsAccessible refuses a direct message from sender to users
// it may not access, as Zulip's check_sender_can_access_recipients.
func (r *Realm) checkRecipientsAccessible(sender *user.User, ids []int) error {
	for _, id := range ids {
		if !r.canAccessUser(sender, r.users.byID[id]) {
			return BadRequest("You do not have permission to access some of the recipients.")
		}
	}
	return nil
}

// accessPair is a restricted guest (viewer) and a user it may not access.
type accessPair struct{ viewer, target int }

// inaccessiblePairs lists, among the users of a direct-message
// conversation, the restricted guests and the human users they may not
// access yet (from changeGuestAccessEvents; none before).
func (r *Realm) inaccessiblePairs(ids []int) []accessPair {
	if !r.has(changeGuestAccessEvents) {
		return nil
	}
	var out []accessPair
	for _, vid := range ids {
		v := r.users.byID[vid]
		if v == nil || !v.IsActive || r.seesAllUsers(v) {
			continue
		}
		for _, tid := range ids {
			if t := r.users.byID[tid]; t != nil && !r.canAccessUser(v, t) {
				out = append(out, accessPair{vid, tid})
			}
		}
	}
	return out
}

// emitAccessGained sends each guest of pairs a realm_user add with its
// target's user object, as Zulip's get_recipients_for_user_creation_events
// does for a direct message that brings them together.
func (r *Realm) emitAccessGained(pairs []accessPair) {
	for _, p := range pairs {
		v, t := r.users.byID[p.viewer], r.users.byID[p.target]
		r.emit("realm_user", RealmUserAddEvent{Op: "add", Person: r.userView(v, t, UserViewOptions{IncludeCustomProfileFields: true})}, v.ID)
	}
}

// emitDeactivationByAccess tells of u's deactivation as Zulip's
// send_events_for_user_deactivation does when access is restricted: the
// realm_user update goes to those who may access u and to the guests who
// exchanged direct messages with u; the guests who shared only channels
// with u lose access to u (realm_user remove); and from
// changeGuestDeactivationGroupEvents those without access hear u leave
// its groups (user_group remove_members) and the settings holding u
// (emitSettingsHolding). The caller holds the write lock.
func (r *Realm) emitDeactivationByAccess(u *user.User) {
	var with, without, losing []int
	for _, v := range r.users.sorted() {
		if !v.IsActive || v.IsSystemBot {
			continue
		}
		switch {
		case r.seesAllUsers(v) || r.inConversationWith(v.ID, u.ID):
			with = append(with, v.ID)
		default:
			without = append(without, v.ID)
			if r.sharesChannel(v.ID, u.ID) {
				losing = append(losing, v.ID)
			}
		}
	}
	r.emit("realm_user", RealmUserUpdateEvent{Op: "update", Person: map[string]any{"user_id": u.ID, "is_active": false}}, with...)
	if len(without) > 0 && r.has(changeGuestDeactivationGroupEvents) {
		for _, id := range slices.Sorted(maps.Keys(r.groups.byID)) {
			if _, ok := r.groups.byID[id].Members[u.ID]; ok {
				r.emit("user_group", UserGroupMembersEvent{Op: "remove_members", GroupID: id, UserIDs: []int{u.ID}}, without...)
			}
		}
		r.emitSettingsHolding(u, without)
	}
	if len(losing) > 0 {
		r.emit("realm_user", RealmUserRemoveEvent{Op: "remove", Person: RemovedPerson{UserID: u.ID, FullName: InaccessibleUserName}}, losing...)
	}
}

// inConversationWith reports whether users a and b share a direct-message
// conversation, 1:1 or group.
func (r *Realm) inConversationWith(a, b int) bool {
	for _, c := range r.recipients.conversations {
		if slices.Contains(c.userIDs, a) && slices.Contains(c.userIDs, b) {
			return true
		}
	}
	return false
}

// sharesChannel reports whether users a and b hold active subscriptions
// to one channel, whether or not b is active.
func (r *Realm) sharesChannel(a, b int) bool {
	for _, subs := range r.channels.subs {
		if sa, sb := subs[a], subs[b]; sa != nil && sa.Active && sb != nil && sb.Active {
			return true
		}
	}
	return false
}
