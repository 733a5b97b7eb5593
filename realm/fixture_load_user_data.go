package realm

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/realm/fixture"
	"github.com/minizulip/minizulip/topic"
	"github.com/minizulip/minizulip/user"
)

// This file dumps and loads users' own lists: muted users, alert words,
// storage and topic visibility policies.

// dumpUserData adds the users' muted users, alert words, storage and
// topic policies to f, by user ID; the caller holds the lock.
func (r *Realm) dumpUserData(f *fixture.Document) {
	for _, uid := range slices.Sorted(maps.Keys(r.mutedUsers)) {
		for _, m := range r.mutedUsers[uid] {
			f.MutedUsers = append(f.MutedUsers, fixture.MutedUser{UserID: uid, MutedUserID: m.ID, Timestamp: m.Timestamp})
		}
	}
	for _, uid := range slices.Sorted(maps.Keys(r.alertWords)) {
		if words := r.alertWords[uid]; len(words) > 0 {
			f.AlertWords = append(f.AlertWords, fixture.AlertWords{UserID: uid, Words: slices.Clone(words)})
		}
	}
	for _, uid := range slices.Sorted(maps.Keys(r.storage)) {
		f.BotStorage = append(f.BotStorage, fixture.Storage{UserID: uid, Storage: maps.Clone(r.storage[uid])})
	}
	for _, uid := range slices.Sorted(maps.Keys(r.userTopics)) {
		refs := slices.SortedFunc(maps.Keys(r.userTopics[uid]), func(a, b topicRef) int {
			if a.channel != b.channel {
				return a.channel - b.channel
			}
			return strings.Compare(a.key, b.key)
		})
		for _, ref := range refs {
			ut := r.userTopics[uid][ref]
			f.UserTopics = append(f.UserTopics, fixture.UserTopic{UserID: uid, ChannelID: ut.ChannelID, Topic: ut.TopicName,
				VisibilityPolicy: ut.Policy, LastUpdated: ut.LastUpdated})
		}
	}
}

// loadUserData adds the document's muted users, alert words, storage and
// topic policies, checked as the API checks them.
func (r *Realm) loadUserData(f *fixture.Document) error {
	for _, step := range []func(*fixture.Document) error{r.loadMutedUsers, r.loadAlertWords, r.loadStorage, r.loadUserTopics} {
		if err := step(f); err != nil {
			return err
		}
	}
	return nil
}

// loadMutedUsers checks each muting as POST /users/me/muted_users/{id}
// does: two users of the realm (not a system bot), not oneself, not twice.
func (r *Realm) loadMutedUsers(f *fixture.Document) error {
	now := r.clock.Now().Unix()
	for i, fm := range f.MutedUsers {
		at := fmt.Sprintf("muted_users[%d]", i)
		if r.realmUser(fm.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fm.UserID)
		}
		if r.realmUser(fm.MutedUserID) == nil {
			return badItem(at+".muted_user_id", "no user %d", fm.MutedUserID)
		}
		if fm.MutedUserID == fm.UserID {
			return badItem(at+".muted_user_id", "Cannot mute self")
		}
		if r.hasMuted(fm.UserID, fm.MutedUserID) {
			return badItem(at, "User already muted (user %d mutes user %d twice)", fm.UserID, fm.MutedUserID)
		}
		ts := fm.Timestamp
		if ts == 0 {
			ts = now
		}
		if r.mutedUsers == nil {
			r.mutedUsers = map[int][]MutedUser{}
		}
		r.mutedUsers[fm.UserID] = append(r.mutedUsers[fm.UserID], MutedUser{ID: fm.MutedUserID, Timestamp: ts})
	}
	return nil
}

// loadAlertWords checks each user's words as POST /users/me/alert_words
// does (the length limit; words are trimmed, and empty ones or repeats
// ignoring case dropped); a user has one entry.
func (r *Realm) loadAlertWords(f *fixture.Document) error {
	for i, fa := range f.AlertWords {
		at := fmt.Sprintf("alert_words[%d]", i)
		if r.realmUser(fa.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fa.UserID)
		}
		if _, dup := r.alertWords[fa.UserID]; dup {
			return badItem(at+".user_id", "user %d has another entry", fa.UserID)
		}
		for j, w := range fa.Words {
			if n := utf8.RuneCountInString(w); n > message.MaxAlertWordLength {
				return badItem(fmt.Sprintf("%s.words[%d]", at, j), "alert word is too long (limit: %d characters)", message.MaxAlertWordLength)
			}
		}
		if r.alertWords == nil {
			r.alertWords = map[int][]string{}
		}
		r.alertWords[fa.UserID] = addAlertWords([]string{}, fa.Words)
	}
	return nil
}

// loadStorage checks each user's storage as PUT /bot_storage does (key
// length, the size limit); a user has one entry.
func (r *Realm) loadStorage(f *fixture.Document) error {
	seen := map[int]bool{}
	for i, fs := range f.BotStorage {
		at := fmt.Sprintf("bot_storage[%d]", i)
		if r.realmUser(fs.UserID) == nil {
			return badItem(at+".user_id", "no user %d", fs.UserID)
		}
		if seen[fs.UserID] {
			return badItem(at+".user_id", "user %d has another entry", fs.UserID)
		}
		seen[fs.UserID] = true
		if err := user.Storage(nil).CheckPut(fs.Storage); err != nil {
			return badItem(at+".storage", "%s", err.Error())
		}
		if len(fs.Storage) == 0 {
			continue
		}
		if r.storage == nil {
			r.storage = map[int]user.Storage{}
		}
		r.storage[fs.UserID] = maps.Clone(fs.Storage)
	}
	return nil
}

// loadUserTopics checks each policy as POST /user_topics does: a known
// policy other than inherit, a channel the user can access, a valid
// topic; a user has one policy per topic.
func (r *Realm) loadUserTopics(f *fixture.Document) error {
	now := r.clock.Now().Unix()
	for i, ft := range f.UserTopics {
		at := fmt.Sprintf("user_topics[%d]", i)
		if r.realmUser(ft.UserID) == nil {
			return badItem(at+".user_id", "no user %d", ft.UserID)
		}
		ch := r.channels.byID[ft.ChannelID]
		if ch == nil {
			return badItem(at+".channel_id", "no channel %d", ft.ChannelID)
		}
		if !r.historyReadableBy(ch, ft.UserID) && !r.isSubscribed(ch.ID, ft.UserID) {
			return badItem(at+".channel_id", "user %d cannot access channel %d", ft.UserID, ft.ChannelID)
		}
		if ft.VisibilityPolicy < PolicyMuted || ft.VisibilityPolicy > PolicyFollowed {
			return badItem(at+".visibility_policy", "Invalid visibility_policy %d (1 muted, 2 unmuted, 3 followed)", ft.VisibilityPolicy)
		}
		name, err := r.topicRules().Stored(ft.Topic)
		if err != nil {
			return badItem(at+".topic", "%s", err.Error())
		}
		if r.userTopicPolicy(ft.UserID, ch.ID, name) != PolicyInherit {
			return badItem(at+".topic", "user %d has another policy for topic %q of channel %d", ft.UserID, ft.Topic, ft.ChannelID)
		}
		r.setUserTopicPolicy(ft.UserID, ch.ID, name, ft.VisibilityPolicy)
		ts := ft.LastUpdated
		if ts == 0 {
			ts = now
		}
		r.userTopics[ft.UserID][topicRef{ch.ID, topic.Key(name)}].LastUpdated = ts
	}
	return nil
}
