package realm

import "testing"

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
