package realm

import (
	"context"

	"github.com/minizulip/minizulip/message"
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
	if ut := r.userTopics[userID][topicRef{channelID, topic.Key(name)}]; ut != nil {
		return ut.Policy
	}
	return PolicyInherit
}

// setUserTopicPolicy stores a policy; PolicyInherit removes the record.
func (r *Realm) setUserTopicPolicy(userID, channelID int, name string, policy int) {
	ref := topicRef{channelID, topic.Key(name)}
	if policy == PolicyInherit {
		delete(r.userTopics[userID], ref)
		return
	}
	if r.userTopics == nil {
		r.userTopics = map[int]map[topicRef]*UserTopic{}
	}
	if r.userTopics[userID] == nil {
		r.userTopics[userID] = map[topicRef]*UserTopic{}
	}
	r.userTopics[userID][ref] = &UserTopic{ChannelID: channelID, TopicName: name, LastUpdated: r.clock.Now().Unix(), Policy: policy}
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
		if req.Policy < PolicyInherit || req.Policy > PolicyFollowed {
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
