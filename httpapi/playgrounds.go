package httpapi

import "github.com/minizulip/minizulip/realm"

func playgroundRoutes() []route {
	return []route{
		{method: "POST", path: "/realm/playgrounds", h: addPlayground},
		{method: "DELETE", path: "/realm/playgrounds/{playground_id}", h: removePlayground},
	}
}

// playgroundID is the body of POST /realm/playgrounds.
type playgroundID struct {
	ID int `json:"id"`
}

// addPlayground is POST /realm/playgrounds: name, pygments_language and
// url_template (url_prefix below feature level 196), all required.
func addPlayground(c *call) (any, error) {
	var fields [3]string
	url := "url_template"
	if !c.actor.Realm().Has(realm.ChangePlaygroundURLTemplate) {
		url = "url_prefix"
	}
	for i, name := range []string{"name", "pygments_language", url} {
		v, err := c.p.mustStr(name)
		if err != nil {
			return nil, err
		}
		fields[i] = v
	}
	id, err := c.actor.AddPlayground(c.ctx(), fields[0], fields[1], fields[2])
	if err != nil {
		return nil, err
	}
	return playgroundID{ID: id}, nil
}

func removePlayground(c *call) (any, error) {
	id, err := c.pathInt("playground_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeletePlayground(c.ctx(), id)
}
