package realm

import (
	"slices"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// applyEdit carries out a planned edit: content, edit history, the move
// with its changes of access, user topics, events and notices. The caller
// holds the write lock; p was validated by planEdit.
func (r *Realm) applyEdit(me *user.User, p *editPlan) {
	now := r.clock.Now().Unix()
	r.ownEditTargets(p)
	m := p.target
	ev := UpdateMessageEvent{UserID: me.ID, EditTimestamp: now, MessageID: m.ID}
	if p.oldChan != nil {
		ev.StreamID, ev.StreamName = p.oldChan.ID, p.oldChan.Name
	}
	first := message.Edit{UserID: me.ID, Timestamp: now}
	if p.content != nil {
		orig, origRendered := m.Content, m.Rendered
		first.PrevContent, first.PrevRendered, first.ContentChanged = orig, origRendered, true
		m.Content, m.Rendered, m.Facts = *p.content, p.rendered.HTML, factsOf(p.rendered)
		c := m.Changes()
		c.LastEditTS = now
		m.SetChanges(c)
		ev.OrigContent, ev.OrigRenderedContent = &orig, &origRendered
		if !r.has(changePrevRenderedVersionRemoved) {
			version := 1 // Zulip's rendered_content_version
			ev.PrevRenderedContentVersion = &version
		}
		// The event keeps its own copies: a later edit of m must not
		// change what a queued event says.
		content, rendered := m.Content, m.Rendered
		ev.Content, ev.RenderedContent = &content, &rendered
		isMe := m.IsMeMessage
		ev.IsMeMessage = &isMe
		r.recomputeMentionFlags(m, p.mentions)
	}
	if !p.moves() {
		c := m.Changes()
		c.Edits = c.Edits.Push(first)
		m.SetChanges(c)
		ev.MessageIDs = []int64{m.ID}
		r.emitUpdateMessage(p, &ev, nil)
		return
	}

	oldTopic := m.Topic
	dest := p.oldChan
	if p.newChan != nil {
		dest = p.newChan
	}
	newTopic := oldTopic
	if p.newTopic != nil {
		newTopic = *p.newTopic
	}
	ev.PropagateMode = p.mode
	ev.OrigSubject = &oldTopic
	if p.newTopic != nil {
		ev.Subject = &newTopic
		ev.TopicLinks = r.topicLinks(newTopic)
	}
	if p.newChan != nil {
		ev.NewStreamID = p.newChan.ID
	}
	destHadMessages := false
	r.messages.store.Topic(dest.ID, newTopic).Up(0, func(*message.Message) bool { destHadMessages = true; return false })

	moveEdit := message.Edit{UserID: me.ID, Timestamp: now}
	if p.newTopic != nil {
		moveEdit.PrevTopic, moveEdit.Topic, moveEdit.TopicChanged = oldTopic, newTopic, true
	}
	if p.newChan != nil {
		moveEdit.PrevChannelID, moveEdit.ChannelID = p.oldChan.ID, p.newChan.ID
	}
	first.PrevTopic, first.Topic, first.TopicChanged = moveEdit.PrevTopic, moveEdit.Topic, moveEdit.TopicChanged
	first.PrevChannelID, first.ChannelID = moveEdit.PrevChannelID, moveEdit.ChannelID
	ids := make([]int64, len(p.moved))
	others := make([]*message.Message, 0, len(p.moved))
	stamp := func(c *message.Changes, e message.Edit) {
		c.Edits = c.Edits.Push(e)
		if !p.pureResolution() {
			c.LastMovedTS = now
		}
		if !r.has(changeLastMovedTimestamp) {
			c.LastEditTS = now
		}
	}
	for i, x := range p.moved {
		ids[i] = x.ID
		if x != m {
			others = append(others, x)
			continue
		}
		c := m.Changes()
		stamp(&c, first)
		m.SetChanges(c)
	}
	// Messages moved together that shared their history share the new
	// entry too, so a topic's move allocates one entry, not one a message.
	message.UpdateChanges(others, func(c *message.Changes) { stamp(c, moveEdit) })
	ev.MessageIDs = ids

	var losing []int
	if p.newChan != nil {
		losing = r.moveAccess(p, ids)
		r.emitDeleteMessages(p.moved, losing) // before the move: it names the old place
	}
	r.messages.store.Move(p.moved, dest.ID, newTopic, dest.RecipientID)
	if p.newChan != nil {
		r.fixFirstMessageIDs(p.oldChan, p.newChan)
	}

	movedAll := p.mode == ChangeAll || !r.anyVisibleInTopic(me, p.oldChan, oldTopic, nil)
	if movedAll {
		r.moveUserTopics(p.oldChan, oldTopic, dest, newTopic, destHadMessages, losing)
	}
	r.emitUpdateMessage(p, &ev, losing)
	r.sendMoveNotices(me, p, oldTopic, newTopic, movedAll)
}

// recomputeMentionFlags sets the mention and alert-word flags of every
// copy of m to what the new content mentions and contains.
func (r *Realm) recomputeMentionFlags(m *message.Message, mentions mentionFlags) {
	const mentionBits = message.Mentioned | message.WildcardMentioned | message.HasAlertWord
	for uid := range r.users.byID {
		c, ok := r.messages.store.Copy(uid, m.ID)
		if !ok {
			continue
		}
		if flags := c.Flags&^mentionBits | mentions.of(uid)&mentionBits; flags != c.Flags {
			r.messages.store.SetFlags(uid, m.ID, flags)
		}
	}
}

// moveAccess updates personal copies for a move between channels, as
// Zulip does: subscribers of the old channel who are not subscribed to
// the new one lose their copies; those of them who can no longer read
// the messages (guests, or a private destination) are returned, to be
// told the messages are gone. Subscribers of a destination without
// shared history who were not subscribed to the old channel get read
// copies.
func (r *Realm) moveAccess(p *editPlan, ids []int64) (losingAccess []int) {
	oldSubs := r.subscriberIDs(p.oldChan.ID)
	slices.Sort(oldSubs)
	for _, uid := range oldSubs {
		if r.isSubscribed(p.newChan.ID, uid) {
			continue
		}
		r.messages.store.Undeliver(uid, ids)
		if u := r.users.byID[uid]; u != nil && (u.IsGuest() || p.newChan.InviteOnly) {
			losingAccess = append(losingAccess, uid)
		}
	}
	if !p.newChan.HistoryPublicToSubscribers {
		for _, uid := range r.subscriberIDs(p.newChan.ID) {
			if r.isSubscribed(p.oldChan.ID, uid) {
				continue
			}
			for _, x := range p.moved {
				if !r.messages.store.HasCopy(uid, x.ID) {
					r.messages.store.Deliver(uid, x, message.Read)
				}
			}
		}
	}
	return losingAccess
}

// fixFirstMessageIDs keeps first_message_id right on both channels of a
// move and tells those who can see each channel when it changed.
func (r *Realm) fixFirstMessageIDs(channels ...*storedChannel) {
	for _, ch := range channels {
		first := int64(0)
		r.messages.store.Channel(ch.ID).Up(0, func(x *message.Message) bool { first = x.ID; return false })
		if first != ch.FirstMessageID {
			ch.FirstMessageID = first
			r.emitFirstMessageID(ch)
		}
	}
}

// anyVisibleInTopic reports whether the topic holds a message, other than
// those in except, that me may read.
func (r *Realm) anyVisibleInTopic(me *user.User, ch *storedChannel, name string, except map[int64]bool) bool {
	readable := r.historyReadableBy(ch, me.ID)
	found := false
	r.messages.store.Topic(ch.ID, name).Up(0, func(x *message.Message) bool {
		if !except[x.ID] && (readable || r.messages.store.HasCopy(me.ID, x.ID)) {
			found = true
			return false
		}
		return true
	})
	return found
}

// moveUserTopics carries users' visibility policies along with a whole
// topic, as Zulip does: users losing access forget the old topic's
// policy; others' policies move to the new topic, merged with the
// destination's own when it already held messages (the more visible
// policy wins).
func (r *Realm) moveUserTopics(oldCh *storedChannel, oldTopic string, newCh *storedChannel, newTopic string, destHadMessages bool, losing []int) {
	if oldCh.ID == newCh.ID && topic.Key(oldTopic) == topic.Key(newTopic) {
		return
	}
	uids := make([]int, 0, len(r.userTopics.byUser))
	for uid := range r.userTopics.byUser {
		uids = append(uids, uid)
	}
	slices.Sort(uids)
	for _, uid := range uids {
		orig := r.userTopicPolicy(uid, oldCh.ID, oldTopic)
		target := r.userTopicPolicy(uid, newCh.ID, newTopic)
		if orig == PolicyInherit && target == PolicyInherit {
			continue
		}
		if orig != PolicyInherit {
			r.setUserTopicPolicy(uid, oldCh.ID, oldTopic, PolicyInherit)
			r.emitUserTopic(uid, oldCh.ID, oldTopic, PolicyInherit)
		}
		if slices.Contains(losing, uid) {
			continue
		}
		policy := orig
		if destHadMessages {
			policy = mergedPolicy(orig, target)
		}
		if policy != target {
			r.setUserTopicPolicy(uid, newCh.ID, newTopic, policy)
			r.emitUserTopic(uid, newCh.ID, newTopic, policy)
		}
	}
}

// mergedPolicy is the policy of two merged topics: the same policy, or
// unmuted when either was, else inherit.
func mergedPolicy(a, b int) int {
	switch {
	case a == b:
		return a
	case a == PolicyUnmuted || b == PolicyUnmuted:
		return PolicyUnmuted
	}
	return PolicyInherit
}
