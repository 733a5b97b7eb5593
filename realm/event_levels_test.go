package realm

import (
	"slices"
	"testing"

	"github.com/minizulip/minizulip/user"
)

// atLevels runs f on a fresh dev realm at each of the levels.
func atLevels(t *testing.T, levels []int, f func(t *testing.T, r *Realm, level int)) {
	for _, level := range levels {
		r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
		f(t, r, level)
	}
}

// eventsOf lists the events of one type a queue holds, as JSON objects.
func eventsOf(t *testing.T, r *Realm, userID int, q *Queue, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range pending(t, r, userID, q, -1) {
		if ev.Type == typ {
			out = append(out, eventJSON(t, ev))
		}
	}
	return out
}

// Rows 215 "event typing start/stop message_type": direct message typing
// says "private" below 215, "direct" from it.
func TestTypingMessageTypeFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeTypingDirect.Level() - 1, changeTypingDirect.Level()}, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idHamlet, QueueOptions{})
		if err := r.As(idIago).SetTyping(bg, TypingRequest{Op: "start", To: []int{idHamlet}}); err != nil {
			t.Fatal(err)
		}
		want := "direct"
		if level < changeTypingDirect.Level() {
			want = "private"
		}
		evs := eventsOf(t, r, idHamlet, q, "typing")
		if len(evs) != 1 || evs[0]["message_type"] != want {
			t.Errorf("level %d: typing events %v, want message_type %q", level, evs, want)
		}
	})
}

// Row 256 "event stream update": a channel whose oldest message changes
// (here by a move) gets a stream update of first_message_id from 256,
// none below.
func TestFirstMessageIDEventFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeFirstMessageIDEvent.Level() - 1, changeFirstMessageIDEvent.Level()}, func(t *testing.T, r *Realm, level int) {
		sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "moving", "m")
		if err != nil {
			t.Fatal(err)
		}
		verona, _ := r.As(idIago).ChannelID(bg, "Verona")
		q := mustQueue(t, r, idIago, QueueOptions{})
		if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: sent.ID, ChannelID: &verona}); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ev := range eventsOf(t, r, idIago, q, "stream") {
			if ev["property"] == "first_message_id" {
				n++
			}
		}
		if has := level >= changeFirstMessageIDEvent.Level(); has != (n > 0) {
			t.Errorf("level %d: %d first_message_id updates", level, n)
		}
	})
}

// Row 284 "event update_message": a content edit's event carries
// prev_rendered_content_version (1) below 284, not from it.
func TestPrevRenderedContentVersionFollowsLevel(t *testing.T) {
	atLevels(t, []int{changePrevRenderedVersionRemoved.Level() - 1, changePrevRenderedVersionRemoved.Level()}, func(t *testing.T, r *Realm, level int) {
		sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "t", "before")
		if err != nil {
			t.Fatal(err)
		}
		q := mustQueue(t, r, idIago, QueueOptions{})
		content := "after"
		if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: sent.ID, Content: &content}); err != nil {
			t.Fatal(err)
		}
		evs := eventsOf(t, r, idIago, q, "update_message")
		if len(evs) != 1 {
			t.Fatalf("level %d: %d update_message events", level, len(evs))
		}
		v, ok := evs[0]["prev_rendered_content_version"]
		if below := level < changePrevRenderedVersionRemoved.Level(); below != ok || (ok && v != float64(1)) {
			t.Errorf("level %d: prev_rendered_content_version %v (present %v)", level, v, ok)
		}
	})
}

// Rows 334 of events (delete_message, typing, update_message,
// update_message_flags, user_topic topics): below 334 the
// empty_topic_name capability does not exist, so a queue (and the
// register answer) that declares it is served as one that does not.
func TestEmptyTopicCapabilityFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeEmptyTopicCapability.Level() - 1, changeEmptyTopicCapability.Level()}, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idIago, QueueOptions{Capabilities: ClientCapabilities{EmptyTopicName: true}})
		has := level >= changeEmptyTopicCapability.Level()
		if got := q.Config().opts.Capabilities.EmptyTopicName; got != has {
			t.Errorf("level %d: queue's empty_topic_name %v", level, got)
		}
		// The queue hears the empty topic by its display name below 334.
		sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "", "general")
		if err != nil {
			t.Skipf("level %d: no empty topic to move: %v", level, err)
		}
		topic := "named"
		if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: sent.ID, Topic: &topic}); err != nil {
			t.Fatal(err)
		}
		evs := eventsOf(t, r, idIago, q, "update_message")
		if len(evs) != 1 {
			t.Fatalf("level %d: %d update_message events", level, len(evs))
		}
		if orig := evs[0]["orig_subject"]; (orig == "") != has {
			t.Errorf("level %d: orig_subject %q", level, orig)
		}
	})
}

