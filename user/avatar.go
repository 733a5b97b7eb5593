package user

import (
	"crypto/md5"
	"encoding/hex"
	"strconv"
)

// GravatarURL is the avatar URL Zulip builds for a Gravatar-hosted avatar.
func GravatarURL(deliveryEmail string, version int) string {
	sum := md5.Sum([]byte(NormalizeEmail(deliveryEmail)))
	return "https://secure.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) +
		"?d=identicon&version=" + strconv.Itoa(version)
}
