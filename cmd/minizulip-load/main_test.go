package main

import (
	"io"
	"slices"
	"testing"
)

func TestConnectionCounts(t *testing.T) {
	c, err := parseFlags([]string{"-c", "1, 4", "bare=/tmp/bare"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.connections, []int{1, 4}) {
		t.Errorf("-c 1,4 gave %v", c.connections)
	}
	c, err = parseFlags([]string{"bare=/tmp/bare"}, io.Discard)
	if err != nil || !slices.Equal(c.connections, []int{1}) {
		t.Errorf("default -c gave %v, %v; want [1]", c.connections, err)
	}
	for _, bad := range []string{"0", "1,", "x", "-2", ""} {
		if _, err := parseFlags([]string{"-c", bad, "bare=/tmp/bare"}, io.Discard); err == nil {
			t.Errorf("-c %q accepted", bad)
		}
	}
}
