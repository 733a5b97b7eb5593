package realm

import (
	"encoding/json"
	"testing"
)

// At the default level register's answer is encoded as it is, with no
// MarshalJSON pass over it; below a field's level, Wire leaves the field
// out while the Go value keeps it.
func TestRegisterWireFiltersOnlyBelowTheLevel(t *testing.T) {
	const newer = "realm_can_resolve_topics_group"
	for _, c := range []struct {
		level  int
		absent bool
	}{{DefaultFeatureLevel, false}, {300, true}} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, ""))
		res, err := r.As(idIago).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm"}})
		if err != nil {
			t.Fatal(err)
		}
		w := res.Wire()
		if _, isMarshaler := w.(json.Marshaler); isMarshaler != c.absent {
			t.Errorf("level %d: Wire is a %T (a Marshaler: %v)", c.level, w, isMarshaler)
		}
		var got, full map[string]any
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(b, &got)
		b, _ = json.Marshal(res)
		_ = json.Unmarshal(b, &full)
		if _, ok := got[newer]; ok == c.absent {
			t.Errorf("level %d: %s present %v, want %v", c.level, newer, ok, !c.absent)
		}
		if _, ok := full[newer]; !ok {
			t.Errorf("level %d: the Go value's JSON lacks %s", c.level, newer)
		}
		if got["queue_id"] != res.QueueID || got["realm_name"] == nil {
			t.Errorf("level %d: Wire's JSON lost the other fields: %v", c.level, got["queue_id"])
		}
	}
}
