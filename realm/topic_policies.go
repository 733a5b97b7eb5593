package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// Visibility policies of a user for a topic, Zulip's numbers.
const (
	PolicyInherit  = 0
	PolicyMuted    = 1
	PolicyUnmuted  = 2
	PolicyFollowed = 3
)

// topicRef identifies a topic of a channel, case-insensitively.
type topicRef struct {
	channel int
	key     string
}

// UserTopic is a user's stored visibility policy for one topic.
type UserTopic struct {
	ChannelID   int    `json:"stream_id"`
	TopicName   string `json:"topic_name"`
	LastUpdated int64  `json:"last_updated"`
	Policy      int    `json:"visibility_policy"`
}

// userTopicPolicy returns the user's policy for a topic (0 when none).
func (r *Realm) userTopicPolicy(userID, channelID int, name string) int {
	if ut := r.userTopics.byUser[userID][topicRef{channelID, topic.Key(name)}]; ut != nil {
		return ut.Policy
	}
	return PolicyInherit
}

// setUserTopicPolicy stores a policy; PolicyInherit removes the record.
func (r *Realm) setUserTopicPolicy(userID, channelID int, name string, policy int) {
	ref := topicRef{channelID, topic.Key(name)}
	if policy == PolicyInherit {
		delete(r.userTopics.byUser[userID], ref)
		return
	}
	if r.userTopics.byUser == nil {
		r.userTopics.byUser = map[int]map[topicRef]*UserTopic{}
	}
	if r.userTopics.byUser[userID] == nil {
		r.userTopics.byUser[userID] = map[topicRef]*UserTopic{}
	}
	r.userTopics.byUser[userID][ref] = &UserTopic{ChannelID: channelID, TopicName: name, LastUpdated: r.clock.Now().Unix(), Policy: policy}
}

// applyAutomaticTopicPolicy runs Zulip's automatic follow/unmute rules
// after sender sent m, and returns the new policy when it changed.
func (r *Realm) applyAutomaticTopicPolicy(sender *user.User, m *message.Message) *int {
	if sender.IsBot() {
		return nil
	}
	follow := sender.Settings.AutomaticallyFollowTopicsPolicy
	unmute := sender.Settings.AutomaticallyUnmuteTopicsInMutedStreamsPolicy
	current := r.userTopicPolicy(sender.ID, m.ChannelID, m.Topic)
	if (follow == user.AutoNever && unmute == user.AutoNever) || current == PolicyFollowed {
		return nil
	}
	channelMuted := false
	if s := r.channels.subs[m.ChannelID][sender.ID]; s != nil && s.Active {
		channelMuted = s.IsMuted
	}
	result := PolicyInherit
	switch {
	case follow == user.AutoOnParticipation || follow == user.AutoOnSend:
		result = PolicyFollowed
	case channelMuted && (unmute == user.AutoOnParticipation || unmute == user.AutoOnSend):
		result = PolicyUnmuted
	}
	if current == PolicyInherit && result == PolicyInherit && !r.senderSawEarlierMessage(sender.ID, m) {
		switch {
		case follow == user.AutoOnInitiation:
			result = PolicyFollowed
		case channelMuted && unmute == user.AutoOnInitiation:
			result = PolicyUnmuted
		}
	}
	if result == PolicyFollowed && !r.has(changeFollowedTopics) {
		result = PolicyInherit // no followed topics at the level
	}
	if result == PolicyInherit || result == current {
		return nil
	}
	r.setUserTopicPolicy(sender.ID, m.ChannelID, m.Topic, result)
	return &result
}

// applyParticipationTopicPolicy runs Zulip's automatic follow/unmute
// rules after the user took part in m's topic otherwise than by sending
// (a reaction): only the "on participation" choices apply, only for a
// subscriber, and a followed topic stays followed. It returns the new
// policy when it changed.
func (r *Realm) applyParticipationTopicPolicy(u *user.User, m *message.Message) *int {
	s := r.channels.subs[m.ChannelID][u.ID]
	if u.IsBot() || s == nil || !s.Active {
		return nil
	}
	result := PolicyInherit
	switch {
	case u.Settings.AutomaticallyFollowTopicsPolicy == user.AutoOnParticipation:
		result = PolicyFollowed
	case s.IsMuted && u.Settings.AutomaticallyUnmuteTopicsInMutedStreamsPolicy == user.AutoOnParticipation:
		result = PolicyUnmuted
	}
	if result == PolicyFollowed && !r.has(changeFollowedTopics) {
		result = PolicyInherit // no followed topics at the level
	}
	current := r.userTopicPolicy(u.ID, m.ChannelID, m.Topic)
	if result == PolicyInherit || result == current || current == PolicyFollowed {
		return nil
	}
	r.setUserTopicPolicy(u.ID, m.ChannelID, m.Topic, result)
	return &result
}

// senderSawEarlierMessage reports whether the topic of m holds an earlier
// message the user can see.
func (r *Realm) senderSawEarlierMessage(userID int, m *message.Message) bool {
	if r.historyReadableBy(r.channels.byID[m.ChannelID], userID) {
		return r.messages.store.TopicHasEarlier(m.ChannelID, m.Topic, m.ID)
	}
	seen := false
	r.messages.store.Topic(m.ChannelID, m.Topic).Down(m.ID, func(prev *message.Message) bool {
		if r.messages.store.HasCopy(userID, prev.ID) {
			seen = true
			return false
		}
		return true
	})
	return seen
}

