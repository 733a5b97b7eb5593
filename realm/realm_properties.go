package realm

import (
	"unicode/utf8"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// The realm properties Zulip's PATCH /realm sets one by one
// (do_set_realm_property) and which, here, are stored and sent with
// little or no rule reading them: the digest and welcome emails, GIPHY,
// the organization type, the directory listing, the invitation rule,
// previews, the default code block language, the call provider, the
// full-member waiting period and message retention. Effects live with
// their rules: full_members.go (waiting_period_threshold), calls.go
// (video_chat_provider), message_markdown.go (previews and the code
// block language).

// RealmProperties are those settings, as Zulip stores them.
type RealmProperties struct {
	// DefaultCodeBlockLanguage is the language of a fenced code block
	// that names none ("" for none).
	DefaultCodeBlockLanguage string
	DigestEmailsEnabled      bool
	// DigestWeekday is the day digests go out: 0 Monday … 6 Sunday.
	DigestWeekday                             int
	SendWelcomeEmails                         bool
	MessageContentAllowedInEmailNotifications bool
	WantAdvertiseInCommunitiesDirectory       bool
	// GiphyRating is the highest GIPHY rating offered (0 disabled … 5 R).
	GiphyRating int
	// InviteRequired: joining needs an invitation.
	InviteRequired bool
	// InlineImagePreview previews linked images in rendered messages;
	// InlineURLEmbedPreview asks for link embeds, which the fake never
	// fetches.
	InlineImagePreview    bool
	InlineURLEmbedPreview bool
	// VideoChatProvider is realm_video_chat_provider: 0 none, 1 Jitsi
	// Meet, 3 Zoom, 4 BigBlueButton (those configured).
	VideoChatProvider int
	// WaitingPeriodThreshold is how many days old a member's account
	// must be to be a full member (role:fullmembers).
	WaitingPeriodThreshold int
	// MessageRetentionDays is how long messages are kept; -1 forever
	// (the API's "unlimited").
	MessageRetentionDays int
	// OrgType is Zulip's organization type number (10 business…).
	OrgType int
}

// defaultRealmProperties are those of Zulip's dev realm, which the
// fake's seed realm is.
func defaultRealmProperties() RealmProperties {
	return RealmProperties{DigestWeekday: 1, SendWelcomeEmails: true, MessageContentAllowedInEmailNotifications: true,
		GiphyRating: 2, InlineImagePreview: true, VideoChatProvider: videoChatJitsi, MessageRetentionDays: retentionUnlimited,
		OrgType: 10}
}

// retentionUnlimited is message_retention_days for "keep forever".
const retentionUnlimited = -1

// The video_chat_provider IDs every server has.
const (
	videoChatNone  = 0
	videoChatJitsi = 1
)

// giphyRatings are the IDs of Zulip's GIPHY_RATING_OPTIONS.
var giphyRatings = []int{0, 1, 2, 3, 4, 5}

// orgTypes are the IDs of Zulip's organization types (OrgTypeEnum).
var orgTypes = []int{0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000}

// maxDefaultCodeBlockLanguageLength bounds the stored language name
// (Zulip's MAX_LANGUAGE_ID_LENGTH is for default_language; a code
// block language is a Pygments name, which is short).
const maxDefaultCodeBlockLanguageLength = 100

// RetentionDays is a new message_retention_days: Days, or "unlimited".
// Invalid is a string other than "unlimited", which Zulip refuses once
// it has checked the caller is an owner.
type RetentionDays struct {
	Days      int
	Unlimited bool
	Invalid   *string
}

// RealmPropertiesUpdate is the part of a PATCH /realm request that sets
// realm properties; each non-nil field is a change.
type RealmPropertiesUpdate struct {
	DefaultCodeBlockLanguage                  *string
	DigestEmailsEnabled                       *bool
	DigestWeekday                             *int
	SendWelcomeEmails                         *bool
	MessageContentAllowedInEmailNotifications *bool
	WantAdvertiseInCommunitiesDirectory       *bool
	GiphyRating                               *int
	InviteRequired                            *bool
	InlineImagePreview                        *bool
	InlineURLEmbedPreview                     *bool
	VideoChatProvider                         *int
	WaitingPeriodThreshold                    *int
	MessageRetentionDays                      *RetentionDays
	OrgType                                   *int
}

// checkPropertiesUpdate checks the values and the caller's role as
// Zulip's update_realm does: value checks first, then owners only for
// message_retention_days, invite_required and waiting_period_threshold.
func (r *Realm) checkPropertiesUpdate(me *user.User, u RealmPropertiesUpdate) error {
	if u.DigestWeekday != nil && (*u.DigestWeekday < 0 || *u.DigestWeekday > 6) {
		return BadRequest("Invalid digest_weekday")
	}
	if u.OrgType != nil && !containsInt(orgTypes, *u.OrgType) {
		return BadRequest("Invalid org_type")
	}
	if u.WaitingPeriodThreshold != nil && *u.WaitingPeriodThreshold < 0 {
		return BadRequest("waiting_period_threshold is too small")
	}
	if v := u.DefaultCodeBlockLanguage; v != nil {
		if utf8.RuneCountInString(*v) > maxDefaultCodeBlockLanguageLength {
			return BadRequest("default_code_block_language is too long (limit: %d characters)", maxDefaultCodeBlockLanguageLength)
		}
		if err := noNull("default_code_block_language", *v); err != nil {
			return err
		}
	}
	if v := u.VideoChatProvider; v != nil && !r.videoChatProviderKnown(*v) {
		return BadRequest("Invalid video_chat_provider %d", *v)
	}
	if v := u.GiphyRating; v != nil && !containsInt(giphyRatings, *v) {
		return BadRequest("Invalid giphy_rating %d", *v)
	}
	owner := me.Role == user.RoleOwner
	if u.MessageRetentionDays != nil {
		if !owner {
			return UnauthorizedPrincipal("Must be an organization owner")
		}
		if err := r.ensureNotOnLimitedPlan(); err != nil {
			return err
		}
		if d := u.MessageRetentionDays; d.Invalid != nil {
			return VariableInvalid("message_retention_days", *d.Invalid)
		}
		if d := u.MessageRetentionDays; !d.Unlimited && d.Days <= 0 {
			return VariableInvalid("message_retention_days", d.Days)
		}
	}
	if (u.InviteRequired != nil || u.WaitingPeriodThreshold != nil) && !owner {
		return UnauthorizedPrincipal("Must be an organization owner")
	}
	return nil
}

// applyProperties sets the changed properties on s and answers each in
// changes: strings as "updated", other values as stored. org_type is
// answered even when it does not change, as Zulip does.
func applyProperties(s *Settings, u RealmPropertiesUpdate, changes RealmChanges) {
	p := &s.RealmProperties
	setBool := func(name string, v *bool, dst *bool) {
		if v != nil && *v != *dst {
			*dst = *v
			changes[name] = *v
		}
	}
	setInt := func(name string, v *int, dst *int) {
		if v != nil && *v != *dst {
			*dst = *v
			changes[name] = *v
		}
	}
	setBool("invite_required", u.InviteRequired, &p.InviteRequired)
	setBool("inline_image_preview", u.InlineImagePreview, &p.InlineImagePreview)
	setBool("inline_url_embed_preview", u.InlineURLEmbedPreview, &p.InlineURLEmbedPreview)
	setInt("waiting_period_threshold", u.WaitingPeriodThreshold, &p.WaitingPeriodThreshold)
	if d := u.MessageRetentionDays; d != nil {
		days := d.Days
		if d.Unlimited {
			days = retentionUnlimited
		}
		setInt("message_retention_days", &days, &p.MessageRetentionDays)
	}
	setBool("send_welcome_emails", u.SendWelcomeEmails, &p.SendWelcomeEmails)
	setBool("digest_emails_enabled", u.DigestEmailsEnabled, &p.DigestEmailsEnabled)
	setBool("message_content_allowed_in_email_notifications", u.MessageContentAllowedInEmailNotifications,
		&p.MessageContentAllowedInEmailNotifications)
	setInt("video_chat_provider", u.VideoChatProvider, &p.VideoChatProvider)
	setInt("giphy_rating", u.GiphyRating, &p.GiphyRating)
	if v := u.DefaultCodeBlockLanguage; v != nil && *v != p.DefaultCodeBlockLanguage {
		p.DefaultCodeBlockLanguage = *v
		changes["default_code_block_language"] = "updated"
	}
	setInt("digest_weekday", u.DigestWeekday, &p.DigestWeekday)
	setBool("want_advertise_in_communities_directory", u.WantAdvertiseInCommunitiesDirectory, &p.WantAdvertiseInCommunitiesDirectory)
	if v := u.OrgType; v != nil {
		p.OrgType = *v
		changes["org_type"] = *v
	}
}

// apiValues adds the properties to a settings map, as events send them.
func (p RealmProperties) apiValues(out map[string]any) {
	out["default_code_block_language"] = p.DefaultCodeBlockLanguage
	out["digest_emails_enabled"] = p.DigestEmailsEnabled
	out["digest_weekday"] = p.DigestWeekday
	out["send_welcome_emails"] = p.SendWelcomeEmails
	out["message_content_allowed_in_email_notifications"] = p.MessageContentAllowedInEmailNotifications
	out["want_advertise_in_communities_directory"] = p.WantAdvertiseInCommunitiesDirectory
	out["giphy_rating"] = p.GiphyRating
	out["invite_required"] = p.InviteRequired
	out["inline_image_preview"] = p.InlineImagePreview
	out["inline_url_embed_preview"] = p.InlineURLEmbedPreview
	out["video_chat_provider"] = p.VideoChatProvider
	out["waiting_period_threshold"] = p.WaitingPeriodThreshold
	out["message_retention_days"] = p.MessageRetentionDays
	out["org_type"] = p.OrgType
}

// emitOrgTypeUnchanged sends the org_type event Zulip sends for every
// org_type a PATCH /realm names, changed or not (do_change_realm_org_type
// compares nothing); a change was already announced.
func (r *Realm) emitOrgTypeUnchanged(before map[string]any, changes RealmChanges) {
	v, ok := changes["org_type"]
	if ok && before["org_type"] == v {
		r.emit("realm", RealmUpdateEvent{Op: "update", Property: "org_type", Value: v}, r.activeUserIDs()...)
	}
}

// fixture gives the properties as a fixture holds them.
func (p RealmProperties) fixture() fixture.RealmProperties {
	return fixture.RealmProperties{DefaultCodeBlockLanguage: p.DefaultCodeBlockLanguage,
		DigestEmailsEnabled: p.DigestEmailsEnabled, DigestWeekday: ptr(p.DigestWeekday), SendWelcomeEmails: ptr(p.SendWelcomeEmails),
		MessageContentAllowedInEmailNotifications: ptr(p.MessageContentAllowedInEmailNotifications),
		WantAdvertiseInCommunitiesDirectory:       p.WantAdvertiseInCommunitiesDirectory, GiphyRating: ptr(p.GiphyRating),
		InviteRequired: p.InviteRequired, InlineImagePreview: ptr(p.InlineImagePreview), InlineURLEmbedPreview: p.InlineURLEmbedPreview,
		VideoChatProvider: ptr(p.VideoChatProvider), WaitingPeriodThreshold: p.WaitingPeriodThreshold,
		MessageRetentionDays: ptr(p.MessageRetentionDays), OrgType: ptr(p.OrgType)}
}

// loadRealmProperties reads a fixture's properties, Zulip's defaults
// for those it leaves out, checking each value as PATCH /realm would.
func (r *Realm) loadRealmProperties(c *Settings, f fixture.RealmProperties, at string) error {
	p := defaultRealmProperties()
	p.DefaultCodeBlockLanguage, p.DigestEmailsEnabled = f.DefaultCodeBlockLanguage, f.DigestEmailsEnabled
	p.WantAdvertiseInCommunitiesDirectory, p.InviteRequired = f.WantAdvertiseInCommunitiesDirectory, f.InviteRequired
	p.InlineURLEmbedPreview, p.WaitingPeriodThreshold = f.InlineURLEmbedPreview, f.WaitingPeriodThreshold
	for _, b := range []struct {
		v   *bool
		dst *bool
	}{{f.SendWelcomeEmails, &p.SendWelcomeEmails}, {f.MessageContentAllowedInEmailNotifications, &p.MessageContentAllowedInEmailNotifications},
		{f.InlineImagePreview, &p.InlineImagePreview}} {
		if b.v != nil {
			*b.dst = *b.v
		}
	}
	for _, n := range []struct {
		v   *int
		dst *int
	}{{f.DigestWeekday, &p.DigestWeekday}, {f.GiphyRating, &p.GiphyRating}, {f.VideoChatProvider, &p.VideoChatProvider},
		{f.MessageRetentionDays, &p.MessageRetentionDays}, {f.OrgType, &p.OrgType}} {
		if n.v != nil {
			*n.dst = *n.v
		}
	}
	check := RealmPropertiesUpdate{DefaultCodeBlockLanguage: &p.DefaultCodeBlockLanguage, DigestWeekday: &p.DigestWeekday,
		GiphyRating: &p.GiphyRating, VideoChatProvider: &p.VideoChatProvider, WaitingPeriodThreshold: &p.WaitingPeriodThreshold,
		OrgType: &p.OrgType}
	// The document's own plan (c's) decides whether it may keep messages
	// for a time, not the plan the realm was started on.
	if p.MessageRetentionDays != retentionUnlimited {
		if c.planType() == PlanTypeLimited {
			return badItem(at+".message_retention_days", needsStandard)
		}
		if p.MessageRetentionDays <= 0 {
			return badItem(at+".message_retention_days", "%d is not a number of days (-1 is unlimited)", p.MessageRetentionDays)
		}
	}
	owner := &user.User{Role: user.RoleOwner}
	if err := r.checkPropertiesUpdate(owner, check); err != nil {
		return badItem(at, "%s", reason(err))
	}
	c.RealmProperties = p
	return nil
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// videoChatProviderKnown reports whether id is one of
// realm_available_video_chat_providers: none, Jitsi Meet, and the
// configured providers that have an ID.
func (r *Realm) videoChatProviderKnown(id int) bool {
	for _, p := range r.availableCallProviders() {
		if p.ID == id {
			return true
		}
	}
	return false
}
