package realm

import (
	"github.com/minizulip/minizulip/user"
)

// The rules of channel administration before feature level 349
// (changeChannelAdminAccess). From 349, channel and organization
// administrators change the settings that need metadata access only
// without content access, channel administrators may unsubscribe others,
// and a private channel's can_administer_channel_group and
// can_add_subscribers_group give sight of it (can_add_subscribers_group
// content access too). Before it:
//   - changing or archiving a channel needed content access to it,
//     except that organization administrators could rename it and change
//     its description without;
//   - unsubscribing others needed an organization administrator or
//     membership of can_remove_subscribers_group, and content access to
//     each channel (even for organization administrators);
//   - the groups gave no access (hasMetadataAccess, hasContentAccess).

// onlyNameOrDescription reports whether an update changes nothing but
// the channel's name and description.
func (u ChannelUpdate) onlyNameOrDescription() bool {
	return u.StreamPostPolicy == nil && u.IsPrivate == nil && u.IsWebPublic == nil &&
		u.HistoryPublicToSubscribers == nil && u.IsDefaultStream == nil && u.MessageRetentionDays == nil &&
		u.TopicsPolicy == nil && u.IsArchived == nil && u.FolderID == nil && len(u.GroupSettings) == 0
}

// checkLegacyAdminContentAccess refuses, below changeChannelAdminAccess,
// a change of a channel the caller has no content access to, but an
// organization administrator's change of its name or description.
func (r *Realm) checkLegacyAdminContentAccess(me *user.User, ch *storedChannel, nameOrDescriptionOnly bool) error {
	if r.has(changeChannelAdminAccess) || r.hasContentAccess(me, ch) || me.Role.IsAdmin() && nameOrDescriptionOnly {
		return nil
	}
	return BadRequest("Invalid channel ID")
}

// legacyCanRemoveSubscribers is the rule for unsubscribing others below
// changeChannelAdminAccess: content access to every channel, and an
// organization administrator or a member of each channel's
// can_remove_subscribers_group.
func (r *Realm) legacyCanRemoveSubscribers(me *user.User, channels []*storedChannel) bool {
	if me.IsGuest() {
		return false
	}
	for _, c := range channels {
		if !r.hasContentAccess(me, c) {
			return false
		}
		if !me.Role.IsAdmin() && !r.channelAllows(c, "can_remove_subscribers_group", me.ID) {
			return false
		}
	}
	return true
}
