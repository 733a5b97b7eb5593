package realm

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/minizulip/minizulip/realm/fixture"
)

// This file holds the recipients table: Zulip's Recipient numbering, each
// user's personal recipient, and the direct-message conversations.

// recipientTable numbers the realm's recipients (a user's personal one, a
// channel's, a group conversation's) and holds the conversations.
type recipientTable struct {
	nextID int
	// personal is each user's own recipient ID (Zulip's Recipient of type
	// personal), the recipient_id of 1:1 direct messages.
	personal map[int]int
	// conversations are the direct-message conversations by key.
	conversations map[string]*conversation
}

// conversation is one direct-message conversation: a set of users.
type conversation struct {
	id          int
	userIDs     []int // sorted, includes everyone
	recipientID int   // the conversation's own recipient (groups; 1:1 from level 327); 0 for self
}

func (t *recipientTable) clone() recipientTable {
	c := recipientTable{nextID: t.nextID, personal: maps.Clone(t.personal),
		conversations: make(map[string]*conversation, len(t.conversations))}
	for key, conv := range t.conversations {
		cc := *conv
		cc.userIDs = slices.Clone(conv.userIDs)
		c.conversations[key] = &cc
	}
	return c
}

// load starts the numbering again: users and channels are given their
// recipients as the tables after this one load them.
func (t *recipientTable) load(r *Realm, f *fixture.Document) error {
	t.nextID, t.personal = 1, map[int]int{}
	return nil
}

// allocRecipient gives the next recipient ID.
func (r *Realm) allocRecipient() int {
	id := r.recipients.nextID
	r.recipients.nextID++
	return id
}

// conversationKey is the key of the conversation of a sorted set of
// users in recipientTable.conversations.
func conversationKey(ids []int) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(id))
	}
	return b.String()
}
