package realm

import (
	"strings"
	"testing"
	"time"
)

// The options that start a realm's plan and settings seed a data
// directory's first start only: a later start, from the snapshot or
// through the journal's tables records, keeps the plan and the settings
// the realm had, even where the options' plan would refuse them.
func TestDataDirKeepsThePlanOverTheStartOptions(t *testing.T) {
	for _, clean := range []bool{false, true} {
		dir := t.TempDir()
		c := manualAt(t0)
		r, _ := openTestDir(t, dir, c, WithPlanType(PlanTypeLimited))
		must(t, r.SetPlanType(PlanTypeStandard))
		_, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{RealmPropertiesUpdate: RealmPropertiesUpdate{MessageRetentionDays: &RetentionDays{Days: 30}}})
		must(t, err)
		must(t, r.SetPlanType(PlanTypeSelfHosted))
		if clean {
			must(t, r.Close())
		} else {
			crash(r)
		}
		again, _ := openTestDir(t, dir, c, WithPlanType(PlanTypeLimited))
		if p, days := again.PlanType(), again.Settings().MessageRetentionDays; p != PlanTypeSelfHosted || days != 30 {
			t.Errorf("clean %v: plan %d, retention %d days after the restart; want self-hosted (1), 30", clean, p, days)
		}
		crash(again)
	}
}

// A restart loads what the realm kept even where its checks at loading
// would refuse it now: a scheduled direct message whose sender lost the
// right to start the conversation (Zulip keeps it and fails it when
// due), and a draft whose topic is longer than the limit the realm is
// started with now.
func TestDataDirKeepsWhatNoLongerPassesItsChecks(t *testing.T) {
	dir := t.TempDir()
	c := manualAt(t0)
	r, _ := openTestDir(t, dir, c)
	scheduled := scheduleIn(t, r, idHamlet, "["+itoa(idOthello)+"]", "", "later", 5*time.Minute)
	admins := NamedGroupSetting(r.groups.byName["role:administrators"].ID)
	_, err := r.As(idDesdemona).UpdateRealm(bg, RealmUpdate{GroupSettings: map[string]GroupSettingChange{"direct_message_initiator_group": {New: admins}}})
	must(t, err)
	long := strings.Repeat("t", 40)
	must(t, errOf(r.As(idHamlet).CreateDrafts(bg, []DraftInput{{Type: "stream", To: []int{channelID(t, r, "Verona")}, Topic: long, Content: "draft"}})))
	crash(r)
	limits := DefaultLimits()
	limits.MaxTopicLength = 20
	again, _ := openTestDir(t, dir, c, WithLimits(limits))
	defer crash(again)
	if again.opts.data.exactFollow {
		t.Error("the restarted realm would skip the scheduled messages and drafts of the fixtures it loads next")
	}
	list, err := again.As(idHamlet).ScheduledMessages(bg)
	must(t, err)
	if len(list) != 1 || list[0].ID != scheduled {
		t.Errorf("scheduled messages after the restart: %+v, want message %d", list, scheduled)
	}
	drafts, err := again.As(idHamlet).Drafts(bg)
	must(t, err)
	found := false
	for _, d := range drafts {
		found = found || d.Topic == long
	}
	if !found {
		t.Errorf("drafts after the restart: %+v, want the one of topic %q", drafts, long)
	}
}

// A send replayed after a tables record reaches the subscribers that
// record brought, not those a send replayed before it saw: the replay of
// a tables record moves the realm's generation, so that the derived
// subscribers of a channel are computed again.
func TestDataDirReplaysSendsAfterATablesRecordToItsSubscribers(t *testing.T) {
	dir := t.TempDir()
	r, _ := openTestDir(t, dir, manualAt(t0))
	send := func() int64 {
		t.Helper()
		res, err := r.As(idHamlet).SendChannelMessage(bg, "Verona", "t", "hello")
		must(t, err)
		return res.ID
	}
	before := send()
	must(t, errOf(r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Verona"}}, Principals: Principals{IDs: []int{idDefaultBot}}})))
	joined := send()
	crash(r)
	again, _ := openTestDir(t, dir, manualAt(t0))
	defer crash(again)
	if hasCopy(again, idDefaultBot, before) || !hasCopy(again, idDefaultBot, joined) {
		t.Errorf("the bot's copies after the restart: %v %v, want false true", hasCopy(again, idDefaultBot, before), hasCopy(again, idDefaultBot, joined))
	}
}
