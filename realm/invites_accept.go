package realm

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// Signup is what a person enters on accepting an invitation, as Zulip's
// registration form takes it.
type Signup struct {
	// FullName is the new account's name, checked as Zulip checks names.
	FullName string
	// Password turns password login on; empty leaves it off.
	Password string
	// Email is the address signing up through an invitation link. An
	// email invitation fixes the address: Email may then be empty, and
	// must otherwise be that address.
	Email string
}

// MaxPasswordLength is the longest password Zulip's registration form
// takes, in characters.
const MaxPasswordLength = 100

// The errors of a confirmation link, as Zulip's pages word them
// (confirmation/link_does_not_exist.html and link_expired.html).
const (
	msgLinkDoesNotExist = "Whoops. We couldn't find your confirmation link in the system."
	msgLinkExpired      = "Whoops. The confirmation link has expired or been deactivated."
)

// Confirmed is what following a confirmation link did (Realm.Confirm).
type Confirmed struct {
	// Kind is "invitation" (a new account) or "email_change".
	Kind   string `json:"kind"`
	UserID int    `json:"user_id"`
	// Email is the account's (new) delivery address.
	Email string `json:"email"`
	// APIKey is the new account's API key (invitations only).
	APIKey string `json:"api_key,omitempty"`
}

// AcceptInvitation signs a person up through an invitation, as following
// its link and completing Zulip's registration form does, and returns
// the new account's ID. The key is an email invitation's (its Outbox
// email's ConfirmationKey) or an invitation link's (the <key> of
// <realm url>/join/<key>/).
//
// An unknown or revoked key is refused as Zulip refuses a link that does
// not exist; an expired one (by the realm clock) or an email invitation
// already used, as expired. The address must pass the realm's email
// rules and be unused, the name Zulip's name rules. The account gets the
// invitation's role, channels (and the default ones if it says so) and
// groups, with the events POST /users and Zulip send (realm_user add,
// the role groups' add_members, subscription peer_add, the groups'
// add_members). An email invitation is then used up, and every other
// pending email invitation to the address dropped, as Zulip does; links
// stay usable until they expire. For an email invitation, its author
// gets Notification Bot's "accepted your invitation" direct message when
// it asked for it (and is still active), and invites_changed goes to the
// author and the administrators; as in Zulip, a link has no referrer to
// notify. A refusal changes nothing.
//
// Then, as Zulip's process_new_human_user, Notification Bot announces the
// new user in the realm's signup announcements channel, if it has one,
// and Welcome Bot sends its messages (welcomeNewUser).
func (r *Realm) AcceptInvitation(key string, s Signup) (userID int, err error) {
	err = r.update(func() error {
		u, err := r.acceptInvitation(key, s)
		if err == nil {
			userID = u.ID
		}
		return err
	})
	return userID, err
}

// Confirm follows a confirmation link: an email change's key confirms it
// (as ConfirmEmailChange; the Signup is not used), an invitation's
// accepts it (as AcceptInvitation).
func (r *Realm) Confirm(key string, s Signup) (ans Confirmed, err error) {
	err = r.update(func() error {
		if _, ok := r.mail.pending[key]; ok {
			u, err := r.confirmEmailChange(key)
			if err != nil {
				return err
			}
			ans = Confirmed{Kind: "email_change", UserID: u.ID, Email: u.DeliveryEmail}
			return nil
		}
		u, err := r.acceptInvitation(key, s)
		if err != nil {
			return err
		}
		ans = Confirmed{Kind: "invitation", UserID: u.ID, Email: u.DeliveryEmail, APIKey: u.APIKey}
		return nil
	})
	return ans, err
}

// inviteByKey finds the invitation (email or link) with that key.
func (r *Realm) inviteByKey(key string) *storedInvite {
	if key == "" {
		return nil
	}
	for _, m := range []map[int]*storedInvite{r.invites.email, r.invites.links} {
		for _, inv := range m {
			if inv.key == key {
				return inv
			}
		}
	}
	return nil
}

