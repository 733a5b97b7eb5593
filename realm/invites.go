package realm

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/minizulip/minizulip/user"
)

// DefaultInviteExpiryMinutes is how long an invitation lasts when the
// request does not say: Zulip's INVITATION_LINK_VALIDITY_DAYS (10 days).
const DefaultInviteExpiryMinutes = 10 * 24 * 60

// CodeInvitationFailed is an email invitation refused, in whole or in
// part, for some of its addresses.
const CodeInvitationFailed Code = "INVITATION_FAILED"

// InviteRequest holds the options of a new invitation (POST /invites and
// POST /invites/multiuse).
type InviteRequest struct {
	// InviteeEmails is the raw list of addresses, separated by commas or
	// newlines, each optionally as "Name <address>"; email invitations only.
	InviteeEmails string
	// ExpiresInMinutes is the invitation's lifetime; nil never expires.
	// Callers wanting Zulip's default pass DefaultInviteExpiryMinutes.
	ExpiresInMinutes *int
	// InviteAs is the role the new user gets; 0 is a member.
	InviteAs user.Role
	// StreamIDs are the channels the new user joins.
	StreamIDs []int
	// GroupIDs are the user groups the new user joins.
	GroupIDs []int
	// IncludeRealmDefaultSubscriptions adds the default channels.
	IncludeRealmDefaultSubscriptions bool
	// NotifyReferrerOnJoin asks for a notice when the invitee joins
	// (email invitations; the API's default is true).
	NotifyReferrerOnJoin bool
	// WelcomeMessageCustomText is Welcome Bot's message for the new
	// user; nil is the realm's default. Administrators only.
	WelcomeMessageCustomText *string
}

// Invite is an invitation as GET /invites lists it: email invitations
// carry Email and NotifyReferrerOnJoin, reusable links LinkURL.
type Invite struct {
	ID              int    `json:"id"`
	InvitedByUserID int    `json:"invited_by_user_id"`
	Invited         int64  `json:"invited"`
	ExpiryDate      *int64 `json:"expiry_date"`
	InvitedAs       int    `json:"invited_as"`
	Email           string `json:"email,omitempty"`
	LinkURL         string `json:"link_url,omitempty"`
	IsMultiuse      bool   `json:"is_multiuse"`
	NotifyReferrer  *bool  `json:"notify_referrer_on_join,omitempty"`
}

// InvitesChangedEvent tells clients to fetch GET /invites again.
type InvitesChangedEvent struct{}

// storedInvite is one email invitation or reusable invitation link.
type storedInvite struct {
	id       int
	multiuse bool
	email    string // email invitations
	// key is the confirmation key of the invitation's link.
	key             string
	referrerID      int
	invitedAs       user.Role
	streamIDs       []int
	groupIDs        []int
	includeDefaults bool
	notifyReferrer  bool
	welcome         string
	hasWelcome      bool
	invited         time.Time // UTC
	expiry          time.Time // UTC; zero when it never expires
	revoked         bool
	// spent marks an email invitation used to sign up, or dropped because
	// its address signed up through another (Zulip's STATUS_USED and
	// STATUS_REVOKED); links are never spent.
	spent bool
}

// inviteTable holds the realm's invitations. Email invitations and links
// are numbered separately, as Zulip stores them in two tables; IDs are
// never reused, and revoked invitations are kept.
type inviteTable struct {
	email       map[int]*storedInvite // the email invitations, by ID
	links       map[int]*storedInvite // the reusable invitation links, by ID
	lastEmailID int                   // the last email invitation ID given
	lastLinkID  int                   // the last link ID given
	// sent are when the invitation emails of the last day went (resent
	// ones included), for the daily limit (invites_limit.go).
	sent []time.Time
}

// clone copies the invitations deeply.
func (t *inviteTable) clone() inviteTable {
	cp := func(m map[int]*storedInvite) map[int]*storedInvite {
		if m == nil {
			return nil
		}
		out := make(map[int]*storedInvite, len(m))
		for id, inv := range m {
			c := *inv
			c.streamIDs, c.groupIDs = slices.Clone(inv.streamIDs), slices.Clone(inv.groupIDs)
			out[id] = &c
		}
		return out
	}
	return inviteTable{email: cp(t.email), links: cp(t.links), lastEmailID: t.lastEmailID, lastLinkID: t.lastLinkID,
		sent: slices.Clone(t.sent)}
}

