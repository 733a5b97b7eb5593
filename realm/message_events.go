package realm

import (
	"github.com/minizulip/minizulip/message"
)

// This file builds the events of message mutations. Each emitter is called
// once per mutation, under the realm's write lock, after the change is
// applied.

// DeleteMessageEvent reports deleted messages. Queues with the
// bulk_message_deletion capability get MessageIDs; others get one event per
// message with MessageID.
type DeleteMessageEvent struct {
	MessageIDs  []int64 `json:"message_ids,omitempty"`
	MessageID   int64   `json:"message_id,omitempty"`
	MessageType string  `json:"message_type"`
	StreamID    int     `json:"stream_id,omitempty"`
	Topic       *string `json:"topic,omitempty"`
}

// StreamUpdateEvent reports a changed channel property. A description
// change adds its rendering; a privacy (invite_only) change adds the two
// other privacy settings.
type StreamUpdateEvent struct {
	Op                         string  `json:"op"`
	StreamID                   int     `json:"stream_id"`
	Name                       string  `json:"name"`
	Property                   string  `json:"property"`
	Value                      any     `json:"value"`
	RenderedDescription        *string `json:"rendered_description,omitempty"`
	HistoryPublicToSubscribers *bool   `json:"history_public_to_subscribers,omitempty"`
	IsWebPublic                *bool   `json:"is_web_public,omitempty"`
}

// UserTopicEvent reports a user's new visibility policy for a topic.
type UserTopicEvent struct {
	StreamID         int    `json:"stream_id"`
	TopicName        string `json:"topic_name"`
	LastUpdated      int64  `json:"last_updated"`
	VisibilityPolicy int    `json:"visibility_policy"`
}

// MutedTopicsEvent is the legacy full list of a user's muted topics.
type MutedTopicsEvent struct {
	MutedTopics []MutedTopic `json:"muted_topics"`
}

// emitDeleteMessages tells the holders of deleted messages of one
// conversation.
func (r *Realm) emitDeleteMessages(msgs []*message.Message, holders []int) {
	if len(msgs) == 0 {
		return
	}
	first := msgs[0]
	ids := make([]int64, len(msgs))
	for i, m := range msgs {
		ids[i] = m.ID
	}
	base := DeleteMessageEvent{MessageType: first.Type.String()}
	if first.Type == message.Channel {
		t := first.Topic
		base.StreamID, base.Topic = first.ChannelID, &t
	}
	// Queues without the empty_topic_name capability hear the empty
	// topic by its display name.
	legacyTopic := func(ev DeleteMessageEvent) EventPayload {
		if ev.Topic == nil || *ev.Topic != "" {
			return nil
		}
		ev.Topic = ptr(r.topicRules().Display("", false))
		return ev
	}
	bulk := base
	bulk.MessageIDs = ids
	// Queues without bulk_message_deletion get one event per message;
	// the bulk pass notes whether any such queue is listening, so the
	// per-message events are built only when one is.
	legacyListening := false
	r.emitNamingTopic(&change{typ: "delete_message", payload: bulk,
		filter: func(q *Queue) bool {
			if !q.Config().opts.Capabilities.BulkMessageDeletion {
				legacyListening = true
				return false
			}
			return true
		}}, legacyTopic(bulk), holders)
	if !legacyListening {
		return
	}
	for _, id := range ids {
		single := base
		single.MessageID = id
		r.emitNamingTopic(&change{typ: "delete_message", payload: single,
			filter: func(q *Queue) bool { return !q.Config().opts.Capabilities.BulkMessageDeletion }}, legacyTopic(single), holders)
	}
}

// emitFirstMessageID tells those who can see a channel that its oldest
// message changed; a server below changeFirstMessageIDEvent never did.
func (r *Realm) emitFirstMessageID(ch *storedChannel) {
	if !r.has(changeFirstMessageIDEvent) {
		return
	}
	var value any
	if ch.FirstMessageID != 0 {
		value = ch.FirstMessageID
	}
	r.emit("stream", StreamUpdateEvent{Op: "update", StreamID: ch.ID, Name: ch.Name,
		Property: "first_message_id", Value: value}, r.metadataAudience(ch)...)
}

// emitUserTopic sends a user their new topic policy, preceded by the
// legacy muted_topics list for queues that did not ask for user_topic.
func (r *Realm) emitUserTopic(userID, channelID int, name string, policy int) {
	r.emitChange(&change{typ: "muted_topics", payload: MutedTopicsEvent{MutedTopics: r.mutedTopicsList(userID)},
		filter: func(q *Queue) bool { return q.Config().legacyMutedTopics }}, []int{userID})
	ev := UserTopicEvent{StreamID: channelID, TopicName: name, LastUpdated: r.clock.Now().Unix(), VisibilityPolicy: policy}
	var legacy EventPayload
	if name == "" {
		old := ev
		old.TopicName = r.topicRules().Display("", false)
		legacy = old
	}
	r.emitNamingTopic(&change{typ: "user_topic", payload: ev}, legacy, []int{userID})
}

// emitNamingTopic sends c, an event naming a channel topic, to the users
// of uids; when the topic is the empty one, legacy is the event naming it
// by the realm's display name (realm_empty_topic_display_name), which
// queues without the empty_topic_name capability get instead, as Zulip
// sends to such clients. A nil legacy sends c to every queue.
func (r *Realm) emitNamingTopic(c *change, legacy EventPayload, uids []int) {
	if legacy == nil {
		r.emitChange(c, uids)
		return
	}
	filter := c.filter
	with, without := *c, *c
	with.filter = func(q *Queue) bool {
		return (filter == nil || filter(q)) && q.Config().opts.Capabilities.EmptyTopicName
	}
	without.payload = legacy
	without.filter = func(q *Queue) bool {
		return (filter == nil || filter(q)) && !q.Config().opts.Capabilities.EmptyTopicName
	}
	r.emitChange(&with, uids)
	r.emitChange(&without, uids)
}

// mutedTopicsList is the legacy [[channel name, topic, timestamp], …] list.
func (r *Realm) mutedTopicsList(userID int) []MutedTopic {
	out := []MutedTopic{}
	for _, ut := range r.userTopics.byUser[userID] {
		if ut.Policy == PolicyMuted {
			if ch := r.channels.byID[ut.ChannelID]; ch != nil {
				out = append(out, MutedTopic{ChannelName: ch.Name, Topic: ut.TopicName, Timestamp: ut.LastUpdated})
			}
		}
	}
	return out
}
