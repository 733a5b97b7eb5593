package realm

import (
	"context"
	"slices"

	"github.com/minizulip/minizulip/emoji"
	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/user"
)

// Emoji reactions: POST and DELETE /messages/{message_id}/reactions, as
// zerver/views/reactions.py and zerver/actions/reactions.py do them.

// ReactionRequest names a reaction on a message as the add and remove
// requests send it: the emoji's name, code and reaction type, each nil
// when not sent.
type ReactionRequest struct {
	MessageID    int64
	EmojiName    *string
	EmojiCode    *string
	ReactionType *string
}

// ReactionEvent reports a reaction added to or removed from a message.
// User is the deprecated copy of the reacting user, absent at the levels
// that had removed it.
type ReactionEvent struct {
	Op           string             `json:"op"`
	UserID       int                `json:"user_id"`
	User         *ReactionEventUser `json:"user,omitempty"`
	MessageID    int64              `json:"message_id"`
	EmojiName    string             `json:"emoji_name"`
	EmojiCode    string             `json:"emoji_code"`
	ReactionType string             `json:"reaction_type"`
}

// ReactionEventUser is the deprecated user object of a reaction event.
type ReactionEventUser struct {
	UserID   int    `json:"user_id"`
	Email    string `json:"email"`
	FullName string `json:"full_name"`
}

// AddReaction adds the caller's reaction to a message they may see. A
// missing code or type is looked up from the name (custom emoji first);
// a reaction with the same code and type that someone already made is
// joined under its name, without checking the emoji again; otherwise the
// name, code and type must agree. A caller without a copy of the message
// gets a historical one, so that they hear of later changes.
func (a *Actor) AddReaction(ctx context.Context, req ReactionRequest) error {
	if req.EmojiName == nil {
		return VariableMissing("emoji_name")
	}
	r := a.r
	return a.logged("add_reaction", req).write(ctx, func(me *user.User) error {
		m := r.accessibleMessage(me, req.MessageID)
		if m == nil {
			return invalidMessage()
		}
		name := *req.EmojiName
		code, typ, err := r.completeEmoji(name, req.EmojiCode, req.ReactionType)
		if err != nil {
			return err
		}
		existing := -1
		reactions := m.Changes().Reactions
		for i, re := range reactions {
			if re.EmojiCode != code || re.ReactionType != typ {
				continue
			}
			if re.UserID == me.ID {
				return r.reactionError(CodeReactionAlreadyExists, "Reaction already exists.")
			}
			if existing < 0 {
				existing = i
			}
		}
		if existing >= 0 {
			name = reactions[existing].EmojiName
		} else if err := r.checkEmoji(name, code, typ); err != nil {
			return err
		}
		m = r.ownMessage(m)
		if !r.messages.store.HasCopy(me.ID, m.ID) {
			r.messages.store.Deliver(me.ID, m, historicalFlags)
		}
		re := message.Reaction{EmojiName: name, EmojiCode: code, ReactionType: typ, UserID: me.ID}
		c := m.Changes()
		c.Reactions = append(slices.Clip(c.Reactions), re) // never in place: the slice may be shared
		m.SetChanges(c)
		if m.Type == message.Channel {
			if p := r.applyParticipationTopicPolicy(me, m); p != nil {
				r.emitUserTopic(me.ID, m.ChannelID, m.Topic, *p)
			}
		}
		r.emitReaction(me, m, re, "add")
		return nil
	})
}

