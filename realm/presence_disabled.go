package realm

// A realm with presence turned off (Settings.PresenceDisabled, Zulip's
// Realm.presence_disabled) behaves as Zulip's does:
//
//   - register's realm_presence_disabled is true (zerver/lib/events.py);
//   - POST /users/me/presence, GET /realm/presence and register's
//     presences list nobody, with presence_last_update_id -1
//     (zerver/lib/presence.py get_presences_for_realm);
//   - reports are still recorded, but a user's first presence or coming
//     back online is not announced; only a forced update (turning
//     presence_enabled on or off) still sends a presence event
//     (zerver/actions/presence.py do_update_user_presence);
//   - GET /users/{user_id_or_email}/presence still answers one user's
//     presence (zerver/views/presence.py get_presence_backend does not
//     look at the setting).
//
// Zulip offers no API to change it; here it is a realm setting set in
// Go (realm.WithSettings) or in a fixture's settings.presence_disabled.

// disabledPresenceResult is a presence answer of a realm with presence
// off: no presences, and -1 as the last update ID.
func disabledPresenceResult(empty Presences, ts float64) PresenceResult {
	none := -1
	return PresenceResult{Presences: &empty, ServerTimestamp: &ts, PresenceLastUpdateID: &none}
}
