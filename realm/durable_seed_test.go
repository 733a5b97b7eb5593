package realm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minizulip/minizulip/realm/clock"
)

// A seed file of another realm (copied over by hand) is not used for a
// reset: the reset goes back to the state loaded at the start, and a log
// line says why.
func TestDataDirResetRefusesTheSeedOfAnotherRealm(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	c := clock.NewManual(t0)
	ra, _ := openTestDir(t, a, c)
	if _, err := ra.As(idIago).SendChannelMessage(bg, "Verona", "castle", "after a's seed"); err != nil {
		t.Fatal(err)
	}
	must(t, ra.Close())
	rb, _ := openTestDir(t, b, c)
	if _, err := rb.As(idIago).SendChannelMessage(bg, "Verona", "castle", "kept in b"); err != nil {
		t.Fatal(err)
	}
	must(t, rb.Close())
	seedA, err := os.ReadFile(filepath.Join(a, seedFileName))
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(b, seedFileName), seedA, 0o600))

	rb2, logs := openTestDir(t, b, c)
	defer rb2.Close()
	loaded := dumpOf(t, rb2)
	if !strings.Contains(loaded, "kept in b") {
		t.Fatal("the restart lost b's message")
	}
	rb2.Reset()
	if got := dumpOf(t, rb2); got != loaded {
		t.Errorf("a reset with another realm's seed changed the realm:\n%s", lineDiff(loaded, got))
	}
	if !strings.Contains(logs.String(), "the seed of another realm") {
		t.Errorf("no log line names the foreign seed; logs:\n%s", logs)
	}
}
