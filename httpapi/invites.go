package httpapi

import (
	"strings"

	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/user"
)

func inviteRoutes() []route {
	return []route{
		{method: "GET", path: "/invites", h: listInvites},
		{method: "POST", path: "/invites", h: sendInvites},
		{method: "POST", path: "/invites/multiuse", h: createInviteLink},
		{method: "DELETE", path: "/invites/{invite_id}", h: revokeInvite},
		{method: "POST", path: "/invites/{invite_id}/resend", h: resendInvite, overlaps: true},
		{method: "DELETE", path: "/invites/multiuse/{invite_id}", h: revokeInviteLink},
	}
}

// invitesAnswer is the body of GET /invites.
type invitesAnswer struct {
	Invites []realm.Invite `json:"invites"`
}

// inviteLinkAnswer is the body of POST /invites/multiuse.
type inviteLinkAnswer struct {
	InviteLink string `json:"invite_link"`
}

func listInvites(c *call) (any, error) {
	list, err := c.actor.Invites(c.ctx())
	if err != nil {
		return nil, err
	}
	return invitesAnswer{Invites: list}, nil
}

// inviteOptions reads the options both kinds of invitation take:
// invite_expires_in_minutes (JSON integer or null for never; Zulip's
// default when absent), invite_as, stream_ids, group_ids (null is none),
// include_realm_default_subscriptions and welcome_message_custom_text.
// streamsRequired is POST /invites's rule.
func inviteOptions(c *call, streamsRequired bool) (realm.InviteRequest, error) {
	req := realm.InviteRequest{}
	expiry := realm.DefaultInviteExpiryMinutes
	req.ExpiresInMinutes = &expiry
	if raw, ok := c.p.str("invite_expires_in_minutes"); ok && strings.TrimSpace(raw) == "null" {
		req.ExpiresInMinutes = nil
	} else if n, set, err := c.p.optInt("invite_expires_in_minutes"); err != nil {
		return req, err
	} else if set {
		req.ExpiresInMinutes = &n
	}
	role, set, err := c.p.optInt("invite_as")
	if err != nil {
		return req, err
	}
	if set {
		if role == 0 { // 0 is not a role; keep it from meaning "the default"
			return req, realm.BadRequest("Invalid invite_as")
		}
		req.InviteAs = user.Role(role)
	}
	streams, set, err := c.p.optIntList("stream_ids")
	if err != nil {
		if raw, _ := c.p.str("stream_ids"); streamsRequired || strings.TrimSpace(raw) != "null" {
			return req, err
		}
	} else if !set && streamsRequired {
		return req, realm.VariableMissing("stream_ids")
	}
	req.StreamIDs = streams
	if raw, ok := c.p.str("group_ids"); !ok || strings.TrimSpace(raw) != "null" {
		if req.GroupIDs, _, err = c.p.optIntList("group_ids"); err != nil {
			return req, err
		}
	}
	if req.IncludeRealmDefaultSubscriptions, err = c.p.optBool("include_realm_default_subscriptions", false); err != nil {
		return req, err
	}
	if v, ok := c.p.str("welcome_message_custom_text"); ok {
		req.WelcomeMessageCustomText = &v
	}
	return req, nil
}

// sendInvites is POST /invites: invitee_emails and stream_ids are
// required; notify_referrer_on_join defaults to true.
func sendInvites(c *call) (any, error) {
	emails, err := c.p.mustStr("invitee_emails")
	if err != nil {
		return nil, err
	}
	req, err := inviteOptions(c, true)
	if err != nil {
		return nil, err
	}
	req.InviteeEmails = emails
	if req.NotifyReferrerOnJoin, err = c.p.optBool("notify_referrer_on_join", true); err != nil {
		return nil, err
	}
	return nil, c.actor.SendInvites(c.ctx(), req)
}

func createInviteLink(c *call) (any, error) {
	req, err := inviteOptions(c, false)
	if err != nil {
		return nil, err
	}
	link, err := c.actor.CreateInviteLink(c.ctx(), req)
	if err != nil {
		return nil, err
	}
	return inviteLinkAnswer{InviteLink: link}, nil
}

func revokeInvite(c *call) (any, error) {
	id, err := c.pathInt("invite_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.RevokeInvite(c.ctx(), id)
}

func resendInvite(c *call) (any, error) {
	id, err := c.pathInt("invite_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.ResendInvite(c.ctx(), id)
}

func revokeInviteLink(c *call) (any, error) {
	id, err := c.pathInt("invite_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.RevokeInviteLink(c.ctx(), id)
}
