package realm

// RestartEvent is the restart event a Zulip server's queues get when its
// event server restarts (after an upgrade, say): the server's version
// and feature level after the restart, and when it started. Zulip keeps
// event queues across a restart, so clients go on polling the same one.
type RestartEvent struct {
	ZulipVersion      string `json:"zulip_version"`
	ZulipMergeBase    string `json:"zulip_merge_base"`
	ZulipFeatureLevel int    `json:"zulip_feature_level"`
	ServerGeneration  int64  `json:"server_generation"`
}

// AnnounceRestart behaves as a Zulip server whose event server has just
// restarted: every live queue gets a restart event, and from now on the
// server_generation of register answers is the time of the restart. It
// returns how many queues were told (those registered for restart events). Nothing else changes: the realm's
// state, its queues and the advertised feature level stay as they were.
//
// Before feature level 240 a restart event could carry `immediate`, but
// only a development server's autoreload set it; a production restart,
// which this is, never did, so the event has one shape at every level.
func (r *Realm) AnnounceRestart() int {
	told := 0
	_ = r.exclusive(func() error {
		now := r.clock.Now()
		r.startedAt = now
		ev := RestartEvent{ZulipVersion: r.opts.Version, ZulipMergeBase: mergeBase(r.opts.Version),
			ZulipFeatureLevel: r.opts.FeatureLevel, ServerGeneration: now.Unix()}
		c := &change{typ: "restart", payload: ev}
		r.events.PublishAll(c.typ, func(*Queue) (queued, bool) {
			told++
			return queued{c: c}, true
		})
		return nil
	})
	return told
}

// serverGeneration is the register answers' server_generation: when the
// server (last) started, in Unix seconds.
func (r *Realm) serverGeneration() int64 {
	if r.startedAt.IsZero() {
		return r.createdAt.Unix()
	}
	return r.startedAt.Unix()
}
