package realm

import (
	"slices"
	"testing"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// react is AddReaction by name, code and type ("" leaves one out).
func react(r *Realm, userID int, id int64, name, code, typ string) error {
	return r.As(userID).AddReaction(bg, reactionReq(id, name, code, typ))
}

func reactionReq(id int64, name, code, typ string) ReactionRequest {
	req := ReactionRequest{MessageID: id}
	for _, f := range []struct {
		v   string
		dst **string
	}{{name, &req.EmojiName}, {code, &req.EmojiCode}, {typ, &req.ReactionType}} {
		if f.v != "" {
			*f.dst = str(f.v)
		}
	}
	return req
}

// reactionsOf is the message's reactions as userID fetches them.
func reactionsOf(t *testing.T, r *Realm, userID int, id int64) []Reaction {
	t.Helper()
	m, _, err := r.As(userID).Message(bg, id, ViewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m.Reactions
}

// reactionEvents are the reaction events in a queue, as JSON.
func reactionEvents(t *testing.T, r *Realm, userID int, q *Queue) []map[string]any {
	t.Helper()
	return eventsOfType(t, r, userID, q, "reaction")
}

// A reaction reaches those who can see the message: holders of a copy
// and subscribers of a channel with shared history; a reacting
// non-subscriber gets a historical copy and so hears of later changes.
func TestReactionEventsReachTheMessagesAudience(t *testing.T) {
	r, _ := newTestRealm(t)
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "hi")
	queues := map[int]*Queue{}
	for _, id := range []int{idHamlet, idOthello, idCordelia, idAaron} {
		queues[id] = mustQueue(t, r, id, QueueOptions{EventTypes: []string{"reaction"}})
	}
	if err := react(r, idOthello, res.ID, "tada", "", ""); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int]int{idHamlet: 1, idOthello: 1, idCordelia: 0, idAaron: 0} {
		if got := len(reactionEvents(t, r, id, queues[id])); got != want {
			t.Errorf("user %d got %d reaction events, want %d", id, got, want)
		}
	}
	// Cordelia is not subscribed to Denmark, but may read its history.
	if err := react(r, idCordelia, res.ID, "tada", "", ""); err != nil {
		t.Fatal(err)
	}
	c, ok := r.messages.store.Copy(idCordelia, res.ID)
	if !ok || c.Flags != message.Read|message.Historical {
		t.Fatalf("reacting gives a historical copy: %v %v", ok, c.Flags)
	}
	if err := r.As(idCordelia).RemoveReaction(bg, reactionReq(res.ID, "tada", "", "")); err != nil {
		t.Fatal(err)
	}
	evs := reactionEvents(t, r, idCordelia, queues[idCordelia])
	if len(evs) != 2 || evs[0]["op"] != "add" || evs[1]["op"] != "remove" {
		t.Fatalf("cordelia's events %v", evs)
	}
	want := map[string]any{"id": float64(1), "type": "reaction", "op": "remove", "user_id": float64(idCordelia),
		"message_id": float64(res.ID), "emoji_name": "tada", "emoji_code": "1f389", "reaction_type": "unicode_emoji",
		"user": map[string]any{"user_id": float64(idCordelia), "email": "user8@zulipdev.com", "full_name": "Cordelia, Lear's daughter"}}
	if !mapsEqual(evs[1], want) {
		t.Fatalf("remove event %v\nwant %v", evs[1], want)
	}
	if len(reactionEvents(t, r, idAaron, queues[idAaron])) != 0 {
		t.Fatal("aaron can see Denmark's history but holds no copy and is not subscribed")
	}
	if got := reactionsOf(t, r, idAaron, res.ID); len(got) != 1 || got[0].UserID != idOthello || got[0].User != nil {
		t.Fatalf("reactions %+v", got)
	}
}

func mapsEqual(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if am, ok := v.(map[string]any); ok {
			bm, ok := b[k].(map[string]any)
			if !ok || !mapsEqual(am, bm) {
				return false
			}
			continue
		}
		if b[k] != v {
			return false
		}
	}
	return true
}

