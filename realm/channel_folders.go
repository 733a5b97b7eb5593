package realm

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// Zulip's limits on channel folders, in Unicode code points.
const (
	// MaxChannelFolderNameLength is the longest a folder name may be.
	MaxChannelFolderNameLength = 60
	// MaxChannelFolderDescriptionLength is the longest a folder
	// description may be.
	MaxChannelFolderDescriptionLength = 1024
)

// ChannelFolder is a channel folder as the API sends it (feature level
// 389): a named group of channels in the left sidebar.
type ChannelFolder struct {
	ID                  int    `json:"id"`
	Name                string `json:"name"`
	Description         string `json:"description"`
	RenderedDescription string `json:"rendered_description"`
	// Order places the folder among the others, lowest first; sent from
	// feature level 414.
	Order       *int  `json:"order,omitempty"`
	CreatorID   *int  `json:"creator_id"`
	DateCreated int64 `json:"date_created"`
	IsArchived  bool  `json:"is_archived"`
}

// storedFolder is a stored channel folder. A new folder's order is its
// ID; reordering numbers the folders from 0.
type storedFolder struct {
	ID                  int
	Name                string
	Description         string
	RenderedDescription string
	Order               int
	CreatorID           int // 0 when unknown
	DateCreated         int64
	IsArchived          bool
}

// folderTable holds the realm's channel folders, archived ones included,
// by ID; IDs are never reused.
type folderTable struct {
	list   []*storedFolder
	nextID int
}

func (t *folderTable) clone() folderTable {
	c := folderTable{nextID: t.nextID}
	for _, f := range t.list {
		cf := *f
		c.list = append(c.list, &cf)
	}
	return c
}

// dump adds the folders to f, by ID.
func (t *folderTable) dump(r *Realm, f *fixture.Document) error {
	for _, fo := range slices.SortedFunc(slices.Values(t.list), func(a, b *storedFolder) int { return a.ID - b.ID }) {
		order := fo.Order
		f.ChannelFolders = append(f.ChannelFolders, fixture.ChannelFolder{ID: fo.ID, Name: fo.Name, Description: fo.Description,
			Order: &order, CreatorID: fo.CreatorID, DateCreated: fo.DateCreated, IsArchived: fo.IsArchived})
	}
	return nil
}

// load adds the document's channel folders, checked as
// POST /channel_folders/create checks a new one (lengths, a name unique
// ignoring case); a folder without an order takes its ID.
func (t *folderTable) load(r *Realm, f *fixture.Document) error {
	ids := []int{}
	for i, ff := range f.ChannelFolders {
		at := fmt.Sprintf("channel_folders[%d]", i)
		if ff.ID <= 0 || r.folderByID(ff.ID) != nil {
			return badItem(at+".id", "%s channel folder ID %d", invalidOrDuplicate(ff.ID <= 0), ff.ID)
		}
		name, description := ff.Name, ff.Description
		if err := checkFolderLengths(&name, &description); err != nil {
			return badItem(at, "%s", reason(err))
		}
		if err := r.checkFolderName(name); err != nil {
			return badItem(at+".name", "%s", reason(err))
		}
		if ff.CreatorID != 0 && r.users.byID[ff.CreatorID] == nil {
			return badItem(at+".creator_id", "no user %d", ff.CreatorID)
		}
		order := ff.ID
		if ff.Order != nil {
			order = *ff.Order
		}
		t.list = append(t.list, &storedFolder{ID: ff.ID, Name: name, Description: description,
			RenderedDescription: r.renderFolderDescription(description), Order: order, CreatorID: ff.CreatorID,
			DateCreated: ff.DateCreated, IsArchived: ff.IsArchived})
		ids = append(ids, ff.ID)
	}
	t.nextID = nextAfter(t.nextID, ids...)
	return nil
}

// register fills the channel_folders section, from feature level 389.
func (t *folderTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("channel_folders") && r.has(changeChannelFolders) {
		out.ChannelFoldersState = &ChannelFoldersState{ChannelFolders: r.folderList(true)}
	}
}

// ChannelFolderUpdate is PATCH /channel_folders/{channel_folder_id}: every
// non-nil field is a change.
type ChannelFolderUpdate struct {
	Name        *string
	Description *string
	IsArchived  *bool
}

