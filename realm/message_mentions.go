package realm

import (
	"slices"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// This file holds Zulip's mention rules: who a message mentions, who
// may mention a group or many users, and the flags that follow.

// mentionFlags are the flags rendering gives each recipient of a message.
type mentionFlags struct {
	mentioned map[int]bool
	// wildcard are the users a topic wildcard mentions in a channel
	// (the topic's participants); topicAll: a topic wildcard in a direct
	// message, which mentions everyone.
	wildcard map[int]bool
	topicAll bool
	all      bool         // a channel wildcard: everyone
	alerted  map[int]bool // users with an alert word in the content
}

func (f mentionFlags) of(userID int) message.Flags {
	var out message.Flags
	if f.mentioned[userID] {
		out |= message.Mentioned
	}
	if f.all {
		out |= message.StreamWildcardMentioned
	}
	if f.topicAll || f.wildcard[userID] {
		out |= message.TopicWildcardMentioned
	}
	if f.alerted[userID] {
		out |= message.HasAlertWord
	}
	return out
}

// topicParticipants are the users who sent a message to the topic.
func (r *Realm) topicParticipants(channelID int, name string) map[int]bool {
	out := map[int]bool{}
	r.messages.store.Topic(channelID, name).Up(0, func(m *message.Message) bool {
		if topic.Key(m.Topic) == topic.Key(name) {
			out[m.SenderID] = true
		}
		return true
	})
	return out
}

// checkMentions applies Zulip's wildcard- and group-mention rules to a
// message about to be stored and works out who is mentioned. ch is nil for a
// direct message. Callers hold r.mu.
func (r *Realm) checkMentions(res markdown.Result, senderID int, ch *storedChannel, topicName string, recipients []int) (mentionFlags, error) {
	mayMentionMany := r.settingHas(r.settings.CanMentionManyUsersGroup, senderID)
	f, err := r.mentionsBeforeHistory(res, ch, recipients, mayMentionMany)
	if err != nil {
		return f, err
	}
	if !res.TopicWildcard || ch == nil {
		return f, r.checkGroupMentions(res, senderID)
	}
	participants, err := r.topicWildcardParticipants(ch.ID, topicName, mayMentionMany)
	if err != nil {
		return f, err
	}
	f.wildcard = participants
	return f, r.checkGroupMentions(res, senderID)
}

// mentionsBeforeHistory is the part of checkMentions that needs no
// message history, which a send checks before its commit; a topic
// wildcard's participants come at the commit (topicWildcardParticipants).
// mayMentionMany tells whether the sender may mention many users at once.
func (r *Realm) mentionsBeforeHistory(res markdown.Result, ch *storedChannel, recipients []int, mayMentionMany bool) (mentionFlags, error) {
	var f mentionFlags
	if len(res.MentionedUserIDs) > 0 || len(res.MentionedGroupIDs) > 0 {
		f.mentioned = map[int]bool{}
	}
	for _, id := range res.MentionedUserIDs {
		f.mentioned[id] = true
	}
	for _, gid := range res.MentionedGroupIDs {
		if g := r.groups.byID[gid]; g != nil {
			for _, uid := range groupMemberIDs(r, g.ID) {
				f.mentioned[uid] = true
			}
		}
	}
	if res.StreamWildcard {
		if ch != nil && len(recipients) > r.opts.Limits.WildcardMentionLarge && !mayMentionMany {
			code := CodeStreamWildcardMentionNotAllow
			if !r.has(changeStreamWildcardMentionCode) {
				code = CodeBadRequest
			}
			return f, &Error{Code: code, Status: 400,
				Msg: "You do not have permission to use channel wildcard mentions in this channel."}
		}
		f.all = true
	}
	if res.TopicWildcard && ch == nil {
		f.topicAll = true
	}
	return f, nil
}

// topicWildcardParticipants are the users a topic wildcard mention in a
// channel's topic mentions: those who sent a message there. Too many of
// them for a sender who may not mention many users is an error.
func (r *Realm) topicWildcardParticipants(channelID int, topicName string, mayMentionMany bool) (map[int]bool, error) {
	participants := r.topicParticipants(channelID, topicName)
	if len(participants) > r.opts.Limits.WildcardMentionLarge && !mayMentionMany {
		return nil, &Error{Code: CodeTopicWildcardMentionNotAllow, Status: 400,
			Msg: "You do not have permission to use topic wildcard mentions in this topic."}
	}
	return participants, nil
}

// checkGroupMentions refuses a message whose sender may not mention, not
// silently, a group it mentions (silent mentions and mentions of
// deactivated groups are not checked). Groups are checked by ID.
func (r *Realm) checkGroupMentions(res markdown.Result, senderID int) error {
	ids := slices.Clone(res.MentionedGroupIDs)
	slices.Sort(ids)
	for _, id := range ids {
		if g := r.groups.byID[id]; g != nil && !r.mayMentionGroup(r.users.byID[senderID], g) {
			return BadRequest("You are not allowed to mention user group '%s'.", g.Name)
		}
	}
	return nil
}

// mayMentionGroup applies g's can_mention_group to sender: anyone may
// mention a group whose setting is role:everyone; otherwise only members
// of the setting's group, never a system bot. System groups default to
// role:nobody, so they can be mentioned only silently.
func (r *Realm) mayMentionGroup(sender *user.User, g *group.Group) bool {
	if s := r.groups.byID[g.Settings.CanMention.GroupID]; s != nil && s.IsSystem && s.Name == group.Everyone {
		return true
	}
	return sender != nil && !sender.IsSystemBot && r.settingHas(g.Settings.CanMention, sender.ID)
}

func groupMemberIDs(r *Realm, id int) []int {
	g := r.groups.byID[id]
	if g == nil {
		return nil
	}
	return group.MemberIDs(g, r.lookupGroup, func(uid int) bool {
		u := r.users.byID[uid]
		return u != nil && u.IsActive
	})
}