// validInviteRoles are the roles an invitation may give.
var validInviteRoles = []user.Role{user.RoleOwner, user.RoleAdmin, user.RoleModerator, user.RoleMember, user.RoleGuest}

// memberOrAdmin refuses guests and bots, as Zulip's require_member_or_admin.
func memberOrAdmin(me *user.User) error {
	if me.IsGuest() {
		return BadRequest("Not allowed for guest users")
	}
	if me.IsBot() {
		return BadRequest("This endpoint does not accept bot requests.")
	}
	return nil
}

// checkInviteRole checks the role an invitation gives (or gave) against
// the actor's: only owners invite owners; only administrators invite
// administrators and moderators, or act on others' invitations.
func checkInviteRole(me *user.User, role user.Role, requireAdmin bool) error {
	if role == user.RoleOwner && me.Role != user.RoleOwner {
		return UnauthorizedPrincipal("Must be an organization owner")
	}
	if requireAdmin && !me.Role.IsAdmin() {
		return BadRequest("Must be an organization administrator")
	}
	return nil
}

// normalizeInviteRequest fills the default role and checks the options
// common to both kinds of invitation, in Zulip's order, after the
// permission named by setting.
func (r *Realm) normalizeInviteRequest(me *user.User, req *InviteRequest, setting GroupSetting) error {
	if err := memberOrAdmin(me); err != nil {
		return err
	}
	if req.InviteAs == 0 {
		req.InviteAs = user.RoleMember
	}
	if !slices.Contains(validInviteRoles, req.InviteAs) {
		return BadRequest("Invalid invite_as")
	}
	if req.WelcomeMessageCustomText != nil && len([]rune(*req.WelcomeMessageCustomText)) > MaxWelcomeMessageCustomTextLength {
		return BadRequest("welcome_message_custom_text is too long (limit: %d characters)", MaxWelcomeMessageCustomTextLength)
	}
	if err := noNullIn("welcome_message_custom_text", req.WelcomeMessageCustomText); err != nil {
		return err
	}
	if req.ExpiresInMinutes != nil && !r.validExpiry(*req.ExpiresInMinutes) {
		return BadRequest("Invalid invite_expires_in_minutes")
	}
	if !r.settingHas(setting, me.ID) {
		return BadRequest("Insufficient permission")
	}
	return checkInviteRole(me, req.InviteAs, req.InviteAs != user.RoleMember && req.InviteAs != user.RoleGuest)
}

// validExpiry reports whether an expiry that many minutes from now is a
// date (Zulip's dates end with the year 9999).
func (r *Realm) validExpiry(minutes int) bool {
	const maxMinutes = 8000 * 365 * 24 * 60 // comfortably within year 9999 and time.Duration
	return minutes > -maxMinutes && minutes < maxMinutes
}

// checkInviteTargets checks the channels and groups of an invitation, in
// Zulip's order, and the custom welcome message's author.
func (r *Realm) checkInviteTargets(me *user.User, req InviteRequest) error {
	for _, id := range req.StreamIDs {
		ch := r.channels.byID[id]
		if ch == nil || ch.IsArchived || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID %d. No invites were sent.", id)
		}
	}
	for _, id := range req.StreamIDs {
		ch := r.channels.byID[id]
		if !(ch.IsDefault && r.has(changeInviteDefaultChannels)) && !r.canAddSubscribers(me, ch) {
			return BadRequest("You do not have permission to subscribe other users to channels.")
		}
	}
	for _, id := range req.GroupIDs {
		g := r.groups.byID[id]
		if g == nil {
			return BadRequest("Invalid user group")
		}
		if g.Deactivated {
			return BadRequest("User group is deactivated.")
		}
		if g.IsSystem || !(r.canManageGroup(me, g) || r.settingHas(g.Settings.CanAddMembers, me.ID)) {
			return BadRequest("Insufficient permission")
		}
	}
	if req.WelcomeMessageCustomText != nil && !me.Role.IsAdmin() {
		return BadRequest("Must be an organization administrator")
	}
	return nil
}

