package realm

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/user"
)

// ChannelSpec names a channel to subscribe to, with the description used
// if it must be created.
type ChannelSpec struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Principals names the users a subscription change applies to: by ID or
// by email. Empty means the acting user.
type Principals struct {
	IDs    []int
	Emails []string
}

// SubscribeRequest is POST /users/me/subscriptions.
type SubscribeRequest struct {
	Channels   []ChannelSpec
	Principals Principals
	// Properties of channels this request creates.
	InviteOnly                 bool
	HistoryPublicToSubscribers *bool
	IsWebPublic                bool
	Announce                   bool
	// AuthorizationErrorsFatal fails the whole request when a channel may
	// not be joined (the default); otherwise such channels are listed in
	// Unauthorized.
	AuthorizationErrorsFatal bool
}

// SubscribeResult is the answer of POST /users/me/subscriptions, keyed by
// user ID (or API email below feature level 342).
type SubscribeResult struct {
	Subscribed        map[string][]string `json:"subscribed"`
	AlreadySubscribed map[string][]string `json:"already_subscribed"`
	Unauthorized      []string            `json:"unauthorized,omitempty"`
}

// subscribersKeyedByIDLevel is the feature level from which subscription
// results are keyed by user ID rather than email.
const subscribersKeyedByIDLevel = 342

// Subscribe subscribes users to channels, creating channels that do not
// exist. Everything is checked before anything changes.
func (a *Actor) Subscribe(ctx context.Context, req SubscribeRequest) (SubscribeResult, error) {
	r := a.r
	r.mu.Lock()
	defer r.mu.Unlock()
	me, err := a.me()
	if err != nil {
		return SubscribeResult{}, err
	}
	targets, err := r.resolvePrincipals(me, req.Principals)
	if err != nil {
		return SubscribeResult{}, err
	}
	others := slices.ContainsFunc(targets, func(u *user.User) bool { return u.ID != me.ID })
	if others && !r.inGroup(r.settings.CanAddSubscribersGroup, me.ID) {
		return SubscribeResult{}, BadRequest("Insufficient permission")
	}
	// Resolve every channel: existing, to create, or unauthorized.
	var existing []*Channel
	var create []ChannelSpec
	var unauthorized []string
	seen := map[string]bool{}
	for _, spec := range req.Channels {
		name, err := checkChannelName(spec.Name, r.opts.Limits.MaxStreamNameLength)
		if err != nil {
			return SubscribeResult{}, err
		}
		if seen[channelKey(name)] {
			continue
		}
		seen[channelKey(name)] = true
		if c := r.channelsByName[channelKey(name)]; c != nil {
			if !r.mayJoin(me, c, others) {
				unauthorized = append(unauthorized, c.Name)
				continue
			}
			existing = append(existing, c)
			continue
		}
		if utf8.RuneCountInString(spec.Description) > r.opts.Limits.MaxStreamDescLength {
			return SubscribeResult{}, BadRequest("description is too long (limit: %d characters)", r.opts.Limits.MaxStreamDescLength)
		}
		create = append(create, ChannelSpec{Name: name, Description: spec.Description})
	}
	if len(create) > 0 {
		group := r.settings.CanCreatePublicChannelGroup
		if req.InviteOnly {
			group = r.settings.CanCreatePrivateChannelGroup
		}
		if me.IsGuest() || !r.inGroup(group, me.ID) {
			return SubscribeResult{}, BadRequest("Insufficient permission")
		}
		if req.IsWebPublic && !me.Role.IsModeratorOrAbove() {
			return SubscribeResult{}, BadRequest("Insufficient permission")
		}
	}
	if len(unauthorized) > 0 && req.AuthorizationErrorsFatal {
		return SubscribeResult{}, BadRequest("Unable to access channel (%s).", unauthorized[0])
	}

	// Apply.
	historyPublic := !req.InviteOnly
	if req.HistoryPublicToSubscribers != nil {
		historyPublic = *req.HistoryPublicToSubscribers
	}
	var created []*Channel
	for _, spec := range create {
		c := r.addChannel(spec.Name, spec.Description, req.InviteOnly, historyPublic || !req.InviteOnly, me.ID)
		c.IsWebPublic = req.IsWebPublic && !req.InviteOnly
		created = append(created, c)
		existing = append(existing, c)
	}
	for _, c := range created {
		r.emit("stream", StreamCreateEvent{Op: "create", Streams: []Stream{r.streamView(c)}}, r.channelAudience(c)...)
	}
	res := SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}, Unauthorized: unauthorized}
	for _, u := range targets {
		key := r.principalKey(u)
		var added []*Channel
		for _, c := range existing {
			if r.subscribe(c.ID, u.ID) {
				res.Subscribed[key] = append(res.Subscribed[key], c.Name)
				added = append(added, c)
			} else {
				res.AlreadySubscribed[key] = append(res.AlreadySubscribed[key], c.Name)
			}
		}
		r.emitSubscriptionsAdded(u, added)
	}
	return res, nil
}

