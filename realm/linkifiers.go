package realm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/minizulip/minizulip/linkifier"
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
		l, err := linkifier.New(r.nextLinkifierID, spec)
		if err != nil {
			panic("minizulip: bad seed linkifier: " + err.Error())
		}
		r.nextLinkifierID++
		r.linkifiers = append(r.linkifiers, l)
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
	out := make([]Linkifier, len(r.linkifiers))
	for i, l := range r.linkifiers {
		out[i] = linkifierView(l)
	}
	return out
}

// Linkifiers returns the realm's compiled linkifiers in order; they are
// immutable, so the slice may be used after the lock is released.
func (r *Realm) Linkifiers() []*linkifier.Linkifier {
	var list []*linkifier.Linkifier
	_ = r.view(func() error {
		list = slices.Clone(r.linkifiers)
		return nil
	})
	return list
}

// ListLinkifiers answers GET /realm/linkifiers.
func (a *Actor) ListLinkifiers(ctx context.Context) (list []Linkifier, err error) {
	err = a.read(func(*user.User) error {
		list = a.r.linkifierList()
		return nil
	})
	return list, err
}

// AddLinkifier answers POST /realm/filters (administrators only).
func (a *Actor) AddLinkifier(ctx context.Context, spec linkifier.Spec) (id int, err error) {
	r := a.r
	err = a.writeAdmin(func(*user.User) error {
		l, err := r.checkLinkifier(r.nextLinkifierID, spec, 0)
		if err != nil {
			return err
		}
		r.nextLinkifierID++
		r.linkifiers = append(r.linkifiers, l)
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
	return a.writeAdmin(func(*user.User) error {
		i := r.linkifierIndex(id)
		if i < 0 {
			return BadRequest("Linkifier not found.")
		}
		l, err := r.checkLinkifier(id, spec, id)
		if err != nil {
			return err
		}
		r.linkifiers[i] = l
		r.emitLinkifiers()
		return nil
	})
}

// DeleteLinkifier answers DELETE /realm/filters/{id}.
func (a *Actor) DeleteLinkifier(ctx context.Context, id int) error {
	r := a.r
	return a.writeAdmin(func(*user.User) error {
		i := r.linkifierIndex(id)
		if i < 0 {
			return BadRequest("Linkifier not found.")
		}
		r.linkifiers = slices.Delete(r.linkifiers, i, i+1)
		r.emitLinkifiers()
		return nil
	})
}

// ReorderLinkifiers answers PATCH /realm/linkifiers: ids must list every
// linkifier exactly once, in the new order.
func (a *Actor) ReorderLinkifiers(ctx context.Context, ids []int) error {
	return a.writeAdmin(func(*user.User) error { return a.r.reorderLinkifiers(ids) })
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
	if len(ids) != len(r.linkifiers) {
		return BadRequest("The ordered list must enumerate all existing linkifiers exactly once")
	}
	ordered := make([]*linkifier.Linkifier, len(ids))
	for i, id := range ids {
		ordered[i] = r.linkifiers[r.linkifierIndex(id)]
	}
	r.linkifiers = ordered
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
	for _, other := range r.linkifiers {
		if other.ID != selfID && other.Spec.Pattern == spec.Pattern {
			return nil, BadRequest("Linkifier with this pattern already exists.")
		}
	}
	return l, nil
}

func (r *Realm) linkifierIndex(id int) int {
	return slices.IndexFunc(r.linkifiers, func(l *linkifier.Linkifier) bool { return l.ID == id })
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

func fillLinkifiers(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	list := []Linkifier{}
	if req.Queue.Capabilities.LinkifierURLTemplate {
		list = r.linkifierList()
	}
	out.RealmLinkifiersState = &RealmLinkifiersState{RealmLinkifiers: list}
}
