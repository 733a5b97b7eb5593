package realm

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// ChannelSpec names a channel to subscribe to. Description is used if the
// channel must be created; Color, when set ("#rgb" or "#rrggbb"), is the
// color of the subscriptions the request creates.
type ChannelSpec struct {
	Name        string
	Description string
	Color       string
}

// Principals names the users a subscription change applies to: by ID or
// by email (delivery or API email). Empty means the acting user.
type Principals struct {
	IDs    []int
	Emails []string
}

func (p Principals) empty() bool { return len(p.IDs) == 0 && len(p.Emails) == 0 }

// SubscribeRequest is POST /users/me/subscriptions. The channel settings
// apply only to channels the request creates.
type SubscribeRequest struct {
	Channels   []ChannelSpec
	Principals Principals

	InviteOnly      bool
	IsWebPublic     bool
	IsDefaultStream bool
	// HistoryPublicToSubscribers defaults to true for public channels and
	// false for private ones; public channels always have it.
	HistoryPublicToSubscribers *bool
	// MessageRetentionDays is nil for the realm default, -1 for unlimited,
	// otherwise a positive number of days. Only owners may set it.
	MessageRetentionDays *int
	// TopicsPolicy is "", "inherit", "allow_empty_topic",
	// "disable_empty_topic" or "empty_topic_only".
	TopicsPolicy string
	// GroupSettings sets channel permission settings by Zulip name, e.g.
	// "can_remove_subscribers_group"; absent ones take Zulip's defaults.
	GroupSettings map[string]GroupSetting
	// StreamPostPolicy is the legacy stream_post_policy of new channels
	// (see ChannelUpdate.StreamPostPolicy), read before feature level 333.
	StreamPostPolicy *int
	// FolderID puts new channels in a channel folder of the realm; it is
	// checked even when no channel is created.
	FolderID *int
	// Announce asks for a new-channel announcement.
	Announce bool
	// AuthorizationErrorsFatal (nil means true) fails the whole request
	// when a channel may not be joined; when false such channels are
	// listed in Unauthorized instead.
	AuthorizationErrorsFatal *bool
	// SendNewSubscriptionMessages (nil means true) asks Notification Bot to
	// tell other users they were subscribed.
	SendNewSubscriptionMessages *bool
}

// SubscribeResult is the answer of POST /users/me/subscriptions: channel
// names keyed by user ID (by API email below feature level 289).
type SubscribeResult struct {
	Subscribed        map[string][]string `json:"subscribed"`
	AlreadySubscribed map[string][]string `json:"already_subscribed"`
	// Unauthorized is present (possibly empty) only for non-fatal requests.
	Unauthorized []string `json:"unauthorized,omitzero"`
	// NewSubscriptionMessagesSent is present when messages were asked for
	// (feature level 397 and above).
	NewSubscriptionMessagesSent *bool `json:"new_subscription_messages_sent,omitempty"`
}

const (
	// MaxBulkNewSubscriptionMessages is the most users a request may
	// subscribe and still have Notification Bot tell them.
	MaxBulkNewSubscriptionMessages = 100
)

// topicsPolicies are the values of topics_policy.
var topicsPolicies = []string{"inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"}

// knownTopicsPolicy reports whether a server of the realm's level knows
// the channel topics_policy p: "empty_topic_only" came after the others.
func (r *Realm) knownTopicsPolicy(p string) bool {
	return slices.Contains(topicsPolicies, p) && (p != "empty_topic_only" || r.has(changeEmptyTopicOnly))
}

var colorPattern = regexp.MustCompile(`^#[a-fA-F0-9]{3,6}$`)

// Subscribe subscribes users to channels, creating channels that do not
// exist. Everything is checked, in Zulip's order, before anything changes.
func (a *Actor) Subscribe(ctx context.Context, req SubscribeRequest) (ans SubscribeResult, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if g, ok, err := r.legacyPostPolicy(req.StreamPostPolicy); err != nil {
			return err
		} else if _, set := req.GroupSettings["can_send_message_group"]; ok && !set {
			settings := map[string]GroupSetting{"can_send_message_group": g}
			for k, v := range req.GroupSettings {
				settings[k] = v
			}
			req.GroupSettings = settings
		}
		plan, err := r.planSubscribe(me, req)
		if err != nil {
			return err
		}
		ans = r.applySubscribe(me, req, plan)
		return nil
	})
	return ans, err
}

// subscribePlan is a validated subscribe request.
type subscribePlan struct {
	specs         []ChannelSpec
	authorized    []*storedChannel // existing channels to join
	create        []ChannelSpec    // channels to create
	unauthorized  []string         // channels the caller may not join
	targets       []*user.User
	settings      map[string]GroupSetting // group settings of new channels
	historyPublic bool
	fatal         bool
}