// Reactions on a direct message go to its participants, and only they
// may react.
func TestReactionsOnDirectMessages(t *testing.T) {
	r, _ := newTestRealm(t)
	res, _ := r.As(idHamlet).SendDirectMessage(bg, []int{idOthello}, "psst")
	iagoQ := mustQueue(t, r, idIago, QueueOptions{EventTypes: []string{"reaction"}})
	othelloQ := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"reaction"}})
	wantCode(t, react(r, idIago, res.ID, "tada", "", ""), CodeBadRequest, "Invalid message(s)")
	if err := react(r, idHamlet, res.ID, "zulip", "", ""); err != nil {
		t.Fatal(err)
	}
	if len(reactionEvents(t, r, idIago, iagoQ)) != 0 || len(reactionEvents(t, r, idOthello, othelloQ)) != 1 {
		t.Fatal("a DM's reactions reach its participants only")
	}
	got := reactionsOf(t, r, idOthello, res.ID)
	if len(got) != 1 || got[0].ReactionType != "zulip_extra_emoji" || got[0].EmojiCode != "zulip" {
		t.Fatalf("reactions %+v", got)
	}
}

// A private channel without shared history: only holders of a copy see
// the message, react to it, and hear of reactions.
func TestReactionsInAProtectedHistoryChannel(t *testing.T) {
	r, _ := newTestRealm(t)
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "core team", "plans", "secret")
	wantCode(t, react(r, idOthello, res.ID, "tada", "", ""), CodeBadRequest, "Invalid message(s)")
	// Aaron subscribes later: no copy, no access to the earlier history.
	r.subscribe(r.channels.byName["core team"].ID, idAaron)
	wantCode(t, react(r, idAaron, res.ID, "tada", "", ""), CodeBadRequest, "Invalid message(s)")
	if err := react(r, idIago, res.ID, "tada", "", ""); err != nil {
		t.Fatal(err)
	}
	if got := r.messageAudience(mustMessage(t, r, res.ID)); !slices.Equal(got, []int{idDesdemona, idHamlet, idIago}) {
		t.Fatalf("audience %v", got)
	}
}

func mustMessage(t *testing.T, r *Realm, id int64) *message.Message {
	t.Helper()
	m, ok := r.messages.store.Message(id)
	if !ok {
		t.Fatalf("no message %d", id)
	}
	return m
}

// Every refusal leaves the message's reactions as they were and sends
// nothing.
func TestRejectedReactionsChangeNothing(t *testing.T) {
	r, _ := newTestRealm(t)
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "hi")
	if err := react(r, idIago, res.ID, "tada", "", ""); err != nil {
		t.Fatal(err)
	}
	r.realmEmoji.list[0].Deactivated = true // green_tick, ID 1
	q := mustQueue(t, r, idIago, QueueOptions{})
	for _, c := range []struct {
		name, code, typ string
		code2           Code
		msg             string
	}{
		{"tada", "", "", CodeReactionAlreadyExists, "Reaction already exists."},
		{"party_popper", "1f389", "unicode_emoji", CodeReactionAlreadyExists, "Reaction already exists."},
		{"no_such", "", "", CodeBadRequest, "Emoji 'no_such' does not exist"},
		{"green_tick", "", "", CodeBadRequest, "Emoji 'green_tick' does not exist"},
		{"green_tick", "1", "realm_emoji", CodeBadRequest, "This custom emoji has been deactivated."},
		{"green_tick", "99", "realm_emoji", CodeBadRequest, "Invalid custom emoji."},
		{"red_tick", "1", "realm_emoji", CodeBadRequest, "Invalid custom emoji name."},
		{"smile", "1f600", "unicode_emoji", CodeBadRequest, "Invalid emoji name."},
		{"smile", "zzzz", "unicode_emoji", CodeBadRequest, "Invalid emoji code."},
		{"zulip", "zulip2", "service_extra_emoji", CodeBadRequest, "Invalid emoji code."},
		{"zulipx", "zulip", "zulip_extra_emoji", CodeBadRequest, "Invalid emoji name."},
		{"tada", "1f389", "sticker", CodeBadRequest, "Invalid emoji type."},
	} {
		wantCode(t, react(r, idIago, res.ID, c.name, c.code, c.typ), c.code2, c.msg)
	}
	wantCode(t, react(r, idIago, 9999, "tada", "", ""), CodeBadRequest, "Invalid message(s)")
	wantCode(t, r.As(idIago).AddReaction(bg, ReactionRequest{MessageID: res.ID}), CodeRequestVariableMissing, "emoji_name")
	for _, req := range []ReactionRequest{
		reactionReq(res.ID, "smile", "", ""),
		reactionReq(res.ID, "tada", "", "realm_emoji"),
		reactionReq(res.ID, "", "1f389", "service_extra_emoji"),
	} {
		wantCode(t, r.As(idIago).RemoveReaction(bg, req), CodeReactionDoesNotExist, "Reaction doesn't exist.")
	}
	wantCode(t, r.As(idIago).RemoveReaction(bg, reactionReq(res.ID, "", "", "")), CodeBadRequest,
		"At least one of the following arguments must be present: emoji_name, emoji_code")
	wantCode(t, r.As(idIago).RemoveReaction(bg, reactionReq(res.ID, "not_an_emoji", "", "")), CodeBadRequest, "Emoji 'not_an_emoji' does not exist")
	wantCode(t, r.As(idHamlet).RemoveReaction(bg, reactionReq(res.ID, "tada", "", "")), CodeReactionDoesNotExist, "")
	if got := reactionsOf(t, r, idIago, res.ID); len(got) != 1 || got[0].EmojiName != "tada" || got[0].UserID != idIago {
		t.Fatalf("reactions after refusals %+v", got)
	}
	if evs := pending(t, r, idIago, q, -1); len(evs) != 0 {
		t.Fatalf("refusals sent events: %v", evs)
	}
}