// Row 304 "event realm_export exports": the export objects of the event
// carry export_type from 304 only, as GET /export/realm's do.
func TestRealmExportEventFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeExportType.Level() - 1, changeExportType.Level()}, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idIago, QueueOptions{})
		if _, err := r.As(idIago).ExportRealm(bg, ExportPublic); err != nil {
			t.Fatal(err)
		}
		evs := eventsOf(t, r, idIago, q, "realm_export")
		if len(evs) == 0 {
			t.Fatalf("level %d: no realm_export event", level)
		}
		for _, ev := range evs {
			for _, x := range ev["exports"].([]any) {
				_, ok := x.(map[string]any)["export_type"]
				if ok != (level >= changeExportType.Level()) {
					t.Errorf("level %d: export %v", level, x)
				}
			}
		}
	})
}

// The publish-to-every-queue path (presence, user_status) gates event
// types by the level as Publish does: an event type newer than the
// level reaches no queue.
func TestPublishToAllGatesEventTypes(t *testing.T) {
	atLevels(t, []int{changeNavigationViews.Level() - 1, changeNavigationViews.Level()}, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idIago, QueueOptions{})
		c := &change{typ: "navigation_view", payload: NavigationViewEvent{Op: "remove", Fragment: "inbox"}}
		r.emitToActiveUsers("navigation_view", func(*Queue) *change { return c })
		got := len(eventsOf(t, r, idIago, q, "navigation_view"))
		if want := level >= changeNavigationViews.Level(); want != (got == 1) {
			t.Errorf("level %d: %d navigation_view events", level, got)
		}
	})
}

// Row 274 "event delete_message": below 274 a channel message's deletion
// is told to the channel's subscribers only; from 274 also to a user who
// received it and has since unsubscribed.
func TestDeleteMessageAudienceFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeDeleteEventHolders.Level() - 1, changeDeleteEventHolders.Level()}, func(t *testing.T, r *Realm, level int) {
		sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "t", "to delete")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.As(idHamlet).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"Denmark"}}); err != nil {
			t.Fatal(err)
		}
		q := mustQueue(t, r, idHamlet, QueueOptions{})
		if err := r.As(idIago).DeleteMessage(bg, sent.ID); err != nil {
			t.Fatal(err)
		}
		got := len(eventsOf(t, r, idHamlet, q, "delete_message"))
		if want := level >= changeDeleteEventHolders.Level(); want != (got == 1) {
			t.Errorf("level %d: the unsubscribed holder got %d delete_message events", level, got)
		}
	})
}

// Row 377 "event subscription peer_remove": from 377 a deactivation
// first removes the user from their channels' subscribers (peer_remove),
// below it only the realm_user event says so.
func TestDeactivationPeerRemoveFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeDeactivationPeerRemove.Level() - 1, changeDeactivationPeerRemove.Level()}, func(t *testing.T, r *Realm, level int) {
		denmark, _ := r.As(idIago).ChannelID(bg, "Denmark")
		q := mustQueue(t, r, idIago, QueueOptions{})
		if err := r.As(idIago).DeactivateUser(bg, idHamlet); err != nil {
			t.Fatal(err)
		}
		var removed []int
		order := []string{}
		for _, ev := range pending(t, r, idIago, q, -1) {
			j := eventJSON(t, ev)
			order = append(order, ev.Type)
			if ev.Type == "subscription" && j["op"] == "peer_remove" {
				if users := j["user_ids"].([]any); len(users) != 1 || users[0] != float64(idHamlet) {
					t.Errorf("level %d: peer_remove of %v", level, users)
				}
				for _, id := range j["stream_ids"].([]any) {
					removed = append(removed, int(id.(float64)))
				}
			}
		}
		has := level >= changeDeactivationPeerRemove.Level()
		if has != slices.Contains(removed, denmark) {
			t.Errorf("level %d: peer_remove channels %v (Denmark %d)", level, removed, denmark)
		}
		if has && (len(order) == 0 || order[len(order)-1] != "realm_user") {
			t.Errorf("level %d: events %v, want peer_remove before realm_user", level, order)
		}
	})
}

