package realm

import (
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/linkifier"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/user"
)

// renderAs renders a message's Markdown as sent by sender, whose
// translate_emoticons setting turns :) and friends into emoji. The caller
// holds the lock.
func (r *Realm) renderAs(sender *user.User, content string) markdown.Result {
	return r.renderer.RenderFor(content, markdown.Context{Lookup: r.lookupFor(sender),
		TranslateEmoticons: sender != nil && sender.Settings.TranslateEmoticons, Thumbnails: r.thumbnailMarkup(),
		DefaultCodeBlockLanguage: r.settings.DefaultCodeBlockLanguage, NoImagePreviews: !r.settings.InlineImagePreview,
		EmptyTopicName: r.settings.EmptyTopicDisplayName, UploadContentType: markdownLookup{r: r}.uploadContentType})
}

// markdownLookup shows the realm to the Markdown renderer, as the
// message's sender may see it (nil: no one's messages are readable). Its
// methods read realm state without locking: whoever renders with it holds
// r.mu. With a sender, users the sender may not access (user_access.go)
// are not found, as Zulip's mention lookup leaves them out for a
// restricted guest: their mentions stay plain text.
type markdownLookup struct {
	r      *Realm
	sender *user.User
}

// finds reports whether the lookup shows u.
func (l markdownLookup) finds(u *user.User) bool {
	return l.sender == nil || l.r.canAccessUser(l.sender, u)
}

var (
	_ markdown.Lookup        = markdownLookup{}
	_ markdown.TopicMessages = markdownLookup{}
)

// UserByName finds a user by full name, ignoring case; with several
// users of that name, the one with the lowest id.
func (l markdownLookup) UserByName(name string) (markdown.User, bool) {
	var found *markdown.User
	for id, u := range l.r.users.byID {
		if strings.EqualFold(u.FullName, name) && (found == nil || id < found.ID) && l.finds(u) {
			found = &markdown.User{ID: u.ID, FullName: u.FullName, Active: u.IsActive}
		}
	}
	if found == nil {
		return markdown.User{}, false
	}
	return *found, true
}

// UserByID finds a user by id.
func (l markdownLookup) UserByID(id int) (markdown.User, bool) {
	u := l.r.users.byID[id]
	if u == nil || !l.finds(u) {
		return markdown.User{}, false
	}
	return markdown.User{ID: u.ID, FullName: u.FullName, Active: u.IsActive}, true
}

// GroupByName finds a user group by its exact name, system groups
// (shown by their display name; from changeSystemGroupMentions) and
// deactivated groups included.
func (l markdownLookup) GroupByName(name string) (markdown.Group, bool) {
	g := l.r.groups.byName[name]
	if g == nil || g.IsSystem && !l.r.has(changeSystemGroupMentions) {
		return markdown.Group{}, false
	}
	return markdown.Group{ID: g.ID, Name: group.DisplayName(g), Deactivated: g.Deactivated}, true
}

// ChannelByName finds a channel by name, ignoring case.
func (l markdownLookup) ChannelByName(name string) (markdown.Channel, bool) {
	c := l.r.channels.byName[channelKey(name)]
	if c == nil {
		return markdown.Channel{}, false
	}
	return markdown.Channel{ID: c.ID, Name: c.Name}, true
}

// RealmEmoji finds an active custom emoji's image URL by name.
func (l markdownLookup) RealmEmoji(name string) (string, bool) {
	e, ok := l.r.realmEmojiByName(name)
	return e.SourceURL, ok
}

// Linkifiers are the realm's linkifiers, in the order they apply.
func (l markdownLookup) Linkifiers() []*linkifier.Linkifier { return l.r.linkifiers.list }
