package realm

import (
	"encoding/json"
	"strings"
	"time"
)

// MobileQueueLifespan is what register's idle_queue_timeout "mobile"
// asks for: Zulip's MOBILE_EVENT_QUEUE_TIMEOUT_SECS, 12 hours.
const MobileQueueLifespan = 12 * time.Hour

// ParseIdleQueueTimeout reads register's idle_queue_timeout: a number of
// seconds or "mobile", JSON-encoded (zulip-flutter sends 3600 or
// "mobile" with its quotes) or bare (mobile). A value past 7 days is
// capped there when the queue is made; zero or less, or anything else,
// is refused.
func ParseIdleQueueTimeout(raw string) (int, error) {
	s := strings.TrimSpace(raw)
	var name string
	if s == "mobile" || json.Unmarshal([]byte(s), &name) == nil && name == "mobile" {
		return int(MobileQueueLifespan / time.Second), nil
	}
	var n json.Number
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&n); err == nil && !d.More() {
		if v, err := n.Int64(); err == nil && v > 0 {
			return int(min(v, int64(MaxQueueLifespan/time.Second))), nil
		}
	}
	return 0, BadRequest("idle_queue_timeout is not a positive integer or \"mobile\"")
}

// queueLifespan is how long a queue with these options lives idle.
func queueLifespan(opts QueueOptions) time.Duration {
	secs := opts.LifespanSecs
	if opts.IdleTimeoutSecs > 0 {
		secs = opts.IdleTimeoutSecs
	}
	if secs <= 0 {
		return DefaultQueueLifespan
	}
	return min(time.Duration(secs)*time.Second, MaxQueueLifespan)
}