// A vote joins an existing reaction with the same code and type under
// its name, even when that name or emoji is no longer valid; removal
// matches by code.
func TestReactionVotesMatchByCode(t *testing.T) {
	r, _ := newTestRealm(t)
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "hi")
	m := mustMessage(t, r, res.ID)
	m.SetChanges(message.Changes{Reactions: []message.Reaction{{EmojiName: "old_thumbs", EmojiCode: "1f44d", ReactionType: "unicode_emoji", UserID: idOthello}}})
	if err := react(r, idIago, res.ID, "thumbs_up", "1f44d", "unicode_emoji"); err != nil {
		t.Fatal(err)
	}
	// Without a code, the name's current code is the same: also a vote.
	if err := react(r, idHamlet, res.ID, "+1", "", ""); err != nil {
		t.Fatal(err)
	}
	// A deactivated custom emoji can still be voted for.
	if err := react(r, idHamlet, res.ID, "green_tick", "", ""); err != nil {
		t.Fatal(err)
	}
	r.realmEmoji.list[0].Deactivated = true
	if err := react(r, idIago, res.ID, "anything", "1", "realm_emoji"); err != nil {
		t.Fatal(err)
	}
	got := reactionsOf(t, r, idIago, res.ID)
	names := []string{}
	for _, re := range got {
		names = append(names, re.EmojiName+"/"+re.EmojiCode)
	}
	want := []string{"old_thumbs/1f44d", "old_thumbs/1f44d", "old_thumbs/1f44d", "green_tick/1", "green_tick/1"}
	if !slices.Equal(names, want) {
		t.Fatalf("reactions %v, want %v", names, want)
	}
	// Removing by name looks the code up: thumbs_up removes the vote.
	if err := r.As(idIago).RemoveReaction(bg, reactionReq(res.ID, "thumbs_up", "", "")); err != nil {
		t.Fatal(err)
	}
	// A deactivated custom emoji's reaction is removed by code.
	if err := r.As(idHamlet).RemoveReaction(bg, reactionReq(res.ID, "green_tick", "1", "realm_emoji")); err != nil {
		t.Fatal(err)
	}
	if got := reactionsOf(t, r, idIago, res.ID); len(got) != 3 || got[2].UserID != idIago || got[2].EmojiCode != "1" {
		t.Fatalf("after removals %+v", got)
	}
}

