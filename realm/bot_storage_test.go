package realm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each user keeps a storage of its own: put adds or replaces entries,
// get reads some or all, remove drops some or all, and a missing key or
// an over-large request refuses the whole request.
func TestStorage(t *testing.T) {
	r, _ := newTestRealm(t)
	hamlet, iago := r.As(idHamlet), r.As(idIago)
	if err := hamlet.PutStorage(bg, map[string]string{"a": "1", "b": "2", "c": "3"}); err != nil {
		t.Fatal(err)
	}
	if err := hamlet.PutStorage(bg, map[string]string{"b": "two"}); err != nil {
		t.Fatal(err)
	}
	all, err := hamlet.Storage(bg, nil)
	if err != nil || !cmp.Equal(all, map[string]string{"a": "1", "b": "two", "c": "3"}) {
		t.Fatalf("all of hamlet's storage: %v %v", all, err)
	}
	some, err := hamlet.Storage(bg, []string{"c", "a"})
	if err != nil || !cmp.Equal(some, map[string]string{"a": "1", "c": "3"}) {
		t.Fatalf("some of hamlet's storage: %v %v", some, err)
	}
	if none, err := hamlet.Storage(bg, []string{}); err != nil || len(none) != 0 {
		t.Fatalf("no keys asked: %v %v", none, err)
	}
	if other, err := iago.Storage(bg, nil); err != nil || len(other) != 0 {
		t.Fatalf("iago sees %v %v: storage is per user", other, err)
	}
	_, err = iago.Storage(bg, []string{"a"})
	wantCode(t, err, CodeBadRequest, "Key does not exist.")
	_, err = hamlet.Storage(bg, []string{"a", "zz"})
	wantCode(t, err, CodeBadRequest, "Key does not exist.")

	wantCode(t, hamlet.RemoveStorage(bg, []string{"a", "zz"}), CodeBadRequest, "Key does not exist.")
	if len(r.storage.byUser[idHamlet]) != 3 {
		t.Fatalf("a refused remove removed something: %v", r.storage.byUser[idHamlet])
	}
	big := strings.Repeat("x", 10_000_000)
	wantCode(t, hamlet.PutStorage(bg, map[string]string{"d": "4", "e": big}), CodeBadRequest,
		"Request exceeds storage limit by 11 characters. The limit is 10000000 characters.")
	if _, ok := r.storage.byUser[idHamlet]["d"]; ok {
		t.Fatal("a refused put stored part of its entries")
	}
	if err := hamlet.RemoveStorage(bg, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if all, _ := hamlet.Storage(bg, nil); !cmp.Equal(all, map[string]string{"b": "two", "c": "3"}) {
		t.Fatalf("after removing a: %v", all)
	}
	if err := hamlet.RemoveStorage(bg, nil); err != nil {
		t.Fatal(err)
	}
	if all, _ := hamlet.Storage(bg, nil); len(all) != 0 || r.storage.byUser[idHamlet] != nil {
		t.Fatalf("after removing everything: %v", all)
	}
}

// Storage is realm state: a snapshot keeps it, and a fork's changes stay
// in the fork.
func TestStorageSnapshotAndFork(t *testing.T) {
	r, _ := newTestRealm(t)
	if err := r.As(idHamlet).PutStorage(bg, map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	snap := r.Snapshot()
	fork := r.Fork()
	if err := fork.As(idHamlet).PutStorage(bg, map[string]string{"k": "fork"}); err != nil {
		t.Fatal(err)
	}
	if err := r.As(idHamlet).RemoveStorage(bg, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := fork.As(idHamlet).Storage(bg, nil); got["k"] != "fork" {
		t.Fatalf("fork's storage %v", got)
	}
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.As(idHamlet).Storage(bg, nil); got["k"] != "v" {
		t.Fatalf("restored storage %v", got)
	}
}
