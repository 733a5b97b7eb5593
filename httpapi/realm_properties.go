package httpapi

import (
	"github.com/minizulip/minizulip/realm"
)

// realmPropertiesParams reads the realm properties PATCH /realm takes
// (realm.RealmPropertiesUpdate) as Zulip's update_realm does: JSON
// booleans and integers, default_code_block_language as a plain string,
// message_retention_days as a positive integer or "unlimited".
func realmPropertiesParams(c *call, u *realm.RealmPropertiesUpdate) error {
	if v, ok := c.p.str("default_code_block_language"); ok {
		u.DefaultCodeBlockLanguage = &v
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{
		{"invite_required", &u.InviteRequired}, {"inline_image_preview", &u.InlineImagePreview},
		{"inline_url_embed_preview", &u.InlineURLEmbedPreview}, {"send_welcome_emails", &u.SendWelcomeEmails},
		{"digest_emails_enabled", &u.DigestEmailsEnabled},
		{"message_content_allowed_in_email_notifications", &u.MessageContentAllowedInEmailNotifications},
		{"want_advertise_in_communities_directory", &u.WantAdvertiseInCommunitiesDirectory},
	} {
		v, set, err := c.p.optBoolSet(f.name)
		if err != nil {
			return err
		}
		if set {
			*f.dst = &v
		}
	}
	for _, f := range []struct {
		name string
		dst  **int
	}{
		{"waiting_period_threshold", &u.WaitingPeriodThreshold}, {"video_chat_provider", &u.VideoChatProvider},
		{"giphy_rating", &u.GiphyRating}, {"digest_weekday", &u.DigestWeekday}, {"org_type", &u.OrgType},
	} {
		v, set, err := c.p.optInt(f.name)
		if err != nil {
			return err
		}
		if set {
			*f.dst = &v
		}
	}
	days, err := retentionDaysParam(c)
	u.MessageRetentionDays = days
	return err
}

// retentionDaysParam reads message_retention_days: JSON, an integer or a
// string ("unlimited"; the realm refuses another string after checking
// the caller's role, as Zulip does).
func retentionDaysParam(c *call) (*realm.RetentionDays, error) {
	n, s, set, err := intOrStringParam(c, "message_retention_days")
	switch {
	case err != nil || !set:
		return nil, err
	case s == nil:
		return &realm.RetentionDays{Days: n}, nil
	case *s == "unlimited":
		return &realm.RetentionDays{Unlimited: true}, nil
	}
	return &realm.RetentionDays{Invalid: s}, nil
}
