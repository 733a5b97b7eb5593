package realm

import (
	"cmp"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/upload"
)

// The realm's plan, as Zulip's Realm.plan_type has it: self-hosted (the
// default, no limits but the server's), or one of Zulip Cloud's plans,
// which bound uploads (the size of one file from feature level 306, the
// total of the attachments at every level) and a few settings. No API
// changes it: Zulip's billing does (do_change_realm_plan_type), here
// SetPlanType, the control API's POST /minizulip/plan_type, WithPlanType
// or a fixture.

// PlanType is a realm's plan_type.
type PlanType int

// Zulip's plan types (zerver/models/realms.py).
const (
	PlanTypeSelfHosted   PlanType = 1  // a self-hosted server
	PlanTypeLimited      PlanType = 2  // Zulip Cloud Free
	PlanTypeStandard     PlanType = 3  // Zulip Cloud Standard
	PlanTypeStandardFree PlanType = 4  // Zulip Cloud Standard, sponsored
	PlanTypePlus         PlanType = 10 // Zulip Cloud Plus
)

// Valid reports whether p is one of Zulip's plan types.
func (p PlanType) Valid() bool {
	switch p {
	case PlanTypeSelfHosted, PlanTypeLimited, PlanTypeStandard, PlanTypeStandardFree, PlanTypePlus:
		return true
	}
	return false
}

// paid reports the plans whose limits scale with the organization
// (Standard and Plus).
func (p PlanType) paid() bool { return p == PlanTypeStandard || p == PlanTypePlus }

// WithPlanType starts the realm on plan p (PlanTypeSelfHosted unless
// said); an invalid p is ignored.
func WithPlanType(p PlanType) Option {
	return func(o *Options) {
		if p.Valid() {
			o.PlanType = p
		}
	}
}

// Zulip Cloud's upload quotas (Realm.UPLOAD_QUOTA_*, in GiB, as Zulip
// applies its "GB"), and a paid plan's per seat (UPLOAD_QUOTA_PER_USER_GB).
const (
	uploadQuotaLimitedGiB      = 5
	uploadQuotaStandardFreeGiB = 50
	uploadQuotaPerSeatGiB      = 5
	// maxFileUploadLimitedMiB and maxFileUploadPaidMiB bound one file on
	// Zulip Cloud's free and other plans (below the server's limit).
	maxFileUploadLimitedMiB = 10
	maxFileUploadPaidMiB    = 1024
	// invitesPaidDailyMax is Realm.INVITES_STANDARD_REALM_DAILY_MAX.
	invitesPaidDailyMax = 3000
)

// startPlan puts the realm on plan p with the plan's daily invitation
// limit, as Zulip's do_create_realm does, and no spectator access on the
// Free plan, which has none.
func (s *Settings) startPlan(p PlanType) {
	s.PlanType, s.MaxInvites = p, planMaxInvites(p)
	if p == PlanTypeLimited {
		s.EnableSpectatorAccess = false
	}
}

// planMaxInvites is the daily invitation limit a realm on plan p gets
// (get_default_max_invites_for_realm_plan_type).
func planMaxInvites(p PlanType) int {
	if p == PlanTypeStandard || p == PlanTypeStandardFree || p == PlanTypePlus {
		return invitesPaidDailyMax
	}
	return DefaultMaxInvites
}

// planType is the realm's plan (self-hosted when unset).
func (s *Settings) planType() PlanType { return cmp.Or(s.PlanType, PlanTypeSelfHosted) }

// seatCount is what Zulip bills an organization for: its active human
// non-guests, with five guests to a seat when guests are the most
// (corporate's get_seat_count).
func (r *Realm) seatCount() int {
	nonGuests, guests := 0, 0
	for _, u := range r.users.byID {
		switch {
		case !u.IsActive || u.IsBot() || u.IsSystemBot:
		case u.IsGuest():
			guests++
		default:
			nonGuests++
		}
	}
	return max(nonGuests, (guests+4)/5)
}

// uploadQuotaBytes is the total bytes the realm's attachments may take,
// nil for none (Realm.upload_quota_bytes): a self-hosted server has no
// quota; Zulip Cloud's Free plan 5 GiB, a sponsored one 50 GiB, a paid
// one 5 GiB a seat and at least 50.
func (r *Realm) uploadQuotaBytes() *int64 {
	var gib int
	switch p := r.settings.planType(); {
	case p == PlanTypeLimited:
		gib = uploadQuotaLimitedGiB
	case p == PlanTypeStandardFree:
		gib = uploadQuotaStandardFreeGiB
	case p.paid():
		gib = max(r.seatCount()*uploadQuotaPerSeatGiB, uploadQuotaStandardFreeGiB)
	default:
		return nil
	}
	return ptr(int64(gib) << 30)
}

// uploadQuotaMiB is uploadQuotaBytes in MiB (Zulip's
// optional_bytes_to_mib), nil for none.
func (r *Realm) uploadQuotaMiB() *int {
	if b := r.uploadQuotaBytes(); b != nil {
		return ptr(int(*b / upload.MiB))
	}
	return nil
}

// registerUploadQuota is register's realm_upload_quota_mib: in MiB from
// feature level 251, in bytes (as Zulip sent it by mistake) below.
func (r *Realm) registerUploadQuota() *int64 {
	b := r.uploadQuotaBytes()
	if b == nil || !r.has(changeUploadQuotaMiB) {
		return b
	}
	return ptr(*b / upload.MiB)
}