// planSubscribe validates a subscribe request without changing anything.
func (r *Realm) planSubscribe(me *user.User, req SubscribeRequest) (*subscribePlan, error) {
	if me.IsGuest() {
		return nil, BadRequest("Not allowed for guest users")
	}
	specs, err := r.checkChannelSpecs(req.Channels)
	if err != nil {
		return nil, err
	}
	if req.FolderID != nil {
		if err := r.checkChannelFolderID(*req.FolderID); err != nil {
			return nil, err
		}
	}
	if req.TopicsPolicy != "" && !r.knownTopicsPolicy(req.TopicsPolicy) {
		return nil, BadRequest("Invalid topics_policy")
	}
	if req.TopicsPolicy != "" && req.TopicsPolicy != "inherit" && !r.canSetTopicsPolicy(me) {
		return nil, BadRequest("Insufficient permission")
	}
	p := &subscribePlan{specs: specs, targets: []*user.User{me}, historyPublic: !req.InviteOnly,
		fatal: req.AuthorizationErrorsFatal == nil || *req.AuthorizationErrorsFatal}
	if req.InviteOnly && req.HistoryPublicToSubscribers != nil {
		p.historyPublic = *req.HistoryPublicToSubscribers
	}
	// Subscribing others: any email, or any ID but one's own.
	others := len(req.Principals.Emails) > 0 || slices.ContainsFunc(req.Principals.IDs, func(id int) bool { return id != me.ID })
	var existing []*storedChannel
	seen := map[string]bool{}
	for _, spec := range specs {
		key := channelKey(spec.Name)
		if seen[key] {
			continue
		}
		seen[key] = true
		if c := r.channels.byName[key]; c != nil {
			existing = append(existing, c)
		} else {
			p.create = append(p.create, spec)
		}
	}
	if len(p.create) > 0 {
		if p.settings, err = r.checkChannelGroupSettings(me, req.GroupSettings, p.historyPublic); err != nil {
			return nil, err
		}
		if err := r.checkChannelCreation(me, req); err != nil {
			return nil, err
		}
	}
	cannotAdd := false
	for _, c := range existing {
		switch {
		case c.IsArchived && !r.has(changeArchivedSubscriptions), !r.hasContentAccess(me, c):
			p.unauthorized = append(p.unauthorized, c.Name)
		case others && !r.canAddSubscribers(me, c):
			cannotAdd = true
		default:
			p.authorized = append(p.authorized, c)
		}
	}
	if len(p.unauthorized) > 0 && p.fatal {
		return nil, BadRequest("Unable to access channel (%s).", p.unauthorized[0])
	}
	if cannotAdd {
		return nil, BadRequest("Insufficient permission")
	}
	if others {
		if p.targets, err = r.resolvePrincipals(req.Principals); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// applySubscribe creates the planned channels and subscribes the targets.
func (r *Realm) applySubscribe(me *user.User, req SubscribeRequest, p *subscribePlan) SubscribeResult {
	channels := p.authorized
	colors := map[int]string{}
	for _, c := range p.authorized {
		colors[c.ID] = specColor(p.specs, c.Name)
	}
	var created []*storedChannel
	for _, spec := range p.create {
		c := r.createChannel(me, spec, req, p.historyPublic, p.settings)
		channels = append(channels, c)
		created = append(created, c)
		colors[c.ID] = spec.Color
	}
	res := SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}}
	if !p.fatal {
		res.Unauthorized = append([]string{}, p.unauthorized...)
	}
	added := make([][]*storedChannel, len(p.targets))
	// revealed are the existing channels a target could not see before
	// being subscribed: they hear of them by a stream create first.
	revealed := make([][]Stream, len(p.targets))
	for i, u := range p.targets {
		key := r.principalKey(u)
		for _, c := range channels {
			knew := slices.Contains(created, c) || r.hasMetadataAccess(u, c)
			if !r.subscribe(c.ID, u.ID) {
				res.AlreadySubscribed[key] = append(res.AlreadySubscribed[key], c.Name)
				continue
			}
			if colors[c.ID] != "" {
				r.channels.subs[c.ID][u.ID].Color = colors[c.ID]
			}
			res.Subscribed[key] = append(res.Subscribed[key], c.Name)
			added[i] = append(added[i], c)
			// A guest gaining a public channel by subscription heard of
			// it only from changeGuestSubscribeStreamCreate on.
			if !knew && (c.InviteOnly || r.has(changeGuestSubscribeStreamCreate)) {
				revealed[i] = append(revealed[i], r.streamView(c))
			}
		}
	}
	// Creation is announced once the subscribers are in (so those who see
	// a new private channel only as subscribers hear of it) and before
	// their subscription events, as Zulip orders them.
	for _, c := range created {
		r.emit("stream", StreamCreateEvent{Op: "create", Streams: []Stream{r.streamView(c)}}, r.creationAudience(c)...)
		if c.IsDefault {
			r.emitDefaultChannels()
		}
	}
	// Restricted guests hear of the users they can now access first.
	gained := subscriptionChanges{}
	for i, u := range p.targets {
		gained.add(u, added[i])
	}
	r.emitAccessChanges(gained, true)
	for i, u := range p.targets {
		if len(revealed[i]) > 0 {
			r.emit("stream", StreamCreateEvent{Op: "create", Streams: revealed[i]}, u.ID)
		}
		r.emitSubscriptionsAdded(u, added[i])
	}
	// Notification Bot tells the others they were subscribed: always
	// below feature level 397, from it when asked and for at most
	// MaxBulkNewSubscriptionMessages subscribed users.
	dms := true
	if r.has(changeNewSubscriptionMessages) {
		dms = false
		if req.SendNewSubscriptionMessages == nil || *req.SendNewSubscriptionMessages {
			dms = len(res.Subscribed) <= MaxBulkNewSubscriptionMessages
			res.NewSubscriptionMessagesSent = &dms
		}
	}
	r.sendSubscribeNotices(me, p.targets, added, created, req.Announce, dms)
	return res
}

