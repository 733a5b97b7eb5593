package realm

import (
	"slices"
	"time"
)

// Partial subscriber lists (include_subscribers "partial", feature level
// 412, Zulip's zerver/lib/subscription_info.py): a client that asks for
// them gets, for a channel with at least Limits.PartialSubscribersAt
// subscribers, partial_subscribers instead of subscribers: the channel's
// bots and the users active in the last 14 days. Smaller channels get
// their full subscribers list.

// DefaultPartialSubscribersAt is Zulip's MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE.
const DefaultPartialSubscribersAt = 1000

// recentActivity is how recent a user's activity keeps them in partial
// subscriber lists: the 14 days Zulip's description guarantees.
const recentActivity = 14 * 24 * time.Hour

// subscribersWanted is what a subscription listing says of each
// channel's subscribers: nothing, the full list, or (for large
// channels) the partial one.
type subscribersWanted int

const (
	noSubscribers subscribersWanted = iota
	allSubscribers
	partialSubscribers
)

// wantedSubscribers is the subscribers of a listing's request.
func wantedSubscribers(include, partial bool) subscribersWanted {
	switch {
	case include && partial:
		return partialSubscribers
	case include:
		return allSubscribers
	}
	return noSubscribers
}

// partialSubscribersAt is the size from which a channel's subscribers
// may be partial.
func (r *Realm) partialSubscribersAt() int {
	if n := r.opts.Limits.PartialSubscribersAt; n > 0 {
		return n
	}
	return DefaultPartialSubscribersAt
}

// channelSubscribers fills the subscribers of a channel's listing:
// full (the first) or partial (the second), as wanted.
func (r *Realm) channelSubscribers(channelID int, want subscribersWanted) (full, partial []int) {
	if want == noSubscribers {
		return nil, nil
	}
	ids := r.activeSubscriberIDs(channelID)
	if want == allSubscribers || len(ids) < r.partialSubscribersAt() {
		return ids, nil
	}
	return nil, slices.DeleteFunc(ids, func(id int) bool { return !r.recentlyActiveOrBot(id) })
}

// recentlyActiveOrBot reports whether a user belongs in partial lists: a
// bot, or a user whose presence says active in the last 14 days (a user
// who never reported presence counts as idle).
func (r *Realm) recentlyActiveOrBot(id int) bool {
	if u := r.users.byID[id]; u != nil && u.IsBot() {
		return true
	}
	rec := r.presence.byUser[id]
	return rec != nil && !rec.lastActive.IsZero() && r.clock.Now().Sub(rec.lastActive) <= recentActivity
}
