package user

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// DevPassword is the password of every human account of the seeded dev
// realm, for password login (POST /fetch_api_key). Realm.SetPassword
// changes an account's.
const DevPassword = "zulip"

// HashPassword stores a password as a salted SHA-256 digest ("salt$hex"):
// the realm never keeps passwords as given.
func HashPassword(password string) string {
	var salt [8]byte
	_, _ = rand.Read(salt[:])
	s := hex.EncodeToString(salt[:])
	return s + "$" + digest(s, password)
}

// CheckPassword reports whether password matches a HashPassword value; an
// empty hash (no password set) matches nothing.
func CheckPassword(hash, password string) bool {
	salt, sum, ok := strings.Cut(hash, "$")
	if !ok || salt == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(sum), []byte(digest(salt, password))) == 1
}

func digest(salt, password string) string {
	h := sha256.Sum256([]byte(salt + "\x00" + password))
	return hex.EncodeToString(h[:])
}
