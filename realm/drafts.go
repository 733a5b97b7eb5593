package realm

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// maxDraftsInRegister bounds the drafts register returns (the newest
// edits), as Zulip's MAX_DRAFTS_IN_REGISTER_RESPONSE does.
const maxDraftsInRegister = 1000

// Draft is a message draft stored on the server for its author's clients
// to share, as the API returns it.
type Draft struct {
	ID int `json:"id"`
	// Type is "stream", "private", or "" for a draft with no recipient.
	Type string `json:"type"`
	// To is the channel's ID for a channel draft, the other participants'
	// IDs (the author's own for a note to self) for a direct one, and
	// empty for a draft with no recipient.
	To      []int  `json:"to"`
	Topic   string `json:"topic"`
	Content string `json:"content"`
	// Timestamp is the last edit, in whole Unix seconds.
	Timestamp int64 `json:"timestamp"`
}

// DraftInput is a draft as a client sends it (POST /drafts, PATCH
// /drafts/{id}). Timestamp, when set, is the last edit in Unix seconds
// (fractions allowed); nil means now.
type DraftInput struct {
	Type      string
	To        []int
	Topic     string
	Content   string
	Timestamp *float64
}

// storedDraft is a draft with its exact edit time, which orders drafts.
type storedDraft struct {
	Draft
	editedAt float64 // Unix seconds, to the microsecond
}

// DraftEvent is a drafts event, sent to the author only: op "add" with
// Drafts, "update" with Draft, "remove" with DraftID.
type DraftEvent struct {
	Op      string  `json:"op"`
	Drafts  []Draft `json:"drafts,omitempty"`
	Draft   *Draft  `json:"draft,omitempty"`
	DraftID int     `json:"draft_id,omitempty"`
}

// Drafts answers GET /drafts: the caller's drafts, oldest edit first.
func (a *Actor) Drafts(ctx context.Context) (list []Draft, err error) {
	err = a.read(ctx, func(me *user.User) error {
		if err := checkDraftsSynced(me); err != nil {
			return err
		}
		list = a.r.draftList(me.ID, false)
		return nil
	})
	return list, err
}

// CreateDrafts answers POST /drafts: it stores every draft or, when one is
// invalid, none, and returns their IDs in order.
func (a *Actor) CreateDrafts(ctx context.Context, drafts []DraftInput) (ids []int, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		if err := checkDraftsSynced(me); err != nil {
			return err
		}
		checked := make([]*storedDraft, len(drafts))
		for i, in := range drafts {
			d, err := r.checkDraft(me, in, fmt.Sprintf("drafts[%d]", i))
			if err != nil {
				return err
			}
			checked[i] = d
		}
		added := make([]Draft, 0, len(checked))
		ids = make([]int, 0, len(checked))
		for _, d := range checked {
			r.addDraft(me.ID, d)
			added = append(added, d.Draft)
			ids = append(ids, d.ID)
		}
		r.emit("drafts", DraftEvent{Op: "add", Drafts: added}, me.ID)
		return nil
	})
	return ids, err
}

// UpdateDraft answers PATCH /drafts/{id}: the draft is replaced whole.
func (a *Actor) UpdateDraft(ctx context.Context, id int, in DraftInput) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if err := checkDraftsSynced(me); err != nil {
			return err
		}
		i := r.ownDraft(me.ID, id)
		if i < 0 {
			return NotFound("Draft does not exist")
		}
		d, err := r.checkDraft(me, in, "draft")
		if err != nil {
			return err
		}
		d.ID = id
		r.drafts.byUser[me.ID][i] = d
		updated := d.Draft
		r.emit("drafts", DraftEvent{Op: "update", Draft: &updated}, me.ID)
		return nil
	})
}

// DeleteDraft answers DELETE /drafts/{id}.
func (a *Actor) DeleteDraft(ctx context.Context, id int) error {
	r := a.r
	return a.write(ctx, func(me *user.User) error {
		if err := checkDraftsSynced(me); err != nil {
			return err
		}
		i := r.ownDraft(me.ID, id)
		if i < 0 {
			return NotFound("Draft does not exist")
		}
		r.drafts.byUser[me.ID] = slices.Delete(r.drafts.byUser[me.ID], i, i+1)
		r.emit("drafts", DraftEvent{Op: "remove", DraftID: id}, me.ID)
		return nil
	})
}

