package realm

import (
	"testing"
)

func TestNavigationViews(t *testing.T) {
	r, _ := newTestRealm(t)
	hq := mustQueue(t, r, idHamlet, QueueOptions{})
	iq := mustQueue(t, r, idIago, QueueOptions{})
	a := r.As(idHamlet)
	if err := a.AddNavigationView(bg, " narrow/is/starred ", false, nil); err != nil {
		t.Fatal(err)
	}
	if err := a.AddNavigationView(bg, "narrow/is/alerted", true, str(" Alert words ")); err != nil {
		t.Fatal(err)
	}
	list, _ := a.NavigationViews(bg)
	if len(list) != 2 || list[0].Fragment != "narrow/is/starred" || list[0].Name != nil || list[0].IsPinned ||
		list[1].Fragment != "narrow/is/alerted" || *list[1].Name != "Alert words" || !list[1].IsPinned {
		t.Fatalf("views %+v", list)
	}
	if other, _ := r.As(idIago).NavigationViews(bg); len(other) != 0 {
		t.Fatalf("iago sees hamlet's views: %+v", other)
	}
	// Refusals change nothing.
	for _, c := range []struct {
		fragment string
		name     *string
		msg      string
	}{
		{"  ", nil, "fragment cannot be blank"},
		{"inbox", str("Mine"), "Built-in views cannot have a custom name."},
		{"narrow/channel/3", nil, "Custom views must have a valid name."},
		{"narrow/channel/3", str("  "), "name cannot be blank"},
		{"narrow/is/starred", nil, "Navigation view already exists."},
		{"narrow/channel/3", str("Alert words"), "Navigation view already exists."},
	} {
		wantCode(t, a.AddNavigationView(bg, c.fragment, true, c.name), CodeBadRequest, c.msg)
	}
	if err := a.UpdateNavigationView(bg, "narrow/is/alerted", NavigationViewUpdate{Name: str("Watched"), IsPinned: boolPtr(false)}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, a.UpdateNavigationView(bg, "narrow/is/starred", NavigationViewUpdate{Name: str("Stars")}), CodeBadRequest, "Built-in views cannot have a custom name.")
	wantCode(t, a.UpdateNavigationView(bg, "narrow/is/alerted", NavigationViewUpdate{Name: str("Watched")}), CodeBadRequest, "Navigation view already exists.")
	e := wantCode(t, a.UpdateNavigationView(bg, "narrow/nothing", NavigationViewUpdate{IsPinned: boolPtr(true)}), CodeBadRequest, "Navigation view does not exist.")
	if e.Status != 404 {
		t.Fatalf("status %d", e.Status)
	}
	if err := a.DeleteNavigationView(bg, "narrow/is/starred"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, a.DeleteNavigationView(bg, "narrow/is/starred"), CodeBadRequest, "Navigation view does not exist.")
	list, _ = a.NavigationViews(bg)
	if len(list) != 1 || *list[0].Name != "Watched" || list[0].IsPinned {
		t.Fatalf("views %+v", list)
	}
	var ops []string
	for _, ev := range eventsOfType(t, r, idHamlet, hq, "navigation_view") {
		ops = append(ops, ev["op"].(string))
		if ev["op"] == "update" {
			if d := ev["data"].(map[string]any); ev["fragment"] != "narrow/is/alerted" || d["name"] != "Watched" || d["is_pinned"] != false {
				t.Fatalf("update event %v", ev)
			}
		}
	}
	if len(ops) != 4 || ops[0] != "add" || ops[1] != "add" || ops[2] != "update" || ops[3] != "remove" {
		t.Fatalf("events %v", ops)
	}
	if evs := eventsOfType(t, r, idIago, iq, "navigation_view"); len(evs) != 0 {
		t.Fatalf("iago got %v", evs)
	}
	// Register, from feature level 390.
	res, err := a.Register(bg, RegisterRequest{FetchEventTypes: []string{"navigation_views"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.NavigationViewsState == nil || len(res.NavigationViews) != 1 {
		t.Fatalf("register %+v", res.NavigationViewsState)
	}
	old, _ := newTestRealm(t, WithFeatureLevel(389, "11.0-dev"))
	res, _ = old.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"navigation_views"}})
	if res.NavigationViewsState != nil {
		t.Fatal("navigation_views before level 390")
	}
}
