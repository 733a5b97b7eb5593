package realm

import (
	"strings"
	"testing"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/clock"
)

// Scheduling a direct message applies the rules a send applies (Zulip's
// check_schedule_message runs check_message): recipients the sender may
// not access, direct_message_permission_group and
// direct_message_initiator_group refuse it and store nothing.
func TestSchedulingADirectMessageAppliesTheDMRules(t *testing.T) {
	r := restrictedRealm(t, 496)
	at := r.Now().Add(time.Hour).Unix()
	dm := func(to string) ScheduledMessageInput {
		return ScheduledMessageInput{Type: "direct", To: to, Content: "later", DeliverAt: at}
	}
	wantCode(t, errOf(r.As(idPolonius).CreateScheduledMessage(bg, dm("[11]"))), CodeBadRequest,
		"You do not have permission to access some of the recipients.")
	r.UpdateSettings(func(s *Settings) { s.DirectMessageInitiatorGroup = NamedGroupSetting(gidAdministrators) })
	wantCode(t, errOf(r.As(idHamlet).CreateScheduledMessage(bg, dm("[12]"))), CodeBadRequest,
		"You do not have permission to initiate direct message conversations.")
	r.UpdateSettings(func(s *Settings) {
		s.DirectMessageInitiatorGroup = NamedGroupSetting(gidEveryone)
		s.DirectMessagePermissionGroup = NamedGroupSetting(gidAdministrators)
	})
	wantCode(t, errOf(r.As(idHamlet).CreateScheduledMessage(bg, dm("[12]"))), CodeBadRequest,
		"This conversation does not include any users who can authorize it.")
	if len(r.scheduled.byID) != 0 {
		t.Fatalf("refused requests stored %d items", len(r.scheduled.byID))
	}
	// A conversation with messages may be continued by anyone.
	r.UpdateSettings(func(s *Settings) {
		s.DirectMessagePermissionGroup = NamedGroupSetting(gidEveryone)
		s.DirectMessageInitiatorGroup = NamedGroupSetting(gidAdministrators)
	})
	if _, err := r.As(idIago).SendMessage(bg, SendRequest{Type: "direct", To: message.To{UserIDs: []int{idHamlet}}, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.As(idHamlet).CreateScheduledMessage(bg, dm("[11]")); err != nil {
		t.Fatalf("answering a conversation: %v", err)
	}
}

// A scheduled direct message is checked again when it falls due: a rule
// that now refuses it marks it failed, sends the sender a
// scheduled_messages update and Notification Bot's notice quoting the
// error, as Zulip's send_failed_scheduled_message_notification does.
func TestScheduledDirectMessageRecheckedAtDelivery(t *testing.T) {
	for _, c := range []struct {
		name, want string
		sender, to int
		change     func(r *Realm)
	}{
		{"access lost", "You do not have permission to access some of the recipients.", idPolonius, idHamlet, func(r *Realm) {
			if _, err := r.As(idHamlet).Unsubscribe(bg, UnsubscribeRequest{Channels: []string{"guests"}}); err != nil {
				t.Fatal(err)
			}
		}},
		{"permission group", "This conversation does not include any users who can authorize it.", idHamlet, idOthello, func(r *Realm) {
			r.UpdateSettings(func(s *Settings) { s.DirectMessagePermissionGroup = NamedGroupSetting(gidAdministrators) })
		}},
		{"initiator group", "You do not have permission to initiate direct message conversations.", idHamlet, idOthello, func(r *Realm) {
			r.UpdateSettings(func(s *Settings) { s.DirectMessageInitiatorGroup = NamedGroupSetting(gidAdministrators) })
		}},
		{"deactivated recipient", "' is no longer using Zulip.", idHamlet, idOthello, func(r *Realm) {
			if err := r.As(idIago).DeactivateUser(bg, idOthello); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := restrictedRealm(t, 496)
			clk := r.baseClock().(*clock.Manual)
			id := scheduleIn(t, r, c.sender, "["+itoa(c.to)+"]", "", "later", 5*time.Minute)
			c.change(r)
			q := mustQueue(t, r, c.sender, QueueOptions{EventTypes: []string{"scheduled_messages", "message"}})
			count := r.messages.nextID
			clk.Advance(5 * time.Minute)
			it := r.scheduled.byID[id]
			if it == nil || !it.failed || !strings.Contains(it.failure, c.want) {
				t.Fatalf("item %+v, want failed with %q", it, c.want)
			}
			if r.messages.nextID != count+1 {
				t.Fatalf("%d messages stored, want only the notice", r.messages.nextID-count)
			}
			notice := newestMessage(t, r)
			when := time.Unix(it.deliverAt, 0).UTC().Format("2006-01-02 15:04:05+00:00")
			want := "The message you scheduled for <time:" + when + ">  was not sent because of the following error:\n\n> " +
				it.failure + "\n\n[View scheduled messages](#scheduled)"
			if notice.SenderID != idNotificationBot || notice.Content != want {
				t.Fatalf("notice %q from %d, want %q", notice.Content, notice.SenderID, want)
			}
			evs := pending(t, r, c.sender, q, -1)
			if ops := eventOps(t, evs, "scheduled_messages"); strings.Join(ops, ",") != "update" {
				t.Fatalf("scheduled_messages events %v", ops)
			}
			for _, ev := range evs {
				if ev.Type == "scheduled_messages" {
					if j := eventJSON(t, ev)["scheduled_message"].(map[string]any); j["failed"] != true || j["scheduled_message_id"] != float64(id) {
						t.Fatalf("update %v", j)
					}
				}
			}
		})
	}
}
