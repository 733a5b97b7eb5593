package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// MarkOnboardingStepSeen answers POST /users/me/onboarding_steps (POST
// /users/me/hotspots below feature level 233, its parameter hotspot):
// the caller has seen the step, which leaves the caller's list; the
// caller's queues get the list that remains. Marking a step seen twice
// changes nothing but is not refused, as in Zulip. Bots are refused
// (Zulip's human_users_only, before the parameter is read), and so are
// names the level does not know; nil is the parameter missing.
func (a *Actor) MarkOnboardingStepSeen(ctx context.Context, step *string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if me.IsBot() {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		if step == nil {
			if !r.has(changeOnboardingSteps) {
				return VariableMissing("hotspot")
			}
			return VariableMissing("onboarding_step")
		}
		name := *step
		if !r.knownOnboardingStep(name) {
			if !r.has(changeOnboardingSteps) {
				return BadRequest("Unknown hotspot: %s", name)
			}
			return BadRequest("Unknown onboarding_step: %s", name)
		}
		r.onboarding.mark(me.ID, name)
		r.emitOnboardingSteps(me.ID)
		return nil
	})
}

// SetOnboardingStepsSeen makes the steps named (hotspots and one-time
// notices of any level, see fixture.OnboardingSteps) the ones the user
// has seen, replacing those marked before, without a permission check:
// for tests and embedders that start a user part way through the
// onboarding (nil: a user who has seen none, as one just created). The
// user's queues get the new list.
func (r *Realm) SetOnboardingStepsSeen(userID int, seen []string) error {
	return r.update(func() error {
		if r.realmUser(userID) == nil {
			return noSuchUser()
		}
		if err := checkStepNames("seen", seen); err != nil {
			return err
		}
		delete(r.onboarding.byUser, userID)
		for _, name := range seen {
			r.onboarding.mark(userID, name)
		}
		r.emitOnboardingSteps(userID)
		return nil
	})
}

// checkStepNames refuses a list of step names with a name no level
// knows, or a name twice.
func checkStepNames(at string, names []string) error {
	all := allOnboardingStepNames()
	for i, name := range names {
		if !slices.Contains(all, name) {
			return badItem(fmt.Sprintf("%s[%d]", at, i), "Unknown onboarding_step: %s", name)
		}
		if slices.Contains(names[:i], name) {
			return badItem(fmt.Sprintf("%s[%d]", at, i), "onboarding step %s listed twice", name)
		}
	}
	return nil
}

// onboardingTable holds the onboarding steps each user has marked seen,
// in the order marked: at most every step name of any level per user.
type onboardingTable struct {
	byUser map[int][]string
}

func (t *onboardingTable) clone() onboardingTable {
	return onboardingTable{byUser: cloneNested(t.byUser, func(s string) string { return s })}
}

// mark records that userID has seen the step, once.
func (t *onboardingTable) mark(userID int, name string) {
	if slices.Contains(t.byUser[userID], name) {
		return
	}
	if t.byUser == nil {
		t.byUser = map[int][]string{}
	}
	t.byUser[userID] = append(t.byUser[userID], name)
}

// seenBy is the set of steps userID has seen.
func (t *onboardingTable) seenBy(userID int) map[string]bool {
	out := make(map[string]bool, len(t.byUser[userID]))
	for _, name := range t.byUser[userID] {
		out[name] = true
	}
	return out
}

// seedDev marks every step of every level seen for the users the seed
// created, as Zulip's populate_db does for the dev realm's users.
func (t *onboardingTable) seedDev(users []*user.User) {
	for _, u := range users {
		if u.IsSystemBot { // (of Zulip's internal realm)
			continue
		}
		for _, name := range allOnboardingStepNames() {
			t.mark(u.ID, name)
		}
	}
}

// dump adds each user's seen steps to f, by user.
func (t *onboardingTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(t.byUser)) {
		if seen := t.byUser[uid]; len(seen) > 0 {
			f.OnboardingSteps = append(f.OnboardingSteps, fixture.OnboardingSteps{UserID: uid, Seen: slices.Clone(seen)})
		}
	}
	return nil
}

// load reads the users' seen steps: users of the realm, each once,
// with step names some level knows, each once.
func (t *onboardingTable) load(r *Realm, f *fixture.Document) error {
	for i, fs := range f.OnboardingSteps {
		at := fmt.Sprintf("onboarding_steps[%d]", i)
		if r.realmUser(fs.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fs.UserID)
		}
		if _, twice := t.byUser[fs.UserID]; twice {
			return badItem(at+".user_id", "user %d listed twice", fs.UserID)
		}
		if err := checkStepNames(at+".seen", fs.Seen); err != nil {
			return err
		}
		if t.byUser == nil {
			t.byUser = map[int][]string{}
		}
		t.byUser[fs.UserID] = slices.Clone(fs.Seen)
	}
	return nil
}

// register fills the section when the event type of the realm's level
// is fetched: hotspots below 233, onboarding_steps from it (Zulip's
// want() knows only its own name).
func (t *onboardingTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	name := "onboarding_steps"
	if !r.has(changeOnboardingSteps) {
		name = "hotspots"
	}
	if req.fetches(name) {
		out.OnboardingStepsState = r.onboardingSteps(me.ID)
	}
}