// addDraft numbers d and stores it as the user's newest draft.
func (r *Realm) addDraft(userID int, d *storedDraft) {
	r.drafts.lastID++
	d.ID = r.drafts.lastID
	if r.drafts.byUser == nil {
		r.drafts.byUser = map[int][]*storedDraft{}
	}
	r.drafts.byUser[userID] = append(r.drafts.byUser[userID], d)
}

// checkDraftsSynced refuses every drafts call of a user who turned
// enable_drafts_synchronization off.
func checkDraftsSynced(me *user.User) error {
	if !me.Settings.EnableDraftsSynchronization {
		return BadRequest("User has disabled synchronizing drafts.")
	}
	return nil
}

// ownDraft is the index of the user's draft with this ID, or -1.
func (r *Realm) ownDraft(userID, id int) int {
	return slices.IndexFunc(r.drafts.byUser[userID], func(d *storedDraft) bool { return d.ID == id })
}

// draftList lists a user's drafts by edit time, oldest first, or newest
// first and at most maxDraftsInRegister when newestFirst (register).
func (r *Realm) draftList(userID int, newestFirst bool) []Draft {
	stored := slices.Clone(r.drafts.byUser[userID])
	slices.SortStableFunc(stored, func(a, b *storedDraft) int {
		if newestFirst {
			a, b = b, a
		}
		switch {
		case a.editedAt < b.editedAt:
			return -1
		case a.editedAt > b.editedAt:
			return 1
		}
		return 0
	})
	if newestFirst && len(stored) > maxDraftsInRegister {
		stored = stored[:maxDraftsInRegister]
	}
	out := make([]Draft, 0, len(stored))
	for _, d := range stored {
		out = append(out, d.Draft)
	}
	return out
}

// forgetDrafts deletes all of a user's drafts without events, as turning
// enable_drafts_synchronization off does: the clients keep their copies.
func (r *Realm) forgetDrafts(userID int) { delete(r.drafts.byUser, userID) }

// checkDraft validates a draft as Zulip does and resolves its recipient:
// content is normalized like a message's, a channel draft names exactly
// one channel the author may access and keeps its (truncated) topic, a
// direct draft names existing users; the topic of any other draft is
// dropped. name is how errors call the draft: drafts[0], draft.
func (r *Realm) checkDraft(me *user.User, in DraftInput, name string) (*storedDraft, error) {
	switch in.Type {
	case "", "stream", "private":
	default:
		return nil, BadRequest(`Invalid %s["type"]`, name)
	}
	if strings.TrimSpace(in.Content) == "" {
		return nil, BadRequest(`%s["content"] cannot be blank`, name)
	}
	content, err := message.NormalizeContent(in.Content, r.opts.Limits.MaxMessageLength)
	if err != nil {
		return nil, BadRequest("%s", err.Error())
	}
	editedAt := float64(r.clock.Now().UnixMicro()) / 1e6
	if in.Timestamp != nil {
		if math.IsNaN(*in.Timestamp) || math.IsInf(*in.Timestamp, 0) {
			return nil, BadRequest("Invalid timestamp")
		}
		editedAt = math.Round(*in.Timestamp*1e6) / 1e6
	}
	if editedAt < 0 {
		return nil, BadRequest("Timestamp must not be negative.")
	}
	d := &storedDraft{Draft: Draft{Type: "", To: []int{}, Content: content, Timestamp: int64(editedAt)}, editedAt: editedAt}
	switch {
	case in.Type == "stream":
		name := topic.Normalize(in.Topic, r.opts.Limits.MaxTopicLength)
		if err := noNull("Topic", name); err != nil {
			return nil, err
		}
		if len(in.To) != 1 {
			return nil, BadRequest("Must specify exactly 1 channel ID for channel messages")
		}
		ch := r.channels.byID[in.To[0]]
		if ch == nil || !r.hasContentAccess(me, ch) {
			return nil, BadRequest("Invalid channel ID")
		}
		d.Type, d.To, d.Topic = "stream", []int{ch.ID}, name
	case in.Type == "private" && len(in.To) > 0:
		others := []int{}
		for _, id := range in.To {
			if r.realmUser(id) == nil {
				return nil, BadRequest("Invalid user ID %d", id)
			}
			if id != me.ID && !slices.Contains(others, id) {
				others = append(others, id)
			}
		}
		slices.Sort(others)
		if len(others) == 0 {
			others = []int{me.ID} // a note to self
		}
		d.Type, d.To = "private", others
	}
	return d, nil
}

