// Command minizulip-load measures message sends over HTTP from a separate
// process: it posts a 100-character channel message again and again over
// keep-alive connections and prints messages per second and the server's
// CPU time per message.
//
// Against a running server:
//
//	minizulip-load -url http://127.0.0.1:9991
//
// Or let it start server binaries itself, in turn, for several rounds,
// and print each one's medians beside the first one's (the baseline):
//
//	go build -o /tmp/bare ./cmd/minizulip/testdata/bareserver
//	go build -o /tmp/minizulip ./cmd/minizulip
//	minizulip-load -rounds 3 bare=/tmp/bare minizulip=/tmp/minizulip
//
// -c takes a list of connection counts, measured in turn in each round,
// so that one run compares a single sender with concurrent ones (the
// first count is the baseline):
//
//	minizulip-load -c 1,4 minizulip=/tmp/minizulip
//
// A started binary gets -addr with a free loopback port and must print a
// line once it listens. Credentials come from POST
// /api/v1/dev_fetch_api_key as iago@zulip.com (the bare server answers it
// too).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// sendBody is the form of the message sent: 100 characters of plain text
// to Verona, the same as httpapi's BenchmarkHTTPSend.
var sendBody = url.Values{
	"type": {"stream"}, "to": {"Verona"}, "topic": {"bench"},
	"content": {strings.Repeat("hello world ", 7) + "plain text here!"},
}.Encode()

// account is the user the sends are made as.
const account = "iago@zulip.com"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "minizulip-load:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	url         string
	duration    time.Duration
	warmup      time.Duration
	connections []int // each measured in turn; one sender per connection
	rounds      int
	servers     []server
}

// server is a binary to start and measure, under a name.
type server struct{ name, bin string }

func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("minizulip-load", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.url, "url", "", "measure the server running at this URL instead of starting binaries")
	fs.DurationVar(&c.duration, "duration", 3*time.Second, "how long each measurement sends")
	fs.DurationVar(&c.warmup, "warmup", 500*time.Millisecond, "how long to send before measuring")
	conns := fs.String("c", "1", "concurrent keep-alive connections, each sending one message at a time; a comma-separated list measures each count in turn")
	fs.IntVar(&c.rounds, "rounds", 3, "rounds over the binaries (medians are printed)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, f := range strings.Split(*conns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return c, fmt.Errorf("-c %q: want positive connection counts separated by commas", *conns)
		}
		c.connections = append(c.connections, n)
	}
	for _, arg := range fs.Args() {
		name, bin, ok := strings.Cut(arg, "=")
		if !ok || name == "" || bin == "" {
			return c, fmt.Errorf("%q: want name=binary", arg)
		}
		c.servers = append(c.servers, server{name, bin})
	}
	switch {
	case c.url == "" && len(c.servers) == 0:
		return c, errors.New("give -url or name=binary arguments")
	case c.url != "" && len(c.servers) > 0:
		return c, errors.New("give -url or name=binary arguments, not both")
	case c.rounds < 1 || c.duration <= 0:
		return c, errors.New("-rounds and -duration must be positive")
	}
	return c, nil
}

func run(args []string, out io.Writer) error {
	c, err := parseFlags(args, out)
	if err != nil {
		return err
	}
	if c.url != "" {
		for _, n := range c.connections {
			res, err := measure(c, n, strings.TrimRight(c.url, "/"), 0)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%d connection(s): %.0f msgs/s\n", n, res.rate)
		}
		return nil
	}
	// runs are the measured pairs of a binary and a connection count, in
	// the order they are printed; the first is the baseline.
	type run struct {
		name        string
		connections int
	}
	var runs []run
	for _, s := range c.servers {
		for _, n := range c.connections {
			runs = append(runs, run{s.name, n})
		}
	}
	label := func(r run) string {
		if len(c.connections) == 1 {
			return r.name
		}
		return fmt.Sprintf("%s c=%d", r.name, r.connections)
	}
	results := map[run][]result{}
	for round := 1; round <= c.rounds; round++ {
		for _, s := range c.servers {
			for _, n := range c.connections {
				res, err := measureBinary(c, n, s)
				if err != nil {
					return fmt.Errorf("%s: %w", s.name, err)
				}
				r := run{s.name, n}
				fmt.Fprintf(out, "round %d  %-16s %8.0f msgs/s  %6.1f µs server CPU/msg\n", round, label(r), res.rate, res.cpuPerMsg)
				results[r] = append(results[r], res)
			}
		}
	}
	base := median(results[runs[0]])
	fmt.Fprintf(out, "medians of %d rounds:\n", c.rounds)
	for _, r := range runs {
		m := median(results[r])
		fmt.Fprintf(out, "  %-16s %8.0f msgs/s (%.2f× %s)  %6.1f µs server CPU/msg (%.2f×)\n", label(r), m.rate,
			m.rate/base.rate, label(runs[0]), m.cpuPerMsg, m.cpuPerMsg/base.cpuPerMsg)
	}
	return nil
}

