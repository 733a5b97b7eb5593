package httpapi

import "github.com/minizulip/minizulip/realm"

func snippetRoutes() []route {
	return []route{
		{method: "GET", path: "/saved_snippets", h: listSnippets},
		{method: "POST", path: "/saved_snippets", h: createSnippet},
		{method: "PATCH", path: "/saved_snippets/{saved_snippet_id}", h: updateSnippet},
		{method: "DELETE", path: "/saved_snippets/{saved_snippet_id}", h: deleteSnippet},
	}
}

// snippetsAnswer is the body of GET /saved_snippets.
type snippetsAnswer struct {
	SavedSnippets []realm.SavedSnippet `json:"saved_snippets"`
}

func listSnippets(c *call) (any, error) {
	list, err := c.actor.SavedSnippets(c.ctx())
	if err != nil {
		return nil, err
	}
	return snippetsAnswer{SavedSnippets: list}, nil
}

// snippetID is the body of POST /saved_snippets.
type snippetID struct {
	SavedSnippetID int `json:"saved_snippet_id"`
}

func createSnippet(c *call) (any, error) {
	title, err := c.p.mustStr("title")
	if err != nil {
		return nil, err
	}
	content, err := c.p.mustStr("content")
	if err != nil {
		return nil, err
	}
	id, err := c.actor.CreateSavedSnippet(c.ctx(), title, content)
	if err != nil {
		return nil, err
	}
	return snippetID{SavedSnippetID: id}, nil
}

func updateSnippet(c *call) (any, error) {
	id, err := c.pathInt("saved_snippet_id")
	if err != nil {
		return nil, err
	}
	var title, content *string
	if v, ok := c.p.str("title"); ok {
		title = &v
	}
	if v, ok := c.p.str("content"); ok {
		content = &v
	}
	return nil, c.actor.UpdateSavedSnippet(c.ctx(), id, title, content)
}

func deleteSnippet(c *call) (any, error) {
	id, err := c.pathInt("saved_snippet_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteSavedSnippet(c.ctx(), id)
}
