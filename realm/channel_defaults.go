package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/user"
)

// DefaultStreamsEvent is a default_streams event: the whole list of
// default channels, sent to every active non-guest user when it changes.
// DefaultStreams holds IDs ([]int) or, before feature level 330, channel
// objects ([]Stream).
type DefaultStreamsEvent struct {
	DefaultStreams any `json:"default_streams"`
}

// DefaultStreamsState is the default_streams section of register.
type DefaultStreamsState struct {
	RealmDefaultStreams any `json:"realm_default_streams"`
}

// AddDefaultChannel answers POST /default_streams: administrators make a
// public channel they can reach a default channel, joined by new users.
// Adding one that is already default changes nothing and tells no one.
func (a *Actor) AddDefaultChannel(ctx context.Context, channelID int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		ch := r.channels.byID[channelID]
		if ch == nil || ch.IsArchived || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		if ch.InviteOnly {
			return BadRequest("Private channels cannot be made default.")
		}
		r.setDefaultChannel(ch, true)
		return nil
	})
}

// RemoveDefaultChannel answers DELETE /default_streams. As on Zulip, the
// realm is told even when the channel was not a default one.
func (a *Actor) RemoveDefaultChannel(ctx context.Context, channelID int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		ch := r.channels.byID[channelID]
		if ch == nil || ch.IsArchived || !r.hasMetadataAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		r.setDefaultChannel(ch, false)
		return nil
	})
}

// setDefaultChannel adds ch to the default channels or removes it and
// sends the new list: on every removal, on an addition only when ch was
// not default yet (Zulip's rules).
func (r *Realm) setDefaultChannel(ch *storedChannel, isDefault bool) {
	if isDefault && ch.IsDefault {
		return
	}
	ch.IsDefault = isDefault
	r.emitDefaultChannels()
}

// emitDefaultChannels tells every active non-guest user the list of
// default channels.
func (r *Realm) emitDefaultChannels() {
	r.emit("default_streams", DefaultStreamsEvent{DefaultStreams: r.defaultChannelList()}, r.activeNonGuestIDs()...)
}

// defaultChannelList lists the default channels, by ID, as the advertised
// feature level spells them.
func (r *Realm) defaultChannelList() any {
	var chans []*storedChannel
	for _, c := range r.channels.byID {
		if c.IsDefault && !c.IsArchived {
			chans = append(chans, c)
		}
	}
	slices.SortFunc(chans, func(a, b *storedChannel) int { return a.ID - b.ID })
	if !r.has(changeDefaultStreamIDs) {
		views := make([]Stream, 0, len(chans))
		for _, c := range chans {
			views = append(views, r.streamView(c))
		}
		return views
	}
	ids := make([]int, 0, len(chans))
	for _, c := range chans {
		ids = append(ids, c.ID)
	}
	return ids
}

// activeNonGuestIDs are the active users who are not guests, ascending.
func (r *Realm) activeNonGuestIDs() []int {
	return slices.DeleteFunc(r.activeUserIDs(), func(id int) bool { return r.users.byID[id].IsGuest() })
}

// fillDefaultChannels is register's default_streams section; guests are
// shown none, as Zulip pretends to them that there are none.
func fillDefaultChannels(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	var list any = []int{}
	if !me.IsGuest() {
		list = r.defaultChannelList()
	}
	out.DefaultStreamsState = &DefaultStreamsState{RealmDefaultStreams: list}
}