// RemoveReaction removes the caller's reaction from a message they may
// see. A missing code is looked up from the name; a missing type is
// unicode_emoji. The emoji is not checked again: a reaction stays
// removable after its custom emoji is deactivated.
func (a *Actor) RemoveReaction(ctx context.Context, req ReactionRequest) error {
	r := a.r
	return a.logged("remove_reaction", req).write(ctx, func(me *user.User) error {
		m := r.accessibleMessage(me, req.MessageID)
		if m == nil {
			return invalidMessage()
		}
		var code string
		switch {
		case req.EmojiCode != nil:
			code = *req.EmojiCode
		case req.EmojiName == nil:
			return BadRequest("At least one of the following arguments must be present: emoji_name, emoji_code")
		default:
			var err error
			if code, _, err = r.emojiByName(*req.EmojiName); err != nil {
				return err
			}
		}
		typ := emoji.Unicode
		if req.ReactionType != nil {
			typ = emoji.CanonicalType(*req.ReactionType)
		}
		c := m.Changes()
		i := slices.IndexFunc(c.Reactions, func(re message.Reaction) bool {
			return re.UserID == me.ID && re.EmojiCode == code && re.ReactionType == typ
		})
		if i < 0 {
			return r.reactionError(CodeReactionDoesNotExist, "Reaction doesn't exist.")
		}
		re := c.Reactions[i]
		m = r.ownMessage(m)
		c.Reactions = slices.Delete(slices.Clone(c.Reactions), i, i+1)
		m.SetChanges(c)
		r.emitReaction(me, m, re, "remove")
		return nil
	})
}

// completeEmoji fills in a code or type the request left out from the
// emoji's name.
func (r *Realm) completeEmoji(name string, code, typ *string) (string, string, error) {
	if code != nil && typ != nil {
		return *code, emoji.CanonicalType(*typ), nil
	}
	foundCode, foundType, err := r.emojiByName(name)
	if err != nil {
		return "", "", err
	}
	if code != nil {
		foundCode = *code
	}
	if typ != nil {
		foundType = emoji.CanonicalType(*typ)
	}
	return foundCode, foundType, nil
}

// reactionTypeName is a stored reaction type as the realm's feature
// level spells it.
func (r *Realm) reactionTypeName(typ string) string {
	e := viewEnv{featureLevel: r.opts.FeatureLevel}
	return e.reactionTypeName(typ)
}

// emitReaction tells those who can see m of a reaction change: the users
// holding a copy of it and, in a channel whose history subscribers may
// read, its subscribers.
func (r *Realm) emitReaction(me *user.User, m *message.Message, re message.Reaction, op string) {
	ev := ReactionEvent{Op: op, UserID: me.ID, MessageID: m.ID, EmojiName: re.EmojiName, EmojiCode: re.EmojiCode,
		ReactionType: r.reactionTypeName(re.ReactionType)}
	if !r.has(changeReactionUserRemoved) || r.has(changeReactionEventUserRestored) {
		ev.User = &ReactionEventUser{UserID: me.ID, Email: r.apiEmail(me), FullName: me.FullName}
	}
	r.emit("reaction", ev, r.messageAudience(m)...)
}

// messageAudience lists the active users who hear of changes to m, in
// ascending order: holders of a copy, and for a channel with shared
// history its subscribers.
func (r *Realm) messageAudience(m *message.Message) []int {
	var shared *storedChannel
	if ch := r.channels.byID[m.ChannelID]; m.Type == message.Channel && ch != nil && ch.HistoryPublicToSubscribers {
		shared = ch
	}
	return r.messageHolders(m, shared)
}

// messageHolders lists the active users holding a copy of m, and the
// subscribers of shared (nil for none), in ascending order. Submessages
// reach the holders alone (message_submessages.go).
func (r *Realm) messageHolders(m *message.Message, shared *storedChannel) []int {
	var out []int
	for uid, u := range r.users.byID {
		if !u.IsActive {
			continue
		}
		if r.messages.store.HasCopy(uid, m.ID) || (shared != nil && r.isSubscribed(shared.ID, uid)) {
			out = append(out, uid)
		}
	}
	slices.Sort(out)
	return out
}

// reactionError is the error of adding a reaction that exists or removing
// one that does not: its own code from feature level 193, BAD_REQUEST
// before.
func (r *Realm) reactionError(code Code, msg string) *Error {
	if !r.has(changeReactionErrorCodes) {
		code = CodeBadRequest
	}
	return &Error{Code: code, Msg: msg, Status: statusBadRequest}
}
