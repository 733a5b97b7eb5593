package httpapi

import "github.com/minizulip/minizulip/realm"

func channelFolderRoutes() []route {
	return []route{
		{method: "POST", path: "/channel_folders/create", h: createChannelFolder},
		{method: "GET", path: "/channel_folders", h: listChannelFolders},
		{method: "PATCH", path: "/channel_folders", h: reorderChannelFolders},
		{method: "PATCH", path: "/channel_folders/{channel_folder_id}", h: updateChannelFolder},
	}
}

// channelFolderCreated is the body of POST /channel_folders/create.
type channelFolderCreated struct {
	ChannelFolderID int `json:"channel_folder_id"`
}

// channelFoldersAnswer is the body of GET /channel_folders.
type channelFoldersAnswer struct {
	ChannelFolders []realm.ChannelFolder `json:"channel_folders"`
}

// createChannelFolder is POST /channel_folders/create: description and
// name, both required, checked in that order as Zulip does.
func createChannelFolder(c *call) (any, error) {
	description, err := c.p.mustStr("description")
	if err != nil {
		return nil, err
	}
	name, err := c.p.mustStr("name")
	if err != nil {
		return nil, err
	}
	id, err := c.actor.CreateChannelFolder(c.ctx(), name, description)
	if err != nil {
		return nil, err
	}
	return channelFolderCreated{ChannelFolderID: id}, nil
}

// listChannelFolders is GET /channel_folders: include_archived (JSON
// boolean, default false).
func listChannelFolders(c *call) (any, error) {
	includeArchived, err := c.p.optBool("include_archived", false)
	if err != nil {
		return nil, err
	}
	list, err := c.actor.ChannelFolders(c.ctx(), includeArchived)
	if err != nil {
		return nil, err
	}
	return channelFoldersAnswer{ChannelFolders: list}, nil
}

// reorderChannelFolders is PATCH /channel_folders: order, a required JSON
// list of folder IDs.
func reorderChannelFolders(c *call) (any, error) {
	order, set, err := c.p.optIntList("order")
	if err != nil {
		return nil, err
	}
	if !set {
		return nil, realm.VariableMissing("order")
	}
	return nil, c.actor.ReorderChannelFolders(c.ctx(), order)
}

// updateChannelFolder is PATCH /channel_folders/{channel_folder_id}:
// name, description and is_archived (JSON boolean), all optional.
func updateChannelFolder(c *call) (any, error) {
	id, err := c.pathInt("channel_folder_id")
	if err != nil {
		return nil, err
	}
	var req realm.ChannelFolderUpdate
	if v, ok := c.p.str("description"); ok {
		req.Description = &v
	}
	archived, set, err := c.p.optBoolSet("is_archived")
	if err != nil {
		return nil, err
	}
	if set {
		req.IsArchived = &archived
	}
	if v, ok := c.p.str("name"); ok {
		req.Name = &v
	}
	return nil, c.actor.UpdateChannelFolder(c.ctx(), id, req)
}
