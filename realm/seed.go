package realm

import (
	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

type seedUser struct {
	name, email string
	role        user.Role
	tz          string
	bot         user.BotType
	owner       string // owner's email, bots only
	systemBot   bool
}

// Seeded accounts in creation order: system bots 1-5, humans 6-15, bots 16-21.
var devUsers = []seedUser{
	{name: "Email Gateway", email: "emailgateway@zulip.com", bot: user.GenericBot, systemBot: true},
	{name: "Nagios Receive Bot", email: "nagios-receive-bot@zulip.com", bot: user.GenericBot, systemBot: true},
	{name: "Nagios Send Bot", email: "nagios-send-bot@zulip.com", bot: user.GenericBot, systemBot: true},
	{name: "Notification Bot", email: "notification-bot@zulip.com", bot: user.GenericBot, systemBot: true},
	{name: "Welcome Bot", email: "welcome-bot@zulip.com", bot: user.GenericBot, systemBot: true},
	{name: "aaron", email: "AARON@zulip.com", role: user.RoleMember, tz: "America/Los_Angeles"},
	{name: "Zoe", email: "ZOE@zulip.com", role: user.RoleMember, tz: "America/New_York"},
	{name: "Cordelia, Lear's daughter", email: "cordelia@zulip.com", role: user.RoleMember, tz: "Etc/UTC"},
	{name: "Desdemona", email: "desdemona@zulip.com", role: user.RoleOwner, tz: "America/St_Johns"},
	{name: "King Hamlet", email: "hamlet@zulip.com", role: user.RoleMember},
	{name: "Iago", email: "iago@zulip.com", role: user.RoleAdmin, tz: "America/New_York"},
	{name: "Othello, the Moor of Venice", email: "othello@zulip.com", role: user.RoleMember, tz: "America/Los_Angeles"},
	{name: "Polonius", email: "polonius@zulip.com", role: user.RoleGuest, tz: "Asia/Shanghai"},
	{name: "Prospero from The Tempest", email: "prospero@zulip.com", role: user.RoleMember},
	{name: "शिव", email: "shiva@zulip.com", role: user.RoleModerator, tz: "Asia/Kolkata"},
	{name: "Zulip Default Bot", email: "default-bot@zulip.com", bot: user.GenericBot, owner: "desdemona@zulip.com"},
	{name: "Zulip Webhook Bot", email: "webhook-bot@zulip.com", bot: user.IncomingWebhook, owner: "ZOE@zulip.com"},
	{name: "Outgoing Webhook", email: "outgoing-webhook@zulip.com", bot: user.OutgoingWebhook, owner: "AARON@zulip.com"},
	{name: "Zulip Commit Bot", email: "commit-bot@zulip.com", bot: user.GenericBot, owner: "desdemona@zulip.com"},
	{name: "Zulip Nagios Bot", email: "nagios-bot@zulip.com", bot: user.GenericBot, owner: "desdemona@zulip.com"},
	{name: "Zulip Trac Bot", email: "trac-bot@zulip.com", bot: user.GenericBot, owner: "desdemona@zulip.com"},
}

type seedChannel struct {
	name, description string
	inviteOnly        bool
	webPublic         bool
	adminsOnly        bool
	everyone          bool // every account of the realm (bots too) is subscribed
}

var devChannels = []seedChannel{
	{name: "Verona", description: "A city in Italy"},
	{name: "Denmark", description: "A Scandinavian country"},
	{name: "Scotland", description: "Located in the United Kingdom"},
	{name: "Venice", description: "A northeastern Italian city"},
	{name: "Rome", description: "Yet another Italian city", webPublic: true},
	{name: "core team", description: "A private channel for core team members", inviteOnly: true},
	{name: "Zulip", description: "Questions and discussion about using Zulip."},
	{name: "sandbox", description: "Experiment with Zulip here. :test_tube:"},
	{name: "devel", description: "For developing", everyone: true},
	{name: "ビデオゲーム", description: "Share your favorite video games!  🐱\u200d👤", everyone: true},
	{name: "announce", description: "For announcements", everyone: true, adminsOnly: true},
	{name: "design", description: "For design", everyone: true},
	{name: "support", description: "For support", everyone: true},
	{name: "social", description: "For socializing", everyone: true},
	{name: "test", description: "For testing `code`", everyone: true},
	{name: "errors", description: "For errors", everyone: true},
	{name: "조리법 😎", description: "Everything cooking, from pasta to Пельмени", everyone: true},
}

// The test suite's fixed subscription map for the core channels.
var devSubscriptions = map[string][]string{
	"AARON@zulip.com":     {"Verona"},
	"cordelia@zulip.com":  {"Verona"},
	"polonius@zulip.com":  {"Verona"},
	"hamlet@zulip.com":    {"Verona", "Denmark", "core team", "Zulip", "sandbox"},
	"iago@zulip.com":      {"Verona", "Denmark", "Scotland", "core team", "Zulip", "sandbox"},
	"desdemona@zulip.com": {"Verona", "Denmark", "Venice", "core team", "Zulip", "sandbox"},
	"othello@zulip.com":   {"Verona", "Denmark", "Scotland"},
	"shiva@zulip.com":     {"Verona", "Denmark", "Scotland"},
	"prospero@zulip.com":  {"Verona", "Denmark", "Scotland", "Venice"},
	"ZOE@zulip.com":       {"Verona", "Denmark", "Scotland", "Venice", "Rome"},
}

var systemGroups = []struct{ name, description string }{
	{group.Nobody, "Nobody"},
	{group.Owners, "Owners of this organization"},
	{group.Administrators, "Administrators of this organization, including owners"},
	{group.Moderators, "Moderators of this organization, including administrators"},
	{group.FullMembers, "Members of this organization, not including new accounts and guests"},
	{group.Members, "Members of this organization, not including guests"},
	{group.Everyone, "Everyone in this organization, including guests"},
	{group.Internet, "Everyone on the Internet"},
}

// subscriptionColors are the first colors Zulip hands out to subscriptions.
var subscriptionColors = []string{
	"#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd",
	"#addfe5", "#f5ce6e", "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf",
	"#95a5fd", "#53a063", "#9987e1", "#e4523d", "#c2c2c2", "#4f8de4", "#c6a8ad",
	"#e7cc4d", "#c8bebf", "#a47462",
}

func (r *Realm) seed(s Seed) {
	r.settings = defaultSettings()
	r.domains.seed()
	r.groups.nextID = 9 // the system realm's eight groups come first in a dev DB
	for _, g := range systemGroups {
		r.addGroup(g.name, g.description, true)
	}
	// Each role group has the next-higher one as its only direct subgroup.
	for i := 2; i < len(systemGroups); i++ {
		sub := r.groups.byName[systemGroups[i-1].name]
		r.groups.byName[systemGroups[i].name].Subgroups[sub.ID] = struct{}{}
	}
	gid := func(name string) int { return r.groups.byName[name].ID }
	for _, g := range r.settings.groupSettings() {
		*g.id = NamedGroupSetting(gid(realmGroupRules[g.name].def))
	}
	nobody := group.Named(gid(group.Nobody))
	for _, g := range r.groups.byID {
		g.Settings = group.Settings{CanAddMembers: nobody, CanJoin: nobody, CanLeave: nobody,
			CanManage: nobody, CanMention: nobody, CanRemoveMembers: nobody}
	}

	users := devUsers
	if s == SeedEmpty {
		users = devUsers[:5]
	}
	for _, su := range users {
		u := &user.User{
			DeliveryEmail: su.email, FullName: su.name, Role: su.role, BotType: su.bot,
			IsSystemBot: su.systemBot, Timezone: su.tz,
		}
		if u.Role == 0 {
			u.Role = user.RoleMember
		}
		if su.owner != "" {
			u.BotOwnerID = r.users.byEmail[user.NormalizeEmail(su.owner)].ID
		}
		if su.bot == user.NotABot && !su.systemBot {
			u.PasswordHash = user.HashPassword(user.DevPassword)
		}
		r.addUser(u)
	}
	r.onboarding.seedDev(r.users.sorted())
	if s == SeedEmpty {
		if o := r.opts.Owner; o.Email != "" {
			r.addUser(&user.User{DeliveryEmail: o.Email, FullName: o.FullName, Role: user.RoleOwner,
				PasswordHash: user.HashPassword(user.DevPassword)})
		}
		return
	}
	// Zulip's API test setup lets iago create users and change emails.
	iago := r.users.byEmail["iago@zulip.com"]
	iago.CanCreateUsers, iago.CanChangeUserEmails = true, true
	r.settings.Name = "Zulip Dev"
	r.settings.Description = "The Zulip development environment default organization.  It's great for testing!"
	for _, sc := range devChannels {
		c := r.addChannel(sc.name, sc.description, sc.inviteOnly, !sc.inviteOnly, 0)
		c.IsWebPublic = sc.webPublic
		c.IsDefault = devDefaultChannels[sc.name]
		if sc.adminsOnly {
			c.CanSendMessageGroup = gid(group.Administrators)
		}
		if sc.everyone {
			for _, u := range r.users.sorted() {
				if !u.IsSystemBot {
					r.subscribe(c.ID, u.ID)
				}
			}
		}
	}
	for email, names := range devSubscriptions {
		u := r.users.byEmail[user.NormalizeEmail(email)]
		for _, name := range names {
			r.subscribe(r.channels.byName[channelKey(name)].ID, u.ID)
		}
	}
	// Zulip's test database sends message reports to "core team".
	r.settings.ModerationRequestChannelID = r.channels.byName[channelKey("core team")].ID
	r.seedProfileFields()
	r.seedLinkifiers()
	r.seedRealmEmoji()
	r.seedDrafts()
	if r.opts.SeedPresence {
		r.seedPresence()
	}
	hc := r.addGroup("hamletcharacters", "Characters of Hamlet", false)
	for _, email := range []string{"cordelia@zulip.com", "hamlet@zulip.com"} {
		hc.Members[r.users.byEmail[email].ID] = struct{}{}
	}
	hc.CreatorID, hc.DateCreated = r.users.byEmail["cordelia@zulip.com"].ID, r.createdAt.Unix()
	hc.Settings = r.defaultGroupSettings()
}

func defaultSettings() Settings {
	return Settings{
		Name:                                   "Zulip",
		EmailAddressVisibility:                 user.EmailVisibilityAdmins,
		AllowMessageEditing:                    true,
		MessageContentEditLimitSeconds:         intPtr(600),
		MoveMessagesWithinStreamLimitSeconds:   intPtr(604800),
		MoveMessagesBetweenStreamsLimitSeconds: intPtr(604800),
		MessageContentDeleteLimitSeconds:       intPtr(600),
		EmptyTopicDisplayName:                  "general chat",
		DefaultLanguage:                        "en",
		EnableSpectatorAccess:                  true,
		EnableReadReceipts:                     true,
		DisallowDisposableEmailAddresses:       true,
		MaxInvites:                             DefaultMaxInvites,
		PlanType:                               PlanTypeSelfHosted,
		EnableGuestUserIndicator:               true,
		EnableGuestUserDMWarning:               true,
		EditHistoryPolicy:                      EditHistoryAll,
		AuthenticationMethods:                  defaultAuthenticationMethods,
		RealmProperties:                        defaultRealmProperties(),
	}
}
