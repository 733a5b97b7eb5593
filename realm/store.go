package realm

import (
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/group"
	"github.com/minizulip/minizulip/user"
)

// This file holds the low-level writers of the realm's tables. Callers hold
// the write lock and have validated their input.

func (r *Realm) fixedAPIKey(email string) string {
	for e, k := range r.opts.APIKeys {
		if user.NormalizeEmail(e) == user.NormalizeEmail(email) {
			return k
		}
	}
	if r.opts.APIKeySeed != "" {
		return user.DerivedAPIKey(r.opts.APIKeySeed, email)
	}
	return user.NewAPIKey()
}

func (r *Realm) addToRoleGroups(u *user.User) {
	r.groups.byName[group.RoleGroup(u.Role)].Members[u.ID] = struct{}{}
	if u.Role == user.RoleMember {
		r.groups.byName[group.FullMembers].Members[u.ID] = struct{}{}
	}
}

// channelKey folds a channel name for case-insensitive lookup.
func channelKey(name string) string { return strings.ToLower(name) }

func (r *Realm) addChannel(name, description string, inviteOnly, historyPublic bool, creator int) *storedChannel {
	c := &storedChannel{
		ID: r.nextChannelID, Name: name, Description: description,
		RenderedDescription:        r.renderer.Render(description),
		InviteOnly:                 inviteOnly,
		HistoryPublicToSubscribers: historyPublic,
		DateCreated:                r.clock.Now().Unix(),
		CreatorID:                  creator,
		RecipientID:                r.allocRecipient(),
		CanSendMessageGroup:        r.groups.byName[group.Everyone].ID,
	}
	r.nextChannelID++
	r.channels[c.ID] = c
	r.channelsByName[channelKey(name)] = c
	r.subs[c.ID] = map[int]*storedSubscription{}
	return c
}

// subscribe makes the user an active subscriber; it reports whether
// anything changed.
func (r *Realm) subscribe(channelID, userID int) bool {
	if s := r.subs[channelID][userID]; s != nil {
		if s.Active {
			return false
		}
		s.Active = true
		return true
	}
	n := 0
	for _, m := range r.subs {
		if m[userID] != nil {
			n++
		}
	}
	r.subs[channelID][userID] = &storedSubscription{
		UserID: userID, ChannelID: channelID, Active: true,
		Color: subscriptionColors[n%len(subscriptionColors)],
	}
	return true
}

// userByEmail finds an account by delivery email or by its API email
// (user<ID>@zulipdev.com and the like), case-insensitively.
func (r *Realm) userByEmail(email string) *user.User {
	norm := user.NormalizeEmail(email)
	if u := r.users.byEmail[norm]; u != nil {
		return u
	}
	if id, ok := user.ParseFakeEmailIn(email, r.users.fakeEmailDomain); ok {
		if u := r.users.byID[id]; u != nil && r.apiEmail(u) != u.DeliveryEmail {
			return u
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
