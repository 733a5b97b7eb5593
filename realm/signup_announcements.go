package realm

import (
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// signupAnnouncementsProperty is the setting's API name (from feature
// level 241; signup_notifications_stream_id before, see
// signupAnnouncementsName).
const signupAnnouncementsProperty = "signup_announcements_stream_id"

// signupsTopic is the topic new users are announced in (Zulip's
// send_message_to_signup_notification_stream).
const signupsTopic = "signups"

// signupAnnouncementsValue is the setting as the API gives it: the
// channel's ID, or -1 when new users are not announced.
func (s *Settings) signupAnnouncementsValue() int {
	if s.SignupAnnouncementsStreamID == 0 {
		return -1
	}
	return s.SignupAnnouncementsStreamID
}

// signupAnnouncementsFixture is the setting as a fixture holds it: absent
// when off.
func (s *Settings) signupAnnouncementsFixture() *int {
	if s.SignupAnnouncementsStreamID == 0 {
		return nil
	}
	return intPtr(s.SignupAnnouncementsStreamID)
}

// signupAnnouncementsName is the setting's name at the advertised level.
func (r *Realm) signupAnnouncementsName() string {
	if r.has(ChangeAnnouncementsRename) {
		return signupAnnouncementsProperty
	}
	return "signup_notifications_stream_id"
}

// setSignupAnnouncements checks a new signup announcements channel (a
// negative ID turns the announcements off) and puts it in s, noting the
// change. As Zulip's update_realm does with access_stream_by_id, the
// channel must exist, be active and be one the administrator can read.
func (r *Realm) setSignupAnnouncements(me *user.User, s *Settings, id int, changes RealmChanges) error {
	stored := 0
	if id >= 0 {
		ch := r.channels.byID[id]
		if ch == nil || ch.IsArchived || !r.hasContentAccess(me, ch) {
			return BadRequest("Invalid channel ID")
		}
		stored = id
	}
	if stored != s.SignupAnnouncementsStreamID {
		s.SignupAnnouncementsStreamID = stored
		changes[r.signupAnnouncementsName()] = s.signupAnnouncementsValue()
	}
	return nil
}

// loadSignupAnnouncements applies a fixture's signup announcements
// channel once the channels are in: absent or -1 (off), or an active
// channel of the document.
func (r *Realm) loadSignupAnnouncements(f *fixture.Document) error {
	const at = "settings.signup_announcements_stream_id"
	r.settings.SignupAnnouncementsStreamID = 0
	p := f.Settings.SignupAnnouncementsStreamID
	if p == nil || *p == -1 {
		return nil
	}
	ch := r.channels.byID[*p]
	if ch == nil || ch.IsArchived {
		return badItem(at, "%d is neither -1 (off) nor an active channel ID", *p)
	}
	r.settings.SignupAnnouncementsStreamID = ch.ID
	return nil
}

// welcomeNewUser does what Zulip's process_new_human_user does for a
// person who just joined, after their subscriptions: Notification Bot
// announces them in the signup announcements channel's "signups" topic
// ("@_**Name|ID** joined this organization."), then Welcome Bot sends
// them its welcome message, starred for them, and, when there is one,
// the invitation's custom message. The caller holds the write lock.
func (r *Realm) welcomeNewUser(u *user.User, customText string) {
	if ch := r.channels.byID[r.settings.SignupAnnouncementsStreamID]; ch != nil && !ch.IsArchived && r.humanCount() > 1 {
		r.sendNotice(ch, signupsTopic, silentMention(u)+" joined this organization.", nil)
	}
	r.sendDirectFlagged(welcomeBotEmail, u, welcomeMessage(u), message.Starred)
	if customText != "" {
		r.sendDirectFrom(welcomeBotEmail, u, customText)
	}
}

// humanCount counts the realm's active human accounts (Zulip's
// realm_user_count): the first one is not announced.
func (r *Realm) humanCount() int {
	n := 0
	for _, v := range r.users.byID {
		if v.IsActive && !v.IsBot() {
			n++
		}
	}
	return n
}

// welcomeMessage is Welcome Bot's first message to a new user, in the
// words of Zulip 11's send_initial_direct_message (English, not an
// education organization, no onboarding conversations): administrators
// are also pointed to the guide for moving an organization.
func welcomeMessage(u *user.User) string {
	text := "Hello, and welcome to Zulip!👋\n\n" +
		"To learn more, check out our [getting started guide](/help/getting-started-with-zulip)!"
	if u.Role.IsAdmin() {
		text += " We also have a guide for [moving your organization to Zulip](/help/moving-to-zulip)."
	}
	return text + "\n\nYou can always come back to the [Welcome to Zulip video](" + navigationTourVideoURL +
		") for a quick app overview."
}

// navigationTourVideoURL is Zulip's default NAVIGATION_TOUR_VIDEO_URL.
const navigationTourVideoURL = "https://static.zulipchat.com/static/navigation-tour-video/zulip-10.mp4"
