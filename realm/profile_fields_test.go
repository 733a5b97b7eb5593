package realm

import "testing"

// Custom profile field IDs start at 1 in any realm, as Zulip's do: an
// empty realm too, not only the dev realm and loaded fixtures, which set
// the counter from their fields.
func TestProfileFieldIDsStartAtOne(t *testing.T) {
	r := New(WithSeed(SeedEmpty))
	if got := r.profileFields.nextID; got != 1 {
		t.Fatalf("an empty realm's next profile field ID is %d, want 1", got)
	}
}
