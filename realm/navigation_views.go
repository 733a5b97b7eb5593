package realm

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// NavigationView is one of a user's left-sidebar views (feature level
// 390): a built-in view's settings, or a custom view with a name.
type NavigationView struct {
	Fragment string  `json:"fragment"`
	IsPinned bool    `json:"is_pinned"`
	Name     *string `json:"name"`
}

// builtInViewFragments are the views Zulip's clients have built in; they
// take no name.
var builtInViewFragments = []string{"inbox", "recent", "feed", "drafts",
	"narrow/has/reaction/sender/me", "narrow/is/mentioned", "narrow/is/starred"}

// NavigationViewUpdate is PATCH /navigation_views/{fragment}; nil fields
// were not sent.
type NavigationViewUpdate struct {
	IsPinned *bool
	Name     *string
}

// NavigationViewEvent is a navigation_view event, sent to the owner only.
type NavigationViewEvent struct {
	Op             string          `json:"op"`
	NavigationView *NavigationView `json:"navigation_view,omitempty"`
	Fragment       string          `json:"fragment,omitempty"`
	Data           map[string]any  `json:"data,omitempty"`
}

// NavigationViews answers GET /navigation_views: the caller's views, in
// the order they were added.
func (a *Actor) NavigationViews(ctx context.Context) (list []NavigationView, err error) {
	err = a.read(ctx, func(me *user.User) error {
		list = a.r.navigationViewList(me.ID)
		return nil
	})
	return list, err
}

func (r *Realm) navigationViewList(userID int) []NavigationView {
	out := []NavigationView{}
	for _, v := range r.navigationViews.byUser[userID] {
		out = append(out, *v)
	}
	return out
}

// AddNavigationView answers POST /navigation_views: fragment and name are
// trimmed; a built-in view takes no name, a custom one needs one; neither
// the fragment nor the name may be one of the caller's views already.
func (a *Actor) AddNavigationView(ctx context.Context, fragment string, isPinned bool, name *string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		fragment = strings.TrimSpace(fragment)
		if fragment == "" {
			return BadRequest("fragment cannot be blank")
		}
		if err := cmp.Or(noNull("fragment", fragment), noNullIn("name", name)); err != nil {
			return err
		}
		if name != nil {
			trimmed := strings.TrimSpace(*name)
			if trimmed == "" {
				return BadRequest("name cannot be blank")
			}
			name = &trimmed
		}
		if slices.Contains(builtInViewFragments, fragment) {
			if name != nil {
				return BadRequest("Built-in views cannot have a custom name.")
			}
		} else if name == nil {
			return BadRequest("Custom views must have a valid name.")
		}
		if r.navigationView(me.ID, fragment) != nil || name != nil && r.navigationViewNamed(me.ID, *name) {
			return BadRequest("Navigation view already exists.")
		}
		v := &NavigationView{Fragment: fragment, IsPinned: isPinned, Name: name}
		if r.navigationViews.byUser == nil {
			r.navigationViews.byUser = map[int][]*NavigationView{}
		}
		r.navigationViews.byUser[me.ID] = append(r.navigationViews.byUser[me.ID], v)
		added := *v
		r.emit("navigation_view", NavigationViewEvent{Op: "add", NavigationView: &added}, me.ID)
		return nil
	})
}

// UpdateNavigationView answers PATCH /navigation_views/{fragment}.
func (a *Actor) UpdateNavigationView(ctx context.Context, fragment string, req NavigationViewUpdate) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		fragment = strings.TrimSpace(fragment)
		var name string
		if req.Name != nil {
			if name = strings.TrimSpace(*req.Name); name == "" {
				return BadRequest("name cannot be blank")
			}
			if err := noNull("name", name); err != nil {
				return err
			}
			if slices.Contains(builtInViewFragments, fragment) {
				return BadRequest("Built-in views cannot have a custom name.")
			}
			if r.navigationViewNamed(me.ID, name) {
				return BadRequest("Navigation view already exists.")
			}
		}
		v := r.navigationView(me.ID, fragment)
		if v == nil {
			return NotFound("Navigation view does not exist.")
		}
		data := map[string]any{}
		if req.Name != nil {
			v.Name = &name
			data["name"] = name
		}
		if req.IsPinned != nil {
			v.IsPinned = *req.IsPinned
			data["is_pinned"] = *req.IsPinned
		}
		r.emit("navigation_view", NavigationViewEvent{Op: "update", Fragment: fragment, Data: data}, me.ID)
		return nil
	})
}

