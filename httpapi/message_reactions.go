package httpapi

import "github.com/minizulip/minizulip/realm"

func reactionRoutes() []route {
	return []route{
		{method: "POST", path: "/messages/{message_id}/reactions", h: addReaction},
		{method: "DELETE", path: "/messages/{message_id}/reactions", h: removeReaction},
	}
}

// reactionRequest reads a reaction's message ID and emoji parameters;
// emoji_name is required when adding.
func reactionRequest(c *call, nameRequired bool) (realm.ReactionRequest, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return realm.ReactionRequest{}, err
	}
	req := realm.ReactionRequest{MessageID: int64(id)}
	if nameRequired {
		name, err := c.p.mustStr("emoji_name")
		if err != nil {
			return realm.ReactionRequest{}, err
		}
		req.EmojiName = &name
	} else if v, ok := c.p.str("emoji_name"); ok {
		req.EmojiName = &v
	}
	if v, ok := c.p.str("emoji_code"); ok {
		req.EmojiCode = &v
	}
	if v, ok := c.p.str("reaction_type"); ok {
		req.ReactionType = &v
	}
	return req, nil
}

func addReaction(c *call) (any, error) {
	req, err := reactionRequest(c, true)
	if err != nil {
		return nil, err
	}
	return nil, c.actor.AddReaction(c.ctx(), req)
}

func removeReaction(c *call) (any, error) {
	req, err := reactionRequest(c, false)
	if err != nil {
		return nil, err
	}
	return nil, c.actor.RemoveReaction(c.ctx(), req)
}