// Row 209 "event invites_changed": below 209 only administrators hear
// of invitations; from 209 their (non-administrator) author too.
func TestInvitesChangedAudienceFollowsLevel(t *testing.T) {
	atLevels(t, []int{changeInvitesChangedToReferrer.Level() - 1, changeInvitesChangedToReferrer.Level()}, func(t *testing.T, r *Realm, level int) {
		hamlet := mustQueue(t, r, idHamlet, QueueOptions{})
		iago := mustQueue(t, r, idIago, QueueOptions{})
		if err := r.As(idHamlet).SendInvites(bg, expiring("new@zulip.com", 60)); err != nil {
			t.Fatal(err)
		}
		if n := len(eventsOf(t, r, idIago, iago, "invites_changed")); n != 1 {
			t.Errorf("level %d: the administrator got %d invites_changed", level, n)
		}
		got := len(eventsOf(t, r, idHamlet, hamlet, "invites_changed"))
		if want := level >= changeInvitesChangedToReferrer.Level(); want != (got == 1) {
			t.Errorf("level %d: the author got %d invites_changed", level, got)
		}
	})
}

// Rows 205 "event stream create/delete", "event subscription peer_add":
// from 205 a role change that shows a private channel (member to
// administrator) sends the user its stream create and its subscribers
// (peer_add), and the way back its delete; below 205 neither.
func TestRoleChangeChannelEventsFollowLevel(t *testing.T) {
	atLevels(t, []int{changeRoleChannelEvents.Level() - 1, changeRoleChannelEvents.Level()}, func(t *testing.T, r *Realm, level int) {
		core, _ := r.As(idIago).ChannelID(bg, "core team")
		q := mustQueue(t, r, idOthello, QueueOptions{})
		for _, role := range []int{int(user.RoleAdmin), int(user.RoleMember)} {
			if err := r.As(idDesdemona).UpdateUser(bg, idOthello, UserUpdate{Role: &role}); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for _, ev := range pending(t, r, idOthello, q, -1) {
			j := eventJSON(t, ev)
			switch {
			case ev.Type == "stream" && (j["op"] == "create" || j["op"] == "delete"):
				for _, s := range j["streams"].([]any) {
					if s, ok := s.(map[string]any); ok && s["stream_id"] == float64(core) {
						got = append(got, "stream "+j["op"].(string))
					}
				}
				if ids, ok := j["stream_ids"].([]any); ok && slices.Contains(ids, any(float64(core))) && j["op"] == "delete" && !slices.Contains(got, "stream delete") {
					got = append(got, "stream delete")
				}
			case ev.Type == "subscription" && j["op"] == "peer_add" && slices.Contains(j["stream_ids"].([]any), any(float64(core))):
				got = append(got, "peer_add")
			}
		}
		want := []string{"stream create", "peer_add", "stream delete"}
		if level < changeRoleChannelEvents.Level() {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("level %d: core team events %v, want %v", level, got, want)
		}
	})
}

// Rows 220 "event stream create", "event subscription peer_add/
// peer_remove": below 220 a guest hears neither a web-public channel's
// creation nor the subscriber changes of the public channels it sees
// (subscribed or web-public); from 220 it hears both.
func TestGuestWebPublicEventsFollowLevel(t *testing.T) {
	atLevels(t, []int{changeGuestWebPublicEvents.Level() - 1, changeGuestWebPublicEvents.Level()}, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idPolonius, QueueOptions{})
		// Verona: public, Polonius subscribed; Rome: web-public.
		if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}, {Name: "Rome"}},
			Principals: Principals{IDs: []int{idCordelia}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.As(idDesdemona).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "public square"}},
			IsWebPublic: true}); err != nil {
			t.Fatal(err)
		}
		peers, creates := 0, 0
		for _, ev := range pending(t, r, idPolonius, q, -1) {
			j := eventJSON(t, ev)
			switch {
			case ev.Type == "subscription" && j["op"] == "peer_add":
				peers += len(j["stream_ids"].([]any))
			case ev.Type == "stream" && j["op"] == "create":
				creates++
			}
		}
		has := level >= changeGuestWebPublicEvents.Level()
		if want := map[bool]int{true: 2, false: 0}[has]; peers != want {
			// Verona and Rome, for Cordelia.
			t.Errorf("level %d: the guest got %d peer_add channels, want %d", level, peers, want)
		}
		if want := map[bool]int{true: 1, false: 0}[has]; creates != want {
			t.Errorf("level %d: the guest got %d stream creates, want %d", level, creates, want)
		}
	})
}

