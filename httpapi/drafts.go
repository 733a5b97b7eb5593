package httpapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/realm"
)

func draftRoutes() []route {
	return []route{
		{method: "GET", path: "/drafts", h: listDrafts},
		{method: "POST", path: "/drafts", h: createDrafts},
		{method: "PATCH", path: "/drafts/{draft_id}", h: editDraft},
		{method: "DELETE", path: "/drafts/{draft_id}", h: deleteDraft},
	}
}

// draftsAnswer is the body of GET /drafts.
type draftsAnswer struct {
	Count  int           `json:"count"`
	Drafts []realm.Draft `json:"drafts"`
}

func listDrafts(c *call) (any, error) {
	list, err := c.actor.Drafts(c.ctx())
	if err != nil {
		return nil, err
	}
	return draftsAnswer{Count: len(list), Drafts: list}, nil
}

// draftIDs is the body of POST /drafts.
type draftIDs struct {
	IDs []int `json:"ids"`
}

func createDrafts(c *call) (any, error) {
	raw, ok := c.p.str("drafts")
	if !ok {
		return nil, realm.VariableMissing("drafts")
	}
	var items []json.RawMessage
	if err := decodeJSONParam("drafts", raw, &items, "a list"); err != nil {
		return nil, err
	}
	drafts := make([]realm.DraftInput, len(items))
	for i, item := range items {
		d, err := decodeDraft(fmt.Sprintf("drafts[%d]", i), item)
		if err != nil {
			return nil, err
		}
		drafts[i] = d
	}
	ids, err := c.actor.CreateDrafts(c.ctx(), drafts)
	if err != nil {
		return nil, err
	}
	return draftIDs{IDs: ids}, nil
}

func editDraft(c *call) (any, error) {
	id, err := c.pathInt("draft_id")
	if err != nil {
		return nil, err
	}
	raw, ok := c.p.str("draft")
	if !ok {
		return nil, realm.VariableMissing("draft")
	}
	d, err := decodeDraft("draft", json.RawMessage(raw))
	if err != nil {
		return nil, err
	}
	return nil, c.actor.UpdateDraft(c.ctx(), id, d)
}

func deleteDraft(c *call) (any, error) {
	id, err := c.pathInt("draft_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteDraft(c.ctx(), id)
}

// decodeJSONParam decodes the JSON text of parameter name into dst, whose
// kind ("a list", "a dict", "a string", …) is named in the error, as
// Zulip's parameter validation words it.
func decodeJSONParam(name, raw string, dst any, kind string) error {
	if !json.Valid([]byte(raw)) {
		return realm.BadRequest("%s is not valid JSON", name)
	}
	if strings.TrimSpace(raw) == "null" || json.Unmarshal([]byte(raw), dst) != nil {
		return realm.BadRequest("%s is not %s", name, kind)
	}
	return nil
}

// draftFields are the keys of a draft object, each with the kind of JSON
// value it takes; timestamp is the only optional one.
var draftFields = []struct{ key, kind string }{
	{"type", "a string"}, {"to", "a list"}, {"topic", "a string"}, {"content", "a string"}, {"timestamp", "a float"},
}

// decodeDraft reads one draft object (name is how errors call it, e.g.
// drafts[0]): unknown keys, missing keys and values of the wrong JSON type
// are refused with Zulip's wording, e.g. `drafts[0]["to"] is not a list`.
func decodeDraft(name string, raw json.RawMessage) (realm.DraftInput, error) {
	var d realm.DraftInput
	var obj map[string]json.RawMessage
	if err := decodeJSONParam(name, string(raw), &obj, "a dict"); err != nil {
		return d, err
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(draftFields, func(f struct{ key, kind string }) bool { return f.key == k }) {
			return d, realm.BadRequest(`Argument "%s" at %s is unexpected`, k, name)
		}
	}
	for _, f := range draftFields {
		v, ok := obj[f.key]
		field := fmt.Sprintf("%s[%q]", name, f.key)
		if !ok {
			if f.key == "timestamp" {
				continue
			}
			return d, realm.BadRequest("%s is missing", field)
		}
		var err error
		switch f.key {
		case "type":
			err = decodeJSONParam(field, string(v), &d.Type, f.kind)
		case "to":
			var elems []json.RawMessage
			if err = decodeJSONParam(field, string(v), &elems, f.kind); err == nil {
				err = checkIntList(field, elems)
			}
			if err == nil {
				_ = json.Unmarshal(v, &d.To)
			}
		case "topic":
			err = decodeJSONParam(field, string(v), &d.Topic, f.kind)
		case "content":
			err = decodeJSONParam(field, string(v), &d.Content, f.kind)
		case "timestamp":
			if strings.TrimSpace(string(v)) != "null" {
				var ts float64
				err = decodeJSONParam(field, string(v), &ts, f.kind)
				d.Timestamp = &ts
			}
		}
		if err != nil {
			return d, err
		}
	}
	return d, nil
}

// checkIntList refuses a JSON list with an element that is not an
// integer (1.5, "1", null), naming it as Zulip does: to[1].
func checkIntList(name string, elems []json.RawMessage) error {
	for i, e := range elems {
		var n int
		if json.Unmarshal(e, &n) != nil || strings.TrimSpace(string(e)) == "null" {
			return realm.BadRequest("%s[%d] is not an integer", name, i)
		}
	}
	return nil
}
