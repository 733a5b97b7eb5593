package realm

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// This file holds the users table: every account, bots and system bots
// included, with its copy, fixture and register section.

// userTable holds the realm's accounts.
type userTable struct {
	byID    map[int]*user.User
	byEmail map[string]*user.User // by normalized delivery and API email
	nextID  int
	// fakeEmailDomain ends the API addresses that stand in for hidden ones.
	fakeEmailDomain string
}

func (t *userTable) clone() userTable {
	c := userTable{nextID: t.nextID, fakeEmailDomain: t.fakeEmailDomain}
	c.byID, c.byEmail = cloneIndexed(t.byID, t.byEmail, cloneUser, func(u *user.User) int { return u.ID })
	return c
}

// cloneUser copies an account, sharing no map with it.
func cloneUser(u *user.User) *user.User {
	c := *u
	c.ProfileData = maps.Clone(u.ProfileData)
	c.EditedSettings = maps.Clone(u.EditedSettings)
	return &c
}

// sorted lists every account by ID.
func (t *userTable) sorted() []*user.User {
	out := make([]*user.User, 0, len(t.byID))
	for _, u := range t.byID {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// addUser stores a new account, giving it an ID, a personal recipient, an
// API key and its role-group memberships.
func (r *Realm) addUser(u *user.User) *user.User {
	u.ID = r.users.nextID
	r.users.nextID++
	u.IsActive = true
	if u.DateJoined == 0 {
		u.DateJoined = r.clock.Now().Unix()
	}
	if u.AvatarSource == "" {
		u.AvatarSource = "G"
		u.AvatarVersion = 1
	}
	if u.AvatarURL == "" {
		u.AvatarURL = user.GravatarURL(u.DeliveryEmail, u.AvatarVersion)
	}
	if u.APIKey == "" {
		u.APIKey = r.fixedAPIKey(u.DeliveryEmail)
	}
	if u.Settings == (user.Settings{}) {
		u.Settings = r.settingsDefaults.values
	}
	r.users.byID[u.ID] = u
	r.users.byEmail[user.NormalizeEmail(u.DeliveryEmail)] = u
	r.recipients.personal[u.ID] = r.allocRecipient()
	if !u.IsSystemBot {
		r.addToRoleGroups(u)
	}
	return u
}

func (r *Realm) fixedAPIKey(email string) string {
	for e, k := range r.opts.APIKeys {
		if user.NormalizeEmail(e) == user.NormalizeEmail(email) {
			return k
		}
	}
	if r.opts.APIKeySeed != "" {
		return user.DerivedAPIKey(r.opts.APIKeySeed, email)
	}
	return user.NewAPIKey()
}

func (r *Realm) addToRoleGroups(u *user.User) {
	r.groups.byName[group.RoleGroup(u.Role)].Members[u.ID] = struct{}{}
	if r.isFullMember(u) {
		r.groups.byName[group.FullMembers].Members[u.ID] = struct{}{}
	} else if u.Role == user.RoleMember {
		r.armFullMembers() // a new member waits for the waiting period
	}
}

// userByEmail finds an account by delivery email or by its API email
// (user<ID>@zulipdev.com and the like), case-insensitively.
func (r *Realm) userByEmail(email string) *user.User {
	norm := user.NormalizeEmail(email)
	if u := r.users.byEmail[norm]; u != nil {
		return u
	}
	if id, ok := user.ParseFakeEmailIn(email, r.users.fakeEmailDomain); ok {
		if u := r.users.byID[id]; u != nil && r.apiEmail(u) != u.DeliveryEmail {
			return u
		}
	}
	return nil
}

// dump adds every account to f, by ID, with the personal settings that
// differ from the defaults.
func (t *userTable) dump(r *Realm, f *fixture.Document) error {
	defaults := user.DefaultSettings()
	for _, u := range t.sorted() {
		fu := fixture.User{ID: u.ID, Email: u.DeliveryEmail, FullName: u.FullName, Role: int(u.Role),
			BotType: int(u.BotType), BotOwnerID: u.BotOwnerID, IsSystemBot: u.IsSystemBot, Deactivated: !u.IsActive,
			Timezone: u.Timezone, DateJoined: u.DateJoined, APIKey: u.APIKey}
		if u.HasService() {
			s := u.Service
			fu.Service = &fixture.Service{Name: s.Name, BaseURL: s.BaseURL, Interface: s.Interface, Token: s.Token}
		}
		for _, d := range user.SettingDefs {
			if v := d.Get(&u.Settings); v != d.Get(&defaults) {
				if fu.Settings == nil {
					fu.Settings = map[string]any{}
				}
				fu.Settings[d.Name] = v
			}
		}
		f.Users = append(f.Users, fu)
	}
	return nil
}

// load replaces the new realm's seeded accounts with the document's.
func (t *userTable) load(r *Realm, f *fixture.Document) error {
	for _, g := range r.groups.byID {
		clear(g.Members) // the seeded accounts' role groups
	}
	*t = userTable{byID: map[int]*user.User{}, byEmail: map[string]*user.User{}, nextID: 1, fakeEmailDomain: t.fakeEmailDomain}
	if len(f.Users) == 0 {
		return badItem("users", "a realm needs at least one user")
	}
	maxID := 0
	for i, fu := range f.Users {
		at := fmt.Sprintf("users[%d]", i)
		if fu.ID <= 0 || r.users.byID[fu.ID] != nil {
			return badItem(at+".id", "%s user ID %d", invalidOrDuplicate(fu.ID <= 0), fu.ID)
		}
		email := strings.TrimSpace(fu.Email)
		if !user.ValidNewEmail(email) {
			return badItem(at+".email", "invalid email %q", fu.Email)
		}
		if r.users.byEmail[user.NormalizeEmail(email)] != nil {
			return badItem(at+".email", "duplicate email %q", fu.Email)
		}
		if strings.TrimSpace(fu.FullName) == "" {
			return badItem(at+".full_name", "empty name")
		}
		role := user.Role(fu.Role)
		if fu.Role == 0 {
			role = user.RoleMember
		}
		if !role.Valid() {
			return badItem(at+".role", "unknown role %d", fu.Role)
		}
		if fu.BotType < 0 || fu.BotType > int(user.EmbeddedBot) {
			return badItem(at+".bot_type", "unknown bot type %d", fu.BotType)
		}
		if fu.Timezone != "" && !user.ValidTimezone(fu.Timezone) {
			return badItem(at+".timezone", "unknown time zone %q", fu.Timezone)
		}
		if fu.APIKey != "" && !user.WellFormedAPIKey(fu.APIKey) {
			return badItem(at+".api_key", "malformed API key")
		}
		settings, err := r.fixtureUserSettings(at+".settings", fu.Settings)
		if err != nil {
			return err
		}
		service, err := fixtureService(at+".service", fu)
		if err != nil {
			return err
		}
		u := &user.User{DeliveryEmail: email, FullName: strings.TrimSpace(fu.FullName), Role: role,
			BotType: user.BotType(fu.BotType), BotOwnerID: fu.BotOwnerID, IsSystemBot: fu.IsSystemBot,
			Timezone: fu.Timezone, DateJoined: fu.DateJoined, APIKey: fu.APIKey, Settings: settings, Service: service}
		r.users.nextID = fu.ID
		r.addUser(u)
		u.IsActive = !fu.Deactivated
		maxID = max(maxID, fu.ID)
	}
	r.users.nextID = maxID + 1
	for i, fu := range f.Users {
		if fu.BotOwnerID == 0 {
			continue
		}
		if fu.BotType == 0 {
			return badItem(fmt.Sprintf("users[%d].bot_owner_id", i), "only bots have an owner")
		}
		if r.users.byID[fu.BotOwnerID] == nil {
			return badItem(fmt.Sprintf("users[%d].bot_owner_id", i), "no user %d", fu.BotOwnerID)
		}
	}
	return nil
}

// fixtureUserSettings applies listed personal settings to the defaults;
// at is where the document lists them.
func (r *Realm) fixtureUserSettings(at string, values map[string]any) (user.Settings, error) {
	s := user.DefaultSettings()
	for _, name := range slices.Sorted(maps.Keys(values)) {
		d, ok := user.LookupSetting(name)
		if !ok {
			return s, badItem(at+"."+name, "unknown setting")
		}
		v := values[name]
		if n, isNum := v.(float64); isNum {
			if n != math.Trunc(n) || math.Abs(n) > math.MaxInt32 {
				return s, badItem(at+"."+name, "%v is not an integer", n)
			}
			v = int(n)
		}
		if err := d.Check(v, r.opts.FeatureLevel); err != nil {
			return s, badItem(at+"."+name, "%s", reason(err))
		}
		d.Set(&s, v)
	}
	return s, nil
}

// fixtureService checks a user's service entry: only outgoing-webhook
// bots have one, with a URL and an interface as POST /bots accepts them.
func fixtureService(at string, fu fixture.User) (user.Service, error) {
	fs := fu.Service
	if fs == nil {
		return user.Service{}, nil
	}
	if fu.BotType != int(user.OutgoingWebhook) {
		return user.Service{}, badItem(at, "only outgoing webhook bots (bot_type 3) have a service")
	}
	if fs.BaseURL != "" && !user.ValidURL(fs.BaseURL) {
		return user.Service{}, badItem(at+".base_url", "%q is not a URL", fs.BaseURL)
	}
	s := user.Service{Name: fs.Name, BaseURL: fs.BaseURL, Interface: cmp.Or(fs.Interface, user.GenericInterface), Token: fs.Token}
	if !user.ValidInterface(s.Interface) {
		return user.Service{}, badItem(at+".interface", "unknown interface %d", fs.Interface)
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(strings.SplitN(fu.Email, "@", 2)[0], "-bot")
	}
	if s.Token == "" {
		s.Token = user.NewAPIKey()
	}
	return s, nil
}

func (t *userTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm_user") {
		fillRealmUsers(r, me, req, out)
	}
	if req.fetches("realm_bot") {
		fillRealmBots(r, me, req, out)
	}
	if req.fetches("realm_incoming_webhook_bots") {
		// No integration is served: an honest empty list.
		out.IncomingWebhookBotsState = &IncomingWebhookBotsState{RealmIncomingWebhookBots: []IncomingWebhookIntegration{}}
	}
	legacy := !req.Queue.Capabilities.UserSettingsObject
	display, notification := legacy && req.fetches("update_display_settings"), legacy && req.fetches("update_global_notifications")
	if !req.fetches("user_settings") && !display && !notification {
		return
	}
	view := r.settingsView(me.Settings, me.Timezone, r.emailVisibilityOf(me))
	if req.fetches("user_settings") {
		out.UserSettingsState = &UserSettingsState{UserSettings: view}
	}
	// Clients without user_settings_object also get the settings as
	// top-level keys, as Zulip's fetch_initial_state_data sends them.
	if display {
		out.LegacyDisplaySettingsState = &LegacyDisplaySettingsState{view.LegacyDisplay()}
	}
	if notification {
		out.LegacyNotificationSettingsState = &LegacyNotificationSettingsState{view.LegacyNotification()}
	}
}

// fillRealmUsers is the realm_user state section: active and inactive
// accounts, the cross-realm bots and the caller's own fields.
func fillRealmUsers(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	o := UserViewOptions{ClientGravatar: req.Queue.ClientGravatar, IncludeCustomProfileFields: true}
	active, inactive, crossRealm := []User{}, []User{}, []User{}
	// A restricted guest gets the users it may not access as "Unknown
	// user" placeholders (active ones), or not at all when its client
	// declares user_list_incomplete.
	accessible := r.accessibleUserIDs(me, true)
	for _, u := range r.users.sorted() {
		switch {
		case u.IsSystemBot:
			// Zulip builds these once for everyone, with avatar URLs.
			crossRealm = append(crossRealm, r.userView(me, u, UserViewOptions{}))
		case accessible != nil && !u.IsBot() && !accessible[u.ID]:
			if !req.Queue.Capabilities.UserListIncomplete {
				active = append(active, r.inaccessibleUserView(u.ID))
			}
		case u.IsActive:
			active = append(active, r.userView(me, u, o))
		default:
			inactive = append(inactive, r.userView(me, u, o))
		}
	}
	slices.SortFunc(crossRealm, func(a, b User) int { return strings.Compare(a.FullName, b.FullName) })
	own := r.ownUserView(me)
	canPublic := r.settingHas(r.settings.CanCreatePublicChannelGroup, me.ID)
	canPrivate := r.settingHas(r.settings.CanCreatePrivateChannelGroup, me.ID)
	out.RealmUserState = &RealmUserState{
		RealmUsers: active, RealmNonActiveUsers: inactive, CrossRealmBots: crossRealm,
		UserID: me.ID, Email: own.Email, DeliveryEmail: me.DeliveryEmail, FullName: me.FullName,
		IsAdmin: own.IsAdmin, IsOwner: own.IsOwner, IsModerator: me.Role == user.RoleModerator || r.has(changeModeratorOrAbove) && me.Role.IsModeratorOrAbove(),
		IsGuest: own.IsGuest, IsBillingAdmin: r.billingAdminField(), AvatarSource: me.AvatarSource,
		AvatarURL: me.AvatarURL, AvatarURLMedium: mediumAvatarURL(me),
		CanCreateStreams:          canPublic || canPrivate,
		CanCreatePublicStreams:    canPublic,
		CanCreatePrivateStreams:   canPrivate,
		CanCreateWebPublicStreams: me.Role.IsModeratorOrAbove(),
		CanSubscribeOtherUsers:    r.settingHas(r.settings.CanAddSubscribersGroup, me.ID),
		CanInviteOthersToRealm:    r.settingHas(r.settings.CanInviteUsersGroup, me.ID),
	}
}

// fillRealmBots is the realm_bot section: the caller's own bots, or every
// bot of the realm for an administrator.
func fillRealmBots(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	bots := []Bot{}
	for _, u := range r.users.sorted() {
		if u.IsBot() && !u.IsSystemBot && (u.BotOwnerID == me.ID || me.Role.IsAdmin()) {
			bots = append(bots, r.botView(u))
		}
	}
	out.RealmBotState = &RealmBotState{RealmBots: bots}
}
