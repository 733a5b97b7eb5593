package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// maxSnippetTitleLength is Zulip's limit on saved snippet titles.
const maxSnippetTitleLength = 60

// SavedSnippet is a saved snippet as the API returns it.
type SavedSnippet struct {
	ID          int    `json:"id"`
	Title       string `json:"title"`
	Content     string `json:"content"`
	DateCreated int64  `json:"date_created"`
}

// SavedSnippets answers GET /saved_snippets: the caller's own snippets.
func (a *Actor) SavedSnippets(ctx context.Context) (list []SavedSnippet, err error) {
	err = a.read(ctx, func(me *user.User) error {
		list = a.r.snippetList(me.ID)
		return nil
	})
	return list, err
}

func (r *Realm) snippetList(userID int) []SavedSnippet {
	out := []SavedSnippet{}
	for _, s := range r.snippets.byUser[userID] {
		out = append(out, *s)
	}
	return out
}

// CreateSavedSnippet answers POST /saved_snippets.
func (a *Actor) CreateSavedSnippet(ctx context.Context, title, content string) (id int, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if err := r.checkSnippet(&title, &content); err != nil {
			return err
		}
		s := &SavedSnippet{ID: r.snippets.nextID, Title: title, Content: content, DateCreated: r.clock.Now().Unix()}
		r.snippets.nextID++
		if r.snippets.byUser == nil {
			r.snippets.byUser = map[int][]*SavedSnippet{}
		}
		r.snippets.byUser[me.ID] = append(r.snippets.byUser[me.ID], s)
		r.emit("saved_snippets", SavedSnippetEvent{Op: "add", SavedSnippet: s}, me.ID)
		id = s.ID
		return nil
	})
	return id, err
}

// UpdateSavedSnippet answers PATCH /saved_snippets/{id}: title and/or
// content of one of the caller's snippets.
func (a *Actor) UpdateSavedSnippet(ctx context.Context, id int, title, content *string) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		s := r.ownSnippet(me, id)
		if s == nil {
			return NotFound("Saved snippet does not exist.")
		}
		if title == nil && content == nil {
			return BadRequest("Nothing to update.")
		}
		newTitle, newContent := s.Title, s.Content
		if title != nil {
			newTitle = *title
		}
		if content != nil {
			newContent = *content
		}
		if err := r.checkSnippet(&newTitle, &newContent); err != nil {
			return err
		}
		s.Title, s.Content = newTitle, newContent
		updated := *s
		r.emit("saved_snippets", SavedSnippetEvent{Op: "update", SavedSnippet: &updated}, me.ID)
		return nil
	})
}

// DeleteSavedSnippet answers DELETE /saved_snippets/{id}.
func (a *Actor) DeleteSavedSnippet(ctx context.Context, id int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if r.ownSnippet(me, id) == nil {
			return NotFound("Saved snippet does not exist.")
		}
		r.snippets.byUser[me.ID] = slices.DeleteFunc(r.snippets.byUser[me.ID], func(s *SavedSnippet) bool { return s.ID == id })
		r.emit("saved_snippets", SavedSnippetEvent{Op: "remove", SavedSnippetID: id}, me.ID)
		return nil
	})
}

func (r *Realm) ownSnippet(me *user.User, id int) *SavedSnippet {
	for _, s := range r.snippets.byUser[me.ID] {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// checkSnippet trims and validates a title and content.
func (r *Realm) checkSnippet(title, content *string) error {
	*title = strings.TrimSpace(*title)
	if *title == "" {
		return BadRequest("Title cannot be empty.")
	}
	if utf8.RuneCountInString(*title) > maxSnippetTitleLength {
		return BadRequest("title is too long (limit: %d characters)", maxSnippetTitleLength)
	}
	if pos := topic.FirstUnprintable(*title); pos > 0 {
		return BadRequest("Invalid character in title, at position %d.", pos)
	}
	if err := noNull("Content", *content); err != nil {
		return err
	}
	if strings.TrimSpace(*content) == "" {
		return BadRequest("Content cannot be empty.")
	}
	if utf8.RuneCountInString(*content) > r.opts.Limits.MaxMessageLength {
		return BadRequest("content is too long (limit: %d characters)", r.opts.Limits.MaxMessageLength)
	}
	return nil
}

// SavedSnippetEvent is a saved_snippets event, sent to the owner only.
type SavedSnippetEvent struct {
	Op             string        `json:"op"`
	SavedSnippet   *SavedSnippet `json:"saved_snippet,omitempty"`
	SavedSnippetID int           `json:"saved_snippet_id,omitempty"`
}

// snippetTable holds each user's saved snippets; nextID numbers new ones.
type snippetTable struct {
	byUser map[int][]*SavedSnippet
	nextID int
}

func (t *snippetTable) clone() snippetTable {
	return snippetTable{nextID: t.nextID, byUser: cloneNested(t.byUser, func(s *SavedSnippet) *SavedSnippet { c := *s; return &c })}
}

// dump adds the saved snippets to f, by user and in the order added.
func (t *snippetTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(r.snippets.byUser)) {
		for _, s := range r.snippets.byUser[uid] {
			f.SavedSnippets = append(f.SavedSnippets, fixture.SavedSnippet{ID: s.ID, UserID: uid, Title: s.Title,
				Content: s.Content, DateCreated: s.DateCreated})
		}
	}
	return nil
}

// load checks each snippet as POST /saved_snippets does (title
// and content); a snippet without a creation date was created when
// loaded.
func (t *snippetTable) load(r *Realm, f *fixture.Document) error {
	ids := []int{}
	now := r.clock.Now().Unix()
	for i, fs := range f.SavedSnippets {
		at := fmt.Sprintf("saved_snippets[%d]", i)
		if fs.ID <= 0 || slices.Contains(ids, fs.ID) {
			return badItem(at+".id", "%s saved snippet ID %d", invalidOrDuplicate(fs.ID <= 0), fs.ID)
		}
		if r.realmUser(fs.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fs.UserID)
		}
		title, content := fs.Title, fs.Content
		if err := r.checkSnippet(&title, &content); err != nil {
			return badItem(at, "%s", reason(err))
		}
		created := fs.DateCreated
		if created == 0 {
			created = now
		}
		if r.snippets.byUser == nil {
			r.snippets.byUser = map[int][]*SavedSnippet{}
		}
		r.snippets.byUser[fs.UserID] = append(r.snippets.byUser[fs.UserID], &SavedSnippet{ID: fs.ID, Title: title, Content: content, DateCreated: created})
		ids = append(ids, fs.ID)
	}
	r.snippets.nextID = nextAfter(1, ids...)
	return nil
}

func (t *snippetTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("saved_snippets") {
		fillSavedSnippets(r, me, req, out)
	}
}

func fillSavedSnippets(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.SavedSnippetsState = &SavedSnippetsState{SavedSnippets: r.snippetList(me.ID)}
}
