package httpapi

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

// TestMain turns the contract check on when MINIZULIP_CONTRACT=report and
// prints what it found after the tests (see contract_test.go).
func TestMain(m *testing.M) {
	report := os.Getenv("MINIZULIP_CONTRACT") == "report"
	if report {
		loadProbe()
		if probe.err != nil {
			fmt.Printf("contract: %s unavailable (%v); not checked\n", contractDescription, probe.err)
			report = false
		} else {
			responseObserver = contractCheck
		}
	}
	code := m.Run()
	if report {
		fmt.Printf("contract: validated %d responses (%d more with a status the operation does not document), %d distinct deviations\n",
			probe.n, probe.undocumented, len(probe.fails))
		var keys []string
		for k := range probe.fails {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Printf("%4d %s\n", probe.fails[k], k)
		}
	}
	os.Exit(code)
}
