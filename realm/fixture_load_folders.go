package realm

import (
	"github.com/minizulip/minizulip/realm/fixture"
)

// loadModerationChannel applies the moderation request channel setting
// once the channels are in: -1 (reporting off) or a private channel of
// the document, as PATCH /realm requires.
func (r *Realm) loadModerationChannel(f *fixture.Document) error {
	const at = "settings.moderation_request_channel_id"
	id := f.Settings.ModerationRequestChannelID
	if id < 0 {
		if id != -1 {
			return badItem(at, "%d is neither -1 (reporting off) nor a channel ID", id)
		}
		r.settings.ModerationRequestChannelID = 0
		return nil
	}
	ch := r.channels[id]
	if ch == nil {
		return badItem(at, "no channel %d", id)
	}
	if !ch.InviteOnly {
		return badItem(at, "channel %d is not private", id)
	}
	r.settings.ModerationRequestChannelID = id
	return nil
}
