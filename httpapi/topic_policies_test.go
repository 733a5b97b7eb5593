package httpapi

import (
	"net/url"
	"testing"
)

func TestHTTPUserTopicsAndMutedTopics(t *testing.T) {
	e := newMsgEnv(t)
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["user_topic","muted_topics"]`}})
	// Muting works even for a topic with no messages, and repeats succeed.
	for i := 0; i < 2; i++ {
		status, body := e.do("hamlet@zulip.com", "PATCH", "/users/me/subscriptions/muted_topics",
			url.Values{"stream": {"Denmark"}, "topic": {"quiet"}, "op": {"add"}})
		e.wantSuccess(status, body)
	}
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 1 || evs[0].(map[string]any)["visibility_policy"] != float64(1) {
		t.Fatalf("one event for one change (user_topic asked, so no muted_topics): %v", evs)
	}
	_, body := e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["user_topic"]`}})
	if ut := body["user_topics"].([]any); len(ut) != 1 || ut[0].(map[string]any)["topic_name"] != "quiet" {
		t.Fatalf("user_topics state %v", body["user_topics"])
	}
	status, body := e.do("hamlet@zulip.com", "POST", "/user_topics", url.Values{"stream_id": {"2"}, "topic": {"Quiet"}, "visibility_policy": {"3"}})
	e.wantSuccess(status, body)
	_, body = e.register("hamlet@zulip.com", url.Values{"fetch_event_types": {`["user_topic"]`}})
	if ut := body["user_topics"].([]any); len(ut) != 1 || ut[0].(map[string]any)["visibility_policy"] != float64(3) {
		t.Fatalf("topics match case-insensitively: %v", body["user_topics"])
	}
	cases := []struct {
		form      url.Values
		code, msg string
	}{
		{url.Values{"stream": {"Denmark"}, "stream_id": {"2"}, "topic": {"x"}, "op": {"add"}}, "BAD_REQUEST", "Please choose one: 'stream' or 'stream_id'."},
		{url.Values{"topic": {"x"}, "op": {"add"}}, "BAD_REQUEST", "Missing 'stream_id' argument"},
		{url.Values{"stream_id": {"2"}, "topic": {"x"}, "op": {"mute"}}, "BAD_REQUEST", "Invalid op"},
		{url.Values{"stream_id": {"6"}, "topic": {"x"}, "op": {"add"}}, "BAD_REQUEST", "Invalid channel ID"},
		{url.Values{"stream_id": {"2"}, "op": {"add"}}, "REQUEST_VARIABLE_MISSING", "Missing 'topic' argument"},
	}
	for _, c := range cases {
		status, body := e.do("othello@zulip.com", "PATCH", "/users/me/subscriptions/muted_topics", c.form)
		e.wantError(status, body, 400, c.code, c.msg)
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/user_topics", url.Values{"stream_id": {"2"}, "topic": {"x"}, "visibility_policy": {"7"}})
	e.wantError(status, body, 400, "BAD_REQUEST", "Invalid visibility_policy")
}
