package realm

import "testing"

// Sending follows a topic automatically (automatically_follow_topics_policy
// "on initiation", the default) only when the topic holds no earlier
// message the sender can see: in a channel whose history the sender may
// read, that is any earlier message; in a private channel with protected
// history, only those the sender received.
func TestSendFollowsTopicOnlyOnInitiation(t *testing.T) {
	r, _ := newTestRealm(t)
	policyOf := func(sender int, channel, topicName string) *int {
		t.Helper()
		res, err := r.As(sender).SendChannelMessage(bg, channel, topicName, "hello")
		if err != nil {
			t.Fatal(err)
		}
		return res.AutomaticNewVisibilityPolicy
	}
	if p := policyOf(idHamlet, "Verona", "fresh"); p == nil || *p != PolicyFollowed {
		t.Fatalf("first message of a topic: policy %v, want followed", p)
	}
	if p := policyOf(idOthello, "Verona", "fresh"); p != nil {
		t.Fatalf("second sender in a public topic: policy %d, want none", *p)
	}

	if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "vault"}}, InviteOnly: true,
		Principals: Principals{IDs: []int{idIago, idHamlet}}}); err != nil {
		t.Fatal(err)
	}
	policyOf(idIago, "vault", "plans")
	if _, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "vault"}},
		Principals: Principals{IDs: []int{idOthello}}}); err != nil {
		t.Fatal(err)
	}
	if p := policyOf(idOthello, "vault", "plans"); p == nil || *p != PolicyFollowed {
		t.Fatalf("newcomer to a protected-history topic: policy %v, want followed", p)
	}
	if p := policyOf(idHamlet, "vault", "plans"); p != nil {
		t.Fatalf("subscriber who received the earlier message: policy %d, want none", *p)
	}
}