// newInvite builds an invitation of req by me, dated now.
func (r *Realm) newInvite(me *user.User, req InviteRequest) *storedInvite {
	now := r.clock.Now().UTC()
	inv := &storedInvite{key: confirmationKey(), referrerID: me.ID, invitedAs: req.InviteAs,
		streamIDs: slices.Clone(req.StreamIDs), groupIDs: slices.Clone(req.GroupIDs),
		includeDefaults: req.IncludeRealmDefaultSubscriptions, notifyReferrer: req.NotifyReferrerOnJoin,
		invited: now}
	if req.WelcomeMessageCustomText != nil {
		inv.welcome, inv.hasWelcome = *req.WelcomeMessageCustomText, true
	}
	if req.ExpiresInMinutes != nil {
		inv.expiry = now.Add(time.Duration(*req.ExpiresInMinutes) * time.Minute)
	}
	return inv
}

// confirmationKey is a new random key as Zulip makes them: 24 lower-case
// base32 characters.
func confirmationKey() string {
	var b [15]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))
}

// joinURL is the reusable link of a confirmation key.
func (r *Realm) joinURL(key string) string {
	return strings.TrimRight(r.opts.URL, "/") + "/join/" + key + "/"
}

// CreateInviteLink answers POST /invites/multiuse: members of the realm's
// create_multiuse_invite_group make a reusable invitation link, returned
// as its URL.
func (a *Actor) CreateInviteLink(ctx context.Context, req InviteRequest) (link string, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if err := r.mayManageInviteLinks(me); err != nil {
			return err
		}
		if err := r.normalizeInviteRequest(me, &req, r.settings.CreateMultiuseInviteGroup); err != nil {
			return err
		}
		if err := r.checkInviteTargets(me, req); err != nil {
			return err
		}
		req.NotifyReferrerOnJoin = false // links do not notify
		inv := r.newInvite(me, req)
		inv.multiuse = true
		r.invites.lastLinkID++
		inv.id = r.invites.lastLinkID
		if r.invites.links == nil {
			r.invites.links = map[int]*storedInvite{}
		}
		r.invites.links[inv.id] = inv
		r.emitInvitesChanged(inv.referrerID)
		link = r.joinURL(inv.key)
		return nil
	})
	return link, err
}

// Invites answers GET /invites: the unexpired, unrevoked invitations the
// actor manages (administrators: everyone's; others: their own), email
// invitations first, each kind by ID.
func (a *Actor) Invites(ctx context.Context) (ans []Invite, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		if err := memberOrAdmin(me); err != nil {
			return err
		}
		now := r.clock.Now()
		ans = []Invite{}
		for _, m := range []map[int]*storedInvite{r.invites.email, r.invites.links} {
			for _, id := range sortedInviteIDs(m) {
				inv := m[id]
				if inv.revoked || inv.spent || (!inv.expiry.IsZero() && inv.expiry.Before(now)) {
					continue
				}
				if inv.referrerID != me.ID && !me.Role.IsAdmin() {
					continue
				}
				ans = append(ans, r.inviteView(inv))
			}
		}
		return nil
	})
	return ans, err
}

