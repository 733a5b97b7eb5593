package realm

import (
	"slices"
	"testing"

	"github.com/minizulip/minizulip/linkifier"
)

func linkifierIDs(t *testing.T, r *Realm) []int {
	t.Helper()
	list, err := r.As(idHamlet).Linkifiers(bg)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, l := range list {
		ids = append(ids, l.ID)
	}
	return ids
}

func TestSeededLinkifiers(t *testing.T) {
	r, _ := newTestRealm(t)
	list, _ := r.As(idHamlet).Linkifiers(bg)
	if len(list) != 3 || list[0].Pattern != `#D(?P<id>[0-9]{2,8})` || list[2].URLTemplate != "https://github.com/zulip/{repo}/pull/{id}" ||
		list[0].ReverseTemplate != nil || list[0].AlternativeURLTemplates == nil {
		t.Fatalf("seed %+v", list)
	}
}

func TestLinkifierLifecycleAndEvents(t *testing.T) {
	r, _ := newTestRealm(t)
	capable := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_linkifiers"}, Capabilities: ClientCapabilities{LinkifierURLTemplate: true}})
	legacy := mustQueue(t, r, idHamlet, QueueOptions{EventTypes: []string{"realm_linkifiers"}})
	a := r.As(idIago)
	id, err := a.AddLinkifier(bg, linkifier.Spec{Pattern: `(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)`,
		URLTemplate: "https://github.com/{org}/{repo}/pull/{id}", ExampleInput: str("zulip/zulip#1"), ReverseTemplate: str("{org}/{repo}#{id}")})
	if err != nil {
		t.Fatal(err)
	}
	evs := pending(t, r, idHamlet, capable, -1)
	if len(evs) != 1 || len(evs[0].Payload.(LinkifiersEvent).RealmLinkifiers) != 4 {
		t.Fatalf("capable queue %+v", evs)
	}
	if evs := pending(t, r, idHamlet, legacy, -1); len(evs) != 0 {
		t.Fatal("queues without linkifier_url_template get no linkifier events")
	}
	// Update: an empty reverse template resets it to none.
	if err := a.UpdateLinkifier(bg, id, linkifier.Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ReverseTemplate: str("")}); err != nil {
		t.Fatal(err)
	}
	list, _ := a.Linkifiers(bg)
	if l := list[3]; l.ID != id || l.Pattern != `#(?P<id>[0-9]+)` || l.ReverseTemplate != nil {
		t.Fatalf("updated %+v", l)
	}
	if err := a.ReorderLinkifiers(bg, []int{id, 3, 2, 1}); err != nil {
		t.Fatal(err)
	}
	if got := linkifierIDs(t, r); !slices.Equal(got, []int{id, 3, 2, 1}) {
		t.Fatalf("order %v", got)
	}
	if err := a.DeleteLinkifier(bg, 2); err != nil {
		t.Fatal(err)
	}
	if got := linkifierIDs(t, r); !slices.Equal(got, []int{id, 3, 1}) {
		t.Fatalf("after delete %v", got)
	}
	if r.Linkifiers()[0].ID != id {
		t.Fatal("the renderer sees the new order")
	}
}

func TestLinkifierRejections(t *testing.T) {
	r, _ := newTestRealm(t)
	a := r.As(idIago)
	before := linkifierIDs(t, r)
	cases := []struct {
		spec linkifier.Spec
		msg  string
	}{
		{linkifier.Spec{Pattern: `#(?P<id>[0-9+)`, URLTemplate: "https://x/{id}"}, "Bad regular expression"},
		{linkifier.Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{nope}"}, "Group 'nope' in URL template is not present in linkifier pattern."},
		{linkifier.Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id"}, "Invalid URL template."},
		{linkifier.Spec{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}", ExampleInput: str("#1"), ReverseTemplate: str("no{id}")}, "does not match the example input"},
		{linkifier.Spec{Pattern: `#D(?P<id>[0-9]{2,8})`, URLTemplate: "https://x/{id}"}, "already exists"},
	}
	for _, c := range cases {
		_, err := a.AddLinkifier(bg, c.spec)
		wantCode(t, err, CodeBadRequest, c.msg)
		wantCode(t, a.UpdateLinkifier(bg, 2, c.spec), CodeBadRequest, c.msg)
	}
	_, err := r.As(idHamlet).AddLinkifier(bg, linkifier.Spec{Pattern: `x(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}"})
	wantCode(t, err, CodeUnauthorizedPrincipal, "Must be an organization administrator")
	wantCode(t, a.UpdateLinkifier(bg, 99, linkifier.Spec{Pattern: `y(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}"}), CodeBadRequest, "Linkifier not found.")
	wantCode(t, a.DeleteLinkifier(bg, 99), CodeBadRequest, "Linkifier not found.")
	wantCode(t, a.ReorderLinkifiers(bg, []int{1, 2}), CodeBadRequest, "exactly once")
	wantCode(t, a.ReorderLinkifiers(bg, []int{1, 1, 2}), CodeBadRequest, "duplicated")
	wantCode(t, a.ReorderLinkifiers(bg, []int{1, 2, 99}), CodeBadRequest, "Linkifier not found.")
	list, _ := a.Linkifiers(bg)
	if got := linkifierIDs(t, r); !slices.Equal(got, before) || list[0].URLTemplate != "https://github.com/zulip/zulip-desktop/pull/{id}" {
		t.Fatalf("rejected changes altered linkifiers: %v", got)
	}
}