// Rows 222 "event realm_user remove", "event realm_bot remove", "event
// realm_user update person_oneOf_8": below 222 a deactivation is
// realm_user remove (realm_bot remove too for a bot) and a reactivation
// realm_user add; from 222 both are a realm_user update of is_active.
func TestActivationEventsFollowLevel(t *testing.T) {
	atLevels(t, []int{changeActiveUpdates.Level() - 1, changeActiveUpdates.Level()}, func(t *testing.T, r *Realm, level int) {
		q := mustQueue(t, r, idIago, QueueOptions{})
		if err := r.As(idIago).DeactivateUser(bg, idDefaultBot); err != nil {
			t.Fatal(err)
		}
		if err := r.As(idIago).ReactivateUser(bg, idDefaultBot); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ev := range pending(t, r, idIago, q, -1) {
			j := eventJSON(t, ev)
			if ev.Type != "realm_user" && ev.Type != "realm_bot" {
				continue
			}
			person, _ := j["person"].(map[string]any)
			if person == nil {
				person, _ = j["bot"].(map[string]any)
			}
			if person == nil || person["user_id"] != float64(idDefaultBot) {
				continue
			}
			s := ev.Type + " " + j["op"].(string)
			if active, ok := person["is_active"]; ok && j["op"] == "update" {
				s += map[bool]string{true: " active", false: " inactive"}[active.(bool)]
			}
			got = append(got, s)
		}
		want := []string{"realm_user update inactive", "realm_user update active"}
		if level < changeActiveUpdates.Level() {
			want = []string{"realm_user remove", "realm_bot remove", "realm_user add"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("level %d: %v, want %v", level, got, want)
		}
	})
}

// Row 192 "event stream create": a guest subscribed to a public channel
// it could not see hears of it by a stream create (before its
// subscription add) from 192, not below; a member subscribed to a
// private channel hears of it at every level (Zulip 6.0, level 134).
func TestSubscribeRevealsChannelsFollowingLevel(t *testing.T) {
	atLevels(t, []int{changeGuestSubscribeStreamCreate.Level() - 1, changeGuestSubscribeStreamCreate.Level()}, func(t *testing.T, r *Realm, level int) {
		guest := mustQueue(t, r, idPolonius, QueueOptions{})
		member := mustQueue(t, r, idOthello, QueueOptions{})
		for _, s := range []struct {
			channel string
			id      int
		}{{"Denmark", idPolonius}, {"core team", idOthello}} {
			if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: s.channel}},
				Principals: Principals{IDs: []int{s.id}}}); err != nil {
				t.Fatal(err)
			}
		}
		creates := func(id int, q *Queue) []string {
			var out []string
			for _, ev := range pending(t, r, id, q, -1) {
				j := eventJSON(t, ev)
				switch {
				case ev.Type == "stream" && j["op"] == "create":
					for _, s := range j["streams"].([]any) {
						out = append(out, "create "+s.(map[string]any)["name"].(string))
					}
				case ev.Type == "subscription" && j["op"] == "add":
					out = append(out, "add")
				}
			}
			return out
		}
		want := []string{"add"}
		if level >= changeGuestSubscribeStreamCreate.Level() {
			want = []string{"create Denmark", "add"}
		}
		if got := creates(idPolonius, guest); !slices.Equal(got, want) {
			t.Errorf("level %d: the guest got %v, want %v", level, got, want)
		}
		if got := creates(idOthello, member); !slices.Equal(got, []string{"create core team", "add"}) {
			t.Errorf("level %d: the member got %v", level, got)
		}
	})
}

