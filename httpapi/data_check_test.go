package httpapi

import (
	"fmt"
	"os"
	"testing"

	"github.com/minizulip/minizulip/realm"
)

// With MINIZULIP_TEST_DATA set (.ci/run sets it for a second run of this
// package), every TestServer's realm lives in a data directory, and when
// the test ends the directory's files as they stand (what a crash would
// leave) must open to the same dump, as must the directory after a clean
// close. TestMain installs it.
func openCheckedDataRealm(opts []realm.Option) (*realm.Realm, func() string) {
	dir, err := os.MkdirTemp("", "minizulip-data-check")
	if err != nil {
		panic(err)
	}
	quiet := realm.WithDataLog(func(string, ...any) {})
	r, err := realm.Open(dir, append(opts, quiet)...)
	if err != nil {
		os.RemoveAll(dir)
		return realm.New(opts...), func() string { return "MINIZULIP_TEST_DATA: opening a data directory: " + err.Error() }
	}
	return r, func() string {
		defer os.RemoveAll(dir)
		before, err := r.Dump()
		if err != nil {
			r.Close()
			return ""
		}
		crashed := dir + "-crashed"
		defer os.RemoveAll(crashed)
		if err := os.CopyFS(crashed, os.DirFS(dir)); err != nil {
			r.Close()
			return "MINIZULIP_TEST_DATA: copying the data directory: " + err.Error()
		}
		if err := r.Close(); err != nil {
			return "MINIZULIP_TEST_DATA: closing: " + err.Error()
		}
		for _, d := range []struct{ name, dir string }{{"a crash", crashed}, {"a clean close", dir}} {
			again, err := realm.Open(d.dir, append(opts, quiet)...)
			if err != nil {
				return fmt.Sprintf("MINIZULIP_TEST_DATA: reopening after %s: %v", d.name, err)
			}
			after, _ := again.Dump()
			again.Close()
			if string(before) != string(after) {
				return fmt.Sprintf("MINIZULIP_TEST_DATA: %s changed the dump: %s", d.name, dumpDiff(string(before), string(after)))
			}
		}
		return ""
	}
}

// newCheckedRealm is realm.New for the tests' own servers, on a checked
// data directory under MINIZULIP_TEST_DATA (its check runs when the test
// ends, after the server's own clean-up).
func newCheckedRealm(t testing.TB, opts ...realm.Option) *realm.Realm {
	if checkedTestRealm == nil {
		return realm.New(opts...)
	}
	r, check := checkedTestRealm(opts)
	t.Cleanup(func() {
		if msg := check(); msg != "" {
			t.Error(msg)
		}
	})
	return r
}