// ChannelFolderEvent is a channel_folder event, sent to every active
// user: op "add" carries the folder, "update" the changed fields (Data),
// "reorder" the new order of folder IDs.
type ChannelFolderEvent struct {
	Op              string         `json:"op"`
	ChannelFolder   *ChannelFolder `json:"channel_folder,omitempty"`
	ChannelFolderID int            `json:"channel_folder_id,omitempty"`
	Data            map[string]any `json:"data,omitempty"`
	Order           []int          `json:"order,omitempty"`
}

// ChannelFoldersState is the channel_folders register section (feature
// level 389): every folder, archived ones included.
type ChannelFoldersState struct {
	ChannelFolders []ChannelFolder `json:"channel_folders"`
}

// CreateChannelFolder answers POST /channel_folders/create
// (administrators): the name, kept as given, must not be blank, must be
// printable and must differ, ignoring case, from every folder's name,
// archived ones included. It returns the new folder's ID.
func (a *Actor) CreateChannelFolder(ctx context.Context, name, description string) (id int, err error) {
	r := a.r
	err = a.writeAdmin(ctx, func(me *user.User) error {
		if err := checkFolderLengths(&name, &description); err != nil {
			return err
		}
		if err := r.checkFolderName(name); err != nil {
			return err
		}
		f := &storedFolder{ID: r.channelFolders.nextID, Name: name, Description: description,
			RenderedDescription: r.renderFolderDescription(description), CreatorID: me.ID,
			DateCreated: r.clock.Now().Unix()}
		f.Order = f.ID
		r.channelFolders.nextID++
		r.channelFolders.list = append(r.channelFolders.list, f)
		view := r.folderView(f)
		r.emit("channel_folder", ChannelFolderEvent{Op: "add", ChannelFolder: &view}, r.activeUserIDs()...)
		id = f.ID
		return nil
	})
	return id, err
}

// ChannelFolders answers GET /channel_folders: the realm's folders, the
// archived ones only if asked, by order (by ID below feature level 414).
// Every user, guests included, may list them.
func (a *Actor) ChannelFolders(ctx context.Context, includeArchived bool) (list []ChannelFolder, err error) {
	err = a.read(ctx, func(me *user.User) error {
		list = a.r.folderList(includeArchived)
		return nil
	})
	return list, err
}

// UpdateChannelFolder answers PATCH /channel_folders/{channel_folder_id}
// (administrators). A name or description equal to the current one
// changes nothing; a new name follows creation's rules. A folder may be
// archived only once no channel, archived or not, is in it. Each change
// is announced by its own update event.
func (a *Actor) UpdateChannelFolder(ctx context.Context, id int, req ChannelFolderUpdate) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		if err := checkFolderLengths(req.Name, req.Description); err != nil {
			return err
		}
		f := r.folderByID(id)
		if f == nil {
			return BadRequest("Invalid channel folder ID")
		}
		rename := req.Name != nil && *req.Name != f.Name
		if rename {
			if err := r.checkFolderName(*req.Name); err != nil {
				return err
			}
		}
		describe := req.Description != nil && *req.Description != f.Description
		archive := req.IsArchived != nil && *req.IsArchived != f.IsArchived
		if archive && *req.IsArchived && r.folderInUse(f.ID) {
			return BadRequest("You need to remove all the channels from this folder to archive it.")
		}
		if rename {
			f.Name = *req.Name
			r.emitFolderUpdate(f, map[string]any{"name": f.Name})
		}
		if describe {
			f.Description, f.RenderedDescription = *req.Description, r.renderFolderDescription(*req.Description)
			r.emitFolderUpdate(f, map[string]any{"description": f.Description, "rendered_description": f.RenderedDescription})
		}
		if archive {
			f.IsArchived = *req.IsArchived
			r.emitFolderUpdate(f, map[string]any{"is_archived": f.IsArchived})
		}
		return nil
	})
}

