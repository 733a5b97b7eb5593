package realm

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/emoji"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// Custom emoji: POST /realm/emoji/{name}, GET /realm/emoji and DELETE
// /realm/emoji/{name}, as zerver/views/realm_emoji.py and
// zerver/actions/realm_emoji.py do them. Images are kept in memory and
// served below EmojiImagePrefix.

// EmojiImagePrefix is the path below which custom emoji images are
// served: the dev realm's (ID 2) emoji directory of Zulip's local upload
// backend.
const EmojiImagePrefix = "/user_avatars/2/emoji/images/"

// RealmEmoji is a custom emoji as the API lists it.
type RealmEmoji struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	SourceURL string `json:"source_url"`
	// StillURL is a still image of an animated emoji; null otherwise.
	StillURL    *string `json:"still_url"`
	Deactivated bool    `json:"deactivated"`
	AuthorID    int     `json:"author_id"`
}

// storedEmoji is a custom emoji with its image (none for the seeded one).
type storedEmoji struct {
	RealmEmoji
	image emoji.Image
	// fileName is the image's name below EmojiImagePrefix: the ID and
	// the uploaded file's extension.
	fileName string
}

// EmojiFile is one file of an upload request: the name the client gave
// it and its bytes.
type EmojiFile struct {
	Name string
	Data []byte
}

// EmojiUpload is POST /realm/emoji/{emoji_name}: the name as sent, and
// one entry per file form field of the request (a custom emoji takes
// exactly one).
type EmojiUpload struct {
	Name  string
	Files []EmojiFile
}

// RealmEmojiEvent reports the realm's custom emoji after a change: all
// of them, deactivated ones included.
type RealmEmojiEvent struct {
	Op         string                `json:"op"`
	RealmEmoji map[string]RealmEmoji `json:"realm_emoji"`
}

// seedRealmEmoji adds the dev realm's custom emoji, green_tick by iago.
func (r *Realm) seedRealmEmoji() {
	iago := r.users.byEmail["iago@zulip.com"]
	r.realmEmoji.list = append(r.realmEmoji.list, &storedEmoji{RealmEmoji: RealmEmoji{ID: "1", Name: "green_tick",
		SourceURL: EmojiImagePrefix + "1.png", AuthorID: iago.ID}, fileName: "1.png",
		image: emoji.Image{Data: greenTickPNG(), ContentType: "image/png"}})
}

// RealmEmojiList answers GET /realm/emoji: every custom emoji by ID,
// deactivated ones included. The list is public to the realm's users.
func (a *Actor) RealmEmojiList(ctx context.Context) (list map[string]RealmEmoji, err error) {
	err = a.read(ctx, func(*user.User) error {
		list = a.r.realmEmojiMap()
		return nil
	})
	return list, err
}

// AddRealmEmoji uploads a custom emoji. Members (not guests, not bots) in
// the realm's can_add_custom_emoji_group may add one under a name no
// active custom emoji has; only administrators may shadow a built-in
// emoji's name. Every active user gets a realm_emoji event.
func (a *Actor) AddRealmEmoji(ctx context.Context, req EmojiUpload) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if me.IsGuest() {
			return BadRequest("Not allowed for guest users")
		}
		if me.IsBot() {
			return BadRequest("This endpoint does not accept bot requests.")
		}
		name := emoji.NormalizeCustomName(req.Name)
		if msg := emoji.CheckCustomName(name); msg != "" {
			return BadRequest("%s", msg)
		}
		if !r.settingHas(r.settings.CanAddCustomEmojiGroup, me.ID) {
			return BadRequest("Insufficient permission")
		}
		if _, taken := r.realmEmojiByName(name); taken {
			return BadRequest("A custom emoji with this name already exists.")
		}
		if len(req.Files) != 1 {
			return BadRequest("You must upload exactly one file.")
		}
		if _, builtIn := emoji.UnicodeCode(name); builtIn && !me.Role.IsAdmin() {
			return BadRequest("Only administrators can override default emoji.")
		}
		file := req.Files[0]
		if len(file.Data) > emoji.MaxFileSizeMiB<<20 {
			return BadRequest("Uploaded file is larger than the allowed limit of %d MiB", emoji.MaxFileSizeMiB)
		}
		img, refusal := emoji.ReadImage(file.Data)
		if refusal != "" {
			return badImage(refusal)
		}
		id := strconv.Itoa(r.nextRealmEmojiID())
		e := &storedEmoji{image: img, fileName: id + imageExtension(file.Name),
			RealmEmoji: RealmEmoji{ID: id, Name: name, AuthorID: me.ID}}
		e.SourceURL = EmojiImagePrefix + e.fileName
		if img.Animated() {
			e.StillURL = ptr(EmojiImagePrefix + "still/" + id + ".png")
		}
		r.realmEmoji.list = append(r.realmEmoji.list, e)
		r.emitRealmEmoji()
		return nil
	})
}

