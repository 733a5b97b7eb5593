package httpapi

import "net/url"

// count is the number of messages email can fetch (newest 5000).
func (e *msgEnv) count(email string) int {
	e.t.Helper()
	status, body := e.do(email, "GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {"5000"}, "num_after": {"0"}})
	e.wantSuccess(status, body)
	return len(body["messages"].([]any))
}