// specColor is the requested color of a channel, if any.
func specColor(specs []ChannelSpec, name string) string {
	for _, s := range specs {
		if channelKey(s.Name) == channelKey(name) {
			return s.Color
		}
	}
	return ""
}

// checkChannelSpecs validates and normalizes the requested channels:
// descriptions, colors, then names.
func (r *Realm) checkChannelSpecs(in []ChannelSpec) ([]ChannelSpec, error) {
	out := make([]ChannelSpec, len(in))
	for i, s := range in {
		if n := utf8.RuneCountInString(s.Description); n > r.opts.Limits.MaxStreamDescLength {
			return nil, BadRequest(`subscriptions[%d]["description"] is too long (limit: %d characters)`, i, r.opts.Limits.MaxStreamDescLength)
		}
		if err := noNull(fmt.Sprintf(`subscriptions[%d]["description"]`, i), s.Description); err != nil {
			return nil, err
		}
		if s.Color != "" && !colorPattern.MatchString(s.Color) {
			return nil, BadRequest("Invalid subscriptions[%d]: Value error, add.color is not a valid hex color code", i)
		}
		out[i] = ChannelSpec{Name: strings.TrimSpace(s.Name), Description: strings.ReplaceAll(s.Description, "\n", " "), Color: s.Color}
	}
	for _, s := range out {
		if err := checkChannelName(s.Name, r.opts.Limits.MaxStreamNameLength); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkChannelName applies Zulip's channel-name rules to a trimmed name.
func checkChannelName(name string, maxLen int) error {
	if strings.TrimSpace(name) == "" {
		return BadRequest("Channel name can't be empty.")
	}
	if utf8.RuneCountInString(name) > maxLen {
		return BadRequest("Channel name too long (limit: %d characters).", maxLen)
	}
	if pos := topic.FirstUnprintable(name); pos > 0 {
		return BadRequest("Invalid character in channel name, at position %d.", pos)
	}
	return nil
}

// canSetTopicsPolicy is Zulip's can_set_topics_policy_group; administrators
// always may.
func (r *Realm) canSetTopicsPolicy(u *user.User) bool {
	return u.Role.IsAdmin() || r.hasRealmPermission("can_set_topics_policy_group", r.settings.CanSetTopicsPolicyGroup, u)
}

// canSetDeleteMessagePolicy is Zulip's can_set_delete_message_policy_group,
// which lets its members change a channel's can_delete_any_message_group
// and can_delete_own_message_group; administrators always may.
func (r *Realm) canSetDeleteMessagePolicy(u *user.User) bool {
	return u.Role.IsAdmin() || r.hasRealmPermission("can_set_delete_message_policy_group", r.settings.CanSetDeleteMessagePolicyGroup, u)
}

// mayCreateWebPublicChannel is Zulip's can_create_web_public_channel_group
// from feature level 280; before, create_web_public_stream_policy's
// default: owners only.
func (r *Realm) mayCreateWebPublicChannel(u *user.User) bool {
	if !r.has(changeWebPublicChannelGroup) {
		return u.Role == user.RoleOwner
	}
	return r.hasRealmPermission("can_create_web_public_channel_group", r.settings.CanCreateWebPublicChannelGroup, u)
}

// checkChannelCreation applies the permissions to create channels with
// the requested properties.
func (r *Realm) checkChannelCreation(me *user.User, req SubscribeRequest) error {
	switch {
	case req.InviteOnly && !r.settingHas(r.settings.CanCreatePrivateChannelGroup, me.ID),
		!req.InviteOnly && !r.settingHas(r.settings.CanCreatePublicChannelGroup, me.ID),
		req.IsDefaultStream && !me.Role.IsAdmin():
		return BadRequest("Insufficient permission")
	case req.InviteOnly && req.IsDefaultStream:
		return BadRequest("A default channel cannot be private.")
	}
	if req.IsWebPublic {
		if !r.settings.EnableSpectatorAccess || r.settings.planType() == PlanTypeLimited {
			return BadRequest("Web-public channels are not enabled.")
		}
		if !r.mayCreateWebPublicChannel(me) {
			return BadRequest("Insufficient permission")
		}
	}
	if req.MessageRetentionDays != nil {
		if me.Role != user.RoleOwner {
			return UnauthorizedPrincipal("Must be an organization owner")
		}
		return r.ensureNotOnLimitedPlan()
	}
	return nil
}

// checkChannelGroupSettings validates requested group settings for new
// channels and returns the settings to store, the creator administering
// the channel unless told otherwise.
func (r *Realm) checkChannelGroupSettings(me *user.User, in map[string]GroupSetting, historyPublic bool) (map[string]GroupSetting, error) {
	out := map[string]GroupSetting{}
	for _, rule := range channelGroupSettings {
		v, ok := in[rule.name]
		if !ok {
			if rule.def == channelCreator {
				out[rule.name] = GroupSetting{DirectMembers: []int{me.ID}}
			}
			continue
		}
		everyone := r.groups.byName[group.Everyone].ID
		if rule.name == "can_create_topic_group" && !historyPublic && v.GroupID != everyone {
			return nil, &Error{Code: CodeBadRequest, Status: statusBadRequest,
				Msg:   "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group",
				Extra: map[string]any{"parameters": "history_public_to_subscribers, can_create_topic_group"}}
		}
		if err := r.checkGroupSettingValue(rule, v); err != nil {
			return nil, err
		}
		if (rule.name == "can_delete_any_message_group" || rule.name == "can_delete_own_message_group") &&
			v.GroupID != r.groups.byName[group.Nobody].ID && !r.canSetDeleteMessagePolicy(me) {
			return nil, BadRequest("Insufficient permission")
		}
		if rule.name == "can_send_message_group" && v.GroupID == 0 {
			if len(v.DirectMembers) > 0 || len(v.DirectSubgroups) > 1 {
				return nil, BadRequest("Invalid user group")
			}
			named := r.groups.byName[group.Nobody].ID
			if len(v.DirectSubgroups) == 1 {
				named = v.DirectSubgroups[0]
			}
			v = NamedGroupSetting(named)
		}
		out[rule.name] = v
	}
	return out, nil
}

// checkGroupSettingValue checks one group-setting value against its rule
// and its configuration (permissionSetting).
func (r *Realm) checkGroupSettingValue(rule channelSettingRule, v GroupSetting) error {
	if err := r.checkSettingForm("channel", rule.name, v); err != nil {
		return err
	}
	if v.GroupID == 0 {
		for _, id := range v.DirectMembers {
			if u := r.users.byID[id]; u == nil || !u.IsActive || u.IsSystemBot {
				return BadRequest("Invalid user ID: %d", id)
			}
		}
		for _, id := range v.DirectSubgroups {
			if g := r.groups.byID[id]; g == nil || g.Deactivated {
				return BadRequest("Invalid user group ID: %d", id)
			}
		}
		return nil
	}
	g := r.groups.byID[v.GroupID]
	if g == nil || g.Deactivated {
		return BadRequest("Invalid user group")
	}
	p, _ := r.permissionSetting("stream", rule.name)
	return checkNamedSettingValue(rule.name, p, g)
}

// createChannel adds a channel made by a subscribe request.
func (r *Realm) createChannel(me *user.User, spec ChannelSpec, req SubscribeRequest, historyPublic bool, settings map[string]GroupSetting) *storedChannel {
	c := r.addChannel(spec.Name, spec.Description, req.InviteOnly, historyPublic, me.ID)
	c.IsWebPublic = req.IsWebPublic && !req.InviteOnly
	c.IsDefault = req.IsDefaultStream
	c.MessageRetentionDays = req.MessageRetentionDays
	if req.FolderID != nil {
		c.FolderID = *req.FolderID
	}
	if req.TopicsPolicy != "inherit" {
		c.TopicsPolicy = req.TopicsPolicy
	}
	c.Permissions = map[string]GroupSetting{}
	for name, v := range settings {
		if name == "can_send_message_group" {
			c.CanSendMessageGroup = v.GroupID
			continue
		}
		c.Permissions[name] = v
	}
	return c
}

// canAddSubscribers reports whether me may subscribe others to c, which me
// can read: realm-wide can_add_subscribers_group, administrators, and the
// channel's administer and add-subscribers groups.
func (r *Realm) canAddSubscribers(me *user.User, c *storedChannel) bool {
	return r.settingHas(r.settings.CanAddSubscribersGroup, me.ID) || me.Role.IsAdmin() ||
		r.channelAllows(c, "can_administer_channel_group", me.ID) ||
		r.channelAllows(c, "can_add_subscribers_group", me.ID)
}

// principalKey keys a user in subscription results.
func (r *Realm) principalKey(u *user.User) string {
	if r.has(changeSubscribersKeyedByID) {
		return strconv.Itoa(u.ID)
	}
	return r.apiEmail(u)
}

// resolvePrincipals finds the active users (bots included) a subscription
// change names, without duplicates.
func (r *Realm) resolvePrincipals(p Principals) ([]*user.User, error) {
	var found []*user.User
	for _, id := range p.IDs {
		found = append(found, r.users.byID[id])
	}
	for _, email := range p.Emails {
		found = append(found, r.userByEmail(email))
	}
	if !r.has(changePrincipalErrors) {
		// Zulip 7's principal_to_user_profile: a missing or deactivated
		// user is a 403 naming the principal as sent.
		for i, u := range found {
			if u == nil || u.IsSystemBot || !u.IsActive {
				var principal any
				if i < len(p.IDs) {
					principal = p.IDs[i]
				} else {
					principal = p.Emails[i-len(p.IDs)]
				}
				return nil, &Error{Code: CodeUnauthorizedPrincipal, Status: 403,
					Msg: fmt.Sprintf("User not authorized to execute queries on behalf of '%v'", principal)}
			}
		}
	}
	for _, u := range found {
		if u == nil || u.IsSystemBot {
			return nil, noSuchUser()
		}
	}
	var out []*user.User
	for _, u := range found {
		if !u.IsActive {
			return nil, BadRequest("User is deactivated")
		}
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out, nil
}

// SubscriptionsRequest is GET /users/me/subscriptions.
type SubscriptionsRequest struct {
	// IncludeSubscribers adds each channel's subscriber IDs;
	// PartialSubscribers with it asks for partial lists of large
	// channels (include_subscribers "partial", feature level 412).
	IncludeSubscribers, PartialSubscribers bool
}

// Subscriptions answers GET /users/me/subscriptions: the caller's active
// subscriptions to unarchived channels, sorted by channel name.
func (a *Actor) Subscriptions(ctx context.Context, req SubscriptionsRequest) (ans []SubscriptionView, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ans = r.userSubscriptions(me, wantedSubscribers(req.IncludeSubscribers, req.PartialSubscribers), false)
		return nil
	})
	return ans, err
}

// NewChannel describes a channel for Realm.AddChannel.
type NewChannel struct {
	Name, Description string
	InviteOnly        bool
	SubscriberIDs     []int
}

// AddChannel creates a channel with the given subscribers, without
// permission checks or events, for test set-up and embedders. It returns
// the new channel's ID.
func (r *Realm) AddChannel(spec NewChannel) (ans int, err error) {
	name, description, inviteOnly, subscriberIDs := spec.Name, spec.Description, spec.InviteOnly, spec.SubscriberIDs
	err = r.update(func() error {
		name = strings.TrimSpace(name)
		if err := checkChannelName(name, r.opts.Limits.MaxStreamNameLength); err != nil {
			return err
		}
		if r.channels.byName[channelKey(name)] != nil {
			return BadRequest("Channel '%s' already exists", name)
		}
		for _, id := range subscriberIDs {
			if u := r.users.byID[id]; u == nil || u.IsSystemBot {
				return noSuchUser()
			}
		}
		c := r.addChannel(name, description, inviteOnly, !inviteOnly, 0)
		for _, id := range subscriberIDs {
			r.subscribe(c.ID, id)
		}
		ans = c.ID
		return nil
	})
	return ans, err
}