// sortedInviteIDs lists a table's IDs in order.
func sortedInviteIDs(m map[int]*storedInvite) []int {
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// inviteView is an invitation as the API shows it.
func (r *Realm) inviteView(inv *storedInvite) Invite {
	v := Invite{ID: inv.id, InvitedByUserID: inv.referrerID, Invited: inv.invited.Unix(),
		InvitedAs: int(inv.invitedAs), IsMultiuse: inv.multiuse}
	if !inv.expiry.IsZero() {
		ts := inv.expiry.Unix()
		v.ExpiryDate = &ts
	}
	if inv.multiuse {
		v.LinkURL = r.joinURL(inv.key)
	} else {
		v.Email = inv.email
		notify := inv.notifyReferrer
		v.NotifyReferrer = &notify
	}
	return v
}

// accessInvite finds an invitation the actor may act on: their own, or,
// for administrators, anyone's (owners' invitations of owners only by
// owners).
func accessInvite(me *user.User, m map[int]*storedInvite, id int) (*storedInvite, error) {
	inv := m[id]
	if inv == nil || (!inv.multiuse && inv.revoked) {
		// A revoked email invitation is gone for Zulip's API: resending
		// or revoking it again finds none (zerver/tests/test_invite.py).
		return nil, BadRequest("No such invitation")
	}
	if inv.referrerID != me.ID {
		if err := checkInviteRole(me, inv.invitedAs, true); err != nil {
			return nil, err
		}
	}
	return inv, nil
}

// withInvite runs fn, under the write lock, on the invitation of list
// (the realm's email invitations or links, as pick chooses) that the
// actor may act on, after the checks every such request makes: the
// actor is a human member or administrator, the invitation exists and
// accessInvite allows it.
func (a *Actor) withInvite(ctx context.Context, id int, pick func(*inviteTable) map[int]*storedInvite, fn func(inv *storedInvite) error) error {
	return a.write(ctx, func(me *user.User) error {
		if err := memberOrAdmin(me); err != nil {
			return err
		}
		inv, err := accessInvite(me, pick(&a.r.invites), id)
		if err != nil {
			return err
		}
		return fn(inv)
	})
}

// inviteLinks picks the reusable invitation links for withInvite.
func inviteLinks(s *inviteTable) map[int]*storedInvite { return s.links }

// mayManageInviteLinks: before feature level 209 only administrators
// made and revoked reusable invitation links (Zulip's require_realm_admin);
// from it, create_multiuse_invite_group and the link's author decide.
func (r *Realm) mayManageInviteLinks(me *user.User) error {
	if !r.has(changeInviteLinksByGroup) && !me.Role.IsAdmin() {
		return UnauthorizedPrincipal("Must be an organization administrator")
	}
	return nil
}

// RevokeInviteLink answers DELETE /invites/multiuse/{invite_id}.
func (a *Actor) RevokeInviteLink(ctx context.Context, id int) error {
	return a.withInvite(ctx, id, inviteLinks, func(inv *storedInvite) error {
		if err := a.r.mayManageInviteLinks(a.r.users.byID[a.id]); err != nil {
			return err
		}
		if inv.revoked {
			return BadRequest("Invitation has already been revoked")
		}
		inv.revoked = true
		a.r.emitInvitesChanged(inv.referrerID)
		return nil
	})
}

// expireInvitesBy ends the invitations a user being deactivated sent, as
// Zulip's revoke_invites_generated_by_user does: every pending email
// invitation and every link still valid expires now (they leave GET
// /invites, and their links answer as expired); when any did, the
// administrators hear invites_changed.
func (r *Realm) expireInvitesBy(userID int) {
	now := r.clock.Now().UTC()
	n := 0
	for _, m := range []map[int]*storedInvite{r.invites.email, r.invites.links} {
		for _, inv := range m {
			if inv.referrerID != userID || inv.revoked || inv.spent || (!inv.expiry.IsZero() && inv.expiry.Before(now)) {
				continue
			}
			// A second back: the realm clock may not move before the
			// next request, and an invitation expiring now is still valid.
			inv.expiry = now.Add(-time.Second)
			n++
		}
	}
	if n > 0 {
		r.emitInvitesChanged(0)
	}
}

// emitInvitesChanged tells the realm's administrators (bots included) and
// the invitation's author (0: none) that the invitations changed.
func (r *Realm) emitInvitesChanged(referrerID int) {
	ids := []int{}
	for _, u := range r.users.sorted() {
		if u.IsActive && u.Role.IsAdmin() {
			ids = append(ids, u.ID)
		}
	}
	// Below changeInvitesChangedToReferrer, administrators only.
	if referrerID != 0 && !slices.Contains(ids, referrerID) && r.has(changeInvitesChangedToReferrer) {
		ids = append(ids, referrerID)
	}
	r.emit("invites_changed", InvitesChangedEvent{}, ids...)
}

// inviteeNamePattern finds the address of a "Name <address>" entry;
// inviteeSeparator separates entries.
var (
	inviteeNamePattern = regexp.MustCompile(`<(.*)>`)
	inviteeSeparator   = regexp.MustCompile(`[,\n]`)
)

// inviteeEmails splits invitee_emails as Zulip does: on commas and
// newlines, taking the address of "Name <address>", trimmed, each once.
func inviteeEmails(raw string) []string {
	var out []string
	for _, part := range inviteeSeparator.Split(raw, -1) {
		if m := inviteeNamePattern.FindStringSubmatch(part); m != nil {
			part = m[1]
		}
		part = strings.TrimSpace(part)
		if !slices.Contains(out, part) {
			out = append(out, part)
		}
	}
	return out
}
