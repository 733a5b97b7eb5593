package user

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
)

// APIKeyLength is the length of Zulip's API keys.
const APIKeyLength = 32

const apiKeyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// NewAPIKey returns a random key of APIKeyLength characters of
// [A-Za-z0-9], the shape of Zulip's API keys (and of its session IDs and
// CSRF tokens).
func NewAPIKey() string {
	var b [APIKeyLength]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = apiKeyAlphabet[int(b[i])%len(apiKeyAlphabet)]
	}
	return string(b[:])
}

// WellFormedAPIKey reports whether key has the shape of an API key, so a
// malformed one can be refused before any lookup.
func WellFormedAPIKey(key string) bool {
	if len(key) != APIKeyLength {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// DerivedAPIKey is the API key a seed gives an email (case-insensitive):
// the same on every run, and unguessable without the seed.
func DerivedAPIKey(seed, email string) string {
	mac := hmac.New(sha256.New, []byte(seed))
	mac.Write([]byte(NormalizeEmail(email)))
	sum := mac.Sum(nil)
	var b [APIKeyLength]byte
	for i := range b {
		b[i] = apiKeyAlphabet[int(sum[i])%len(apiKeyAlphabet)]
	}
	return string(b[:])
}
