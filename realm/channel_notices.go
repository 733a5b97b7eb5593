package realm

import (
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/user"
)

// channelEventsTopic is the topic of the Notification Bot's notices about
// changes to a channel (Zulip's STREAM_EVENTS_NOTIFICATION_TOPIC_NAME).
const channelEventsTopic = "channel events"

// realmMessageRetentionDays is the realm's retention, which a channel's
// "realm default" stands for: -1, unlimited (the realm setting is fixed).
const realmMessageRetentionDays = -1

// channelEventsTopicName is where ch's notices go: "channel events", or
// the empty topic in a channel that allows only that one.
func channelEventsTopicName(ch *storedChannel) string {
	if ch.TopicsPolicy == "empty_topic_only" {
		return ""
	}
	return channelEventsTopic
}

// sendChannelNotice posts a Notification Bot notice about ch to its
// channel events topic; see sendNotice for unreadFor. The caller holds
// the write lock and has sent the change's events.
func (r *Realm) sendChannelNotice(ch *storedChannel, content string, unreadFor map[int]bool) {
	r.sendNotice(ch, channelEventsTopicName(ch), content, unreadFor)
}

// archivedNotice announces that ch was archived.
func archivedNotice(ch *storedChannel) string {
	return "Channel #**" + ch.Name + "** has been archived."
}

// unarchivedNotice announces that ch was unarchived.
func unarchivedNotice(ch *storedChannel) string {
	return "Channel #**" + ch.Name + "** has been unarchived."
}

// renameNotice announces a new channel name.
func renameNotice(me *user.User, oldName, newName string) string {
	return silentMention(me) + " renamed channel **" + oldName + "** to **" + newName + "**."
}

// descriptionNotice announces a new channel description, quoting the old
// and new ones (an empty one as "*No description.*").
func descriptionNotice(me *user.User, oldDesc, newDesc string) string {
	shown := func(d string) string {
		if d == "" {
			return "*No description.*"
		}
		return d
	}
	return silentMention(me) + " changed the description for this channel.\n\n" +
		"* **Old description:**\n```` quote\n" + shown(oldDesc) + "\n````\n" +
		"* **New description:**\n```` quote\n" + shown(newDesc) + "\n````"
}

// permissionPolicyName is Zulip's name of a channel's access policy.
func permissionPolicyName(private, historyPublic, webPublic bool) string {
	switch {
	case webPublic:
		return "Web-public"
	case !private:
		return "Public"
	case historyPublic:
		return "Private, shared history"
	default:
		return "Private, protected history"
	}
}

// permissionNotice announces new privacy settings, naming the old and new
// access policies.
func permissionNotice(me *user.User, p *channelPlan) string {
	return silentMention(me) + " changed the [access permissions](/help/channel-permissions) for this channel from **" +
		permissionPolicyName(p.oldPrivate, p.oldHistory, p.oldWeb) + "** to **" +
		permissionPolicyName(p.private, p.history, p.webPublic) + "**."
}

// retentionNotice announces a new message retention period; nil stands
// for the realm's retention, -1 for forever. Like Zulip, it says "Forever"
// for the old period whenever that was unlimited.
func retentionNotice(me *user.User, oldDays, newDays *int) string {
	old, cur := realmMessageRetentionDays, realmMessageRetentionDays
	if oldDays != nil {
		old = *oldDays
	}
	if newDays != nil {
		cur = *newDays
	}
	days := func(n int) string { return strconv.Itoa(n) + " days" }
	deleted := "Messages in this channel will now be automatically deleted " + strconv.Itoa(cur) + " days after they are sent."
	oldPeriod, newPeriod, summary := days(old), days(cur), deleted
	switch {
	case old == -1:
		oldPeriod = "Forever"
	case cur == -1:
		newPeriod, summary = "Forever", "Messages in this channel will now be retained forever."
	}
	return silentMention(me) + " has changed the [message retention period](/help/message-retention-policy) for this channel:\n" +
		"* **Old retention period**: " + oldPeriod + "\n" +
		"* **New retention period**: " + newPeriod + "\n\n" + summary
}

// topicsPolicyName is Zulip's name of a channel topics policy ("" is
// inherit), with the realm's name for the empty topic.
func (r *Realm) topicsPolicyName(policy string) string {
	empty := r.settings.EmptyTopicDisplayName
	switch policy {
	case "allow_empty_topic":
		return "*" + empty + "* topic allowed"
	case "disable_empty_topic":
		return "No *" + empty + "* topic"
	case "empty_topic_only":
		return "Only *" + empty + "* topic allowed"
	default:
		return "Automatic"
	}
}

// topicsPolicyNotice announces a new topics policy.
func (r *Realm) topicsPolicyNotice(me *user.User, oldPolicy, newPolicy string) string {
	return silentMention(me) + ` changed the "Allow posting to the *general chat* topic?" setting from **` +
		r.topicsPolicyName(oldPolicy) + "** to **" + r.topicsPolicyName(newPolicy) + "**."
}

// groupSettingMentions names who a group-setting value covers, silently:
// a named group, or an anonymous group's subgroups then its members, each
// by ID.
func (r *Realm) groupSettingMentions(v GroupSetting) string {
	if v.GroupID != 0 {
		return "@_*" + r.groups.byID[v.GroupID].Name + "*"
	}
	var names []string
	for _, id := range slices.Sorted(slices.Values(v.DirectSubgroups)) {
		if g := r.groups.byID[id]; g != nil {
			names = append(names, "@_*"+g.Name+"*")
		}
	}
	for _, id := range slices.Sorted(slices.Values(v.DirectMembers)) {
		if u := r.users.byID[id]; u != nil {
			names = append(names, silentMention(u))
		}
	}
	return strings.Join(names, ", ")
}

// postingPermissionNotice announces a new can_send_message_group.
func (r *Realm) postingPermissionNotice(me *user.User, oldValue, newValue GroupSetting) string {
	return silentMention(me) + " changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n" +
		"* **Old**: " + r.groupSettingMentions(oldValue) + "\n" +
		"* **New**: " + r.groupSettingMentions(newValue) + "\n"
}
