package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
)

// mainEnv holds, in a child process, the arguments for main as a JSON
// array: TestMain then runs main with them instead of the tests, so a
// test can check what a user of the binary sees (exit status, stdout,
// stderr, signals) without building it.
const mainEnv = "MINIZULIP_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(mainEnv); ok {
		var a []string
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			panic(err)
		}
		os.Args = append([]string{"minizulip"}, a...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mainCommand is the command main with args, in a child process.
func mainCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := json.Marshal(args)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), mainEnv+"="+string(enc))
	return cmd
}

// mainExit runs main with args to its end, within 30 s, and returns its
// exit status, stdout and stderr.
func mainExit(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := mainCommand(t, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v still running after 30 s", args)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}
