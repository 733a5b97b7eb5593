package httpapi

import "github.com/minizulip/minizulip/realm"

func realmExportRoutes() []route {
	return []route{
		{method: "POST", path: "/export/realm", h: exportRealm},
		{method: "GET", path: "/export/realm", h: realmExports},
		{method: "DELETE", path: "/export/realm/{export_id}", h: deleteRealmExport},
		{method: "GET", path: "/export/realm/consents", h: exportConsents},
		{method: "POST", path: "/realm/test_welcome_bot_custom_message", h: testWelcomeBotCustomMessage},
	}
}

// exportID is the body of POST /export/realm.
type exportID struct {
	ID int `json:"id"`
}

// exportRealm is POST /export/realm: export_type, 1 (public, the
// default) or 2 (standard).
func exportRealm(c *call) (any, error) {
	typ, set, err := c.p.optInt("export_type")
	if err != nil {
		return nil, err
	}
	if !set {
		typ = realm.ExportPublic
	}
	id, err := c.actor.ExportRealm(c.ctx(), typ)
	if err != nil {
		return nil, err
	}
	return exportID{ID: id}, nil
}

func realmExports(c *call) (any, error) {
	list, err := c.actor.RealmExports(c.ctx())
	if err != nil {
		return nil, err
	}
	return struct {
		Exports []realm.RealmExport `json:"exports"`
	}{list}, nil
}

func deleteRealmExport(c *call) (any, error) {
	id, err := c.pathInt("export_id")
	if err != nil {
		return nil, err
	}
	return nil, c.actor.DeleteRealmExport(c.ctx(), id)
}

func exportConsents(c *call) (any, error) {
	list, err := c.actor.ExportConsents(c.ctx())
	if err != nil {
		return nil, err
	}
	return struct {
		ExportConsents []realm.ExportConsent `json:"export_consents"`
	}{list}, nil
}

// testWelcomeBotCustomMessage is POST
// /realm/test_welcome_bot_custom_message: welcome_message_custom_text,
// required.
func testWelcomeBotCustomMessage(c *call) (any, error) {
	text, err := c.p.mustStr("welcome_message_custom_text")
	if err != nil {
		return nil, err
	}
	id, err := c.actor.TestWelcomeBotCustomMessage(c.ctx(), text)
	if err != nil {
		return nil, err
	}
	return struct {
		MessageID int64 `json:"message_id"`
	}{id}, nil
}
