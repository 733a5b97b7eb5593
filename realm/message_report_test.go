package realm

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// idCoreTeam is the dev realm's "core team", its moderation request
// channel (subscribers: hamlet, iago, desdemona).
const idCoreTeam = 6

// reportEnv is a dev realm with a message queue for iago, who reads the
// moderation request channel.
type reportEnv struct {
	t    *testing.T
	r    *Realm
	q    *Queue
	seen int
}

func newReportEnv(t *testing.T) *reportEnv {
	r, _ := newTestRealm(t)
	return &reportEnv{t: t, r: r, q: mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"message"}}), seen: -1}
}

// notices are the messages iago got since the last call.
func (e *reportEnv) notices() []map[string]any {
	e.t.Helper()
	evs := pending(e.t, e.r, idIago, e.q, e.seen)
	var out []map[string]any
	for _, ev := range evs {
		e.seen = ev.ID
		out = append(out, eventJSON(e.t, ev)["message"].(map[string]any))
	}
	return out
}

// report reports id as userID and wants the one notice it posts.
func (e *reportEnv) report(userID int, id int64, typ, description string) map[string]any {
	e.t.Helper()
	e.notices()
	if err := e.r.As(userID).ReportMessage(bg, id, typ, description); err != nil {
		e.t.Fatalf("ReportMessage: %v", err)
	}
	got := e.notices()
	if len(got) != 1 {
		e.t.Fatalf("%d notices, want 1: %v", len(got), got)
	}
	return got[0]
}

