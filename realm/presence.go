package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// Zulip's presence timings. Clients ping every PresencePingIntervalSeconds
// and show a user offline PresenceOfflineThresholdSeconds after their last
// presence; register advertises both.
const (
	PresencePingIntervalSeconds     = 60
	PresenceOfflineThresholdSeconds = 200
	// presenceUpdateMinFreq: a presence is rewritten at most this often, so
	// several open clients do not each move it.
	presenceUpdateMinFreq = 55 * time.Second
	// presenceComeBackAfter: an active ping this long after the last one
	// means the user came back online, which is announced at once.
	presenceComeBackAfter = (PresenceOfflineThresholdSeconds - PresencePingIntervalSeconds - 10) * time.Second
	// presenceDisabledAge: turning presence_enabled off leaves a presence
	// this old, so the user reads as offline from then on.
	presenceDisabledAge = (PresenceOfflineThresholdSeconds + 120) * time.Second
	// defaultPresenceHistoryDays: presence older than this is not sent
	// unless the client asks for more.
	defaultPresenceHistoryDays = 14
)

// The two presence statuses a client reports.
const (
	PresenceActive = "active"
	PresenceIdle   = "idle"
)

// presenceRecord is one user's presence: when a client last reported the
// user active, and last reported them at all (zero: never), and the
// realm-wide update counter's value at its last change.
type presenceRecord struct {
	lastActive    time.Time
	lastConnected time.Time
	updateID      int
}

// presenceTable holds the users' presence and numbers its changes.
type presenceTable struct {
	byUser       map[int]*presenceRecord // each user's presence, once reported
	lastUpdateID int                     // the last change's number (the API's last_update_id)
}

func (t *presenceTable) clone() presenceTable {
	return presenceTable{byUser: clonePointerMap(t.byUser), lastUpdateID: t.lastUpdateID}
}

// PresenceRequest is POST /users/me/presence.
type PresenceRequest struct {
	// Status is PresenceActive or PresenceIdle.
	Status string
	// PingOnly updates the caller's presence without fetching anyone's.
	PingOnly bool
	// NewUserInput says the user interacted since the last ping (Zulip
	// uses it for statistics only).
	NewUserInput bool
	// SlimPresence asks for the modern format (deprecated).
	SlimPresence bool
	// LastUpdateID fetches only presence changed after it, in the modern
	// format (feature level 263); nil when not sent.
	LastUpdateID *int
	// HistoryLimitDays bounds how old a fetched presence may be (feature
	// level 288); nil means 14 days.
	HistoryLimitDays *int
}

// PresenceResult is the answer of POST /users/me/presence and GET
// /realm/presence; every field is nil for a ping_only request.
type PresenceResult struct {
	Presences       *Presences `json:"presences,omitempty"`
	ServerTimestamp *float64   `json:"server_timestamp,omitempty"`
	// PresenceLastUpdateID is the newest update sent, for the next
	// last_update_id (feature level 263).
	PresenceLastUpdateID *int `json:"presence_last_update_id,omitempty"`
}

// UpdatePresence answers POST /users/me/presence: it records the caller's
// presence (unless the caller turned presence_enabled off) and, unless
// PingOnly, returns the realm's presence.
func (a *Actor) UpdatePresence(ctx context.Context, req PresenceRequest) (ans PresenceResult, err error) {
	r := a.r
	err = a.logged("presence", req).write(ctx, func(me *user.User) error {
		if me.IsBot() {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		if req.Status != PresenceActive && req.Status != PresenceIdle {
			return BadRequest("Invalid status: %s", req.Status)
		}
		if me.Settings.PresenceEnabled {
			r.recordPresence(me, r.clock.Now(), req.Status == PresenceActive, false)
		}
		if req.PingOnly {
			return nil
		}
		modern := req.SlimPresence || req.LastUpdateID != nil
		ans = r.presenceResult(modern, req.LastUpdateID, req.HistoryLimitDays)
		if !r.has(ChangePresenceLastUpdateID) {
			ans.PresenceLastUpdateID = nil
		}
		return nil
	})
	return ans, err
}

// RealmPresence answers GET /realm/presence: every recent presence, in
// the legacy format.
func (a *Actor) RealmPresence(ctx context.Context) (ans PresenceResult, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		ans = r.presenceResult(false, nil, nil)
		ans.PresenceLastUpdateID = nil
		return nil
	})
	return ans, err
}

// UserPresence answers GET /users/{user_id_or_email}/presence: one
// active human's presence in the legacy format, reduced to status and
// timestamp, with the aggregated status "offline" once the presence is
// older than the offline threshold.
func (a *Actor) UserPresence(ctx context.Context, userIDOrEmail string) (ans map[string]LegacyClientPresence, err error) {
	r := a.r
	err = a.read(ctx, func(me *user.User) error {
		var u *user.User
		if id, convErr := strconv.Atoi(userIDOrEmail); convErr == nil {
			u = r.realmUser(id)
		} else {
			u = r.userByEmailFor(me, userIDOrEmail)
		}
		if u == nil || !u.IsActive {
			return noSuchUser()
		}
		if u.IsBot() {
			return BadRequest("Presence is not supported for bot users.")
		}
		rec := r.presence.byUser[u.ID]
		if rec == nil {
			return BadRequest("No presence data for %s", userIDOrEmail)
		}
		p := r.legacyPresence(u, rec)
		agg := LegacyClientPresence{Status: p.Status, Timestamp: p.Timestamp}
		if r.clock.Now().Unix()-p.Timestamp > PresenceOfflineThresholdSeconds {
			agg.Status = "offline"
		}
		ans = map[string]LegacyClientPresence{
			"website":    {Status: p.Status, Timestamp: p.Timestamp},
			"aggregated": agg,
		}
		return nil
	})
	return ans, err
}

