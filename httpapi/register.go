package httpapi

import (
	"encoding/json"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm"
)

func registerRoutes() []route {
	return []route{
		{method: "POST", path: "/register", h: register, spectators: true},
	}
}

func register(c *call) (any, error) {
	var req realm.RegisterRequest
	var err error
	q := &req.Queue
	if q.EventTypes, err = optNullableStringList(c, "event_types"); err != nil {
		return nil, err
	}
	if req.FetchEventTypes, err = optNullableStringList(c, "fetch_event_types"); err != nil {
		return nil, err
	}
	if raw, ok := c.p.str("narrow"); ok && raw != "" {
		terms, err := message.ParseNarrow(raw)
		if err != nil {
			return nil, realm.BadRequest("narrow is not a list")
		}
		q.Narrow = terms
	}
	if q.ApplyMarkdown, err = c.p.optBool("apply_markdown", false); err != nil {
		return nil, err
	}
	// client_gravatar defaults to whether the request is authenticated
	// (Zulip's events_register_backend).
	if q.ClientGravatar, err = c.p.optBool("client_gravatar", c.spectator == nil); err != nil {
		return nil, err
	}
	if q.AllPublicStreams, err = c.p.optBool("all_public_streams", false); err != nil {
		return nil, err
	}
	if q.SlimPresence, err = c.p.optBool("slim_presence", false); err != nil {
		return nil, err
	}
	if c.srv.realm.Has(realm.ChangePresenceHistoryLimit) {
		if req.PresenceHistoryLimitDays, err = optIntPtr(c, "presence_history_limit_days"); err != nil {
			return nil, err
		}
	}
	if req.IncludeSubscribers, req.PartialSubscribers, err = includeSubscribers(c); err != nil {
		return nil, err
	}
	if raw, ok := c.p.str("client_capabilities"); ok {
		if err := json.Unmarshal([]byte(raw), &q.Capabilities); err != nil {
			return nil, realm.BadRequest("client_capabilities is not a dict")
		}
	}
	if q.LifespanSecs, _, err = c.p.optInt("queue_lifespan_secs"); err != nil {
		return nil, err
	}
	if c.srv.realm.Has(realm.ChangeIdleQueueTimeout) {
		if raw, ok := c.p.str("idle_queue_timeout"); ok {
			if q.IdleTimeoutSecs, err = realm.ParseIdleQueueTimeout(raw); err != nil {
				return nil, err
			}
		}
	}
	if c.spectator != nil {
		ans, err := c.spectator.Register(c.ctx(), req)
		if err != nil {
			return nil, err
		}
		return ans.Wire(), nil
	}
	ans, err := c.actor.Register(c.ctx(), req)
	if err != nil {
		return nil, err
	}
	noteQueue(c.w, ans.QueueID)
	return ans.Wire(), nil
}

// optNullableStringList reads a JSON list of strings that may be null or
// absent (both mean "no filter").
func optNullableStringList(c *call, name string) ([]string, error) {
	raw, ok := c.p.str(name)
	if !ok || raw == "null" {
		return nil, nil
	}
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		if !json.Valid([]byte(raw)) {
			return nil, realm.BadRequest("Argument \"%s\" is not valid JSON.", name)
		}
		return nil, realm.BadRequest("%s is not a list", name)
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}