// rawContent is the Markdown source of message id.
func (e *reportEnv) rawContent(id float64) string {
	e.t.Helper()
	_, raw, err := e.r.As(idIago).Message(bg, int64(id), ViewOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	return raw
}

func (e *reportEnv) send(userID int, channel, topicName, content string) int64 {
	e.t.Helper()
	res, err := e.r.As(userID).SendChannelMessage(bg, channel, topicName, content)
	if err != nil {
		e.t.Fatal(err)
	}
	return res.ID
}

func (e *reportEnv) sendDirect(userID int, to []int, content string) int64 {
	e.t.Helper()
	res, err := e.r.As(userID).SendDirectMessage(bg, to, content)
	if err != nil {
		e.t.Fatal(err)
	}
	return res.ID
}

const reportTime = "<time:2026-01-02T03:04:05+00:00>"

// A reported channel message: the Notification Bot posts Zulip's notice
// to the moderation request channel, in the reported user's topic.
func TestReportChannelMessage(t *testing.T) {
	e := newReportEnv(t)
	id := e.send(idOthello, "Verona", "civil talk", "I squeeze toothpaste from the middle")
	n := e.report(idHamlet, id, "harassment", "Rude.")
	if n["sender_id"] != float64(idNotificationBot) || n["stream_id"] != float64(idCoreTeam) ||
		n["subject"] != "Othello, the Moor of Venice moderation" || n["client"] != "Internal" {
		t.Fatalf("notice %v", n)
	}
	sid := strconv.FormatInt(id, 10)
	want := "@_**King Hamlet|10** reported a message sent by @_**Othello, the Moor of Venice|12** at " + reportTime + ".\n" +
		"```quote\n**Harassment**. Rude.\n```\n\n" +
		"``` spoiler Original message at #**Verona>civil talk@" + sid + "**\nI squeeze toothpaste from the middle\n```"
	if diff := cmp.Diff(want, e.rawContent(n["id"].(float64))); diff != "" {
		t.Fatalf("content (-want +got):\n%s", diff)
	}
	// Every report type has Zulip's reason; one's own message may be reported.
	for typ, reason := range map[string]string{"spam": "Spam", "inappropriate": "Inappropriate content",
		"norms": "Violates community norms", "other": "Other reason"} {
		n := e.report(idOthello, id, typ, "why")
		if raw := e.rawContent(n["id"].(float64)); !strings.Contains(raw, "```quote\n**"+reason+"**. why\n```") ||
			!strings.HasPrefix(raw, "@_**Othello, the Moor of Venice|12** reported a message sent by @_**Othello") {
			t.Fatalf("%s: content %q", typ, raw)
		}
	}
}

// Direct messages: a 1:1 message reported by its recipient names nobody
// else, one reported by its sender names the recipient, a group message
// names the others; all link to the conversation.
func TestReportDirectMessages(t *testing.T) {
	e := newReportEnv(t)
	dm := e.sendDirect(idOthello, []int{idHamlet}, "psst")
	n := e.report(idHamlet, dm, "spam", "")
	raw := e.rawContent(n["id"].(float64))
	link := "[Original message](" + DefaultURL + "/#narrow/dm/10,12/near/" + strconv.FormatInt(dm, 10) + ")"
	want := "@_**King Hamlet|10** reported a message sent by @_**Othello, the Moor of Venice|12** at " + reportTime + ".\n" +
		"```quote\n**Spam**. \n```\n\n``` spoiler " + link + "\npsst\n```"
	if diff := cmp.Diff(want, raw); diff != "" {
		t.Fatalf("content (-want +got):\n%s", diff)
	}
	raw = e.rawContent(e.report(idOthello, dm, "spam", "")["id"].(float64))
	if !strings.HasPrefix(raw, "@_**Othello, the Moor of Venice|12** reported a message sent by @_**Othello, the Moor of Venice|12** to @_**King Hamlet|10** at ") {
		t.Fatalf("own 1:1 message: %q", raw)
	}
	self := e.sendDirect(idHamlet, []int{idHamlet}, "note")
	raw = e.rawContent(e.report(idHamlet, self, "spam", "")["id"].(float64))
	if !strings.HasPrefix(raw, "@_**King Hamlet|10** reported a message sent by @_**King Hamlet|10** to @_**King Hamlet|10** at ") ||
		!strings.Contains(raw, "/#narrow/dm/10/near/") {
		t.Fatalf("message to oneself: %q", raw)
	}
	group := e.sendDirect(idOthello, []int{idHamlet, idZoe, idIago}, "all of you")
	raw = e.rawContent(e.report(idHamlet, group, "norms", "x")["id"].(float64))
	if !strings.HasPrefix(raw, "@_**King Hamlet|10** reported a message sent by @_**Othello, the Moor of Venice|12** to "+
		"@_**Iago|11**, @_**King Hamlet|10**, and @_**Zoe|7** at ") ||
		!strings.Contains(raw, "/#narrow/dm/7,10,11,12-group/near/"+strconv.FormatInt(group, 10)+")") {
		t.Fatalf("group message: %q", raw)
	}
}

// Every refused report posts nothing: a bad report type, an overlong
// description, "other" without one, reporting turned off, a message the
// reporter cannot read.
func TestReportMessageRefusals(t *testing.T) {
	e := newReportEnv(t)
	public := e.send(idOthello, "Verona", "t", "hi")
	private := e.send(idHamlet, "core team", "t", "secret")
	e.notices()
	refuse := func(userID int, id int64, typ, description, msg string) {
		t.Helper()
		wantCode(t, e.r.As(userID).ReportMessage(bg, id, typ, description), CodeBadRequest, msg)
		if got := e.notices(); len(got) != 0 {
			t.Fatalf("a refused report posted %v", got)
		}
	}
	refuse(idHamlet, public, "rude", "x", "Invalid report_type")
	refuse(idHamlet, public, "", "x", "Invalid report_type")
	refuse(idHamlet, public, "spam", strings.Repeat("é", MaxReportDescriptionLength+1), "description is too long (limit: 1000 characters)")
	refuse(idHamlet, public, "other", "", "An explanation is required.")
	refuse(idOthello, private, "spam", "", "Invalid message(s)")
	refuse(idOthello, 9999, "spam", "", "Invalid message(s)")
	// A description of exactly the limit is fine.
	e.report(idHamlet, public, "spam", strings.Repeat("é", MaxReportDescriptionLength))
	e.r.UpdateSettings(func(s *Settings) { s.ModerationRequestChannelID = 0 })
	e.notices()
	refuse(idHamlet, public, "spam", "", "Message reporting is not enabled in this organization.")
}

// The topic is "" in a channel that takes only the empty topic, and the
// reported user's name cut to the topic limit otherwise; a long message
// is cut to leave room for the description.
func TestReportTopicAndTruncation(t *testing.T) {
	e := newReportEnv(t)
	e.r.UpdateSettings(func(s *Settings) { s.ModerationRequestChannelID = idCoreTeam })
	long := strings.Repeat("a", 9000)
	id := e.send(idOthello, "Verona", "t", long)
	raw := e.rawContent(e.report(idHamlet, id, "spam", "")["id"].(float64))
	snippet := strings.Repeat("a", 8500-len("\n[message truncated]")) + "\n[message truncated]"
	if !strings.Contains(raw, "\n"+snippet+"\n```") || strings.Contains(raw, snippet+"a") {
		t.Fatalf("snippet not cut at 8500 characters: %d characters", len(raw))
	}
	_ = e.r.update(func() error {
		e.r.users.byID[idOthello].FullName = strings.Repeat("O", 55)
		return nil
	})
	if n := e.report(idHamlet, id, "spam", ""); n["subject"] != strings.Repeat("O", 55)+" m..." {
		t.Fatalf("long topic %q", n["subject"])
	}
	_ = e.r.update(func() error {
		e.r.channels.byID[idCoreTeam].TopicsPolicy = "empty_topic_only"
		return nil
	})
	n := e.report(idHamlet, id, "spam", "")
	if m, _ := e.r.messages.store.Message(int64(n["id"].(float64))); m.Topic != "" {
		t.Fatalf("topic %q in an empty-topic-only channel", m.Topic)
	}
}

// register's realm_moderation_request_channel_id: the dev realm's is
// "core team", -1 when reporting is off, absent below feature level 331.
func TestRegisterModerationRequestChannel(t *testing.T) {
	get := func(r *Realm) (any, bool) {
		t.Helper()
		state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(state)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		v, ok := m["realm_moderation_request_channel_id"]
		return v, ok
	}
	r, _ := newTestRealm(t)
	if v, _ := get(r); v != float64(idCoreTeam) {
		t.Fatalf("dev realm: %v", v)
	}
	r.UpdateSettings(func(s *Settings) { s.ModerationRequestChannelID = 0 })
	if v, _ := get(r); v != float64(-1) {
		t.Fatalf("turned off: %v", v)
	}
	old, _ := newTestRealm(t, WithFeatureLevel(330, "test"))
	if v, ok := get(old); ok {
		t.Fatalf("level 330: %v", v)
	}
}

// PATCH /realm's moderation_request_channel_id: administrators set a
// private channel or turn reporting off; everyone hears of it with a
// realm update event after the other settings' events. A public or unknown
// channel is refused.
func TestUpdateModerationRequestChannel(t *testing.T) {
	e := newRealmUpdateEnv(t)
	off, core, verona, unknown := -1, idCoreTeam, 1, 999
	e.refused(idHamlet, RealmUpdate{ModerationRequestChannelID: &off}, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	e.refused(idIago, RealmUpdate{ModerationRequestChannelID: &verona}, CodeBadRequest, "Moderation request channel must be private.")
	e.refused(idIago, RealmUpdate{ModerationRequestChannelID: &unknown, Name: str("Elsinore")}, CodeBadRequest, "Invalid channel ID")
	if ch := e.update(idIago, RealmUpdate{ModerationRequestChannelID: &core}); len(ch) != 0 {
		t.Fatalf("no change expected: %v", ch)
	}
	e.noEvents()

	ch := e.update(idIago, RealmUpdate{ModerationRequestChannelID: &off, Name: str("Elsinore")})
	if diff := cmp.Diff(RealmChanges{"name": "updated", "moderation_request_channel_id": -1}, ch); diff != "" {
		t.Fatalf("changes (-want +got):\n%s", diff)
	}
	if e.r.Settings().ModerationRequestChannelID != 0 {
		t.Fatal("reporting still on")
	}
	for _, q := range []struct {
		id int
		q  *Queue
	}{{idHamlet, e.hamletQ}, {idPolonius, e.guestQ}} {
		evs := e.next(q.id, q.q)
		if len(evs) != 2 {
			t.Fatalf("user %d: %d events, want 2", q.id, len(evs))
		}
		name, upd := eventJSON(t, evs[0]), eventJSON(t, evs[1])
		if name["op"] != "update" || name["property"] != "name" {
			t.Fatalf("first event %v", name)
		}
		if diff := cmp.Diff(map[string]any{"id": upd["id"], "type": "realm", "op": "update",
			"property": "moderation_request_channel_id", "value": float64(-1)}, upd); diff != "" {
			t.Fatalf("update event (-want +got):\n%s", diff)
		}
	}
	// Any negative value turns reporting off.
	minus5 := -5
	if ch := e.update(idIago, RealmUpdate{ModerationRequestChannelID: &minus5}); len(ch) != 0 {
		t.Fatalf("already off: %v", ch)
	}
	e.noEvents()
	ch = e.update(idDesdemona, RealmUpdate{ModerationRequestChannelID: &core})
	if ch["moderation_request_channel_id"] != idCoreTeam {
		t.Fatalf("changes %v", ch)
	}
	evs := e.next(idHamlet, e.hamletQ)
	if len(evs) != 1 || eventJSON(t, evs[0])["value"] != float64(idCoreTeam) {
		t.Fatalf("events %v", evs)
	}
}

// The moderation request channel cannot be made public; other private
// channels can.
func TestModerationRequestChannelStaysPrivate(t *testing.T) {
	r, _ := newTestRealm(t)
	public := false
	err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idCoreTeam, IsPrivate: &public})
	wantCode(t, err, CodeBadRequest, "Moderation request channel must be private.")
	if !r.channels.byID[idCoreTeam].InviteOnly {
		t.Fatal("a refused update changed the channel")
	}
	r.UpdateSettings(func(s *Settings) { s.ModerationRequestChannelID = 0 })
	if err := r.As(idIago).UpdateChannel(bg, ChannelUpdate{ChannelID: idCoreTeam, IsPrivate: &public}); err != nil {
		t.Fatal(err)
	}
}