// UserTopicRequest is POST /user_topics (or the legacy muted_topics
// endpoint): a channel by ID or name, a topic and the new policy.
type UserTopicRequest struct {
	ChannelID   int
	ChannelName string
	Topic       string
	Policy      int
}

// SetUserTopic changes the caller's visibility policy for a topic. It
// needs access to the channel, except to reset the policy to inherit.
// An unchanged policy succeeds and sends nothing.
func (a *Actor) SetUserTopic(ctx context.Context, req UserTopicRequest) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if req.Policy < PolicyInherit || req.Policy > PolicyFollowed || req.Policy == PolicyFollowed && !r.has(changeFollowedTopics) {
			return BadRequest("Invalid visibility_policy")
		}
		var ch *storedChannel
		if req.ChannelName != "" {
			ch = r.channels.byName[channelKey(req.ChannelName)]
		} else {
			ch = r.channels.byID[req.ChannelID]
		}
		if ch == nil || (req.Policy != PolicyInherit && !r.historyReadableBy(ch, me.ID) && !r.isSubscribed(ch.ID, me.ID)) {
			if req.ChannelName != "" {
				return BadRequest("Invalid channel name '%s'", req.ChannelName)
			}
			return BadRequest("Invalid channel ID")
		}
		name, err := r.topicRules().Stored(req.Topic)
		if err != nil {
			return BadRequest("%s", err.Error())
		}
		if r.userTopicPolicy(me.ID, ch.ID, name) == req.Policy {
			return nil
		}
		r.setUserTopicPolicy(me.ID, ch.ID, name, req.Policy)
		r.emitUserTopic(me.ID, ch.ID, name, req.Policy)
		return nil
	})
}

// userTopicTable holds each user's visibility policies by topic.
type userTopicTable struct {
	byUser map[int]map[topicRef]*UserTopic
}

func (t *userTopicTable) clone() userTopicTable {
	c := userTopicTable{byUser: make(map[int]map[topicRef]*UserTopic, len(t.byUser))}
	for uid, byTopic := range t.byUser {
		m := make(map[topicRef]*UserTopic, len(byTopic))
		for ref, ut := range byTopic {
			cu := *ut
			m[ref] = &cu
		}
		c.byUser[uid] = m
	}
	return c
}

// dump adds the topic policies to f, by user, channel and topic.
func (t *userTopicTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(r.userTopics.byUser)) {
		refs := slices.SortedFunc(maps.Keys(r.userTopics.byUser[uid]), func(a, b topicRef) int {
			if a.channel != b.channel {
				return a.channel - b.channel
			}
			return strings.Compare(a.key, b.key)
		})
		for _, ref := range refs {
			ut := r.userTopics.byUser[uid][ref]
			f.UserTopics = append(f.UserTopics, fixture.UserTopic{UserID: uid, ChannelID: ut.ChannelID, Topic: ut.TopicName,
				VisibilityPolicy: ut.Policy, LastUpdated: ut.LastUpdated})
		}
	}
	return nil
}

// load checks each policy as POST /user_topics does: a known
// policy other than inherit, a channel the user can access, a valid
// topic; a user has one policy per topic.
func (t *userTopicTable) load(r *Realm, f *fixture.Document) error {
	now := r.clock.Now().Unix()
	for i, ft := range f.UserTopics {
		at := fmt.Sprintf("user_topics[%d]", i)
		if r.realmUser(ft.UserID) == nil {
			return badItem(at+".user_id", "no user %d", ft.UserID)
		}
		ch := r.channels.byID[ft.ChannelID]
		if ch == nil {
			return badItem(at+".channel_id", "no channel %d", ft.ChannelID)
		}
		if !r.historyReadableBy(ch, ft.UserID) && !r.isSubscribed(ch.ID, ft.UserID) {
			return badItem(at+".channel_id", "user %d cannot access channel %d", ft.UserID, ft.ChannelID)
		}
		if ft.VisibilityPolicy < PolicyMuted || ft.VisibilityPolicy > PolicyFollowed {
			return badItem(at+".visibility_policy", "Invalid visibility_policy %d (1 muted, 2 unmuted, 3 followed)", ft.VisibilityPolicy)
		}
		name, err := r.topicRules().Stored(ft.Topic)
		if err != nil {
			return badItem(at+".topic", "%s", err.Error())
		}
		if r.userTopicPolicy(ft.UserID, ch.ID, name) != PolicyInherit {
			return badItem(at+".topic", "user %d has another policy for topic %q of channel %d", ft.UserID, ft.Topic, ft.ChannelID)
		}
		r.setUserTopicPolicy(ft.UserID, ch.ID, name, ft.VisibilityPolicy)
		ts := ft.LastUpdated
		if ts == 0 {
			ts = now
		}
		r.userTopics.byUser[ft.UserID][topicRef{ch.ID, topic.Key(name)}].LastUpdated = ts
	}
	return nil
}

// register fills user_topic, and muted_topics for clients that do not
// fetch user_topic.
func (t *userTopicTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("user_topic") {
		fillUserTopics(r, me, req, out)
	} else if req.fetches("muted_topics") {
		out.MutedTopicsState = &MutedTopicsState{MutedTopics: r.mutedTopicsList(me.ID)}
	}
}

func fillUserTopics(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	list := []UserTopic{}
	for _, ut := range r.userTopics.byUser[me.ID] {
		list = append(list, *ut)
	}
	slices.SortFunc(list, func(a, b UserTopic) int {
		if a.ChannelID != b.ChannelID {
			return a.ChannelID - b.ChannelID
		}
		return strings.Compare(a.TopicName, b.TopicName)
	})
	out.UserTopicState = &UserTopicState{UserTopics: list}
}
