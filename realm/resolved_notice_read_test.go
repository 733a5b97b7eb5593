package realm

import (
	"testing"

	"github.com/minizulip/minizulip/message"
)

// lastNotice is the ID of Notification Bot's newest message.
func lastNotice(t *testing.T, r *Realm) int64 {
	t.Helper()
	var id int64
	_ = r.view(func() error {
		r.messages.store.Sender(idNotificationBot).Down(AnchorNewest, func(m *message.Message) bool { id = m.ID; return false })
		return nil
	})
	return id
}

// Whether a resolve notice arrives read follows each reader's
// resolved_topic_notice_auto_read_policy from feature level 385; below,
// it is unread for the moved messages' participants only, whatever the
// setting.
func TestResolvedNoticeReadFollowsFeatureLevel(t *testing.T) {
	for _, level := range []int{384, 385} {
		t.Run(itoa(level), func(t *testing.T) {
			r, _ := newTestRealm(t, WithFeatureLevel(level, "test"))
			set := func(uid int, policy string) {
				t.Helper()
				// Below 385 HTTP clients cannot send it (the parameter
				// gate); set through Go, it changes nothing there.
				err := r.As(uid).UpdateSettings(bg, SettingsUpdate{Settings: map[string]any{"resolved_topic_notice_auto_read_policy": policy}})
				if err != nil {
					t.Fatal(err)
				}
			}
			set(idOthello, "never")  // neither participant nor follower
			set(idIago, "always")    // a participant below: unread there
			set(idProspero, "never") // the resolver: reads his own notice
			a := send(t, r, idHamlet, "Denmark", "bug", "broken")
			send(t, r, idIago, "Denmark", "bug", "indeed")
			if err := r.As(idDesdemona).SetUserTopic(bg, UserTopicRequest{ChannelID: 2, Topic: "bug", Policy: PolicyFollowed}); err != nil {
				t.Fatal(err)
			}
			if err := edit(r, idProspero, UpdateMessageRequest{MessageID: a, Topic: str("✔ bug"), PropagateMode: ChangeAll}); err != nil {
				t.Fatal(err)
			}
			notice := lastNotice(t, r)
			want := map[int]bool{ // unread
				idHamlet: true, idIago: true, idOthello: false, idDesdemona: false, idProspero: false, idShiva: false}
			if level >= 385 {
				// Hamlet follows the topic he started and keeps the
				// default except_followed, as Desdemona does; Iago reads
				// always, Othello never.
				want = map[int]bool{idHamlet: true, idIago: false, idOthello: true, idDesdemona: true, idProspero: false, idShiva: false}
			}
			for uid, wantUnread := range want {
				if unread := flagsOf(t, r, uid, notice)&message.Read == 0; unread != wantUnread {
					t.Errorf("user %d: notice unread = %v, want %v", uid, unread, wantUnread)
				}
			}
		})
	}
}