// acceptInvitation is AcceptInvitation under the write lock: every check
// comes before any change.
func (r *Realm) acceptInvitation(key string, s Signup) (*user.User, error) {
	inv := r.inviteByKey(key)
	if inv == nil || inv.revoked { // Zulip deletes a revoked invitation's link
		return nil, BadRequest(msgLinkDoesNotExist)
	}
	if inv.spent || (!inv.expiry.IsZero() && inv.expiry.Before(r.clock.Now())) {
		return nil, BadRequest(msgLinkExpired)
	}
	email, err := r.signupEmail(inv, s.Email)
	if err != nil {
		return nil, err
	}
	name, err := r.checkFullName(s.FullName, 0)
	if err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(s.Password); n > MaxPasswordLength {
		return nil, BadRequest("Ensure this value has at most %d characters (it has %d).", MaxPasswordLength, n)
	}
	hash := ""
	if s.Password != "" {
		hash = user.HashPassword(s.Password)
	}
	u := r.addUser(&user.User{DeliveryEmail: email, FullName: name, Role: inv.invitedAs, PasswordHash: hash})
	r.announceNewUser(u)
	r.emitRoleGroupsJoined(u)
	r.emitExportConsent(u)
	r.joinInvitedChannels(u, inv)
	r.joinInvitedGroups(u, inv)
	r.spendInvites(inv, email)
	if !inv.multiuse {
		if ref := r.users.byID[inv.referrerID]; inv.notifyReferrer && ref != nil && ref.IsActive {
			r.sendDirectFrom(notificationBotEmail, ref, silentMention(u)+" accepted your invitation to join Zulip!")
		}
		r.emitInvitesChanged(inv.referrerID)
	}
	// An invitation without its own text gets the realm's (an empty one
	// sends none).
	custom := r.settings.WelcomeMessageCustomText
	if inv.hasWelcome {
		custom = inv.welcome
	}
	r.welcomeNewUser(u, custom)
	return u, nil
}

// signupEmail is the address signing up through inv: the invitation's,
// or for a link the one given, checked against the realm's email rules
// (with the messages of Zulip's signup form) and the existing accounts.
func (r *Realm) signupEmail(inv *storedInvite, given string) (string, error) {
	email := strings.TrimSpace(given)
	if !inv.multiuse {
		if email != "" && user.NormalizeEmail(email) != user.NormalizeEmail(inv.email) {
			return "", BadRequest("This invitation is for %s, not %s", inv.email, email)
		}
		email = inv.email
	} else if !user.ValidNewEmail(email) {
		return "", BadRequest("Enter a valid email address.")
	}
	switch r.emailRefusalOf(email) {
	case emailOutsideDomains:
		return "", BadRequest("Your email address, %s, is not in one of the domains that are allowed to register "+
			"for accounts in this organization.", email)
	case emailDisposable:
		return "", BadRequest("Please use your real email address.")
	case emailContainsPlus:
		return "", BadRequest("Email addresses containing + are not allowed in this organization.")
	}
	if msg, _, taken := r.inviteeTaken(email); taken {
		return "", BadRequest("%s", msg)
	}
	if err := r.checkEmailFree(email); err != nil {
		return "", err
	}
	return email, nil
}

// emitRoleGroupsJoined tells the realm that a new account joined the
// system groups of its role (addUser put it there), as Zulip's
// do_create_user does.
func (r *Realm) emitRoleGroupsJoined(u *user.User) {
	names := []string{group.RoleGroup(u.Role)}
	if r.isFullMember(u) {
		names = append(names, group.FullMembers)
	}
	for _, name := range names {
		if g := r.groups.byName[name]; g != nil {
			r.emitGroupChange(true, UserGroupMembersEvent{Op: "add_members", GroupID: g.ID, UserIDs: []int{u.ID}})
		}
	}
}

// joinInvitedChannels subscribes a new account to its invitation's
// channels, and to the default channels when the invitation includes
// them; channels archived since are skipped.
func (r *Realm) joinInvitedChannels(u *user.User, inv *storedInvite) {
	ids := slices.Clone(inv.streamIDs)
	if inv.includeDefaults {
		for id, c := range r.channels.byID {
			if c.IsDefault {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	var added []*storedChannel
	for _, id := range slices.Compact(ids) {
		if c := r.channels.byID[id]; c != nil && !c.IsArchived && r.subscribe(id, u.ID) {
			added = append(added, c)
		}
	}
	gained := subscriptionChanges{}
	gained.add(u, added)
	r.emitAccessChanges(gained, true)
	r.emitSubscriptionsAdded(u, added)
}

// joinInvitedGroups adds a new account to its invitation's groups, each
// with its add_members event; groups deactivated since are skipped.
func (r *Realm) joinInvitedGroups(u *user.User, inv *storedInvite) {
	for _, id := range inv.groupIDs {
		g := r.groups.byID[id]
		if g == nil || g.Deactivated {
			continue
		}
		if _, in := g.Members[u.ID]; in {
			continue
		}
		g.Members[u.ID] = struct{}{}
		r.emitGroupChange(true, UserGroupMembersEvent{Op: "add_members", GroupID: g.ID, UserIDs: []int{u.ID}})
	}
}

// spendInvites uses up inv if it is an email invitation, and drops every
// other pending email invitation to the address that signed up.
func (r *Realm) spendInvites(inv *storedInvite, email string) {
	if !inv.multiuse {
		inv.spent = true
	}
	norm := user.NormalizeEmail(email)
	for _, other := range r.invites.email {
		if !other.revoked && user.NormalizeEmail(other.email) == norm {
			other.spent = true
		}
	}
}