// principalKey keys a user in subscription results.
func (r *Realm) principalKey(u *user.User) string {
	if r.opts.FeatureLevel >= subscribersKeyedByIDLevel {
		return strconv.Itoa(u.ID)
	}
	return r.apiEmail(u)
}

// mayJoin reports whether me may subscribe (themselves or others) to c.
func (r *Realm) mayJoin(me *user.User, c *Channel, others bool) bool {
	if c.IsArchived {
		return false
	}
	if r.isSubscribed(c.ID, me.ID) || me.Role.IsAdmin() {
		return true
	}
	return !c.InviteOnly && !me.IsGuest()
}

// resolvePrincipals finds the users a subscription change names; none
// means the acting user.
func (r *Realm) resolvePrincipals(me *user.User, p Principals) ([]*user.User, error) {
	if len(p.IDs) == 0 && len(p.Emails) == 0 {
		return []*user.User{me}, nil
	}
	var out []*user.User
	seen := map[int]bool{}
	add := func(u *user.User) error {
		if u == nil || !u.IsActive || u.IsSystemBot {
			return noSuchUser()
		}
		if !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, u)
		}
		return nil
	}
	for _, id := range p.IDs {
		if err := add(r.users[id]); err != nil {
			return nil, err
		}
	}
	for _, email := range p.Emails {
		if err := add(r.userByEmail(email)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkChannelName applies Zulip's channel-name rules.
func checkChannelName(raw string, maxLen int) (string, error) {
	name := strings.TrimSpace(raw)
	if name == "" {
		return "", BadRequest("Channel name can't be empty.")
	}
	if utf8.RuneCountInString(name) > maxLen {
		return "", BadRequest("Channel name too long (limit: %d characters).", maxLen)
	}
	if pos := forbiddenTopicPosition(name); pos >= 0 {
		return "", BadRequest("Invalid character in channel name, at position %d.", pos)
	}
	return name, nil
}

// UnsubscribeResult is the answer of DELETE /users/me/subscriptions.
type UnsubscribeResult struct {
	Removed    []string `json:"removed"`
	NotRemoved []string `json:"not_removed"`
}

// Unsubscribe removes users from channels by name. Removing others needs
// an administrator.
func (a *Actor) Unsubscribe(ctx context.Context, names []string, principals Principals) (UnsubscribeResult, error) {
	r := a.r
	r.mu.Lock()
	defer r.mu.Unlock()
	me, err := a.me()
	if err != nil {
		return UnsubscribeResult{}, err
	}
	targets, err := r.resolvePrincipals(me, principals)
	if err != nil {
		return UnsubscribeResult{}, err
	}
	if slices.ContainsFunc(targets, func(u *user.User) bool { return u.ID != me.ID }) && !me.Role.IsAdmin() {
		return UnsubscribeResult{}, BadRequest("Insufficient permission")
	}
	var channels []*Channel
	var missing []string
	for _, name := range names {
		c := r.channelsByName[channelKey(strings.TrimSpace(name))]
		if c == nil || !r.canSeeChannel(me, c) {
			missing = append(missing, name)
			continue
		}
		channels = append(channels, c)
	}
	if len(missing) > 0 {
		return UnsubscribeResult{}, streamNameDoesNotExist(strings.Join(missing, ", "))
	}
	res := UnsubscribeResult{Removed: []string{}, NotRemoved: []string{}}
	for _, u := range targets {
		var removed []*Channel
		for _, c := range channels {
			if s := r.subs[c.ID][u.ID]; s != nil && s.Active {
				s.Active = false
				res.Removed = append(res.Removed, c.Name)
				removed = append(removed, c)
			} else {
				res.NotRemoved = append(res.NotRemoved, c.Name)
			}
		}
		r.emitSubscriptionsRemoved(u, removed)
	}
	return res, nil
}

// Subscriptions answers GET /users/me/subscriptions.
func (a *Actor) Subscriptions(ctx context.Context, includeSubscribers bool) ([]SubscriptionView, error) {
	r := a.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return nil, err
	}
	return r.userSubscriptions(me, includeSubscribers), nil
}

// ChannelsQuery is the filter of GET /streams.
type ChannelsQuery struct {
	IncludePublic, IncludeWebPublic, IncludeSubscribed, IncludeAll, IncludeDefault bool
	ExcludeArchived                                                                bool
}

// DefaultChannelsQuery is GET /streams without parameters.
func DefaultChannelsQuery() ChannelsQuery {
	return ChannelsQuery{IncludePublic: true, IncludeSubscribed: true, ExcludeArchived: true}
}

// Channels answers GET /streams.
func (a *Actor) Channels(ctx context.Context, q ChannelsQuery) ([]Stream, error) {
	r := a.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return nil, err
	}
	if q.IncludeAll && !me.Role.IsAdmin() {
		return nil, BadRequest("User not authorized for this query")
	}
	out := []Stream{}
	for _, c := range r.sortedChannels() {
		if q.ExcludeArchived && c.IsArchived {
			continue
		}
		ok := q.IncludeAll ||
			(q.IncludePublic && !c.InviteOnly && !me.IsGuest()) ||
			(q.IncludeWebPublic && c.IsWebPublic) ||
			(q.IncludeSubscribed && r.isSubscribed(c.ID, me.ID))
		if ok {
			out = append(out, r.streamView(c))
		}
	}
	return out, nil
}

