package main

import (
	"bufio"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkStartup measures, for the built server binary, the time from
// exec to its first banner line and to its first answer over HTTP, beside
// the same figures for a bare net/http server binary (the baseline).
// Non-Go client suites often start one server per test file, so this is
// the wait each of them pays.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	build := func(name, pkg string) string {
		out := filepath.Join(dir, name)
		if msg, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			b.Fatalf("building %s: %v\n%s", pkg, err, msg)
		}
		return out
	}
	servers := []struct{ name, bin, probe string }{
		{"bare", build("bare", "./testdata/bareserver"), "/"},
		{"minizulip", build("minizulip", "."), "/api/v1/server_settings"},
	}
	for _, s := range servers {
		b.Run(s.name+"/first-line", func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(s.bin, "-addr", freeAddr(b))
				out, err := cmd.StdoutPipe()
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cmd.Process.Kill()
				cmd.Wait()
				b.StartTimer()
			}
		})
		b.Run(s.name+"/first-answer", func(b *testing.B) {
			for b.Loop() {
				addr := freeAddr(b)
				cmd := exec.Command(s.bin, "-addr", addr)
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				for {
					resp, err := http.Get("http://" + addr + s.probe)
					if err == nil {
						resp.Body.Close()
						break
					}
					time.Sleep(200 * time.Microsecond)
				}
				b.StopTimer()
				cmd.Process.Kill()
				cmd.Wait()
				b.StartTimer()
			}
		})
	}
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(b testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