// draftTable holds each user's drafts, in creation order.
type draftTable struct {
	byUser map[int][]*storedDraft
	lastID int // the last draft ID given
}

func (t *draftTable) clone() draftTable {
	return draftTable{lastID: t.lastID,
		byUser: cloneNested(t.byUser, func(d *storedDraft) *storedDraft { c := *d; c.To = slices.Clone(d.To); return &c })}
}

// dump adds the users' drafts, by user and in creation order, to f.
func (t *draftTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(t.byUser)) {
		for _, d := range t.byUser[uid] {
			ts := d.editedAt
			fd := fixture.Draft{ID: d.ID, UserID: uid, Type: d.Type, Topic: d.Topic, Content: d.Content, Timestamp: &ts}
			if len(d.To) > 0 {
				fd.To = slices.Clone(d.To)
			}
			f.Drafts = append(f.Drafts, fd)
		}
	}
	return nil
}

// load checks each draft of f as POST /drafts does (its author
// synchronizes drafts; a known type; content; a channel the author may
// access, or known users); a draft without a timestamp was edited when
// loaded. The content, and the topic of a draft with no recipient, are
// kept as written (Zulip's own seeded drafts have both unnormalized) once
// the content passes and the topic is one a channel draft could have.
func (t *draftTable) load(r *Realm, f *fixture.Document) error {
	if r.opts.data.exactFollow {
		return nil // the exact tables bring them (durable.go)
	}
	ids := []int{}
	for i, fd := range f.Drafts {
		at := fmt.Sprintf("drafts[%d]", i)
		if fd.ID <= 0 || slices.Contains(ids, fd.ID) {
			return badItem(at+".id", "%s draft ID %d", invalidOrDuplicate(fd.ID <= 0), fd.ID)
		}
		me := r.realmUser(fd.UserID)
		if me == nil {
			return badItem(at+".user_id", "no user %d", fd.UserID)
		}
		if err := checkDraftsSynced(me); err != nil {
			return badItem(at+".user_id", "%s", reason(err))
		}
		d, err := r.checkDraft(me, DraftInput{Type: fd.Type, To: fd.To, Topic: fd.Topic, Content: fd.Content,
			Timestamp: fd.Timestamp}, "draft")
		if err != nil {
			return badItem(at, "%s", reason(err))
		}
		if fd.Type == "" && fd.Topic != "" {
			if topic.Normalize(fd.Topic, r.opts.Limits.MaxTopicLength) != fd.Topic || strings.IndexByte(fd.Topic, 0) >= 0 {
				return badItem(at+".topic", "%q is not a topic as stored", fd.Topic)
			}
			d.Topic = fd.Topic
		}
		d.ID, d.Content = fd.ID, fd.Content
		if t.byUser == nil {
			t.byUser = map[int][]*storedDraft{}
		}
		t.byUser[fd.UserID] = append(t.byUser[fd.UserID], d)
		ids = append(ids, fd.ID)
	}
	t.lastID = nextAfter(1, ids...) - 1 // the last ID given
	return nil
}

func (t *draftTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if !req.fetches("drafts") {
		return
	}
	list := []Draft{}
	if me.Settings.EnableDraftsSynchronization {
		list = r.draftList(me.ID, true)
	}
	out.DraftsState = &DraftsState{Drafts: list}
}

// seedDrafts gives iago the dev realm's two drafts: no recipient, topic
// "Release Notes" (stored as is, as Zulip's dev database holds them).
func (r *Realm) seedDrafts() {
	iago := r.users.byEmail["iago@zulip.com"]
	at := float64(r.createdAt.Unix())
	for _, content := range []string{"Release 4.0 will contain ...", "Release 4.0 will contain many new features such as ... "} {
		r.addDraft(iago.ID, &storedDraft{Draft: Draft{Type: "", To: []int{}, Topic: "Release Notes", Content: content, Timestamp: int64(at)}, editedAt: at})
	}
}
