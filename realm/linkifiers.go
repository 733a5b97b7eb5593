package realm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// Linkifier is a linkifier as GET /realm/linkifiers and register return it.
type Linkifier struct {
	ID                      int      `json:"id"`
	Pattern                 string   `json:"pattern"`
	URLTemplate             string   `json:"url_template"`
	ExampleInput            *string  `json:"example_input"`
	ReverseTemplate         *string  `json:"reverse_template"`
	AlternativeURLTemplates []string `json:"alternative_url_templates"`
}

// devLinkifiers are the dev realm's seeded linkifiers, in order.
var devLinkifiers = []linkifier.Spec{
	{Pattern: `#D(?P<id>[0-9]{2,8})`, URLTemplate: "https://github.com/zulip/zulip-desktop/pull/{id}"},
	{Pattern: `zulip-mobile#(?P<id>[0-9]{2,8})`, URLTemplate: "https://github.com/zulip/zulip-mobile/pull/{id}"},
	{Pattern: `zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})`, URLTemplate: "https://github.com/zulip/{repo}/pull/{id}"},
}

// seedLinkifiers stores the dev realm's linkifiers.
func (r *Realm) seedLinkifiers() {
	for _, spec := range devLinkifiers {
		l, err := linkifier.New(r.linkifiers.nextID, spec)
		if err != nil {
			panic("minizulip: bad seed linkifier: " + err.Error())
		}
		r.linkifiers.nextID++
		r.linkifiers.list = append(r.linkifiers.list, l)
	}
}

// linkifierView builds the API object of l.
func linkifierView(l *linkifier.Linkifier) Linkifier {
	alts := l.Spec.AlternativeURLTemplates
	if alts == nil {
		alts = []string{}
	}
	return Linkifier{ID: l.ID, Pattern: l.Spec.Pattern, URLTemplate: l.Spec.URLTemplate,
		ExampleInput: l.Spec.ExampleInput, ReverseTemplate: l.Spec.ReverseTemplate, AlternativeURLTemplates: alts}
}

// linkifierList is the ordered list of the realm's linkifiers.
func (r *Realm) linkifierList() []Linkifier {
	out := make([]Linkifier, len(r.linkifiers.list))
	for i, l := range r.linkifiers.list {
		out[i] = linkifierView(l)
	}
	return out
}

// Linkifiers returns the realm's compiled linkifiers in order; they are
// immutable, so the slice may be used after the lock is released.
func (r *Realm) Linkifiers() []*linkifier.Linkifier {
	var list []*linkifier.Linkifier
	_ = r.view(func() error {
		list = slices.Clone(r.linkifiers.list)
		return nil
	})
	return list
}

// Linkifiers answers GET /realm/linkifiers.
func (a *Actor) Linkifiers(ctx context.Context) (list []Linkifier, err error) {
	err = a.read(ctx, func(*user.User) error {
		list = a.r.linkifierList()
		return nil
	})
	return list, err
}

// AddLinkifier answers POST /realm/filters (administrators only).
func (a *Actor) AddLinkifier(ctx context.Context, spec linkifier.Spec) (id int, err error) {
	r := a.r
	err = a.writeAdmin(ctx, func(*user.User) error {
		l, err := r.checkLinkifier(r.linkifiers.nextID, spec, 0)
		if err != nil {
			return err
		}
		r.linkifiers.nextID++
		r.linkifiers.list = append(r.linkifiers.list, l)
		r.emitLinkifiers()
		id = l.ID
		return nil
	})
	return id, err
}

// UpdateLinkifier answers PATCH /realm/filters/{id}; an empty reverse
// template resets it to none.
func (a *Actor) UpdateLinkifier(ctx context.Context, id int, spec linkifier.Spec) error {
	r := a.r
	return a.writeAdmin(ctx, func(*user.User) error {
		i := r.linkifierIndex(id)
		if i < 0 {
			return BadRequest("Linkifier not found.")
		}
		l, err := r.checkLinkifier(id, spec, id)
		if err != nil {
			return err
		}
		r.linkifiers.list[i] = l
		r.emitLinkifiers()
		return nil
	})
}

// DeleteLinkifier answers DELETE /realm/filters/{id}.
func (a *Actor) DeleteLinkifier(ctx context.Context, id int) error {
	r := a.r
	return a.writeAdmin(ctx, func(*user.User) error {
		i := r.linkifierIndex(id)
		if i < 0 {
			return BadRequest("Linkifier not found.")
		}
		r.linkifiers.list = slices.Delete(r.linkifiers.list, i, i+1)
		r.emitLinkifiers()
		return nil
	})
}

// ReorderLinkifiers answers PATCH /realm/linkifiers: ids must list every
// linkifier exactly once, in the new order.
func (a *Actor) ReorderLinkifiers(ctx context.Context, ids []int) error {
	return a.writeAdmin(ctx, func(*user.User) error { return a.r.reorderLinkifiers(ids) })
}