// DeactivateRealmEmoji deactivates the active custom emoji of that name:
// administrators may deactivate any, other users the ones they added.
// Messages and reactions using it keep it.
func (a *Actor) DeactivateRealmEmoji(ctx context.Context, name string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		e := r.activeRealmEmoji(name)
		if e == nil && !r.has(changeEmojiNotFound404) {
			return BadRequest("Emoji '%s' does not exist", name)
		}
		if e == nil {
			return NotFound("Emoji '" + name + "' does not exist")
		}
		if !me.Role.IsAdmin() && e.AuthorID != me.ID {
			return BadRequest("Must be an organization administrator or emoji author")
		}
		e.Deactivated = true
		r.emitRealmEmoji()
		return nil
	})
}

// RealmEmojiImage is the image served at EmojiImagePrefix+file: an
// uploaded custom emoji's image, or the still image of an animated one.
// Images stay served after deactivation, as old messages show them.
func (r *Realm) RealmEmojiImage(file string) (data []byte, contentType string, ok bool) {
	_ = r.view(func() error {
		for _, e := range r.realmEmoji.list {
			switch {
			case e.image.Data == nil:
			case file == e.fileName:
				data, contentType, ok = e.image.Data, e.image.ContentType, true
			case e.image.Animated() && file == "still/"+e.ID+".png":
				data, contentType, ok = e.image.Still, "image/png", true
			}
			if ok {
				break
			}
		}
		return nil
	})
	return data, contentType, ok
}

// imageExtension is the extension of an uploaded file's name, as the
// stored file keeps it; one holding anything but letters and digits is
// dropped, so that the image's URL is a plain path.
func imageExtension(fileName string) string {
	ext := path.Ext(strings.TrimLeft(fileName, "."))
	for _, c := range strings.TrimPrefix(ext, ".") {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return ""
		}
	}
	return ext
}

// nextRealmEmojiID is one more than the highest custom emoji ID.
func (r *Realm) nextRealmEmojiID() int {
	highest := 0
	for _, e := range r.realmEmoji.list {
		if id, _ := strconv.Atoi(e.ID); id > highest {
			highest = id
		}
	}
	return highest + 1
}

// emitRealmEmoji sends every active user the realm's custom emoji.
func (r *Realm) emitRealmEmoji() {
	r.emit("realm_emoji", RealmEmojiEvent{Op: "update", RealmEmoji: r.realmEmojiMap()}, r.activeUserIDs()...)
}

// realmEmojiMap is every custom emoji by ID, as a new map.
func (r *Realm) realmEmojiMap() map[string]RealmEmoji {
	m := make(map[string]RealmEmoji, len(r.realmEmoji.list))
	for _, e := range r.realmEmoji.list {
		m[e.ID] = e.RealmEmoji
	}
	return m
}