// result is one measurement: messages per second and the server's CPU
// time per message (0 when unknown).
type result struct{ rate, cpuPerMsg float64 }

// median is the median rate and the median CPU per message.
func median(rs []result) result {
	rates := make([]float64, len(rs))
	cpus := make([]float64, len(rs))
	for i, r := range rs {
		rates[i], cpus[i] = r.rate, r.cpuPerMsg
	}
	slices.Sort(rates)
	slices.Sort(cpus)
	return result{rates[len(rates)/2], cpus[len(cpus)/2]}
}

// measureBinary starts s on a free port, measures it with this many
// connections and stops it.
func measureBinary(c config, connections int, s server) (result, error) {
	addr, err := freeAddr()
	if err != nil {
		return result{}, err
	}
	cmd := exec.Command(s.bin, "-addr", addr)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		return result{}, fmt.Errorf("no line on stdout: %w", err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return measure(c, connections, "http://"+addr, cmd.Process.Pid)
}

// measure sends over this many connections for c.warmup, then for
// c.duration, and reports the second period; with a pid it also reads
// that process's CPU time.
func measure(c config, connections int, base string, pid int) (result, error) {
	key, err := fetchKey(base)
	if err != nil {
		return result{}, err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: connections}}
	var sent atomic.Int64
	var failure atomic.Pointer[error]
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var wg sync.WaitGroup
	for i := 0; i < connections; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if err := send(client, base, key); err != nil {
					failure.CompareAndSwap(nil, &err)
					stop()
					return
				}
				sent.Add(1)
			}
		}()
	}
	time.Sleep(c.warmup)
	n0, cpu0, t0 := sent.Load(), processCPU(pid), time.Now()
	time.Sleep(c.duration)
	n1, cpu1, elapsed := sent.Load(), processCPU(pid), time.Since(t0)
	stop()
	wg.Wait()
	if err := failure.Load(); err != nil {
		return result{}, *err
	}
	res := result{rate: float64(n1-n0) / elapsed.Seconds()}
	if pid != 0 && n1 > n0 && cpu0 >= 0 && cpu1 >= 0 {
		res.cpuPerMsg = float64(cpu1-cpu0) / float64(n1-n0) / float64(time.Microsecond)
	}
	return res, nil
}

// send posts one message and checks the answer.
func send(client *http.Client, base, key string) error {
	req, err := http.NewRequest("POST", base+"/api/v1/messages", strings.NewReader(sendBody))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(account, key)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var ans struct {
		Result string `json:"result"`
		ID     int64  `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil || resp.StatusCode != http.StatusOK || ans.Result != "success" || ans.ID <= 0 {
		return fmt.Errorf("send: status %d, %+v, %v", resp.StatusCode, ans, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return nil
}

// fetchKey logs in as account with the dev login, retrying while the
// server comes up.
func fetchKey(base string) (string, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.PostForm(base+"/api/v1/dev_fetch_api_key", url.Values{"username": {account}})
		if err == nil {
			var ans struct {
				APIKey string `json:"api_key"`
			}
			err = json.NewDecoder(resp.Body).Decode(&ans)
			resp.Body.Close()
			if err == nil && ans.APIKey != "" {
				return ans.APIKey, nil
			}
			if err == nil {
				err = fmt.Errorf("dev_fetch_api_key: status %d, no key", resp.StatusCode)
			}
		}
		if time.Now().After(deadline) {
			return "", err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// processCPU is the user and system CPU time of process pid so far, from
// /proc (Linux); -1 when unknown.
func processCPU(pid int) time.Duration {
	if pid == 0 {
		return -1
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// Fields after the parenthesised command name: state is field 3,
	// utime and stime fields 14 and 15, in clock ticks.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return -1
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	const ticksPerSecond = 100 // USER_HZ on every Linux this runs on
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}
