package realm

import (
	"slices"
	"testing"
)

// unreadOf registers for hamlet and returns his unread_msgs.
func unreadOf(t *testing.T, r *Realm, userID int, emptyTopicName bool) UnreadMessages {
	t.Helper()
	var q QueueOptions
	q.Capabilities.EmptyTopicName = emptyTopicName
	res, err := r.As(userID).Register(bg, RegisterRequest{Queue: q, FetchEventTypes: []string{"message", "update_message_flags"}})
	if err != nil {
		t.Fatal(err)
	}
	return res.UnreadState.UnreadMsgs
}

func channelIDOf(t *testing.T, r *Realm, name string) int {
	t.Helper()
	id, err := r.As(idIago).ChannelID(bg, name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func sendTo(t *testing.T, r *Realm, from int, channel, topicName, content string) int64 {
	t.Helper()
	res, err := r.As(from).SendChannelMessage(bg, channel, topicName, content)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// count leaves out the messages of muted channels and topics, which
// streams still lists; a wildcard mention there is no mention either,
// but a mention by name is.
func TestUnreadCountLeavesOutMutedMessages(t *testing.T) {
	r, _ := newTestRealm(t)
	before := unreadOf(t, r, idHamlet, false)
	denmark, verona := channelIDOf(t, r, "Denmark"), channelIDOf(t, r, "Verona")
	if err := r.As(idHamlet).SetUserTopic(bg, UserTopicRequest{ChannelID: denmark, Topic: "muted", Policy: PolicyMuted}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).UpdateSubscriptionProperties(bg, []SubscriptionPropertyChange{{ChannelID: verona, Property: "is_muted", Value: true}}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).SetUserTopic(bg, UserTopicRequest{ChannelID: verona, Topic: "unmuted", Policy: PolicyUnmuted}); err != nil {
		t.Fatal(err)
	}
	plain := sendTo(t, r, idIago, "Denmark", "open", "hello")
	inMutedTopic := sendTo(t, r, idIago, "Denmark", "muted", "hello")
	wildcardMuted := sendTo(t, r, idIago, "Denmark", "muted", "@**all** hello")
	namedMuted := sendTo(t, r, idIago, "Denmark", "muted", "@**King Hamlet** hello")
	inMutedChannel := sendTo(t, r, idIago, "Verona", "anything", "hello")
	unmutedTopic := sendTo(t, r, idIago, "Verona", "unmuted", "@**all** hello")

	got := unreadOf(t, r, idHamlet, false)
	// plain and the unmuted topic's message count; the four in muted places do not.
	if got.Count != before.Count+2 {
		t.Errorf("count %d, want %d (before) + 2", got.Count, before.Count)
	}
	listed := map[int64]bool{}
	for _, s := range got.Streams {
		for _, id := range s.UnreadMessageIDs {
			listed[id] = true
		}
	}
	for _, id := range []int64{plain, inMutedTopic, wildcardMuted, namedMuted, inMutedChannel, unmutedTopic} {
		if !listed[id] {
			t.Errorf("message %d missing from streams", id)
		}
	}
	for id, want := range map[int64]bool{namedMuted: true, unmutedTopic: true, wildcardMuted: false, plain: false} {
		if slices.Contains(got.Mentions, id) != want {
			t.Errorf("mentions %v: message %d listed = %v, want %v", got.Mentions, id, !want, want)
		}
	}
}

// Topics group case-insensitively and come by channel ID and topic;
// direct conversations by the other user's ID and by user ID list.
func TestUnreadMessagesOrder(t *testing.T) {
	r, _ := newTestRealm(t)
	before := unreadOf(t, r, idHamlet, false)
	denmark, verona := channelIDOf(t, r, "Denmark"), channelIDOf(t, r, "Verona")
	first := sendTo(t, r, idIago, "Verona", "Zebra", "1")
	second := sendTo(t, r, idIago, "Verona", "apple", "2")
	third := sendTo(t, r, idIago, "Verona", "zebra", "3")
	fourth := sendTo(t, r, idIago, "Denmark", "middle", "4")
	for _, from := range []int{idOthello, idCordelia} {
		if _, err := r.As(from).SendDirectMessage(bg, []int{idHamlet}, "hi"); err != nil {
			t.Fatal(err)
		}
	}
	for _, group := range [][]int{{idHamlet, idOthello, idIago}, {idHamlet, idCordelia, idIago}} {
		if _, err := r.As(idIago).SendDirectMessage(bg, group, "hi all"); err != nil {
			t.Fatal(err)
		}
	}
	got := unreadOf(t, r, idHamlet, false)
	var streams []unreadStream
	for _, s := range got.Streams {
		if s.StreamID == denmark || s.StreamID == verona {
			streams = append(streams, s)
		}
	}
	type entry struct {
		channel int
		topic   string
		ids     []int64
	}
	want := []entry{{denmark, "middle", []int64{fourth}}, {verona, "apple", []int64{second}}, {verona, "Zebra", []int64{first, third}}}
	if denmark > verona {
		want = append(want[1:], want[0])
	}
	if len(streams) != len(want)+countIn(before.Streams, denmark, verona) {
		t.Fatalf("streams %+v, want %+v", streams, want)
	}
	i := 0
	for _, s := range streams {
		if !slices.ContainsFunc(want, func(e entry) bool { return e.channel == s.StreamID && e.topic == s.Topic }) {
			continue
		}
		if w := want[i]; s.StreamID != w.channel || s.Topic != w.topic || !slices.Equal(s.UnreadMessageIDs, w.ids) {
			t.Errorf("streams[%d] = %+v, want %+v", i, s, w)
		}
		i++
	}
	if !slices.IsSortedFunc(got.PMs, func(a, b unreadDM) int { return a.OtherUserID - b.OtherUserID }) || len(got.PMs) < 2 {
		t.Errorf("pms not by other user: %+v", got.PMs)
	}
	if !slices.IsSortedFunc(got.Huddles, func(a, b unreadHuddle) int {
		switch {
		case a.UserIDsString < b.UserIDsString:
			return -1
		case a.UserIDsString > b.UserIDsString:
			return 1
		}
		return 0
	}) || len(got.Huddles) < 2 {
		t.Errorf("huddles not by user ID list: %+v", got.Huddles)
	}
}

func countIn(streams []unreadStream, ids ...int) int {
	n := 0
	for _, s := range streams {
		if slices.Contains(ids, s.StreamID) {
			n++
		}
	}
	return n
}

// The empty topic shows as itself only to clients that can show it.
func TestUnreadEmptyTopicFollowsTheCapability(t *testing.T) {
	r, _ := newTestRealm(t)
	sendTo(t, r, idIago, "Denmark", "", "hello")
	denmark := channelIDOf(t, r, "Denmark")
	topicOf := func(capable bool) string {
		for _, s := range unreadOf(t, r, idHamlet, capable).Streams {
			if s.StreamID == denmark && len(s.UnreadMessageIDs) > 0 {
				return s.Topic
			}
		}
		t.Fatal("no unread Denmark topic")
		return ""
	}
	if got := topicOf(true); got != "" {
		t.Errorf("capable client sees topic %q, want \"\"", got)
	}
	if got, want := topicOf(false), r.topicRules().Display("", false); got != want || got == "" {
		t.Errorf("other client sees topic %q, want %q", got, want)
	}
}