// activeRealmEmoji is the active custom emoji of that name, or nil.
func (r *Realm) activeRealmEmoji(name string) *storedEmoji {
	for _, e := range r.realmEmoji.list {
		if e.Name == name && !e.Deactivated {
			return e
		}
	}
	return nil
}

// realmEmojiByID is the custom emoji with that ID, deactivated or not.
func (r *Realm) realmEmojiByID(id string) *storedEmoji {
	for _, e := range r.realmEmoji.list {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// realmEmojiByName finds an active custom emoji, for the renderer.
func (r *Realm) realmEmojiByName(name string) (RealmEmoji, bool) {
	if e := r.activeRealmEmoji(name); e != nil {
		return e.RealmEmoji, true
	}
	return RealmEmoji{}, false
}

// emojiTable holds the realm's custom emoji, deactivated ones included,
// by ID; the images are never changed in place.
type emojiTable struct {
	list []*storedEmoji
}

func (t *emojiTable) clone() emojiTable {
	c := emojiTable{list: make([]*storedEmoji, len(t.list))}
	for i, e := range t.list {
		c.list[i] = e.clone()
	}
	return c
}

// clone copies an emoji; its image bytes, never changed, are shared.
func (e *storedEmoji) clone() *storedEmoji {
	c := *e
	if e.StillURL != nil {
		u := *e.StillURL
		c.StillURL = &u
	}
	return &c
}

// dump adds the custom emoji to f, images included, by ID.
func (t *emojiTable) dump(r *Realm, f *fixture.Document) error {
	for _, e := range t.list {
		id, _ := strconv.Atoi(e.ID)
		f.CustomEmoji = append(f.CustomEmoji, fixture.Emoji{ID: id, Name: e.Name, AuthorID: e.AuthorID,
			Deactivated: e.Deactivated, FileName: e.fileName, Image: e.image.Data})
	}
	return nil
}

func (t *emojiTable) load(r *Realm, f *fixture.Document) error {
	for i, fe := range f.CustomEmoji {
		at := fmt.Sprintf("custom_emoji[%d]", i)
		id := strconv.Itoa(fe.ID)
		if fe.ID <= 0 || r.realmEmojiByID(id) != nil {
			return badItem(at+".id", "%s emoji ID %d", invalidOrDuplicate(fe.ID <= 0), fe.ID)
		}
		name := emoji.NormalizeCustomName(fe.Name)
		if msg := emoji.CheckCustomName(name); msg != "" || name != fe.Name {
			return badItem(at+".name", "invalid emoji name %q %s", fe.Name, msg)
		}
		if _, taken := r.realmEmojiByName(name); taken && !fe.Deactivated {
			return badItem(at+".name", "duplicate active emoji name %q", fe.Name)
		}
		if r.users.byID[fe.AuthorID] == nil {
			return badItem(at+".author_id", "no user %d", fe.AuthorID)
		}
		file := fe.FileName
		if file == "" {
			file = id + ".png"
		}
		if file != id+imageExtension(file) {
			return badItem(at+".file_name", "%q is not the ID %s and an extension", fe.FileName, id)
		}
		e := &storedEmoji{fileName: file, RealmEmoji: RealmEmoji{ID: id, Name: name, AuthorID: fe.AuthorID,
			Deactivated: fe.Deactivated, SourceURL: EmojiImagePrefix + file}}
		if fe.Image != nil {
			img, refusal := emoji.ReadImage(fe.Image)
			if refusal != "" {
				return badItem(at+".image", "%s", refusal)
			}
			e.image = img
			if img.Animated() {
				e.StillURL = ptr(EmojiImagePrefix + "still/" + id + ".png")
			}
		}
		r.realmEmoji.list = append(r.realmEmoji.list, e)
	}
	return nil
}

func (t *emojiTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm_emoji") {
		out.RealmEmojiState = &RealmEmojiState{RealmEmoji: r.realmEmojiMap()}
	}
}
