package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// ChannelTopic is one topic of GET /users/me/{stream_id}/topics: its name
// as its newest visible message spells it, and that message's ID.
type ChannelTopic struct {
	Name  string `json:"name"`
	MaxID int64  `json:"max_id"`
}

// ChannelTopicsRequest is GET /users/me/{stream_id}/topics.
type ChannelTopicsRequest struct {
	ChannelID int
	// AllowEmptyTopicName keeps the empty topic's name empty; otherwise it
	// reads as the realm's empty-topic display name.
	AllowEmptyTopicName bool
}

// ChannelTopics lists the topics of a channel the caller can read,
// newest first. A channel whose history is shared with subscribers shows
// every topic; one with protected history only the topics of messages
// the caller received, each with the newest of those. It is answered
// from the per-topic index: one step per topic, not per message.
func (a *Actor) ChannelTopics(ctx context.Context, req ChannelTopicsRequest) (ans []ChannelTopic, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ch := r.channels.byID[req.ChannelID]
		if ch == nil || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		ans = r.channelTopics(me, ch, req.AllowEmptyTopicName)
		return nil
	})
	return ans, err
}

// channelTopics builds the topic list; the caller holds the lock.
func (r *Realm) channelTopics(me *user.User, ch *storedChannel, allowEmpty bool) []ChannelTopic {
	rules := r.topicRules()
	out := []ChannelTopic{}
	add := func(m *message.Message) {
		out = append(out, ChannelTopic{Name: rules.Display(m.Topic, allowEmpty), MaxID: m.ID})
	}
	r.messages.store.TopicHeads(ch.ID, func(newest *message.Message) bool {
		if ch.HistoryPublicToSubscribers || r.messages.store.HasCopy(me.ID, newest.ID) {
			add(newest)
			return true
		}
		// Protected history: the newest message of the topic the caller
		// received, if any.
		r.messages.store.Topic(ch.ID, newest.Topic).Down(newest.ID, func(m *message.Message) bool {
			if r.messages.store.HasCopy(me.ID, m.ID) {
				add(m)
				return false
			}
			return true
		})
		return true
	})
	slices.SortFunc(out, func(a, b ChannelTopic) int {
		switch {
		case a.MaxID > b.MaxID:
			return -1
		case a.MaxID < b.MaxID:
			return 1
		}
		return 0
	})
	return out
}
