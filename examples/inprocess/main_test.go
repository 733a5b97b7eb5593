package main

import (
	"strings"
	"testing"
)

func TestExampleRuns(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"#Denmark > castle | Iago: <p>Something is <strong>rotten</strong> here.</p>",
		"event 1: message 2 from Iago",
		"error: STREAM_DOES_NOT_EXIST: Channel 'Atlantis' does not exist",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
