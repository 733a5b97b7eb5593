package upload

// Reader is who asks to read a file.
type Reader struct {
	// UserID is 0 for a visitor without credentials.
	UserID int
	// Guest marks a guest account.
	Guest bool
}

// Reference is one message linking a file, as far as reading the file
// is concerned, described for a given reader.
type Reference struct {
	// PublicChannel: the message is in a public (not invite-only) channel.
	PublicChannel bool
	// WebPublicChannel: that channel is also open to visitors.
	WebPublicChannel bool
	// ReaderHasCopy: the reader received the message.
	ReaderHasCopy bool
	// ReaderSubscribedSharedHistory: the reader is subscribed to the
	// message's channel, and the channel shares its history with
	// subscribers.
	ReaderSubscribedSharedHistory bool
}

// MayRead decides whether reader may read a file uploaded by ownerID and
// linked by refs, with Zulip's rules, first match winning: the uploader;
// any member but a guest when a public channel's message links it; whoever
// received a linking message; whoever is subscribed to a channel with
// shared history where a linking message is. A visitor without
// credentials may read only files linked from web-public channels. A file
// no message links is the uploader's alone.
func MayRead(ownerID int, reader Reader, refs []Reference) bool {
	if reader.UserID == 0 {
		for _, ref := range refs {
			if ref.WebPublicChannel {
				return true
			}
		}
		return false
	}
	if reader.UserID == ownerID {
		return true
	}
	for _, ref := range refs {
		if (ref.PublicChannel && !reader.Guest) || ref.ReaderHasCopy || ref.ReaderSubscribedSharedHistory {
			return true
		}
	}
	return false
}
