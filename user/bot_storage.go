package user

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxStorageSize is how many characters a user's storage may hold, keys
// and values counted together (Zulip's USER_STATE_SIZE_LIMIT).
const MaxStorageSize = 10_000_000

// MaxStorageKeyLength is the longest storage key, in characters: the
// width of the column Zulip keeps keys in.
const MaxStorageKeyLength = 191

// ErrStorageKeyMissing is Zulip's refusal to read or remove a key the
// storage does not have.
var ErrStorageKeyMissing = errors.New("Key does not exist.")

// Storage is a user's key-value storage (Zulip's bot storage, behind
// /bot_storage, which any user may keep, bot or not): string keys to
// string values.
type Storage map[string]string

// Size is the characters s holds, keys and values counted together.
func (s Storage) Size() int {
	n := 0
	for k, v := range s {
		n += utf8.RuneCountInString(k) + utf8.RuneCountInString(v)
	}
	return n
}

// CheckPut reports why entries may not be written into s, or nil: a key
// over MaxStorageKeyLength, a NUL byte in a key or value, or a storage
// that would grow over MaxStorageSize (Zulip's message, which counts by
// how much).
func (s Storage) CheckPut(entries map[string]string) error {
	size := s.Size()
	for k, v := range entries {
		if utf8.RuneCountInString(k) > MaxStorageKeyLength {
			return fmt.Errorf("Key is too long (limit: %d characters).", MaxStorageKeyLength)
		}
		if strings.IndexByte(k, 0) >= 0 || strings.IndexByte(v, 0) >= 0 {
			// Zulip's database cannot store NUL; the words of its check on messages.
			return errors.New("storage must not contain null bytes")
		}
		size += utf8.RuneCountInString(k) + utf8.RuneCountInString(v)
		if old, ok := s[k]; ok {
			size -= utf8.RuneCountInString(k) + utf8.RuneCountInString(old)
		}
	}
	if size > MaxStorageSize {
		return fmt.Errorf("Request exceeds storage limit by %d characters. The limit is %d characters.", size-MaxStorageSize, MaxStorageSize)
	}
	return nil
}

// CheckHas reports ErrStorageKeyMissing unless s has every key.
func (s Storage) CheckHas(keys []string) error {
	for _, k := range keys {
		if _, ok := s[k]; !ok {
			return ErrStorageKeyMissing
		}
	}
	return nil
}
