package realm

import (
	"slices"

	"github.com/minizulip/minizulip/user"
)

// resolvedNoticeUnreadFor is who gets Notification Bot's notice that a
// topic was resolved or unresolved as an unread message. From the level
// of the resolved_topic_notice_auto_read_policy setting (385) each
// subscriber's setting decides, the topic's followers (in its old or new
// place) being those "except_followed" leaves it unread for, and the
// user who resolved the topic reads it; before, as Zulip did, it is
// unread for the participants of the moved messages (senders and
// reactors) only.
func (r *Realm) resolvedNoticeUnreadFor(me *user.User, p *editPlan, dest *storedChannel, oldTopic, newTopic string) map[int]bool {
	unread := map[int]bool{}
	if !r.sendsSetting("resolved_topic_notice_auto_read_policy") {
		for _, x := range p.moved {
			unread[x.SenderID] = true
			for _, re := range x.Changes().Reactions {
				unread[re.UserID] = true
			}
		}
		return unread
	}
	for _, uid := range r.subscriberIDs(dest.ID) {
		u := r.users.byID[uid]
		if u == nil || u.IsBot() || uid == me.ID {
			continue
		}
		follows := r.userTopicPolicy(uid, dest.ID, newTopic) == PolicyFollowed ||
			r.userTopicPolicy(uid, p.oldChan.ID, oldTopic) == PolicyFollowed
		if !user.ResolvedNoticeRead(u.Settings.ResolvedTopicNoticeAutoReadPolicy, follows) {
			unread[uid] = true
		}
	}
	return unread
}

// sendsSetting reports whether a server of the realm's level has the
// personal setting: the table's field gate rows for user_settings say
// when each came.
func (r *Realm) sendsSetting(name string) bool {
	f := r.wire()
	return f == nil || !slices.Contains(f.kindOmit["user_settings"], name)
}
