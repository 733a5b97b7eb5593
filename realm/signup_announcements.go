package realm

import (
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// signupsTopic is the topic new users are announced in (Zulip's
// send_message_to_signup_notification_stream).
const signupsTopic = "signups"

// welcomeNewUser does what Zulip's process_new_human_user does for a
// person who just joined, after their subscriptions: Notification Bot
// announces them in the signup announcements channel's "signups" topic
// ("@_**Name|ID** joined this organization."), then Welcome Bot sends
// them its welcome message, starred for them, and, when there is one,
// the custom message (the invitation's, else the realm's). The caller
// holds the write lock.
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