// ChannelID answers GET /get_stream_id.
func (a *Actor) ChannelID(ctx context.Context, name string) (int, error) {
	r := a.r
	r.mu.RLock()
	defer r.mu.RUnlock()
	me, err := a.me()
	if err != nil {
		return 0, err
	}
	c := r.channelsByName[channelKey(strings.TrimSpace(name))]
	if c == nil || !r.canSeeChannel(me, c) {
		return 0, BadRequest("Invalid channel name '%s'", name)
	}
	return c.ID, nil
}

// CreateChannel creates a channel with the given subscribers, without
// permission checks, for test set-up and embedders.
func (r *Realm) CreateChannel(name, description string, inviteOnly bool, subscriberIDs ...int) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	name, err := checkChannelName(name, r.opts.Limits.MaxStreamNameLength)
	if err != nil {
		return 0, err
	}
	if r.channelsByName[channelKey(name)] != nil {
		return 0, BadRequest("Channel '%s' already exists", name)
	}
	for _, id := range subscriberIDs {
		if r.users[id] == nil {
			return 0, noSuchUser()
		}
	}
	c := r.addChannel(name, description, inviteOnly, !inviteOnly, 0)
	for _, id := range subscriberIDs {
		r.subscribe(c.ID, id)
	}
	return c.ID, nil
}
