package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// deleteTopicBatch is how many messages Zulip deletes at a time when
// deleting a topic, newest first.
const deleteTopicBatch = 100

// DeleteTopicResult is the answer of POST /streams/{id}/delete_topic.
type DeleteTopicResult struct {
	// Complete is false when the request stopped before every message
	// was deleted (its context ended, or FirstBatchOnly); the client
	// repeats it.
	Complete bool `json:"complete"`
}

// DeleteTopic deletes every message of a topic that the caller, an
// administrator, may read, in batches newest first, each batch announced
// by its own delete_message event. The topic is matched
// case-insensitively; the empty topic's display name means the empty
// topic. As in Zulip (access_stream_by_id), the caller needs content
// access to the channel, which must not be archived: an administrator
// not subscribed to a private channel gets "Invalid channel ID".
func (a *Actor) DeleteTopic(ctx context.Context, channelID int, topicName string) (DeleteTopicResult, error) {
	r := a.r
	var res DeleteTopicResult
	err := a.writeAdmin(ctx, func(me *user.User) error {
		ch := r.channels.byID[channelID]
		if ch == nil || ch.IsArchived || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		name, err := r.topicRules().Stored(topicName)
		if err != nil {
			return BadRequest("%s", err.Error())
		}
		readable := r.historyReadableBy(ch, me.ID)
		var doomed []*message.Message
		r.messages.store.Topic(ch.ID, name).Down(AnchorNewest, func(m *message.Message) bool {
			if readable || r.messages.store.HasCopy(me.ID, m.ID) {
				doomed = append(doomed, m)
			}
			return true
		})
		res.Complete = true
		limit := batchLimit(ctx)
		for start := 0; start < len(doomed); start += deleteTopicBatch {
			if stopBefore(ctx, start/deleteTopicBatch, limit) {
				res.Complete = false
				break
			}
			batch := doomed[start:min(start+deleteTopicBatch, len(doomed))]
			r.removeMessages(batch)
		}
		return nil
	})
	return res, err
}

// removeMessages deletes messages of one conversation (a channel topic,
// or one direct-message conversation) from every index, tells those who
// held them and, for channels, the channel's subscribers, and keeps the
// channel's first_message_id current. The caller holds the write lock.
func (r *Realm) removeMessages(msgs []*message.Message) {
	if len(msgs) == 0 {
		return
	}
	removed := r.messages.store.RemoveMany(msgs, r.conversationOf)
	audience := make([]int, 0, len(removed))
	first := msgs[0]
	// Below changeDeleteEventHolders, a channel message's deletion was
	// told to the channel's subscribers only.
	if first.Type != message.Channel || r.has(changeDeleteEventHolders) {
		for uid := range removed {
			audience = append(audience, uid)
		}
	}
	if first.Type == message.Channel {
		for _, uid := range r.subscriberIDs(first.ChannelID) {
			if _, ok := removed[uid]; !ok || !r.has(changeDeleteEventHolders) {
				audience = append(audience, uid)
			}
		}
	}
	slices.Sort(audience)
	sorted := slices.Clone(msgs)
	slices.SortFunc(sorted, func(a, b *message.Message) int { return int(a.ID - b.ID) })
	r.emitDeleteMessages(sorted, audience)
	if ch := r.channels.byID[first.ChannelID]; first.Type == message.Channel && ch != nil {
		r.fixFirstMessageIDs(ch)
	}
	r.releaseUploads(msgs)
}

// conversationOf is the conversation a stored direct message belongs to.
func (r *Realm) conversationOf(m *message.Message) int {
	return r.recipients.conversations[conversationKey(m.DMUserIDs)].id
}
