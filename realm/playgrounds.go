package realm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// RealmPlayground is a code playground: where code blocks of a language
// can be opened, through a URL template whose only variable is "code".
type RealmPlayground struct {
	ID               int    `json:"id"`
	Name             string `json:"name"`
	PygmentsLanguage string `json:"pygments_language"`
	URLTemplate      string `json:"url_template"`
}

// RealmPlaygroundsEvent carries the realm's whole playground list after a
// change.
type RealmPlaygroundsEvent struct {
	RealmPlaygrounds []RealmPlayground `json:"realm_playgrounds"`
}

// AddPlayground answers POST /realm/playgrounds (administrators): the
// fields are trimmed and checked by Zulip's rules, and a language may
// have one playground of each name. It returns the new playground's ID.
// Below feature level 196 the URL is a prefix the code is appended to
// (url_prefix), stored as the template it stands for.
func (a *Actor) AddPlayground(ctx context.Context, name, pygmentsLanguage, url string) (id int, err error) {
	r := a.r
	url = strings.TrimSpace(url)
	err = a.writeAdmin(ctx, func(me *user.User) error {
		if !r.has(ChangePlaygroundURLTemplate) {
			if !user.ValidURL(url) {
				return BadRequest("url_prefix is not a URL")
			}
			url = playgroundPrefixTemplate(url)
		}
		p := RealmPlayground{Name: strings.TrimSpace(name), PygmentsLanguage: strings.TrimSpace(pygmentsLanguage),
			URLTemplate: url}
		if err := linkifier.CheckPlayground(p.Name, p.PygmentsLanguage, p.URLTemplate); err != nil {
			var ve linkifier.ValidationError
			if errors.As(err, &ve) {
				return BadRequest("%s", string(ve))
			}
			return err
		}
		if slices.ContainsFunc(r.playgrounds.list, func(o RealmPlayground) bool {
			return o.PygmentsLanguage == p.PygmentsLanguage && o.Name == p.Name
		}) {
			return BadRequest("Realm playground with this Realm, Pygments language and Name already exists.")
		}
		p.ID = r.playgrounds.nextID
		r.playgrounds.nextID++
		r.playgrounds.list = append(r.playgrounds.list, p)
		r.emitPlaygrounds()
		id = p.ID
		return nil
	})
	return id, err
}

// playgroundPrefixTemplate is the URL template of a url_prefix: the
// prefix, its braces escaped so that they stay literal, then the code.
func playgroundPrefixTemplate(prefix string) string {
	return strings.NewReplacer("{", "%7B", "}", "%7D").Replace(prefix) + "{code}"
}

// DeletePlayground answers DELETE /realm/playgrounds/{playground_id}
// (administrators).
func (a *Actor) DeletePlayground(ctx context.Context, id int) error {
	r := a.r
	return a.writeAdmin(ctx, func(me *user.User) error {
		i := slices.IndexFunc(r.playgrounds.list, func(p RealmPlayground) bool { return p.ID == id })
		if i < 0 {
			return BadRequest("Invalid playground")
		}
		r.playgrounds.list = slices.Delete(r.playgrounds.list, i, i+1)
		r.emitPlaygrounds()
		return nil
	})
}

// playgroundList is the realm's playgrounds by ID, never nil.
func (r *Realm) playgroundList() []RealmPlayground {
	return append([]RealmPlayground{}, r.playgrounds.list...)
}

// emitPlaygrounds sends the playground list to every active user.
func (r *Realm) emitPlaygrounds() {
	r.emit("realm_playgrounds", RealmPlaygroundsEvent{RealmPlaygrounds: r.playgroundList()}, r.activeUserIDs()...)
}

// playgroundTable holds the realm's code playgrounds, by ID.
type playgroundTable struct {
	list   []RealmPlayground
	nextID int
}

func (t *playgroundTable) clone() playgroundTable {
	return playgroundTable{list: slices.Clone(t.list), nextID: t.nextID}
}

// dump adds the playgrounds to f, by ID.
func (t *playgroundTable) dump(r *Realm, f *fixture.Document) error {
	for _, p := range t.list {
		f.Playgrounds = append(f.Playgrounds, fixture.Playground(p))
	}
	return nil
}

func (t *playgroundTable) load(r *Realm, f *fixture.Document) error {
	ids := []int{}
	for i, p := range f.Playgrounds {
		at := fmt.Sprintf("playgrounds[%d]", i)
		if p.ID <= 0 || slices.Contains(ids, p.ID) {
			return badItem(at+".id", "%s playground ID %d", invalidOrDuplicate(p.ID <= 0), p.ID)
		}
		if err := linkifier.CheckPlayground(p.Name, p.PygmentsLanguage, p.URLTemplate); err != nil {
			return badItem(at, "%s", reason(err))
		}
		if slices.ContainsFunc(r.playgrounds.list, func(o RealmPlayground) bool { return o.Name == p.Name && o.PygmentsLanguage == p.PygmentsLanguage }) {
			return badItem(at, "duplicate playground %q for %q", p.Name, p.PygmentsLanguage)
		}
		r.playgrounds.list = append(r.playgrounds.list, RealmPlayground(p))
		ids = append(ids, p.ID)
	}
	r.playgrounds.nextID = nextAfter(1, ids...)
	return nil
}

func (t *playgroundTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("realm_playgrounds") {
		out.RealmPlaygroundsState = &RealmPlaygroundsState{RealmPlaygrounds: r.playgroundList()}
	}
}
