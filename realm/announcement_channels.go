package realm

import (
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// The realm settings that name the channel Notification Bot announces
// in: new channels (when their creator asks) and new users. Their API
// names date from feature level 241 (ChangeAnnouncementsRename).
const (
	newChannelAnnouncementsProperty = "new_stream_announcements_stream_id"
	signupAnnouncementsProperty     = "signup_announcements_stream_id"
)

// announcementChannel is one of those settings: stored as a channel ID
// (0 when off), -1 in the API when off, absent from fixtures when off.
type announcementChannel struct {
	property string // the API name
	before   string // the API name below feature level 241
	stored   func(*Settings) *int
	fixture  func(*fixture.Settings) *int
}

var (
	newChannelAnnouncements = announcementChannel{
		property: newChannelAnnouncementsProperty, before: "notifications_stream_id",
		stored:  func(s *Settings) *int { return &s.NewStreamAnnouncementsStreamID },
		fixture: func(f *fixture.Settings) *int { return f.NewStreamAnnouncementsStreamID },
	}
	signupAnnouncements = announcementChannel{
		property: signupAnnouncementsProperty, before: "signup_notifications_stream_id",
		stored:  func(s *Settings) *int { return &s.SignupAnnouncementsStreamID },
		fixture: func(f *fixture.Settings) *int { return f.SignupAnnouncementsStreamID },
	}
)

// value is the setting as the API gives it: the channel's ID, or -1.
func (a announcementChannel) value(s *Settings) int {
	if id := *a.stored(s); id != 0 {
		return id
	}
	return -1
}

// inFixture is the setting as a fixture holds it: absent when off.
func (a announcementChannel) inFixture(s *Settings) *int {
	if id := *a.stored(s); id != 0 {
		return intPtr(id)
	}
	return nil
}

// name is the setting's name at the realm's advertised level.
func (a announcementChannel) name(r *Realm) string {
	if r.has(ChangeAnnouncementsRename) {
		return a.property
	}
	return a.before
}

// setAnnouncementChannel checks a new channel for setting a (a negative
// ID turns the announcements off) and puts it in s, noting the change.
// As Zulip's update_realm does with access_stream_by_id, the channel
// must exist, be active and be one the administrator can read.
func (r *Realm) setAnnouncementChannel(a announcementChannel, me *user.User, s *Settings, id int, changes RealmChanges) error {
	stored := 0
	if id >= 0 {
		ch := r.channels.byID[id]
		if ch == nil || ch.IsArchived || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		stored = id
	}
	if stored != *a.stored(s) {
		*a.stored(s) = stored
		changes[a.name(r)] = a.value(s)
	}
	return nil
}

// loadAnnouncementChannel applies a fixture's channel for setting a once
// the channels are in: absent or -1 (off), or an active channel of the
// document.
func (r *Realm) loadAnnouncementChannel(a announcementChannel, f *fixture.Document) error {
	*a.stored(&r.settings) = 0
	p := a.fixture(&f.Settings)
	if p == nil || *p == -1 {
		return nil
	}
	ch := r.channels.byID[*p]
	if ch == nil || ch.IsArchived {
		return badItem("settings."+a.property, "%d is neither -1 (off) nor an active channel ID", *p)
	}
	*a.stored(&r.settings) = ch.ID
	return nil
}
