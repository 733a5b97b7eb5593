package realm

import (
	"context"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// UnsubscribeResult is the answer of DELETE /users/me/subscriptions.
type UnsubscribeResult struct {
	Removed    []string `json:"removed"`
	NotRemoved []string `json:"not_removed"`
}

// Unsubscribe removes users from channels by name. Removing users other
// than oneself and one's own bots needs an administrator, or access to
// every channel and membership of its can_remove_subscribers_group (or of
// can_administer_channel_group for all of them).
func (a *Actor) Unsubscribe(ctx context.Context, req UnsubscribeRequest) (ans UnsubscribeResult, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		plan, err := r.planUnsubscribe(me, req)
		if err != nil {
			return err
		}
		ans = r.applyUnsubscribe(plan)
		return nil
	})
	return ans, err
}

// unsubscribePlan is a validated unsubscribe request.
type unsubscribePlan struct {
	targets  []*user.User
	channels []*storedChannel
}

// planUnsubscribe validates an unsubscribe request without changing
// anything.
func (r *Realm) planUnsubscribe(me *user.User, req UnsubscribeRequest) (*unsubscribePlan, error) {
	p := &unsubscribePlan{targets: []*user.User{me}}
	others := false
	if !req.Principals.empty() {
		var err error
		if p.targets, err = r.resolvePrincipals(req.Principals); err != nil {
			return nil, err
		}
		others = slices.ContainsFunc(p.targets, func(u *user.User) bool {
			return u.ID != me.ID && !(u.IsBot() && u.BotOwnerID == me.ID)
		})
	}
	var missing []string
	for _, raw := range req.Channels {
		name := strings.TrimSpace(raw)
		if err := checkChannelName(name, r.opts.Limits.MaxStreamNameLength); err != nil {
			return nil, err
		}
		if c := r.channels.byName[channelKey(name)]; c == nil || c.IsArchived && !r.has(changeArchivedSubscriptions) {
			missing = append(missing, name)
		} else if !slices.Contains(p.channels, c) {
			p.channels = append(p.channels, c)
		}
	}
	if others && !r.canRemoveSubscribers(me, p.channels) {
		return nil, BadRequest("Insufficient permission")
	}
	if len(missing) > 0 {
		return nil, BadRequest("Channel(s) (%s) do not exist", strings.Join(missing, ", "))
	}
	return p, nil
}

// applyUnsubscribe ends the planned subscriptions and tells those
// concerned.
func (r *Realm) applyUnsubscribe(p *unsubscribePlan) UnsubscribeResult {
	res := UnsubscribeResult{Removed: []string{}, NotRemoved: []string{}}
	for _, u := range p.targets {
		var removed []*storedChannel
		for _, c := range p.channels {
			if s := r.channels.subs[c.ID][u.ID]; s != nil && s.Active {
				s.Active = false
				res.Removed = append(res.Removed, c.Name)
				removed = append(removed, c)
			} else {
				res.NotRemoved = append(res.NotRemoved, c.Name)
			}
		}
		r.emitSubscriptionsRemoved(u, removed)
	}
	return res
}

// canRemoveSubscribers is Zulip's rule for unsubscribing others.
func (r *Realm) canRemoveSubscribers(me *user.User, channels []*storedChannel) bool {
	if !r.has(changeChannelAdminAccess) {
		return r.legacyCanRemoveSubscribers(me, channels)
	}
	if me.Role.IsAdmin() {
		return true
	}
	if me.IsGuest() {
		return false
	}
	if !slices.ContainsFunc(channels, func(c *storedChannel) bool {
		return !r.channelAllows(c, "can_administer_channel_group", me.ID)
	}) {
		return true
	}
	for _, c := range channels {
		if !r.hasMetadataAccess(me, c) || !r.channelAllows(c, "can_remove_subscribers_group", me.ID) {
			return false
		}
	}
	return true
}

// UnsubscribeRequest is DELETE /users/me/subscriptions: channel names, and
// the users to unsubscribe (the caller when empty).
type UnsubscribeRequest struct {
	Channels   []string
	Principals Principals
}
