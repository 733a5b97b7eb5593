package realm

// RealmBillingState is the realm_billing section of POST /register
// (feature level 363; the field gate leaves it out below).
type RealmBillingState struct {
	RealmBilling RealmBilling `json:"realm_billing"`
}

// RealmBilling is the organization's billing information as Zulip sends
// it to every user who asks: a fake has no plans and no sponsorship
// requests, so HasPendingSponsorshipRequest is always false (as Zulip's
// is for users outside can_manage_billing_group).
type RealmBilling struct {
	HasPendingSponsorshipRequest bool `json:"has_pending_sponsorship_request"`
}
