package httpapi

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

// TestMain runs the package's tests under the contract check (see
// contract_test.go) and fails them when a response deviates from Zulip's
// description.
func TestMain(m *testing.M) {
	if os.Getenv("MINIZULIP_TEST_DATA") != "" {
		checkedTestRealm = openCheckedDataRealm // data_check_test.go
	}
	check := os.Getenv("MINIZULIP_CONTRACT") != "off"
	if check {
		loadProbe()
		if probe.err != nil {
			fmt.Printf("contract: %s unavailable (%v); responses not checked\n", contractDescription, probe.err)
			if os.Getenv("CI") == "true" {
				fmt.Println("FAIL: CI must run the contract check")
				os.Exit(1)
			}
			check = false
		} else {
			responseObserver = contractCheckAt
		}
	}
	code := m.Run()
	if !check {
		os.Exit(code)
	}
	if testing.Verbose() || len(probe.fails) > 0 {
		fmt.Printf("contract: validated %d responses and %d events (%d more responses have a status their operation does not document), %d distinct deviations\n",
			probe.n, probe.events, probe.undocumented, len(probe.fails))
	}
	if len(probe.fails) > 0 {
		var keys []string
		for k := range probe.fails {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Printf("%4d %s\n", probe.fails[k], k)
		}
		fmt.Println("FAIL: responses deviate from Zulip's API description")
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// withoutContract turns the contract check off for a benchmark, which
// measures the server, not the validator.
func withoutContract(b *testing.B) {
	saved := responseObserver
	responseObserver = nil
	b.Cleanup(func() { responseObserver = saved })
}
