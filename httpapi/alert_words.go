package httpapi

import "github.com/minizulip/minizulip/realm"

func alertWordRoutes() []route {
	return []route{
		{method: "GET", path: "/users/me/alert_words", h: listAlertWords},
		{method: "POST", path: "/users/me/alert_words", h: addAlertWords},
		{method: "DELETE", path: "/users/me/alert_words", h: removeAlertWords},
	}
}

// alertWordsAnswer is the body of every alert words endpoint.
type alertWordsAnswer struct {
	AlertWords []string `json:"alert_words"`
}

func listAlertWords(c *call) (any, error) {
	words, err := c.actor.AlertWords(c.ctx())
	if err != nil {
		return nil, err
	}
	return alertWordsAnswer{AlertWords: words}, nil
}

func addAlertWords(c *call) (any, error) {
	words, err := alertWordsParam(c)
	if err != nil {
		return nil, err
	}
	list, err := c.actor.AddAlertWords(c.ctx(), words)
	if err != nil {
		return nil, err
	}
	return alertWordsAnswer{AlertWords: list}, nil
}

func removeAlertWords(c *call) (any, error) {
	words, err := alertWordsParam(c)
	if err != nil {
		return nil, err
	}
	list, err := c.actor.RemoveAlertWords(c.ctx(), words)
	if err != nil {
		return nil, err
	}
	return alertWordsAnswer{AlertWords: list}, nil
}

// alertWordsParam reads the required alert_words parameter, a JSON list
// of strings.
func alertWordsParam(c *call) ([]string, error) {
	words, set, err := c.p.optStringList("alert_words")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("alert_words")
	}
	return words, nil
}
