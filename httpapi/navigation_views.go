package httpapi

import "github.com/minizulip/minizulip/realm"

func navigationViewRoutes() []route {
	return []route{
		{method: "GET", path: "/navigation_views", h: listNavigationViews},
		{method: "POST", path: "/navigation_views", h: addNavigationView},
		// A fragment holds slashes (narrow/is/starred), sent escaped or not.
		{method: "PATCH", path: "/navigation_views/{fragment...}", h: updateNavigationView},
		{method: "DELETE", path: "/navigation_views/{fragment...}", h: removeNavigationView},
	}
}

// navigationViewsAnswer is the body of GET /navigation_views.
type navigationViewsAnswer struct {
	NavigationViews []realm.NavigationView `json:"navigation_views"`
}

func listNavigationViews(c *call) (any, error) {
	list, err := c.actor.NavigationViews(c.ctx())
	if err != nil {
		return nil, err
	}
	return navigationViewsAnswer{NavigationViews: list}, nil
}

// addNavigationView is POST /navigation_views: fragment and is_pinned
// (JSON) required, name optional.
func addNavigationView(c *call) (any, error) {
	fragment, err := c.p.mustStr("fragment")
	if err != nil {
		return nil, err
	}
	pinned, set, err := c.p.optBoolSet("is_pinned")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("is_pinned")
	}
	var name *string
	if v, ok := c.p.str("name"); ok {
		name = &v
	}
	return nil, c.actor.AddNavigationView(c.ctx(), fragment, pinned, name)
}

func updateNavigationView(c *call) (any, error) {
	var req realm.NavigationViewUpdate
	pinned, set, err := c.p.optBoolSet("is_pinned")
	if err != nil {
		return nil, err
	}
	if set {
		req.IsPinned = &pinned
	}
	if v, ok := c.p.str("name"); ok {
		req.Name = &v
	}
	return nil, c.actor.UpdateNavigationView(c.ctx(), c.req.PathValue("fragment"), req)
}

func removeNavigationView(c *call) (any, error) {
	return nil, c.actor.DeleteNavigationView(c.ctx(), c.req.PathValue("fragment"))
}
