package httpapi

import (
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mutedOf is register's muted_users for email.
func (e *msgEnv) mutedOf(email string) []any {
	e.t.Helper()
	_, reg := e.register(email, url.Values{"fetch_event_types": {`["muted_users"]`}})
	return reg["muted_users"].([]any)
}

// Muting a user marks their unread messages to the muter read (with an
// update_message_flags event), makes their next messages arrive read, and
// lists them, with when, in register and in a muted_users event to the
// muter only; unmuting stops it.
func TestHTTPMuteUser(t *testing.T) {
	e := newMsgEnv(t)
	othello := strconv.Itoa(e.userID("othello@zulip.com"))
	before := e.sendTo("othello@zulip.com", "Denmark", "t", "unread before muting")
	other := e.sendTo("iago@zulip.com", "Denmark", "t", "from iago")
	qid, _ := e.register("hamlet@zulip.com", url.Values{"event_types": {`["muted_users", "update_message_flags"]`}})
	oq, _ := e.register("othello@zulip.com", url.Values{"event_types": {`["muted_users"]`}})
	status, body := e.do("hamlet@zulip.com", "POST", "/users/me/muted_users/"+othello, nil)
	e.wantSuccess(status, body)

	entry := map[string]any{"id": jsonFloat(othello), "timestamp": float64(e.clock.Now().Unix())}
	if diff := cmp.Diff([]any{entry}, e.mutedOf("hamlet@zulip.com")); diff != "" {
		t.Fatalf("register muted_users (-want +got):\n%s", diff)
	}
	if !slices.Contains(e.flagsOf("hamlet@zulip.com", before), any("read")) || slices.Contains(e.flagsOf("hamlet@zulip.com", other), any("read")) {
		t.Fatalf("flags after muting: othello's %v, iago's %v", e.flagsOf("hamlet@zulip.com", before), e.flagsOf("hamlet@zulip.com", other))
	}
	after := e.sendTo("othello@zulip.com", "Denmark", "t", "sent while muted")
	if !slices.Contains(e.flagsOf("hamlet@zulip.com", after), any("read")) || slices.Contains(e.flagsOf("iago@zulip.com", after), any("read")) {
		t.Fatalf("a muted sender's new message: hamlet %v, iago %v", e.flagsOf("hamlet@zulip.com", after), e.flagsOf("iago@zulip.com", after))
	}
	evs := e.events("hamlet@zulip.com", qid, -1, false)
	if len(evs) != 2 {
		t.Fatalf("hamlet's events %v", evs)
	}
	flags, muted := evs[0].(map[string]any), evs[1].(map[string]any)
	if flags["type"] != "update_message_flags" || flags["flag"] != "read" || !cmp.Equal(flags["messages"], []any{float64(before)}) {
		t.Fatalf("flags event %v", flags)
	}
	if muted["type"] != "muted_users" || !cmp.Equal(muted["muted_users"], []any{entry}) {
		t.Fatalf("muted_users event %v", muted)
	}
	if evs := e.events("othello@zulip.com", oq, -1, false); len(evs) != 0 {
		t.Fatalf("the muted user heard of it: %v", evs)
	}

	status, body = e.do("hamlet@zulip.com", "DELETE", "/users/me/muted_users/"+othello, nil)
	e.wantSuccess(status, body)
	if got := e.mutedOf("hamlet@zulip.com"); len(got) != 0 {
		t.Fatalf("muted after unmuting: %v", got)
	}
	evs = e.events("hamlet@zulip.com", qid, 1, false)
	if len(evs) != 1 || !cmp.Equal(evs[0].(map[string]any)["muted_users"], []any{}) {
		t.Fatalf("unmute event %v", evs)
	}
	again := e.sendTo("othello@zulip.com", "Denmark", "t", "heard again")
	if slices.Contains(e.flagsOf("hamlet@zulip.com", again), any("read")) {
		t.Fatal("a message after unmuting arrived read")
	}
}

// Muting oneself, a missing user, twice, or unmuting someone not muted
// is refused and changes nothing; bots and deactivated users may be muted.
func TestHTTPMuteUserRefused(t *testing.T) {
	e := newMsgEnv(t)
	hamlet := strconv.Itoa(e.userID("hamlet@zulip.com"))
	othello := strconv.Itoa(e.userID("othello@zulip.com"))
	status, body := e.do("hamlet@zulip.com", "POST", "/users/me/muted_users/"+hamlet, nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "Cannot mute self")
	for _, id := range []string{"999", "1"} { // missing; a system bot of the internal realm
		status, body = e.do("hamlet@zulip.com", "POST", "/users/me/muted_users/"+id, nil)
		e.wantError(status, body, 400, "BAD_REQUEST", "No such user")
	}
	status, body = e.do("hamlet@zulip.com", "DELETE", "/users/me/muted_users/"+othello, nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "User is not muted")
	if got := e.mutedOf("hamlet@zulip.com"); len(got) != 0 {
		t.Fatalf("refused requests muted %v", got)
	}
	status, body = e.do("hamlet@zulip.com", "POST", "/users/me/muted_users/"+othello, nil)
	e.wantSuccess(status, body)
	status, body = e.do("hamlet@zulip.com", "POST", "/users/me/muted_users/"+othello, nil)
	e.wantError(status, body, 400, "BAD_REQUEST", "User already muted")
	bot := strconv.Itoa(e.userID("default-bot@zulip.com"))
	status, body = e.do("hamlet@zulip.com", "POST", "/users/me/muted_users/"+bot, nil)
	e.wantSuccess(status, body)
	if got := e.mutedOf("hamlet@zulip.com"); len(got) != 2 {
		t.Fatalf("muted %v, want othello and the bot", got)
	}
}

// userID is the realm's ID for email.
func (e *msgEnv) userID(email string) int {
	e.t.Helper()
	status, body := e.do("iago@zulip.com", "GET", "/users/"+email, nil)
	e.wantSuccess(status, body)
	return int(body["user"].(map[string]any)["user_id"].(float64))
}
