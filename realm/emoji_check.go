package realm

import "github.com/minizulip/minizulip/message/markdown"

// The emoji namespaces (reaction_type values) of statuses and reactions.
const (
	EmojiTypeUnicode = "unicode_emoji"
	EmojiTypeRealm   = "realm_emoji"
	// EmojiTypeExtra is the namespace of the server's own built-in emoji
	// (only :zulip:), as Zulip and its clients spell it.
	EmojiTypeExtra = "zulip_extra_emoji"
	// EmojiTypeExtraSpec is the spec's spelling of EmojiTypeExtra,
	// accepted as a synonym.
	EmojiTypeExtraSpec = "service_extra_emoji"
)

// extraEmojiName is the one built-in emoji outside Unicode.
const extraEmojiName = "zulip"

// emojiByName finds the code and namespace of an emoji name as Zulip
// does: an active custom emoji first, then :zulip:, then Unicode names.
func (r *Realm) emojiByName(name string) (code, emojiType string, err error) {
	if e, ok := r.realmEmojiByName(name); ok {
		return e.ID, EmojiTypeRealm, nil
	}
	if name == extraEmojiName {
		return name, EmojiTypeExtra, nil
	}
	if c, ok := markdown.UnicodeEmojiCode(name); ok {
		return c, EmojiTypeUnicode, nil
	}
	return "", "", BadRequest("Emoji '%s' does not exist", name)
}

// checkEmoji validates an emoji name, code and namespace together: the
// code must exist in its namespace and the name must be one of its names.
func (r *Realm) checkEmoji(name, code, emojiType string) error {
	switch emojiType {
	case EmojiTypeRealm:
		var found *RealmEmoji
		for i := range r.realmEmoji {
			if r.realmEmoji[i].ID == code {
				found = &r.realmEmoji[i]
			}
		}
		switch {
		case found == nil:
			return BadRequest("Invalid custom emoji.")
		case found.Name != name:
			return BadRequest("Invalid custom emoji name.")
		case found.Deactivated:
			return BadRequest("This custom emoji has been deactivated.")
		}
	case EmojiTypeExtra, EmojiTypeExtraSpec:
		if code != extraEmojiName {
			return BadRequest("Invalid emoji code.")
		}
		if name != code {
			return BadRequest("Invalid emoji name.")
		}
	case EmojiTypeUnicode:
		if !markdown.IsUnicodeEmojiCode(code) {
			return BadRequest("Invalid emoji code.")
		}
		if c, ok := markdown.UnicodeEmojiCode(name); !ok || c != code {
			return BadRequest("Invalid emoji name.")
		}
	default:
		return BadRequest("Invalid emoji type.")
	}
	return nil
}
