package realm

import (
	"github.com/minizulip/minizulip/user"
)

// RealmEmoji is a custom emoji of the realm, as register's realm_emoji
// lists it.
type RealmEmoji struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	SourceURL   string `json:"source_url"`
	StillURL    any    `json:"still_url"`
	Deactivated bool   `json:"deactivated"`
	AuthorID    int    `json:"author_id"`
}

// seedRealmEmoji adds the dev realm's custom emoji, green_tick by iago.
func (r *Realm) seedRealmEmoji() {
	iago := r.usersByEmail["iago@zulip.com"]
	r.realmEmoji = append(r.realmEmoji, RealmEmoji{ID: "1", Name: "green_tick",
		SourceURL: "/user_avatars/2/emoji/images/1.png", AuthorID: iago.ID})
}

// realmEmojiByName finds an active custom emoji, for the renderer.
func (r *Realm) realmEmojiByName(name string) (RealmEmoji, bool) {
	for _, e := range r.realmEmoji {
		if e.Name == name && !e.Deactivated {
			return e, true
		}
	}
	return RealmEmoji{}, false
}

func fillRealmEmoji(r *Realm, me *user.User, req *RegisterRequest, out *RegisterResult) {
	m := make(map[string]RealmEmoji, len(r.realmEmoji))
	for _, e := range r.realmEmoji {
		m[e.ID] = e
	}
	out.RealmEmojiState = &RealmEmojiState{RealmEmoji: m}
}