// reorderLinkifiers checks and applies a new order.
func (r *Realm) reorderLinkifiers(ids []int) error {
	seen := map[int]bool{}
	for _, id := range ids {
		if seen[id] {
			return BadRequest("The ordered list must not contain duplicated linkifiers")
		}
		seen[id] = true
		if r.linkifierIndex(id) < 0 {
			return BadRequest("Linkifier not found.")
		}
	}
	if len(ids) != len(r.linkifiers.list) {
		return BadRequest("The ordered list must enumerate all existing linkifiers exactly once")
	}
	ordered := make([]*linkifier.Linkifier, len(ids))
	for i, id := range ids {
		ordered[i] = r.linkifiers.list[r.linkifierIndex(id)]
	}
	r.linkifiers.list = ordered
	r.emitLinkifiers()
	return nil
}

// checkLinkifier validates a linkifier, refusing a pattern another one
// (other than selfID) already has.
func (r *Realm) checkLinkifier(id int, spec linkifier.Spec, selfID int) (*linkifier.Linkifier, error) {
	err := cmp.Or(noNull("pattern", spec.Pattern), noNull("url_template", spec.URLTemplate),
		noNullIn("example_input", spec.ExampleInput), noNullIn("reverse_template", spec.ReverseTemplate))
	for i, t := range spec.AlternativeURLTemplates {
		err = cmp.Or(err, noNull(fmt.Sprintf("alternative_url_templates[%d]", i), t))
	}
	if err != nil {
		return nil, err
	}
	l, err := linkifier.New(id, spec)
	if err != nil {
		var ve linkifier.ValidationError
		if errors.As(err, &ve) {
			return nil, BadRequest("%s", ve.Error())
		}
		return nil, BadRequest("Invalid linkifier")
	}
	for _, other := range r.linkifiers.list {
		if other.ID != selfID && other.Spec.Pattern == spec.Pattern {
			return nil, BadRequest("Linkifier with this pattern already exists.")
		}
	}
	return l, nil
}

func (r *Realm) linkifierIndex(id int) int {
	return slices.IndexFunc(r.linkifiers.list, func(l *linkifier.Linkifier) bool { return l.ID == id })
}

// LinkifiersEvent carries the realm's whole, ordered linkifier list.
type LinkifiersEvent struct {
	RealmLinkifiers []Linkifier `json:"realm_linkifiers"`
}

// emitLinkifiers sends the new list to every client that understands URL
// templates.
func (r *Realm) emitLinkifiers() {
	r.emitChange(&change{typ: "realm_linkifiers", payload: LinkifiersEvent{RealmLinkifiers: r.linkifierList()},
		filter: func(q *Queue) bool { return q.Config().opts.Capabilities.LinkifierURLTemplate }}, r.activeUserIDs())
}

// linkifierTable holds the realm's linkifiers in the order they apply; a
// linkifier is replaced whole on update, never changed in place.
type linkifierTable struct {
	list   []*linkifier.Linkifier
	nextID int
}

func (t *linkifierTable) clone() linkifierTable {
	return linkifierTable{list: slices.Clone(t.list), nextID: t.nextID}
}

// dump adds the linkifiers to f, in order.
func (t *linkifierTable) dump(r *Realm, f *fixture.Document) error {
	for _, l := range t.list {
		f.Linkifiers = append(f.Linkifiers, fixture.Linkifier{ID: l.ID, Pattern: l.Spec.Pattern,
			URLTemplate: l.Spec.URLTemplate, ExampleInput: l.Spec.ExampleInput, ReverseTemplate: l.Spec.ReverseTemplate,
			AlternativeURLTemplates: l.Spec.AlternativeURLTemplates})
	}
	return nil
}

func (t *linkifierTable) load(r *Realm, f *fixture.Document) error {
	ids := []int{}
	for i, fl := range f.Linkifiers {
		at := fmt.Sprintf("linkifiers[%d]", i)
		if fl.ID <= 0 || slices.Contains(ids, fl.ID) {
			return badItem(at+".id", "%s linkifier ID %d", invalidOrDuplicate(fl.ID <= 0), fl.ID)
		}
		l, err := linkifier.New(fl.ID, linkifier.Spec{Pattern: fl.Pattern, URLTemplate: fl.URLTemplate,
			ExampleInput: fl.ExampleInput, ReverseTemplate: fl.ReverseTemplate,
			AlternativeURLTemplates: slices.Clone(fl.AlternativeURLTemplates)})
		if err != nil {
			return badItem(at, "%s", reason(err))
		}
		r.linkifiers.list = append(r.linkifiers.list, l)
		ids = append(ids, fl.ID)
	}
	r.linkifiers.nextID = nextAfter(1, ids...)
	return nil
}

// register fills realm_linkifiers (empty for clients without the
// linkifier_url_template capability) and the legacy realm_filters,
// always empty.
func (t *linkifierTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm_linkifiers") {
		list := []Linkifier{}
		if req.Queue.Capabilities.LinkifierURLTemplate {
			list = r.linkifierList()
		}
		out.RealmLinkifiersState = &RealmLinkifiersState{RealmLinkifiers: list}
	}
	if req.fetches("realm_filters") {
		out.RealmFiltersState = &RealmFiltersState{RealmFilters: []LegacyLinkifier{}}
	}
}
