package realm

import (
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// newChannelAnnouncementsProperty is the setting's API name (from feature
// level 241; notifications_stream_id before, see
// newChannelAnnouncementsName): the channel Notification Bot announces
// new channels in when their creator asks (announce).
const newChannelAnnouncementsProperty = "new_stream_announcements_stream_id"

// newChannelAnnouncementsValue is the setting as the API gives it: the
// channel's ID, or -1 when new channels are not announced.
func (s *Settings) newChannelAnnouncementsValue() int {
	if s.NewStreamAnnouncementsStreamID == 0 {
		return -1
	}
	return s.NewStreamAnnouncementsStreamID
}

// newChannelAnnouncementsFixture is the setting as a fixture holds it:
// absent when off.
func (s *Settings) newChannelAnnouncementsFixture() *int {
	if s.NewStreamAnnouncementsStreamID == 0 {
		return nil
	}
	return intPtr(s.NewStreamAnnouncementsStreamID)
}

// newChannelAnnouncementsName is the setting's name at the advertised
// level.
func (r *Realm) newChannelAnnouncementsName() string {
	if r.has(ChangeAnnouncementsRename) {
		return newChannelAnnouncementsProperty
	}
	return "notifications_stream_id"
}

// setNewChannelAnnouncements checks a new channel announcements channel
// (a negative ID turns the announcements off) as setSignupAnnouncements
// does, and puts it in s, noting the change.
func (r *Realm) setNewChannelAnnouncements(me *user.User, s *Settings, id int, changes RealmChanges) error {
	stored := 0
	if id >= 0 {
		ch := r.channels.byID[id]
		if ch == nil || ch.IsArchived || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		stored = id
	}
	if stored != s.NewStreamAnnouncementsStreamID {
		s.NewStreamAnnouncementsStreamID = stored
		changes[r.newChannelAnnouncementsName()] = s.newChannelAnnouncementsValue()
	}
	return nil
}

// loadNewChannelAnnouncements applies a fixture's new channel
// announcements channel once the channels are in: absent or -1 (off), or
// an active channel of the document.
func (r *Realm) loadNewChannelAnnouncements(f *fixture.Document) error {
	const at = "settings.new_stream_announcements_stream_id"
	r.settings.NewStreamAnnouncementsStreamID = 0
	p := f.Settings.NewStreamAnnouncementsStreamID
	if p == nil || *p == -1 {
		return nil
	}
	ch := r.channels.byID[*p]
	if ch == nil || ch.IsArchived {
		return badItem(at, "%d is neither -1 (off) nor an active channel ID", *p)
	}
	r.settings.NewStreamAnnouncementsStreamID = ch.ID
	return nil
}
