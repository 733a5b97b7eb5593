package realm

// The feature levels at which behaviour the realm reproduces changed in
// Zulip. A realm advertising a lower level (WithFeatureLevel) behaves as
// servers of that level did.
const (
	// realmURLFeatureLevel: realm_url is sent next to the deprecated
	// realm_uri (Zulip 9.0).
	realmURLFeatureLevel = 257
	// subscribersKeyedByIDLevel: subscription results are keyed by user ID
	// rather than by API email.
	subscribersKeyedByIDLevel = 289
	// deactivatedGroupSubgroupsLevel: a deactivated group's subgroups may
	// be changed.
	deactivatedGroupSubgroupsLevel = 391
	// newSubscriptionMessagesLevel: send_new_subscription_messages and
	// new_subscription_messages_sent.
	newSubscriptionMessagesLevel = 397
	// botMembershipLookupLevel: bots may be looked up as group members.
	botMembershipLookupLevel = 458
	// botGroupRequestsLevel: bots may use the group membership endpoints.
	botGroupRequestsLevel = 496
)
