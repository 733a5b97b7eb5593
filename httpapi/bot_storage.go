package httpapi

import (
	"encoding/json"

	"github.com/minizulip/minizulip/realm"
)

func botStorageRoutes() []route {
	return []route{
		{method: "GET", path: "/bot_storage", h: getStorage},
		{method: "PUT", path: "/bot_storage", h: putStorage},
		{method: "DELETE", path: "/bot_storage", h: removeStorage},
	}
}

// storageAnswer is the body of GET /bot_storage.
type storageAnswer struct {
	Storage map[string]string `json:"storage"`
}

// getStorage is GET /bot_storage: keys, a JSON list of strings, picks
// the entries; without it, all of them.
func getStorage(c *call) (any, error) {
	keys, err := storageKeys(c)
	if err != nil {
		return nil, err
	}
	entries, err := c.actor.Storage(c.ctx(), keys)
	if err != nil {
		return nil, err
	}
	return storageAnswer{Storage: entries}, nil
}

// putStorage is PUT /bot_storage: storage, a JSON dict of strings, is
// required; a value not a string is refused in Zulip's words, which do
// not name its key.
func putStorage(c *call) (any, error) {
	var raw map[string]json.RawMessage
	set, err := c.p.optJSON("storage", &raw)
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("storage")
	}
	entries := make(map[string]string, len(raw))
	for k, v := range raw {
		var value string
		if err := decodeJSONParam("storage contains a value that", string(v), &value, "a string"); err != nil {
			return nil, err
		}
		entries[k] = value
	}
	return nil, c.actor.PutStorage(c.ctx(), entries)
}

// removeStorage is DELETE /bot_storage: keys, a JSON list of strings,
// names the entries to remove; without it, all of them go.
func removeStorage(c *call) (any, error) {
	keys, err := storageKeys(c)
	if err != nil {
		return nil, err
	}
	return nil, c.actor.RemoveStorage(c.ctx(), keys)
}

// storageKeys reads the optional keys parameter: nil when absent, so
// that the realm takes every key.
func storageKeys(c *call) ([]string, error) {
	keys, set, err := c.p.optStringList("keys")
	if err != nil || !set {
		return nil, err
	}
	if keys == nil {
		keys = []string{}
	}
	return keys, nil
}
