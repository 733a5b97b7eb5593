package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/user"
)

// AlertWordsEvent is an alert_words event: the user's whole list, sent
// to the user only.
type AlertWordsEvent struct {
	AlertWords []string `json:"alert_words"`
}

// AlertWords answers GET /users/me/alert_words.
func (a *Actor) AlertWords(ctx context.Context) (words []string, err error) {
	err = a.read(ctx, func(me *user.User) error {
		words = a.r.alertWordList(me.ID)
		return nil
	})
	return words, err
}

// AddAlertWords answers POST /users/me/alert_words: words are trimmed,
// empty ones dropped, and those the user has already (ignoring case)
// skipped; the first spelling of a new word is kept. It returns the
// user's words and tells the user's clients.
func (a *Actor) AddAlertWords(ctx context.Context, words []string) (list []string, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		for i, w := range words {
			if n := utf8.RuneCountInString(w); n > message.MaxAlertWordLength {
				return BadRequest("alert_words[%d] is too long (limit: %d characters)", i, message.MaxAlertWordLength)
			}
			if err := noNull(fmt.Sprintf("alert_words[%d]", i), w); err != nil {
				return err
			}
		}
		if r.alertWords.byUser == nil {
			r.alertWords.byUser = map[int][]string{}
		}
		r.alertWords.byUser[me.ID] = addAlertWords(r.alertWords.byUser[me.ID], words)
		list = r.alertWordList(me.ID)
		r.emit("alert_words", AlertWordsEvent{AlertWords: list}, me.ID)
		return nil
	})
	return list, err
}

// RemoveAlertWords answers DELETE /users/me/alert_words: each word goes,
// whatever its case; words the user does not have are ignored.
func (a *Actor) RemoveAlertWords(ctx context.Context, words []string) (list []string, err error) {
	r := a.r
	err = a.write(ctx, func(me *user.User) error {
		r.alertWords.byUser[me.ID] = slices.DeleteFunc(r.alertWords.byUser[me.ID], func(h string) bool {
			return slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(h, w) })
		})
		list = r.alertWordList(me.ID)
		r.emit("alert_words", AlertWordsEvent{AlertWords: list}, me.ID)
		return nil
	})
	return list, err
}

// alertWordList is a copy of the user's alert words, in the order added.
func (r *Realm) alertWordList(userID int) []string {
	return append([]string{}, r.alertWords.byUser[userID]...)
}

// alertedUsers are the users among userIDs and more with an alert word in
// content (message.ContainsAlertWord): their copies get the
// has_alert_word flag. It runs on every send under the write lock, so a
// realm without alert words pays nothing, and nothing is allocated until
// a user has words.
func (r *Realm) alertedUsers(content string, userIDs []int, more ...int) map[int]bool {
	if len(r.alertWords.byUser) == 0 {
		return nil
	}
	var text []rune
	var out map[int]bool
	check := func(id int) {
		for _, w := range r.alertWords.byUser[id] {
			if text == nil {
				text = message.AlertText(content)
			}
			if message.ContainsAlertWord(text, w) {
				if out == nil {
					out = map[int]bool{}
				}
				out[id] = true
				return
			}
		}
	}
	for _, id := range userIDs {
		check(id)
	}
	for _, id := range more {
		check(id)
	}
	return out
}

// addAlertWords appends words to have as Zulip adds alert words: trimmed,
// blank ones and those already there (in any case) left out.
func addAlertWords(have, words []string) []string {
	for _, w := range words {
		w = strings.TrimSpace(w)
		if w == "" || slices.ContainsFunc(have, func(h string) bool { return strings.EqualFold(h, w) }) {
			continue
		}
		have = append(have, w)
	}
	return have
}

// alertWordTable holds each user's alert words, in the order added.
type alertWordTable struct {
	byUser map[int][]string
}

func (t *alertWordTable) clone() alertWordTable {
	return alertWordTable{byUser: cloneNested(t.byUser, func(w string) string { return w })}
}

// dump adds the alert words to f, by user.
func (t *alertWordTable) dump(r *Realm, f *fixture.Document) error {
	for _, uid := range slices.Sorted(maps.Keys(r.alertWords.byUser)) {
		if words := r.alertWords.byUser[uid]; len(words) > 0 {
			f.AlertWords = append(f.AlertWords, fixture.AlertWords{UserID: uid, Words: slices.Clone(words)})
		}
	}
	return nil
}

// load checks each user's words as POST /users/me/alert_words
// does (the length limit; words are trimmed, and empty ones or repeats
// ignoring case dropped); a user has one entry.
func (t *alertWordTable) load(r *Realm, f *fixture.Document) error {
	for i, fa := range f.AlertWords {
		at := fmt.Sprintf("alert_words[%d]", i)
		if r.realmUser(fa.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fa.UserID)
		}
		if _, dup := r.alertWords.byUser[fa.UserID]; dup {
			return badItem(at+".user_id", "user %d has another entry", fa.UserID)
		}
		for j, w := range fa.Words {
			if n := utf8.RuneCountInString(w); n > message.MaxAlertWordLength {
				return badItem(fmt.Sprintf("%s.words[%d]", at, j), "alert word is too long (limit: %d characters)", message.MaxAlertWordLength)
			}
		}
		if r.alertWords.byUser == nil {
			r.alertWords.byUser = map[int][]string{}
		}
		r.alertWords.byUser[fa.UserID] = addAlertWords([]string{}, fa.Words)
	}
	return nil
}

func (t *alertWordTable) register(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	if req.fetches("alert_words") {
		fillAlertWords(r, me, req, out)
	}
}

func fillAlertWords(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	out.AlertWordsState = &AlertWordsState{AlertWords: r.alertWordList(me.ID)}
}