// ReorderChannelFolders answers PATCH /channel_folders (administrators):
// each folder, archived ones included, takes its index in order as its
// order; a folder missing from the list is an error, and IDs of no folder
// are ignored. The reorder event (feature level 418) carries the list as
// given.
func (a *Actor) ReorderChannelFolders(ctx context.Context, order []int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		pos := make(map[int]int, len(order))
		for i, id := range order {
			pos[id] = i
		}
		for _, f := range r.channelFolders.list {
			if _, ok := pos[f.ID]; !ok {
				return BadRequest("Invalid order mapping.")
			}
		}
		for _, f := range r.channelFolders.list {
			f.Order = pos[f.ID]
		}
		if r.has(changeChannelFolderReorderEvent) {
			r.emit("channel_folder", ChannelFolderEvent{Op: "reorder", Order: slices.Clone(order)}, r.activeUserIDs()...)
		}
		return nil
	})
}

// checkFolderLengths applies Zulip's length limits to a folder's name and
// description, either of which may be nil (not sent).
func checkFolderLengths(name, description *string) error {
	if description != nil && utf8.RuneCountInString(*description) > MaxChannelFolderDescriptionLength {
		return BadRequest("description is too long (limit: %d characters)", MaxChannelFolderDescriptionLength)
	}
	if name != nil && utf8.RuneCountInString(*name) > MaxChannelFolderNameLength {
		return BadRequest("name is too long (limit: %d characters)", MaxChannelFolderNameLength)
	}
	return noNullIn("description", description)
}

// checkFolderName applies Zulip's rules to a new folder name.
func (r *Realm) checkFolderName(name string) error {
	if strings.TrimSpace(name) == "" {
		return BadRequest("Channel folder name can't be empty.")
	}
	if pos := topic.FirstUnprintable(name); pos > 0 {
		return BadRequest("Invalid character in channel folder name, at position %d.", pos)
	}
	if slices.ContainsFunc(r.channelFolders.list, func(f *storedFolder) bool { return strings.EqualFold(f.Name, name) }) {
		return BadRequest("Channel folder name already in use")
	}
	return nil
}

// renderFolderDescription renders a folder description as a message
// would be; an empty one renders empty.
func (r *Realm) renderFolderDescription(text string) string {
	if text == "" {
		return ""
	}
	return r.renderer.Render(text)
}

// folderByID is the folder of that ID, nil if none.
func (r *Realm) folderByID(id int) *storedFolder {
	i := slices.IndexFunc(r.channelFolders.list, func(f *storedFolder) bool { return f.ID == id })
	if i < 0 {
		return nil
	}
	return r.channelFolders.list[i]
}

// folderInUse reports whether any channel, archived or not, is in the
// folder.
func (r *Realm) folderInUse(id int) bool {
	for _, c := range r.channels.byID {
		if c.FolderID == id {
			return true
		}
	}
	return false
}

// folderView is the API object of a folder at the realm's feature level.
func (r *Realm) folderView(f *storedFolder) ChannelFolder {
	v := ChannelFolder{ID: f.ID, Name: f.Name, Description: f.Description, RenderedDescription: f.RenderedDescription,
		DateCreated: f.DateCreated, IsArchived: f.IsArchived}
	if f.CreatorID != 0 {
		creator := f.CreatorID
		v.CreatorID = &creator
	}
	if r.has(changeChannelFolderOrder) {
		order := f.Order
		v.Order = &order
	}
	return v
}

// folderList is the realm's folders as the API lists them, never nil: by
// order then ID (by ID alone below feature level 414).
func (r *Realm) folderList(includeArchived bool) []ChannelFolder {
	folders := slices.Clone(r.channelFolders.list)
	if r.has(changeChannelFolderOrder) {
		slices.SortStableFunc(folders, func(a, b *storedFolder) int { return cmp.Compare(a.Order, b.Order) })
	}
	out := []ChannelFolder{}
	for _, f := range folders {
		if includeArchived || !f.IsArchived {
			out = append(out, r.folderView(f))
		}
	}
	return out
}

// emitFolderUpdate sends a folder update event to every active user.
func (r *Realm) emitFolderUpdate(f *storedFolder, data map[string]any) {
	r.emit("channel_folder", ChannelFolderEvent{Op: "update", ChannelFolderID: f.ID, Data: data}, r.activeUserIDs()...)
}

// checkChannelFolderID checks a channel's new folder: one of the
// realm's, archived or not.
func (r *Realm) checkChannelFolderID(id int) error {
	if r.folderByID(id) == nil {
		return BadRequest("Invalid channel folder ID")
	}
	return nil
}
