package realm

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// FixtureError refuses a fixture document, naming the offending item as
// a path into the document (e.g. "messages[3].sender_id").
type FixtureError struct {
	Item string // empty for the document as a whole
	Msg  string
}

func (e *FixtureError) Error() string {
	if e.Item == "" {
		return "fixture: " + e.Msg
	}
	return "fixture: " + e.Item + ": " + e.Msg
}

// badItem is a FixtureError for the item at path.
func badItem(path, format string, args ...any) error {
	return &FixtureError{Item: path, Msg: fmt.Sprintf(format, args...)}
}

// Load creates a realm from a fixture document (see fixture.Document; Dump writes
// one) with the given options; the Seed option is ignored, as the document
// says what the realm holds. Everything is checked: malformed JSON,
// unknown fields, duplicate IDs or addresses, bad names, references to
// users, groups, channels or emoji the document lacks, unknown flags and
// settings. A bad document is refused with a *FixtureError naming the
// offending item, and leaves nothing behind (uploaded files' bytes go to
// the upload store only once the rest is accepted). The document's
// presence is the realm's: WithSeededPresence seeds none. The loaded
// realm is what its Reset goes back to.
func Load(doc []byte, opts ...Option) (*Realm, error) {
	r := New(append(slices.Clone(opts), WithSeed(SeedEmpty))...)
	f := fixture.Document{Settings: r.settings.fixture()} // absent settings keep their values
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, &FixtureError{Msg: "not a valid fixture document: " + err.Error()}
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return nil, &FixtureError{Msg: "not a valid fixture document: data after the document"}
	}
	if f.Format != fixture.Format {
		return nil, badItem("minizulip_fixture", "format %d, want %d", f.Format, fixture.Format)
	}
	err := r.update(func() error {
		if err := r.loadFixture(&f); err != nil {
			return err
		}
		r.applyAccountManagers()
		r.armDelivery() // for the scheduled messages and reminders, now that the load succeeded
		r.armUnclaimedSweeps()
		r.initial = r.takeSnapshot()
		r.initial.id, r.snapshots = 0, 0
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// loadFixture replaces the new realm's seeded accounts with the
// document's contents, checking each item as it goes; on error the realm
// is dropped. The caller holds the write lock.
func (r *Realm) loadFixture(f *fixture.Document) error {
	r.users, r.usersByEmail, r.personalRecipient = map[int]*user.User{}, map[string]*user.User{}, map[int]int{}
	r.nextRecipientID = 1
	for _, g := range r.groups {
		clear(g.Members)
	}
	return r.loadTables(f)
}

// loadEarly loads the tables not yet in the domains list that load
// before the first table in it.
func (r *Realm) loadEarly(f *fixture.Document) error {
	for _, step := range []func(*fixture.Document) error{r.loadUsers, r.loadGroups, r.loadSettings, r.loadChannelFolders, r.loadChannels,
		r.loadModerationChannel, r.loadSubscriptions, r.loadLinkifiers, r.loadPlaygrounds, r.loadEmoji, r.loadMessages} {
		if err := step(f); err != nil {
			return err
		}
	}
	return nil
}

// loadLate loads the other tables not yet in the domains list. Its row
// comes before the activity's tables, so that nothing loads after the
// uploads, whose load writes the files' bytes.
func (r *Realm) loadLate(f *fixture.Document) error {
	for _, step := range []func(*fixture.Document) error{
		r.loadUserData,
		r.loadProfiles,
		r.loadViews,
	} {
		if err := step(f); err != nil {
			return err
		}
	}
	return nil
}

// nextAfter is one more than the highest of ids and floor-1.
func nextAfter(floor int, ids ...int) int {
	next := floor
	for _, id := range ids {
		next = max(next, id+1)
	}
	return next
}

func (r *Realm) loadUsers(f *fixture.Document) error {
	if len(f.Users) == 0 {
		return badItem("users", "a realm needs at least one user")
	}
	maxID := 0
	for i, fu := range f.Users {
		at := fmt.Sprintf("users[%d]", i)
		if fu.ID <= 0 || r.users[fu.ID] != nil {
			return badItem(at+".id", "%s user ID %d", invalidOrDuplicate(fu.ID <= 0), fu.ID)
		}
		email := strings.TrimSpace(fu.Email)
		if !user.ValidNewEmail(email) {
			return badItem(at+".email", "invalid email %q", fu.Email)
		}
		if r.usersByEmail[user.NormalizeEmail(email)] != nil {
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
		r.nextUserID = fu.ID
		r.addUser(u)
		u.IsActive = !fu.Deactivated
		maxID = max(maxID, fu.ID)
	}
	r.nextUserID = maxID + 1
	for i, fu := range f.Users {
		if fu.BotOwnerID == 0 {
			continue
		}
		if fu.BotType == 0 {
			return badItem(fmt.Sprintf("users[%d].bot_owner_id", i), "only bots have an owner")
		}
		if r.users[fu.BotOwnerID] == nil {
			return badItem(fmt.Sprintf("users[%d].bot_owner_id", i), "no user %d", fu.BotOwnerID)
		}
	}
	return nil
}

func invalidOrDuplicate(invalid bool) string {
	if invalid {
		return "invalid"
	}
	return "duplicate"
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

func (r *Realm) loadGroups(f *fixture.Document) error {
	// Every group first, so that members, subgroups and settings may name
	// groups listed later.
	defaults := r.defaultGroupSettings()
	ids := []int{}
	for i, fg := range f.Groups {
		at := fmt.Sprintf("groups[%d]", i)
		if g := r.groups[fg.ID]; fg.ID <= 0 || g != nil {
			if g != nil && g.IsSystem {
				return badItem(at+".id", "%d is the ID of the system group %s", fg.ID, g.Name)
			}
			return badItem(at+".id", "%s group ID %d", invalidOrDuplicate(fg.ID <= 0), fg.ID)
		}
		name, err := r.checkGroupName(fg.Name, 0)
		if err != nil {
			return badItem(at+".name", "%s", reason(err))
		}
		r.nextGroupID = fg.ID
		g := r.addGroup(name, fg.Description, false)
		g.Deactivated, g.CreatorID, g.DateCreated, g.Settings = fg.Deactivated, fg.CreatorID, fg.DateCreated, defaults
		ids = append(ids, fg.ID)
	}
	r.nextGroupID = nextAfter(r.nextGroupID, ids...)
	for i, fg := range f.Groups {
		at := fmt.Sprintf("groups[%d]", i)
		g := r.groups[fg.ID]
		if fg.CreatorID != 0 && r.users[fg.CreatorID] == nil {
			return badItem(at+".creator_id", "no user %d", fg.CreatorID)
		}
		for j, uid := range fg.Members {
			if u := r.users[uid]; u == nil || u.IsSystemBot {
				return badItem(fmt.Sprintf("%s.members[%d]", at, j), "no user %d", uid)
			}
			g.Members[uid] = struct{}{}
		}
		for j, sub := range fg.Subgroups {
			if r.groups[sub] == nil || sub == fg.ID {
				return badItem(fmt.Sprintf("%s.subgroups[%d]", at, j), "no group %d other than this one", sub)
			}
			g.Subgroups[sub] = struct{}{}
		}
		for _, name := range slices.Sorted(maps.Keys(fg.Settings)) {
			if _, ok := g.Settings.Get(name); !ok {
				return badItem(at+".settings."+name, "unknown group setting")
			}
			if r.groups[fg.Settings[name]] == nil {
				return badItem(at+".settings."+name, "no group %d", fg.Settings[name])
			}
			g.Settings.Set(name, fg.Settings[name])
		}
	}
	for i, fg := range f.Groups {
		if r.subgroupCycle(fg.ID, map[int]bool{}) {
			return badItem(fmt.Sprintf("groups[%d].subgroups", i), "group %d contains itself through its subgroups", fg.ID)
		}
	}
	return nil
}

// subgroupCycle reports whether group id is reached again from its
// subgroups; path holds the groups on the way.
func (r *Realm) subgroupCycle(id int, path map[int]bool) bool {
	if path[id] {
		return true
	}
	path[id] = true
	defer delete(path, id)
	for sub := range r.groups[id].Subgroups {
		if r.subgroupCycle(sub, path) {
			return true
		}
	}
	return false
}

// checkFixtureGroupSetting checks that a group setting names groups and
// users that exist.
func (r *Realm) checkFixtureGroupSetting(at string, v GroupSetting) error {
	if v.GroupID != 0 {
		if r.groups[v.GroupID] == nil {
			return badItem(at, "no group %d", v.GroupID)
		}
		return nil
	}
	for _, id := range v.DirectMembers {
		if r.users[id] == nil {
			return badItem(at, "no user %d", id)
		}
	}
	for _, id := range v.DirectSubgroups {
		if r.groups[id] == nil {
			return badItem(at, "no group %d", id)
		}
	}
	return nil
}

func (r *Realm) loadSettings(f *fixture.Document) error {
	fs := f.Settings
	const at = "settings"
	if strings.TrimSpace(fs.Name) == "" {
		return badItem(at+".name", "empty name")
	}
	if !user.EmailVisibility(fs.EmailAddressVisibility).Valid() {
		return badItem(at+".email_address_visibility", "unknown value %d", fs.EmailAddressVisibility)
	}
	for name, limit := range map[string]*int{
		"message_content_edit_limit_seconds":          fs.MessageContentEditLimitSeconds,
		"move_messages_within_stream_limit_seconds":   fs.MoveMessagesWithinStreamLimitSeconds,
		"move_messages_between_streams_limit_seconds": fs.MoveMessagesBetweenStreamsLimitSeconds,
		"message_content_delete_limit_seconds":        fs.MessageContentDeleteLimitSeconds,
	} {
		if limit != nil && *limit <= 0 {
			return badItem(at+"."+name, "%d is not a positive number of seconds (null is no limit)", *limit)
		}
	}
	s := r.settings.clone()
	s.Name, s.Description, s.EmailAddressVisibility = fs.Name, fs.Description, user.EmailVisibility(fs.EmailAddressVisibility)
	s.AllowMessageEditing, s.MandatoryTopics = fs.AllowMessageEditing, fs.MandatoryTopics
	s.MessageContentEditLimitSeconds = fs.MessageContentEditLimitSeconds
	s.MoveMessagesWithinStreamLimitSeconds = fs.MoveMessagesWithinStreamLimitSeconds
	s.MoveMessagesBetweenStreamsLimitSeconds = fs.MoveMessagesBetweenStreamsLimitSeconds
	s.MessageContentDeleteLimitSeconds = fs.MessageContentDeleteLimitSeconds
	s.EmptyTopicDisplayName, s.DefaultLanguage = fs.EmptyTopicDisplayName, fs.DefaultLanguage
	s.EnableSpectatorAccess, s.EnableReadReceipts = fs.EnableSpectatorAccess, fs.EnableReadReceipts
	if fs.MaxInvites <= 0 {
		return badItem(at+".max_invites", "%d is not a positive number of invitations", fs.MaxInvites)
	}
	s.EmailsRestrictedToDomains, s.DisallowDisposableEmailAddresses = fs.EmailsRestrictedToDomains, fs.DisallowDisposableEmailAddresses
	s.MaxInvites = fs.MaxInvites
	s.EmailChangesDisabled, s.NameChangesDisabled, s.AvatarChangesDisabled = fs.EmailChangesDisabled, fs.NameChangesDisabled, fs.AvatarChangesDisabled
	known := map[string]*GroupSetting{}
	for _, g := range s.groupSettings() {
		known[g.name] = g.id
	}
	for _, name := range slices.Sorted(maps.Keys(fs.GroupSettings)) {
		dst := known[name]
		if dst == nil {
			return badItem(at+".group_settings."+name, "unknown realm group setting")
		}
		if err := r.checkFixtureGroupSetting(at+".group_settings."+name, fs.GroupSettings[name]); err != nil {
			return err
		}
		*dst = fs.GroupSettings[name].Clone()
	}
	r.settings = s
	return nil
}

// applyAccountManagers grants the WithAccountManagers accounts their
// permissions; the caller holds the write lock.
func (r *Realm) applyAccountManagers() {
	for _, email := range r.opts.AccountManagers {
		if u := r.userByEmail(email); u != nil && !u.IsSystemBot {
			u.CanCreateUsers, u.CanChangeUserEmails = true, true
		}
	}
}

// reason is an error's text without the code a realm error starts with.
func reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
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
