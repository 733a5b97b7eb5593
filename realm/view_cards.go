package realm

import (
	"slices"

	"github.com/minizulip/minizulip/emoji"
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// Views are built in two steps, so that readers hold the realm's lock only
// while copying: under the lock, what a view reads of the realm is copied
// into values (a viewEnv, userCards, a messageDirectory); after releasing
// it, views are built from those copies and from stored messages, which
// are never changed in place (see message_cow.go). Operations that build
// views under the lock (events, single lookups) use the same code.

// viewEnv is the realm-wide state views read, copied under the lock.
type viewEnv struct {
	featureLevel    int
	fakeEmailDomain string
	topics          topic.Rules
	// editHistoryPolicy is the realm's message_edit_history_visibility_policy.
	editHistoryPolicy string
}

// has reports whether the realm's level includes change c.
func (e viewEnv) has(c Change) bool { return e.featureLevel >= c.level }

// viewEnv copies the realm-wide state views read; the caller holds the
// lock.
func (r *Realm) viewEnv() viewEnv {
	return viewEnv{featureLevel: r.opts.FeatureLevel, fakeEmailDomain: r.users.fakeEmailDomain, topics: r.topicRules(),
		editHistoryPolicy: r.settings.EditHistoryPolicy}
}

// userCard is what user and message views show of one user, copied under
// the lock.
type userCard struct {
	id, botOwnerID, avatarVersion int
	dateJoined                    int64
	fullName, deliveryEmail       string
	timezone                      string
	avatarSource, avatarURL       string
	role                          user.Role
	botType                       user.BotType
	// visibility is the user's effective email_address_visibility.
	visibility                                       user.EmailVisibility
	isActive, isSystemBot, isImportedStub, isDeleted bool
	// profile is the user's profile_data, copied only when a view asks
	// for it.
	profile map[string]ProfileFieldValue
	// apiEmail and avatar are filled the first time a message directory's
	// views need them, and shared by those views.
	apiEmail string
	avatar   *string
}

// userCard copies what views show of u, with its profile data when
// withProfile is set (and u is not a bot); the caller holds the lock.
func (r *Realm) userCard(u *user.User, withProfile bool) userCard {
	c := userCard{
		id: u.ID, botOwnerID: u.BotOwnerID, avatarVersion: u.AvatarVersion, dateJoined: u.DateJoined,
		fullName: u.FullName, deliveryEmail: u.DeliveryEmail, timezone: u.Timezone,
		avatarSource: u.AvatarSource, avatarURL: u.AvatarURL, role: u.Role, botType: u.BotType,
		visibility: r.emailVisibilityOf(u), isActive: u.IsActive, isSystemBot: u.IsSystemBot,
		isImportedStub: u.IsImportedStub, isDeleted: u.IsDeleted,
	}
	if withProfile && !u.IsBot() {
		c.profile = r.profileData(u)
	}
	return c
}

// person is the card as a user.User holding the fields the email
// visibility rules read.
func (c *userCard) person() user.User {
	return user.User{ID: c.id, DeliveryEmail: c.deliveryEmail, Role: c.role, BotType: c.botType}
}

// isBot reports whether the card is a bot's.
func (c *userCard) isBot() bool { return c.botType != user.NotABot }

// email is the address the API shows for c (see Realm.apiEmail).
func (e *viewEnv) email(c *userCard) string {
	u := c.person()
	return c.visibility.APIEmail(&u, e.fakeEmailDomain)
}

// canSeeDeliveryEmail reports whether viewer may see target's real
// address (see Realm.canSeeDeliveryEmail).
func canSeeDeliveryEmail(viewer, target *userCard) bool {
	v, t := viewer.person(), target.person()
	return target.visibility.CanSeeDeliveryEmail(&v, &t)
}

// avatarIsNull is whether avatar_url is null: the client computes Gravatar
// URLs itself and may see the real email they are derived from. A nil
// viewer sees every avatar URL.
func avatarIsNull(viewer, target *userCard, clientGravatar bool) bool {
	return clientGravatar && target.avatarSource == "G" && viewer != nil && canSeeDeliveryEmail(viewer, target)
}

// avatarURL is target's avatar_url as viewer gets it, nil when
// avatarIsNull.
func avatarURL(viewer, target *userCard, clientGravatar bool) *string {
	if avatarIsNull(viewer, target, clientGravatar) {
		return nil
	}
	url := target.avatarURL
	return &url
}

// billingAdminField is is_billing_admin (always false here) for the
// feature levels that still send it, else nil (absent).
func (e *viewEnv) billingAdminField() *bool {
	if e.has(changeBillingAdminRemoved) {
		return nil
	}
	f := false
	return &f
}

// reactionTypeName is a reaction type as real Zulip servers send it: the
// special built-in emoji's is zulip_extra_emoji at every feature level
// (the spec, at level 496, names it service_extra_emoji; clients such as
// zulip-flutter decode only what servers send). Both are accepted on
// input (see Realm.reactionTypeName).
func (e *viewEnv) reactionTypeName(typ string) string {
	if typ == emoji.ServiceExtra {
		return emoji.LegacyServiceExtra
	}
	return typ
}

// messageDirectory is what message views read besides the messages: the
// realm-wide state, the viewer, and the users and channels the messages
// name (senders, direct message participants, reacting users where views
// show them, channels' names), copied under the lock by add.
type messageDirectory struct {
	env    viewEnv
	viewer *userCard // nil without a viewer
	people []userCard
	// index finds a card in people once there are too many to search.
	index    map[int]int
	channels []channelNameCard
	// linkifiers are the realm's, for topic links, and topicLinks the
	// links found in each topic name so far (topic_links.go).
	linkifiers      []*linkifier.Linkifier
	topicLinksFound map[string][]TopicLink
	// accessible, for a guest restricted by can_access_all_users_group,
	// are the human users it may access (user_access.go); nil: all.
	accessible map[int]bool
}

// channelNameCard is a channel's name, as message views show it.
type channelNameCard struct {
	id   int
	name string
}

// directoryIndexFrom is how many cards a directory searches one by one
// before it indexes them.
const directoryIndexFrom = 8

// messageDirectory starts a directory for viewer (nil for none); the
// caller holds the lock.
func (r *Realm) messageDirectory(viewer *user.User) *messageDirectory {
	d := &messageDirectory{env: r.viewEnv()}
	if len(r.linkifiers.list) > 0 {
		// A copy: a write may change r.linkifiers in place once the lock
		// is released, and views are built after.
		d.linkifiers = slices.Clone(r.linkifiers.list)
	}
	if viewer != nil {
		vc := r.userCard(viewer, false)
		d.viewer = &vc
		d.accessible = r.accessibleUserIDs(viewer, false)
	}
	return d
}

// withReactionUsers reports whether reactions carry the deprecated user
// object.
func (d *messageDirectory) withReactionUsers() bool {
	return !d.env.has(changeReactionUserRemoved)
}

// add copies what m's view reads: its sender, participants, reacting users
// (when shown) and channel's name. The caller holds the lock.
func (d *messageDirectory) add(r *Realm, m *message.Message) {
	d.addUser(r, m.SenderID)
	for _, id := range m.DMUserIDs {
		d.addUser(r, id)
	}
	if d.withReactionUsers() {
		for _, re := range m.Changes().Reactions {
			d.addUser(r, re.UserID)
		}
	}
	if m.Type == message.Channel && !slices.ContainsFunc(d.channels, func(c channelNameCard) bool { return c.id == m.ChannelID }) {
		name := ""
		if ch := r.channels.byID[m.ChannelID]; ch != nil {
			name = ch.Name
		}
		d.channels = append(d.channels, channelNameCard{m.ChannelID, name})
	}
}

// addUser copies user id's card unless the directory has it; a user the
// realm does not know gets none.
func (d *messageDirectory) addUser(r *Realm, id int) {
	if d.card(id) != nil {
		return
	}
	u := r.users.byID[id]
	if u == nil {
		return
	}
	d.people = append(d.people, r.userCard(u, false))
	switch n := len(d.people); {
	case n == directoryIndexFrom:
		d.index = make(map[int]int, 2*n)
		for i, c := range d.people {
			d.index[c.id] = i
		}
	case n > directoryIndexFrom:
		d.index[id] = n - 1
	}
}

// email is card c's API address, computed once for all the directory's
// views.
func (d *messageDirectory) email(c *userCard) string {
	if c.apiEmail == "" {
		c.apiEmail = d.env.email(c)
	}
	return c.apiEmail
}

// avatarURL is sender's avatar_url as the directory's viewer gets it; the
// pointer is shared by the directory's views.
func (d *messageDirectory) avatarURL(sender *userCard, clientGravatar bool) *string {
	if avatarIsNull(d.viewer, sender, clientGravatar) {
		return nil
	}
	if sender.avatar == nil {
		url := sender.avatarURL
		sender.avatar = &url
	}
	return sender.avatar
}

// card is user id's card, nil when the directory has none.
func (d *messageDirectory) card(id int) *userCard {
	if d.index != nil {
		if i, ok := d.index[id]; ok {
			return &d.people[i]
		}
		return nil
	}
	for i := range d.people {
		if d.people[i].id == id {
			return &d.people[i]
		}
	}
	return nil
}

// channelName is channel id's name as copied by add.
func (d *messageDirectory) channelName(id int) string {
	for _, c := range d.channels {
		if c.id == id {
			return c.name
		}
	}
	return ""
}