// DeleteNavigationView answers DELETE /navigation_views/{fragment}.
func (a *Actor) DeleteNavigationView(ctx context.Context, fragment string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		fragment = strings.TrimSpace(fragment)
		if r.navigationView(me.ID, fragment) == nil {
			return NotFound("Navigation view does not exist.")
		}
		r.navigationViews.byUser[me.ID] = slices.DeleteFunc(r.navigationViews.byUser[me.ID], func(v *NavigationView) bool { return v.Fragment == fragment })
		r.emit("navigation_view", NavigationViewEvent{Op: "remove", Fragment: fragment}, me.ID)
		return nil
	})
}

// navigationView is the user's view with this fragment, or nil.
func (r *Realm) navigationView(userID int, fragment string) *NavigationView {
	for _, v := range r.navigationViews.byUser[userID] {
		if v.Fragment == fragment {
			return v
		}
	}
	return nil
}

// navigationViewNamed reports whether one of the user's views has this name.
func (r *Realm) navigationViewNamed(userID int, name string) bool {
	return slices.ContainsFunc(r.navigationViews.byUser[userID], func(v *NavigationView) bool { return v.Name != nil && *v.Name == name })
}

// navigationViewTable holds each user's navigation views, in the order added.
type navigationViewTable struct {
	byUser map[int][]*NavigationView
}

func (t *navigationViewTable) clone() navigationViewTable {
	return navigationViewTable{byUser: cloneNested(t.byUser, func(v *NavigationView) *NavigationView { c := *v; return &c })}
}

// dump adds the navigation views to f, by user and in the order added.
func (t *navigationViewTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(r.navigationViews.byUser)) {
		for _, v := range r.navigationViews.byUser[uid] {
			fv := fixture.NavigationView{UserID: uid, Fragment: v.Fragment, IsPinned: v.IsPinned}
			if v.Name != nil {
				name := *v.Name
				fv.Name = &name
			}
			f.NavigationViews = append(f.NavigationViews, fv)
		}
	}
	return nil
}

// load checks each view as POST /navigation_views does:
// a fragment, a name for custom views and none for built-in ones, and
// neither the fragment nor the name twice for a user.
func (t *navigationViewTable) load(r *Realm, f *fixture.Document) error {
	for i, fv := range f.NavigationViews {
		at := fmt.Sprintf("navigation_views[%d]", i)
		if r.realmUser(fv.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fv.UserID)
		}
		fragment := strings.TrimSpace(fv.Fragment)
		if fragment == "" {
			return badItem(at+".fragment", "fragment cannot be blank")
		}
		var name *string
		if fv.Name != nil {
			trimmed := strings.TrimSpace(*fv.Name)
			if trimmed == "" {
				return badItem(at+".name", "name cannot be blank")
			}
			name = &trimmed
		}
		if slices.Contains(builtInViewFragments, fragment) {
			if name != nil {
				return badItem(at+".name", "Built-in views cannot have a custom name.")
			}
		} else if name == nil {
			return badItem(at+".name", "Custom views must have a valid name.")
		}
		if r.navigationView(fv.UserID, fragment) != nil || name != nil && r.navigationViewNamed(fv.UserID, *name) {
			return badItem(at, "Navigation view already exists.")
		}
		if r.navigationViews.byUser == nil {
			r.navigationViews.byUser = map[int][]*NavigationView{}
		}
		r.navigationViews.byUser[fv.UserID] = append(r.navigationViews.byUser[fv.UserID], &NavigationView{Fragment: fragment, IsPinned: fv.IsPinned, Name: name})
	}
	return nil
}

func (t *navigationViewTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("navigation_views") {
		fillNavigationViews(r, me, req, out)
	}
}

func fillNavigationViews(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if r.has(changeNavigationViews) {
		out.NavigationViewsState = &NavigationViewsState{NavigationViews: r.navigationViewList(me.ID)}
	}
}