// recordPresence applies one presence report of u at time at, as Zulip
// does: a new presence is stored as reported; an existing one moves only
// when the last report is over a minute old. The realm hears at once
// (a presence event) of a user's first presence, of a user coming back
// online after missing pings, and of every forced update. The caller holds
// the write lock.
func (r *Realm) recordPresence(u *user.User, at time.Time, active, force bool) {
	rec := r.presence.byUser[u.ID]
	created := rec == nil
	if created {
		rec = &presenceRecord{lastConnected: at}
		if active {
			rec.lastActive = at
		}
		if r.presence.byUser == nil {
			r.presence.byUser = map[int]*presenceRecord{}
		}
		r.presence.byUser[u.ID] = rec
	}
	sinceActive, sinceConnected := 24*time.Hour, 24*time.Hour
	if !rec.lastActive.IsZero() {
		sinceActive = at.Sub(rec.lastActive)
	}
	if !rec.lastConnected.IsZero() {
		sinceConnected = at.Sub(rec.lastConnected)
	}
	cameOnline := active && sinceActive > presenceComeBackAfter
	changed := created
	if !created && sinceConnected > presenceUpdateMinFreq {
		rec.lastConnected = at
		changed = true
	}
	if !created && active && sinceActive > presenceUpdateMinFreq {
		rec.lastActive = at
		if at.After(rec.lastConnected) {
			rec.lastConnected = at
		}
		changed = true
	}
	if changed {
		r.presence.lastUpdateID++
		rec.updateID = r.presence.lastUpdateID
	}
	if force || (!r.settings.PresenceDisabled && (created || cameOnline)) {
		r.emitPresence(u, rec)
	}
}

// setPresenceEnabled changes u's presence_enabled setting, tells u's
// clients, and shows the realm the user's presence as the setting now
// makes it: online at once when turned on, offline (a presence a few
// minutes older than the offline threshold) when turned off.
func (r *Realm) setPresenceEnabled(u *user.User, enabled bool) {
	u.Settings.PresenceEnabled = enabled
	def, _ := user.LookupSetting("presence_enabled")
	r.emitSettingEvent(u, def, enabled)
	now := r.clock.Now()
	if enabled {
		r.recordPresence(u, now, true, true)
		return
	}
	delete(r.presence.byUser, u.ID)
	r.recordPresence(u, now.Add(-presenceDisabledAge), false, true)
}

// dump adds the users' presence to f, in update order.
func (t *presenceTable) dump(r *Realm, f *fixture.Document) error {
	recs := slices.SortedFunc(maps.Keys(t.byUser), func(a, b int) int {
		return t.byUser[a].updateID - t.byUser[b].updateID
	})
	for _, uid := range recs {
		rec := t.byUser[uid]
		fp := fixture.Presence{UserID: uid, IdleTimestamp: rec.lastConnected.Unix()}
		if !rec.lastActive.IsZero() {
			fp.ActiveTimestamp = rec.lastActive.Unix()
		}
		f.Presence = append(f.Presence, fp)
	}
	return nil
}

// load checks each presence of f: a human user listed once, a last
// report, and a last active report no later than it. The updates are
// numbered in the order listed. The realm's seeded presence
// (WithSeededPresence) is not made: the document's is the realm's.
func (t *presenceTable) load(r *Realm, f *fixture.Document) error {
	for i, fp := range f.Presence {
		at := fmt.Sprintf("presence[%d]", i)
		u, err := r.fixtureHuman(at, fp.UserID)
		if err != nil {
			return err
		}
		if t.byUser[u.ID] != nil {
			return badItem(at+".user_id", "user %d has another presence", u.ID)
		}
		if fp.IdleTimestamp <= 0 {
			return badItem(at+".idle_timestamp", "%d is not a time", fp.IdleTimestamp)
		}
		if fp.ActiveTimestamp < 0 || fp.ActiveTimestamp > fp.IdleTimestamp {
			return badItem(at+".active_timestamp", "%d is not a time at or before idle_timestamp %d", fp.ActiveTimestamp, fp.IdleTimestamp)
		}
		rec := &presenceRecord{lastConnected: time.Unix(fp.IdleTimestamp, 0), updateID: i + 1}
		if fp.ActiveTimestamp > 0 {
			rec.lastActive = time.Unix(fp.ActiveTimestamp, 0)
		}
		if t.byUser == nil {
			t.byUser = map[int]*presenceRecord{}
		}
		t.byUser[u.ID] = rec
	}
	t.lastUpdateID = len(f.Presence)
	return nil
}

// register fills the presence section.
func (t *presenceTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if !req.fetches("presence") {
		return
	}
	days := req.PresenceHistoryLimitDays
	if !r.has(ChangePresenceHistoryLimit) {
		days = nil
	}
	res := r.presenceResult(req.Queue.SlimPresence, nil, days)
	state := &PresenceState{Presences: *res.Presences, ServerTimestamp: *res.ServerTimestamp}
	if r.has(ChangePresenceLastUpdateID) {
		state.PresenceLastUpdateID = res.PresenceLastUpdateID
	}
	out.PresenceState = state
}

// seedPresence gives every human of the dev realm a presence, active at
// the realm's creation, as Zulip's development database has one for each
// user: clients that list presences find them filled.
func (r *Realm) seedPresence() {
	for _, id := range r.activeUserIDs() {
		if u := r.users.byID[id]; !u.IsBot() {
			r.recordPresence(u, r.createdAt, true, true)
		}
	}
}
