package realm

import (
	"fmt"

	"github.com/minizulip/minizulip/realm/fixture"
)

// loadChannelFolders adds the document's channel folders, checked as
// POST /channel_folders/create checks a new one (lengths, a name unique
// ignoring case); a folder without an order takes its ID.
func (r *Realm) loadChannelFolders(f *fixture.Document) error {
	ids := []int{}
	for i, ff := range f.ChannelFolders {
		at := fmt.Sprintf("channel_folders[%d]", i)
		if ff.ID <= 0 || r.folderByID(ff.ID) != nil {
			return badItem(at+".id", "%s channel folder ID %d", invalidOrDuplicate(ff.ID <= 0), ff.ID)
		}
		name, description := ff.Name, ff.Description
		if err := checkFolderLengths(&name, &description); err != nil {
			return badItem(at, "%s", reason(err))
		}
		if err := r.checkFolderName(name); err != nil {
			return badItem(at+".name", "%s", reason(err))
		}
		if ff.CreatorID != 0 && r.users.byID[ff.CreatorID] == nil {
			return badItem(at+".creator_id", "no user %d", ff.CreatorID)
		}
		order := ff.ID
		if ff.Order != nil {
			order = *ff.Order
		}
		r.channelFolders = append(r.channelFolders, &storedFolder{ID: ff.ID, Name: name, Description: description,
			RenderedDescription: r.renderFolderDescription(description), Order: order, CreatorID: ff.CreatorID,
			DateCreated: ff.DateCreated, IsArchived: ff.IsArchived})
		ids = append(ids, ff.ID)
	}
	r.nextChannelFolderID = nextAfter(r.nextChannelFolderID, ids...)
	return nil
}

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
