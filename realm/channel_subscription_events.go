package realm

import "github.com/minizulip/minizulip/user"

// StreamCreateEvent announces new channels.
type StreamCreateEvent struct {
	Op      string   `json:"op"`
	Streams []Stream `json:"streams"`
}

// SubscriptionAddEvent gives a user their new subscriptions.
type SubscriptionAddEvent struct {
	Op            string             `json:"op"`
	Subscriptions []SubscriptionView `json:"subscriptions"`
}

// SubscriptionRef names a channel in a subscription remove event.
type SubscriptionRef struct {
	StreamID int    `json:"stream_id"`
	Name     string `json:"name"`
}

// SubscriptionRemoveEvent tells a user they left channels.
type SubscriptionRemoveEvent struct {
	Op            string            `json:"op"`
	Subscriptions []SubscriptionRef `json:"subscriptions"`
}

// SubscriptionPeerEvent tells others who joined or left channels.
type SubscriptionPeerEvent struct {
	Op        string `json:"op"`
	StreamIDs []int  `json:"stream_ids"`
	UserIDs   []int  `json:"user_ids"`
}

// emitSubscriptionsAdded sends u their new subscriptions and tells each
// channel's audience (peer_add).
func (r *Realm) emitSubscriptionsAdded(u *user.User, channels []*storedChannel) {
	if len(channels) == 0 {
		return
	}
	subs := make([]SubscriptionView, len(channels))
	for i, c := range channels {
		subs[i] = r.subscriptionView(r.channels.subs[c.ID][u.ID], allSubscribers)
	}
	r.emit("subscription", SubscriptionAddEvent{Op: "add", Subscriptions: subs}, u.ID)
	for _, c := range channels {
		r.emit("subscription", SubscriptionPeerEvent{Op: "peer_add", StreamIDs: []int{c.ID}, UserIDs: []int{u.ID}},
			without(r.peerAudience(c), u.ID)...)
	}
}

// emitSubscriptionsRemoved tells u they left channels, and the channels'
// audiences (peer_remove).
func (r *Realm) emitSubscriptionsRemoved(u *user.User, channels []*storedChannel) {
	if len(channels) == 0 {
		return
	}
	refs := make([]SubscriptionRef, len(channels))
	for i, c := range channels {
		refs[i] = SubscriptionRef{StreamID: c.ID, Name: c.Name}
	}
	r.emit("subscription", SubscriptionRemoveEvent{Op: "remove", Subscriptions: refs}, u.ID)
	for _, c := range channels {
		r.emit("subscription", SubscriptionPeerEvent{Op: "peer_remove", StreamIDs: []int{c.ID}, UserIDs: []int{u.ID}},
			without(r.peerAudience(c), u.ID)...)
	}
	// Those leaving take the access the subscriptions gave with them.
	sc := subscriptionChanges{}
	sc.add(u, channels)
	r.emitAccessChanges(sc, false)
}

// without returns ids minus one ID.
func without(ids []int, drop int) []int {
	out := ids[:0:0]
	for _, id := range ids {
		if id != drop {
			out = append(out, id)
		}
	}
	return out
}
