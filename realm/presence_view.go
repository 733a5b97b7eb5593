package realm

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/minizulip/minizulip/user"
)

// ModernPresence is one user's presence in the modern format: when a
// client last reported the user active, and last reported them at all.
type ModernPresence struct {
	ActiveTimestamp int64 `json:"active_timestamp"`
	IdleTimestamp   int64 `json:"idle_timestamp"`
}

// LegacyClientPresence is one entry of the legacy presence format: the
// client name (always "website"), active or idle, and the time of that
// status. Pushable is set (false) only on the per-client entry.
type LegacyClientPresence struct {
	Client    string `json:"client,omitempty"`
	Status    string `json:"status"`
	Timestamp int64  `json:"timestamp"`
	Pushable  *bool  `json:"pushable,omitempty"`
}

// LegacyPresence is one user's presence in the legacy format: the
// "website" entry and the same data as "aggregated".
type LegacyPresence map[string]LegacyClientPresence

// Presences is the presence of many users in one of the two formats:
// Modern keyed by user ID, or Legacy keyed by API email. It encodes as
// whichever is set (an empty object when neither is).
type Presences struct {
	Modern map[string]ModernPresence
	Legacy map[string]LegacyPresence
}

// MarshalJSON encodes the format that is set.
func (p Presences) MarshalJSON() ([]byte, error) {
	switch {
	case p.Legacy != nil:
		return json.Marshal(p.Legacy)
	case p.Modern != nil:
		return json.Marshal(p.Modern)
	}
	return []byte("{}"), nil
}

// presenceTimes are a presence's two times in UNIX seconds; a user never
// reported active reads as active when they joined, as in Zulip.
func presenceTimes(u *user.User, rec *presenceRecord) (active, connected int64) {
	active, connected = u.DateJoined, u.DateJoined
	if !rec.lastActive.IsZero() {
		active = rec.lastActive.Unix()
	}
	if !rec.lastConnected.IsZero() {
		connected = rec.lastConnected.Unix()
	}
	return active, connected
}

// modernPresence is u's presence in the modern format.
func modernPresence(u *user.User, rec *presenceRecord) ModernPresence {
	active, connected := presenceTimes(u, rec)
	return ModernPresence{ActiveTimestamp: active, IdleTimestamp: connected}
}

// presenceLegacyActiveOffset: the legacy format calls a user active when
// the last active report is at most this much older than the last report.
const presenceLegacyActiveOffset = 70

// legacyPresence is u's "website" entry in the legacy format.
func (r *Realm) legacyPresence(u *user.User, rec *presenceRecord) LegacyClientPresence {
	active, connected := presenceTimes(u, rec)
	pushable := false
	if active+presenceLegacyActiveOffset >= connected {
		return LegacyClientPresence{Client: "website", Status: PresenceActive, Timestamp: active, Pushable: &pushable}
	}
	return LegacyClientPresence{Client: "website", Status: PresenceIdle, Timestamp: connected, Pushable: &pushable}
}

// legacyUserPresence is u's presence with its two legacy keys.
func (r *Realm) legacyUserPresence(u *user.User, rec *presenceRecord) LegacyPresence {
	p := r.legacyPresence(u, rec)
	return LegacyPresence{"website": p,
		"aggregated": {Client: p.Client, Status: p.Status, Timestamp: p.Timestamp}}
}

// presenceResult collects the presence of the realm's active humans: with
// lastUpdateID, only the presences changed after it; unless lastUpdateID
// is positive, only those reported within historyDays (default 14). The
// last update ID is the newest one sent, or lastUpdateID (-1 when nil)
// when none is.
func (r *Realm) presenceResult(modern bool, lastUpdateID, historyDays *int) PresenceResult {
	now := r.clock.Now()
	days := defaultPresenceHistoryDays
	if historyDays != nil {
		days = *historyDays
	}
	since := now.Add(-time.Duration(days) * 24 * time.Hour)
	limitHistory := lastUpdateID == nil || *lastUpdateID <= 0
	newest := -1
	if lastUpdateID != nil {
		newest = *lastUpdateID
	}
	var out Presences
	if modern {
		out.Modern = map[string]ModernPresence{}
	} else {
		out.Legacy = map[string]LegacyPresence{}
	}
	ts := serverTimestamp(now)
	if r.settings.PresenceDisabled {
		return disabledPresenceResult(out, ts)
	}
	for id, rec := range r.presence.byUser {
		if lastUpdateID != nil && rec.updateID <= *lastUpdateID {
			continue
		}
		if limitHistory && rec.lastConnected.Before(since) {
			continue
		}
		u := r.realmUser(id)
		if u == nil || !u.IsActive || u.IsBot() {
			continue
		}
		newest = max(newest, rec.updateID)
		if modern {
			out.Modern[strconv.Itoa(id)] = modernPresence(u, rec)
		} else {
			out.Legacy[r.apiEmail(u)] = r.legacyUserPresence(u, rec)
		}
	}
	return PresenceResult{Presences: &out, ServerTimestamp: &ts, PresenceLastUpdateID: &newest}
}

// serverTimestamp is a time as the API's server_timestamp: fractional
// UNIX seconds.
func serverTimestamp(t time.Time) float64 {
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

// PresenceState is the presence section of POST /register: presences in
// the format slim_presence chose, when they were fetched, and (feature
// level 263) the newest update they include.
type PresenceState struct {
	Presences            Presences `json:"presences"`
	ServerTimestamp      float64   `json:"server_timestamp"`
	PresenceLastUpdateID *int      `json:"presence_last_update_id,omitempty"`
}