// Row 284 "schema MessagesBase edit_history": a content edit's entry in
// a message object's edit_history carries prev_rendered_content_version
// (1) below 284, not from it; a topic edit's never does.
func TestEditHistoryRenderedVersionFollowsLevel(t *testing.T) {
	atLevels(t, []int{changePrevRenderedVersionRemoved.Level() - 1, changePrevRenderedVersionRemoved.Level()}, func(t *testing.T, r *Realm, level int) {
		sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", "t", "before")
		if err != nil {
			t.Fatal(err)
		}
		content, topicName := "after", "t2"
		if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: sent.ID, Content: &content}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.As(idIago).UpdateMessage(bg, UpdateMessageRequest{MessageID: sent.ID, Topic: &topicName}); err != nil {
			t.Fatal(err)
		}
		res, err := r.As(idIago).Messages(bg, FetchRequest{Anchor: Anchor{ID: sent.ID}, IncludeAnchor: true})
		if err != nil || len(res.Messages) != 1 {
			t.Fatalf("fetch: %v %v", res, err)
		}
		hist := res.Messages[0].EditHistory
		if len(hist) != 2 || hist[0].PrevTopic == nil || hist[1].PrevContent == nil {
			t.Fatalf("level %d: edit_history %+v", level, hist)
		}
		below := level < changePrevRenderedVersionRemoved.Level()
		if v := hist[1].PrevRenderedContentVersion; (v != nil) != below || v != nil && *v != 1 {
			t.Errorf("level %d: the content edit's prev_rendered_content_version %v", level, v)
		}
		if hist[0].PrevRenderedContentVersion != nil {
			t.Errorf("level %d: a topic edit has prev_rendered_content_version", level)
		}
	})
}

// Queues without the empty_topic_name capability hear the empty topic by
// the realm's display name in delete_message (bulk and single), typing
// and user_topic events, as Zulip sends to such clients; queues with it
// hear "". A named topic is the same for both.
func TestEventsNameTheEmptyTopicByCapability(t *testing.T) {
	r, _ := newTestRealm(t)
	display := r.topicRules().Display("", false)
	if display == "" {
		t.Fatal("no display name for the empty topic")
	}
	caps := func(empty, bulk bool) *Queue {
		return mustQueue(t, r, idIago, QueueOptions{Capabilities: ClientCapabilities{EmptyTopicName: empty,
			BulkMessageDeletion: bulk, StreamTypingNotifications: true}})
	}
	modern, legacy, legacySingle := caps(true, true), caps(false, true), caps(false, false)
	for _, topicName := range []string{"", "named"} {
		want := map[*Queue]string{modern: topicName, legacy: topicName, legacySingle: topicName}
		if topicName == "" {
			want[legacy], want[legacySingle] = display, display
		}
		sent, err := r.As(idIago).SendChannelMessage(bg, "Denmark", topicName, "x")
		if err != nil {
			t.Fatal(err)
		}
		if err := r.As(idHamlet).SetTyping(bg, TypingRequest{Type: "stream", Op: "start", StreamID: 2, Topic: str(topicName)}); err != nil {
			t.Fatal(err)
		}
		if err := r.As(idIago).SetUserTopic(bg, UserTopicRequest{ChannelID: 2, Topic: topicName, Policy: 1}); err != nil {
			t.Fatal(err)
		}
		if err := r.As(idIago).DeleteMessage(bg, sent.ID); err != nil {
			t.Fatal(err)
		}
		for q, w := range want {
			for typ, member := range map[string]string{"typing": "topic", "user_topic": "topic_name", "delete_message": "topic"} {
				evs := eventsOf(t, r, idIago, q, typ)
				if len(evs) == 0 {
					t.Fatalf("topic %q: queue %s has no %s event", topicName, q.ID(), typ)
				}
				if got := evs[len(evs)-1][member]; got != w {
					t.Errorf("topic %q: queue (empty_topic_name %v) got %s %s %q, want %q", topicName,
						q.Config().opts.Capabilities.EmptyTopicName, typ, member, got, w)
				}
			}
		}
	}
}
