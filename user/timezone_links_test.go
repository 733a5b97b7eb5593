package user

import "testing"

// Every alias and every zone it names is a zone Go knows, and no alias
// names another alias, so one lookup gives the canonical name.
func TestTimezoneLinksResolve(t *testing.T) {
	for alias, zone := range timezoneLinks {
		if !ValidTimezone(alias) || !ValidTimezone(zone) {
			t.Errorf("%s → %s: not both known to time.LoadLocation", alias, zone)
		}
		if _, ok := timezoneLinks[zone]; ok {
			t.Errorf("%s → %s names another alias", alias, zone)
		}
	}
	if CanonicalTimezone("US/Pacific") != "America/Los_Angeles" || CanonicalTimezone("Gondor/Minas_Tirith") != "Gondor/Minas_Tirith" {
		t.Error("CanonicalTimezone")
	}
}