// Reacting is participation: the "on participation" follow and unmute
// choices apply to subscribers, and nothing else does.
func TestReactionFollowsTopicOnParticipation(t *testing.T) {
	r, _ := newTestRealm(t)
	res, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "hi")
	q := mustQueue(t, r, idOthello, QueueOptions{EventTypes: []string{"user_topic"}})
	if err := react(r, idOthello, res.ID, "tada", "", ""); err != nil {
		t.Fatal(err)
	}
	if p := r.userTopicPolicy(idOthello, r.channels.byName["denmark"].ID, "castle"); p != PolicyInherit {
		t.Fatalf("default settings (follow on initiation) changed the policy to %d", p)
	}
	r.users.byID[idOthello].Settings.AutomaticallyFollowTopicsPolicy = user.AutoOnParticipation
	if err := react(r, idOthello, res.ID, "smile", "", ""); err != nil {
		t.Fatal(err)
	}
	denmark := r.channels.byName["denmark"].ID
	if p := r.userTopicPolicy(idOthello, denmark, "castle"); p != PolicyFollowed {
		t.Fatalf("policy %d, want followed", p)
	}
	evs := pending(t, r, idOthello, q, -1)
	if len(evs) != 1 || eventJSON(t, evs[0])["visibility_policy"] != float64(PolicyFollowed) {
		t.Fatalf("user_topic events %v", evs)
	}
	// Unmute on participation, in a muted channel.
	r.users.byID[idIago].Settings.AutomaticallyFollowTopicsPolicy = user.AutoNever
	r.users.byID[idIago].Settings.AutomaticallyUnmuteTopicsInMutedStreamsPolicy = user.AutoOnParticipation
	if err := react(r, idIago, res.ID, "tada", "", ""); err != nil {
		t.Fatal(err)
	}
	if p := r.userTopicPolicy(idIago, denmark, "castle"); p != PolicyInherit {
		t.Fatalf("unmute applies in muted channels only, got %d", p)
	}
	r.channels.subs[denmark][idIago].IsMuted = true
	if err := react(r, idIago, res.ID, "smile", "", ""); err != nil {
		t.Fatal(err)
	}
	if p := r.userTopicPolicy(idIago, denmark, "castle"); p != PolicyUnmuted {
		t.Fatalf("policy %d, want unmuted", p)
	}
	// A non-subscriber's policy never changes.
	r.users.byID[idCordelia].Settings.AutomaticallyFollowTopicsPolicy = user.AutoOnParticipation
	if err := react(r, idCordelia, res.ID, "tada", "", ""); err != nil {
		t.Fatal(err)
	}
	if p := r.userTopicPolicy(idCordelia, denmark, "castle"); p != PolicyInherit {
		t.Fatalf("non-subscriber's policy %d", p)
	}
}

// The deprecated user object and the special emoji type's spelling
// follow the advertised feature level.
func TestReactionShapesByFeatureLevel(t *testing.T) {
	for _, c := range []struct {
		level              int
		msgUser, eventUser bool
		extraType          string
	}{
		{300, true, true, "zulip_extra_emoji"},
		{330, false, false, "zulip_extra_emoji"},
		{420, false, true, "zulip_extra_emoji"},
		{496, false, true, "zulip_extra_emoji"},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, "x"))
		res, _ := r.As(idHamlet).SendChannelMessage(bg, "Denmark", "castle", "hi")
		q := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"reaction"}})
		if err := react(r, idHamlet, res.ID, "zulip", "zulip", "zulip_extra_emoji"); err != nil {
			t.Fatal(err)
		}
		got := reactionsOf(t, r, idHamlet, res.ID)
		if (got[0].User != nil) != c.msgUser || got[0].ReactionType != c.extraType {
			t.Errorf("level %d: message reaction %+v", c.level, got[0])
		}
		if c.msgUser && (got[0].User.ID != idHamlet || got[0].User.FullName != "King Hamlet") {
			t.Errorf("level %d: user %+v", c.level, got[0].User)
		}
		ev := reactionEvents(t, r, idHamlet, q)[0]
		if _, has := ev["user"]; has != c.eventUser || ev["reaction_type"] != c.extraType {
			t.Errorf("level %d: event %v", c.level, ev)
		}
		// Either spelling names the stored reaction.
		if err := r.As(idHamlet).RemoveReaction(bg, reactionReq(res.ID, "", "zulip", "service_extra_emoji")); err != nil {
			t.Errorf("level %d: %v", c.level, err)
		}
	}
}