// maxFileUploadSizeMiB is the largest file the realm takes, in MiB: the
// server's limit (Limits.MaxFileUploadSizeMiB) on a self-hosted plan
// and at every plan below feature level 306, where it was a constant;
// from 306 Zulip Cloud's Free plan takes 10 MiB at most, its others
// 1024 (Realm.get_max_file_upload_size_mebibytes).
func (r *Realm) maxFileUploadSizeMiB() int {
	server := r.opts.Limits.MaxFileUploadSizeMiB
	if !r.has(changePlanUpdateDict) {
		return server
	}
	switch p := r.settings.planType(); {
	case p == PlanTypeLimited:
		return min(maxFileUploadLimitedMiB, server)
	case p == PlanTypeStandardFree || p.paid():
		return min(maxFileUploadPaidMiB, server)
	}
	return server
}

// checkUploadQuota refuses size more bytes of attachments when the
// realm's quota has no room for them (check_upload_within_quota), with
// Zulip's REALM_UPLOAD_QUOTA error and status.
func (r *Realm) checkUploadQuota(size int64, status int) error {
	if q := r.uploadQuotaBytes(); q != nil && r.files.spaceUsed+size > *q {
		return uploadQuotaExceeded(status)
	}
	return nil
}

// PlanType is the realm's plan.
func (r *Realm) PlanType() PlanType {
	r.readLock()
	defer r.readUnlock()
	return r.settings.planType()
}

// SetPlanType moves the realm to plan p as Zulip's billing does
// (do_change_realm_plan_type): the Free plan turns spectator access off;
// leaving self-hosted or Plus for another plan gives
// can_access_all_users_group back to role:everyone; the daily invitation
// limit becomes the plan's (3000 on Standard and Plus, sponsored or not;
// DefaultMaxInvites otherwise). Every active user is told of each
// setting that changed, then of the plan: from feature level 306 a realm
// update_dict of plan_type, upload_quota_mib and max_file_upload_size_mib;
// below, a realm update of plan_type with extra_data's upload_quota in
// bytes. A plan that is already the realm's changes nothing.
func (r *Realm) SetPlanType(p PlanType) error {
	if !p.Valid() {
		return BadRequest("Invalid plan_type: %d (1 self-hosted, 2 limited, 3 standard, 4 standard free, 10 plus)", p)
	}
	return r.update(func() error {
		s := &r.settings
		old := s.planType()
		if old == p {
			return nil
		}
		before := s.apiValues()
		if p == PlanTypeLimited {
			s.EnableSpectatorAccess = false
		}
		unrestricted := func(p PlanType) bool { return p == PlanTypePlus || p == PlanTypeSelfHosted }
		if unrestricted(old) && !unrestricted(p) {
			if g := r.groups.byName[group.Everyone]; g != nil {
				s.CanAccessAllUsersGroup = group.Named(g.ID)
			}
		}
		r.emitSettingsChange(before)
		s.startPlan(p)
		r.emitPlanType()
		return nil
	})
}

// emitPlanType tells every active user of the realm's plan and the
// upload limits that come with it, in the form of the realm's level.
func (r *Realm) emitPlanType() {
	to := r.activeUserIDs()
	p := r.settings.planType()
	if r.has(changePlanUpdateDict) {
		data := map[string]any{"plan_type": int(p), "upload_quota_mib": r.uploadQuotaMiB(), "max_file_upload_size_mib": r.maxFileUploadSizeMiB()}
		r.emit("realm", RealmUpdateDictEvent{Op: "update_dict", Property: "default", Data: data}, to...)
		return
	}
	r.emit("realm", RealmPlanTypeEvent{Op: "update", Property: "plan_type", Value: int(p),
		ExtraData: PlanExtraData{UploadQuota: r.uploadQuotaBytes()}}, to...)
}

// RealmPlanTypeEvent is the realm update event of a plan change below
// feature level 306, which also carries the upload quota in bytes.
type RealmPlanTypeEvent struct {
	Op        string        `json:"op"`
	Property  string        `json:"property"`
	Value     int           `json:"value"`
	ExtraData PlanExtraData `json:"extra_data"`
}

// PlanExtraData is a plan change's extra_data: the upload quota in
// bytes, null for none.
type PlanExtraData struct {
	UploadQuota *int64 `json:"upload_quota"`
}

// needsStandard is Zulip's refusal of what its Free plan lacks.
const needsStandard = "Available on Zulip Cloud Standard. Upgrade to access."

// ensureNotOnLimitedPlan refuses what Zulip Cloud's Free plan lacks
// (message retention, spectator access), as Realm.ensure_not_on_limited_plan.
func (r *Realm) ensureNotOnLimitedPlan() error {
	if r.settings.planType() == PlanTypeLimited {
		return BadRequest(needsStandard)
	}
	return nil
}

// checkPlanAllowsRealmUpdate applies the plan to a PATCH /realm, after
// the role checks as Zulip's update_realm does: turning spectator access
// on needs a plan other than Free, and can_access_all_users_group may be
// set on a self-hosted or Plus plan only
// (can_enable_restricted_user_access_for_guests).
func (r *Realm) checkPlanAllowsRealmUpdate(req RealmUpdate) error {
	if v := req.EnableSpectatorAccess; v != nil && *v {
		if err := r.ensureNotOnLimitedPlan(); err != nil {
			return err
		}
	}
	if _, ok := req.GroupSettings["can_access_all_users_group"]; ok {
		if p := r.settings.planType(); p != PlanTypePlus && p != PlanTypeSelfHosted {
			return BadRequest("Available on Zulip Cloud Plus. Upgrade to access.")
		}
	}
	return nil
}
