package realm

import "github.com/minizulip/minizulip/emoji"

// The emoji checks shared by reactions and user statuses: both name an
// emoji by name, code and namespace (reaction_type), and Zulip checks
// them the same way.

// emojiByName finds the emoji a name means now: an active custom emoji,
// the special built-in one, or a Unicode emoji, in that order.
func (r *Realm) emojiByName(name string) (code, typ string, err error) {
	if e := r.activeRealmEmoji(name); e != nil {
		return e.ID, emoji.Realm, nil
	}
	if name == emoji.ExtraName {
		return name, emoji.ServiceExtra, nil
	}
	if c, ok := emoji.UnicodeCode(name); ok {
		return c, emoji.Unicode, nil
	}
	return "", "", BadRequest("Emoji '%s' does not exist", name)
}

// checkEmoji reports whether name, code and type name one emoji that new
// reactions may use: the code exists in the type's namespace, the name
// is its name, and a custom emoji is active.
func (r *Realm) checkEmoji(name, code, typ string) error {
	switch typ {
	case emoji.Realm:
		e := r.realmEmojiByID(code)
		switch {
		case e == nil:
			return BadRequest("Invalid custom emoji.")
		case e.Name != name:
			return BadRequest("Invalid custom emoji name.")
		case e.Deactivated:
			return BadRequest("This custom emoji has been deactivated.")
		}
	case emoji.ServiceExtra:
		if code != emoji.ExtraName {
			return BadRequest("Invalid emoji code.")
		}
		if name != code {
			return BadRequest("Invalid emoji name.")
		}
	case emoji.Unicode:
		if !emoji.IsUnicodeCode(code) {
			return BadRequest("Invalid emoji code.")
		}
		if c, _ := emoji.UnicodeCode(name); c != code {
			return BadRequest("Invalid emoji name.")
		}
	default:
		return BadRequest("Invalid emoji type.")
	}
	return nil
}
