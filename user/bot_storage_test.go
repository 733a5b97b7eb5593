package user

import (
	"strings"
	"testing"
)

// Size counts characters, not bytes, of keys and values; CheckPut counts
// a replaced value once, refuses long keys and a storage over the limit
// by the characters it would pass it.
func TestStorageLimits(t *testing.T) {
	s := Storage{"ké": "vé"}
	if n := s.Size(); n != 4 {
		t.Fatalf("size %d, want 4 characters", n)
	}
	big := strings.Repeat("x", MaxStorageSize-4-1) // with "k" and s's 4: at the limit
	if err := s.CheckPut(map[string]string{"k": big}); err != nil {
		t.Fatalf("a storage at the limit: %v", err)
	}
	err := s.CheckPut(map[string]string{"k": big + "yz"})
	if err == nil || err.Error() != "Request exceeds storage limit by 2 characters. The limit is 10000000 characters." {
		t.Fatalf("over the limit: %v", err)
	}
	full := Storage{"k": big + "wxyz"} // at the limit
	if err := full.CheckPut(map[string]string{"k": big + "wxyz"}); err != nil {
		t.Fatalf("replacing a value counts it once: %v", err)
	}
	if err := full.CheckPut(map[string]string{"ké": "vé"}); err == nil {
		t.Fatal("a new entry in a full storage was allowed")
	}
	long := strings.Repeat("é", MaxStorageKeyLength+1)
	if err := s.CheckPut(map[string]string{long: ""}); err == nil || !strings.Contains(err.Error(), "191") {
		t.Fatalf("a 192-character key: %v", err)
	}
	if err := s.CheckPut(map[string]string{long[2:]: ""}); err != nil {
		t.Fatalf("a 191-character key: %v", err)
	}
	if err := s.CheckHas([]string{"ké", "nope"}); err != ErrStorageKeyMissing {
		t.Fatalf("CheckHas of a missing key: %v", err)
	}
	if err := s.CheckHas([]string{"ké"}); err != nil {
		t.Fatalf("CheckHas of a present key: %v", err)
	}
}
