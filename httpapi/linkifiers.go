package httpapi

import (
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/realm"
)

func linkifierRoutes() []route {
	return []route{
		{method: "GET", path: "/realm/linkifiers", h: listLinkifiers},
		{method: "PATCH", path: "/realm/linkifiers", h: reorderLinkifiers},
		{method: "POST", path: "/realm/filters", h: addLinkifier},
		{method: "PATCH", path: "/realm/filters/{filter_id}", h: updateLinkifier},
		{method: "DELETE", path: "/realm/filters/{filter_id}", h: deleteLinkifier},
	}
}

// linkifiersAnswer is the body of GET /realm/linkifiers.
type linkifiersAnswer struct {
	Linkifiers []realm.Linkifier `json:"linkifiers"`
}

func listLinkifiers(c *call) (any, error) {
	list, err := c.actor.Linkifiers(c.ctx())
	if err != nil {
		return nil, err
	}
	return linkifiersAnswer{Linkifiers: list}, nil
}

// linkifierSpec reads the parameters shared by add and update.
func linkifierSpec(c *call) (linkifier.Spec, error) {
	var spec linkifier.Spec
	var err error
	if spec.Pattern, err = c.p.mustStr("pattern"); err != nil {
		return spec, err
	}
	if spec.URLTemplate, err = c.p.mustStr("url_template"); err != nil {
		return spec, err
	}
	if v, ok := c.p.str("example_input"); ok {
		spec.ExampleInput = &v
	}
	if v, ok := c.p.str("reverse_template"); ok && v != "null" {
		spec.ReverseTemplate = &v
	}
	if spec.AlternativeURLTemplates, _, err = c.p.optStringList("alternative_url_templates"); err != nil {
		return spec, err
	}
	return spec, nil
}

// linkifierID is the body of POST /realm/filters.
type linkifierID struct {
	ID int `json:"id"`
}

func addLinkifier(c *call) (any, error) {
	spec, err := linkifierSpec(c)
	if err != nil {
		return nil, err
	}
	id, err := c.actor.AddLinkifier(c.ctx(), spec)
	if err != nil {
		return nil, err
	}
	return linkifierID{ID: id}, nil
}

func updateLinkifier(c *call) (any, error) {
	id, err := c.pathInt("filter_id")
	if err != nil {
		return nil, err
	}
	spec, err := linkifierSpec(c)
	if err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateLinkifier(c.ctx(), id, spec)
}

func deleteLinkifier(c *call) (any, error) {
	id, err := c.pathInt("filter_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteLinkifier(c.ctx(), id)
}

func reorderLinkifiers(c *call) (any, error) {
	ids, set, err := c.p.optIntList("ordered_linkifier_ids")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("ordered_linkifier_ids")
	}
	return nil, c.actor.ReorderLinkifiers(c.ctx(), ids)
}
