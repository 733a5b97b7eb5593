// Command minizulip serves the Zulip development realm over the Zulip HTTP
// API from memory, until interrupted:
//
//	go run ./cmd/minizulip                     # http://127.0.0.1:9991
//	go run ./cmd/minizulip -addr 127.0.0.1:0 -feature-level 277 -zulip-version 9.0
//
// Log in as on a Zulip dev server, with POST /api/v1/dev_fetch_api_key.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/minizulip/minizulip/httpapi"
	"github.com/minizulip/minizulip/realm"
	"github.com/minizulip/minizulip/realm/clock"
	"github.com/minizulip/minizulip/upload"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, nil)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "minizulip:", err)
	}
	os.Exit(exitCode(err))
}

// usageError is a command line the command refuses: it exits with 2, as
// the flag package's own programs do.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCode is the process's exit status after run returned err: 0 for
// success and -h, 2 for a bad command line, 1 for any other failure.
func exitCode(err error) int {
	var usage usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usage):
		return 2
	}
	return 1
}

// shutdownTimeout bounds the wait for requests in flight on shutdown.
const shutdownTimeout = 5 * time.Second

// config is the command line.
type config struct {
	addr         string
	url          string
	featureLevel int
	zulipVersion string
	seed         string
	devEndpoints bool
	apiKeySeed   string
	allowHosts   string
	logFormat    string
	control      bool
	ui           bool
	strict       bool
	// accountManagers are granted can_create_users and can_change_user_emails.
	accountManagers []string
	uploadDir       string
	// uploadMemoryMiB bounds the memory upload store (0: no bound).
	uploadMemoryMiB int
	// unfinishedUploads caps one user's unfinished tus uploads (0: none).
	unfinishedUploads int
	calls             []callFlag
	// planType is the realm's plan_type (realm.PlanType).
	planType int
	// messages is how many messages the dev realm starts with.
	messages int
	// fixture is a fixture document to serve instead of a seeded realm.
	fixture string
	// data is the data directory (-data), with its -fsync policy and
	// -data-repair (data.go).
	data       string
	fsync      string
	dataRepair bool
	// showVersion prints the command's version instead of serving.
	showVersion bool
	// readyFile receives the readiness document once the server answers.
	readyFile string
	// banner is how the start is announced on stdout: "text" or "json".
	banner string
	// maxRealms bounds the realms POST /minizulip/realms serves at once
	// (0: it creates none).
	maxRealms int
}

// callFlag is one fake video-call provider of -calls: a provider name
// and the URL its meetings live below.
type callFlag struct{ provider, baseURL string }

// parseCalls reads -calls: comma-separated provider=url pairs, e.g.
// zoom=https://zoom.example/j/,bigbluebutton=https://bbb.example/.
func parseCalls(v string) ([]callFlag, error) {
	var out []callFlag
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		name, base, ok := strings.Cut(item, "=")
		switch name {
		case realm.CallZoom, realm.CallBigBlueButton, realm.CallConstructorGroups, realm.CallNextcloudTalk:
		default:
			return nil, fmt.Errorf("-calls: unknown provider %q (zoom, bigbluebutton, constructorgroups, nextcloud_talk)", name)
		}
		if u, err := url.Parse(base); !ok || err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("-calls: %q needs an absolute meeting URL: %s=https://…", item, name)
		}
		out = append(out, callFlag{provider: name, baseURL: base})
	}
	return out, nil
}

// emptyRealmOwner is the one account of a -seed empty realm.
const emptyRealmOwner = "owner@zulip.com"

// parseFlags reads the command line; its errors but -h are usageErrors.
func parseFlags(args []string, out io.Writer) (config, error) {
	c, err := parseArgs(args, out)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		err = usageError{err}
	}
	return c, err
}

func parseArgs(args []string, out io.Writer) (config, error) {
	var c config
	fs := newFlagSet(&c, out)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.logFormat != "off" && c.logFormat != "text" && c.logFormat != "json" {
		return c, fmt.Errorf(`-log must be "off", "text" or "json", not %q`, c.logFormat)
	}
	if c.seed != "dev" && c.seed != "empty" {
		return c, fmt.Errorf(`-seed must be "dev" or "empty", not %q`, c.seed)
	}
	if c.messages < 0 {
		return c, fmt.Errorf("-messages must not be negative, not %d", c.messages)
	}
	if _, err := realm.ParseFsyncPolicy(c.fsync); err != nil {
		return c, fmt.Errorf("-fsync: %w", err)
	}
	if !realm.PlanType(c.planType).Valid() {
		return c, fmt.Errorf("-plan-type must be 1 (self-hosted), 2 (Zulip Cloud Free), 3 (Standard), 4 (Standard, sponsored) or 10 (Plus), not %d", c.planType)
	}
	if c.uploadMemoryMiB < 0 || c.unfinishedUploads < 0 {
		return c, errors.New("-upload-memory-mib and -unfinished-uploads must not be negative (0: no limit)")
	}
	if c.fixture != "" && c.seed != "dev" {
		return c, errors.New("-fixture and -seed exclude each other: the fixture says what the realm holds")
	}
	if c.maxRealms < 0 {
		return c, fmt.Errorf("-max-realms must not be negative (0: POST /minizulip/realms creates none), not %d", c.maxRealms)
	}
	if c.banner != "text" && c.banner != "json" {
		return c, fmt.Errorf(`-banner must be "text" or "json", not %q`, c.banner)
	}
	return c, nil
}

// newFlagSet defines the command's flags, which set c.
func newFlagSet(c *config, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("minizulip", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:9991", "listen address (port 0 picks a free port)")
	fs.StringVar(&c.url, "url", "", "realm URL (realm_uri) to advertise; default http://<addr>")
	fs.IntVar(&c.featureLevel, "feature-level", realm.DefaultFeatureLevel, "zulip_feature_level to advertise")
	fs.StringVar(&c.zulipVersion, "zulip-version", "", "zulip_version to advertise (default: the release of -feature-level, e.g. 9.0 at 277; "+realm.DefaultVersion+" at the default level)")
	fs.StringVar(&c.seed, "seed", "dev", `initial data: "dev" (the Zulip dev realm) or "empty" (one owner, `+emptyRealmOwner+`)`)
	fs.BoolVar(&c.devEndpoints, "dev-endpoints", true, "serve dev_fetch_api_key and dev_list_users")
	fs.StringVar(&c.allowHosts, "allow-hosts", "", "comma-separated extra Host names a loopback server answers to (e.g. a container's name)")
	fs.StringVar(&c.logFormat, "log", "off", `request log: "off", "text" or "json" (method, path, user, status, duration)`)
	fs.StringVar(&c.apiKeySeed, "api-key-seed", "", "derive every API key from this string, so keys are the same on every run")
	fs.BoolVar(&c.ui, "ui", true, "serve the web client at / and, with the control API, the inspector page at /minizulip/")
	fs.BoolVar(&c.control, "control", true, "serve the test-control API under /minizulip/ (clock, faults, queue expiry, request log, unsupported requests, snapshots, reset, dump)")
	fs.BoolVar(&c.strict, "strict", false, "answer requests to endpoints or with parameters the server does not support with a 400 naming them")
	fs.IntVar(&c.messages, "messages", 100, "messages the dev realm starts with, all read, as on a Zulip dev server (0: none)")
	fs.StringVar(&c.fixture, "fixture", "", "serve the realm of this fixture document (GET /minizulip/dump writes one) instead of a seeded realm")
	fs.StringVar(&c.uploadDir, "upload-dir", "", "keep uploaded files in this directory (default: in memory)")
	addDataFlags(fs, c)
	fs.BoolVar(&c.showVersion, "version", false, "print minizulip's version and commit, and exit")
	fs.StringVar(&c.readyFile, "ready-file", "", `once the server answers, write {"url":…,"pid":…} to this file (atomically; removed on exit)`)
	fs.StringVar(&c.banner, "banner", "text", `start banner on stdout: "text" (for people) or "json" (first line {"url":…,"pid":…}, no login hints)`)
	fs.IntVar(&c.maxRealms, "max-realms", httpapi.DefaultMaxRealms, "realms POST /minizulip/realms may serve at once, each on a loopback port of its own (0: none)")
	fs.IntVar(&c.uploadMemoryMiB, "upload-memory-mib", int(realm.DefaultUploadMemoryLimit/upload.MiB),
		"MiB of uploaded files kept in memory, beyond which uploads get Zulip's upload-quota error (0: no limit; not with -upload-dir)")
	fs.IntVar(&c.planType, "plan-type", int(realm.PlanTypeSelfHosted), "the realm's plan_type, with its upload limits: 1 self-hosted, 2 Zulip Cloud Free, 3 Standard, 4 Standard sponsored, 10 Plus (POST /minizulip/plan_type changes it)")
	fs.IntVar(&c.unfinishedUploads, "unfinished-uploads", realm.DefaultMaxUnfinishedUploads,
		"unfinished resumable (tus) uploads one user may have; one more is refused with 429 (0: no limit)")
	fs.Func("calls", "fake video-call providers, comma-separated provider=meeting-URL pairs (zoom, bigbluebutton, constructorgroups, nextcloud_talk); every user holds the Zoom token",
		func(v string) error {
			calls, err := parseCalls(v)
			c.calls = append(c.calls, calls...)
			return err
		})
	fs.Func("can-create-users", "comma-separated emails of users granted can_create_users and can_change_user_emails (the dev realm's iago has both)",
		func(v string) error {
			for _, e := range strings.Split(v, ",") {
				if e = strings.TrimSpace(e); e != "" {
					c.accountManagers = append(c.accountManagers, e)
				}
			}
			return nil
		})
	return fs
}

// run serves the realm the arguments describe until ctx ends, then shuts
// down, ending open long polls. It prints the URL and how to log in to
// stdout (-banner json: the -ready-file object) before it serves; ready,
// if set, is called with the URL once requests are served.
func run(ctx context.Context, args []string, stdout io.Writer, ready func(url string)) error {
	c, err := parseFlags(args, stdout)
	if err != nil {
		return err
	}
	if c.showVersion {
		fmt.Fprintln(stdout, versionLine(debug.ReadBuildInfo()))
		return nil
	}
	var readyDoc *readyFile
	if c.readyFile != "" {
		// Before anything else, so that a place we cannot write fails
		// fast and a file left by an earlier run is gone.
		if readyDoc, err = prepareReadyFile(c.readyFile); err != nil {
			return err
		}
		defer readyDoc.discard()
	}
	var fixture []byte
	if c.fixture != "" {
		if fixture, err = os.ReadFile(c.fixture); err != nil {
			return fmt.Errorf("-fixture: %w", err)
		}
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	base := c.url
	if base == "" {
		base = "http://" + advertisedHost(ln.Addr())
	}
	// Real time, which POST /minizulip/clock can move ahead.
	opts := []realm.Option{realm.WithClock(clock.NewOffset()), realm.WithURL(base), realm.WithFeatureLevel(c.featureLevel, c.zulipVersion), realm.WithSeededPresence(), realm.WithSeededMessages(c.messages),
		realm.WithPlanType(realm.PlanType(c.planType))}
	if c.seed == "empty" {
		opts = append(opts, realm.WithSeed(realm.SeedEmpty), realm.WithOwner(emptyRealmOwner, "Owner"))
	}
	if c.apiKeySeed != "" {
		opts = append(opts, realm.WithAPIKeySeed(c.apiKeySeed))
	}
	opts = append(opts, realm.WithAccountManagers(c.accountManagers...),
		realm.WithUploadMemoryLimit(int64(c.uploadMemoryMiB)*upload.MiB), realm.WithMaxUnfinishedUploads(c.unfinishedUploads))
	if c.uploadDir != "" {
		store, err := upload.NewDirStore(c.uploadDir)
		if err != nil {
			ln.Close()
			return err
		}
		opts = append(opts, realm.WithUploadStore(store))
	}
	for _, cf := range c.calls {
		opts = append(opts, realm.WithCallProvider(realm.NewFakeCallProvider(cf.provider, cf.baseURL)))
	}
	fresh := c.data == "" // made by this start, not loaded from -data
	if c.data != "" {
		opts = append(opts, dataOptions(c, fixture, stdout, &fresh)...)
	}
	r, err := newRealm(c.data, fixture, opts)
	if err != nil {
		ln.Close()
		if c.data != "" {
			return err
		}
		return fmt.Errorf("-fixture %s: %w", c.fixture, err)
	}
	defer closeRealm(r, stdout)
	for _, email := range c.accountManagers {
		if _, ok := r.UserIDByEmail(email); !ok {
			ln.Close()
			return fmt.Errorf("-can-create-users: no user %s", email)
		}
	}
	if c.data == "" { // (with -data, at the first start only: data.go)
		if err := firstStart(c)(r); err != nil {
			ln.Close()
			return err
		}
	}
	account := "iago@zulip.com"
	if fixture != nil {
		account = r.LoginEmail()
	}
	if c.seed == "empty" {
		account = emptyRealmOwner
	}
	if _, ok := r.UserIDByEmail(account); !fresh && !ok {
		account = r.LoginEmail() // a realm kept in -data, seeded otherwise
	}
	apiOpts := []httpapi.Option{httpapi.WithDevEndpoints(c.devEndpoints), httpapi.WithTestControl(c.control), httpapi.WithStrict(c.strict), httpapi.WithWebUI(c.ui)}
	var logger *slog.Logger
	switch c.logFormat {
	case "text":
		logger = slog.New(slog.NewTextHandler(stdout, nil))
	case "json":
		logger = slog.New(slog.NewJSONHandler(stdout, nil))
	}
	if logger != nil {
		apiOpts = append(apiOpts, httpapi.WithLogger(logger))
	}
	if c.maxRealms > 0 {
		apiOpts = append(apiOpts, httpapi.WithRealms(c.maxRealms, realmMaker(c, logger)))
	}
	if isLoopback(ln.Addr()) {
		// DNS-rebinding protection: a loopback server answers only to
		// loopback names (and those -allow-hosts adds).
		hosts := append([]string{}, httpapi.LoopbackHosts...)
		if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
			hosts = append(hosts, u.Hostname()) // the advertised realm URL's host
		}
		for _, h := range strings.Split(c.allowHosts, ",") {
			if h = strings.TrimSpace(h); h != "" {
				hosts = append(hosts, h)
			}
		}
		apiOpts = append(apiOpts, httpapi.WithAllowedHosts(hosts...))
	}
	var warning string
	if !isLoopback(ln.Addr()) && c.devEndpoints {
		warning = fmt.Sprintf("WARNING: dev login is on and %s is not a loopback address: anyone who reaches it can log in as any user (-dev-endpoints=false turns it off)", ln.Addr())
	}
	api := httpapi.New(r, apiOpts...)
	srv, cancelRequests := httpapi.NewHTTPServer(api)
	defer cancelRequests()
	defer api.CloseRealms() // those POST /minizulip/realms created

	// The listener is bound: a client connecting from now on is answered
	// once Serve runs, a moment later. The ready file, then the banner
	// come before Serve: whoever reads the banner finds the file, and no
	// request log line can precede the banner's first line.
	doc, err := json.Marshal(readyInfo{URL: r.URL(), PID: os.Getpid()})
	if err != nil {
		ln.Close()
		return err
	}
	if readyDoc != nil {
		if err := readyDoc.publish(append(doc, '\n')); err != nil {
			ln.Close()
			return err
		}
	}
	if c.banner == "json" {
		fmt.Fprintf(stdout, "%s\n", doc)
		if warning != "" {
			fmt.Fprintln(stdout, warning)
		}
	} else {
		printBanner(stdout, r, c, fresh, account, warning)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if ready != nil {
		ready(base)
	}

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	cancelRequests()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newRealm opens the data directory, or loads the fixture document, or
// creates a seeded realm when there is neither.
func newRealm(dataDir string, fixture []byte, opts []realm.Option) (*realm.Realm, error) {
	opts = append([]realm.Option{realm.WithOutgoingWebhookCaller(httpapi.NewServiceCaller(nil))}, opts...)
	if dataDir != "" {
		return realm.Open(dataDir, opts...)
	}
	if fixture == nil {
		return realm.New(opts...), nil
	}
	return realm.Load(fixture, opts...)
}

// isLoopback reports whether a listener's address is a loopback one.
func isLoopback(a net.Addr) bool {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// advertisedHost is host:port of a listener for URLs; a wildcard address
// is shown as localhost.
func advertisedHost(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// printBanner tells, for people, what is served where and how to get
// credentials, showing account's; fresh is false for a realm loaded from
// -data, which the seeding flags did not make.
func printBanner(w io.Writer, r *realm.Realm, c config, fresh bool, account, warning string) {
	url := r.URL()
	var what string
	switch {
	case !fresh:
		what = fmt.Sprintf("the realm kept in %s (%d messages)", c.data, r.MessageCount())
	case c.fixture != "":
		what = "the realm of fixture " + c.fixture
	case c.seed == "empty":
		what = "an empty realm (one owner, " + emptyRealmOwner + ")"
	default:
		what = fmt.Sprintf("the Zulip dev realm with %d seeded messages", c.messages)
	}
	fmt.Fprintf(w, "minizulip: serving %s at %s (feature level %d, version %s)\n",
		what, url, r.FeatureLevel(), r.Version())
	if warning != "" {
		fmt.Fprintln(w, warning)
	}
	if c.devEndpoints {
		fmt.Fprintf(w, "Log in as any seeded user (list: curl -s %s/api/v1/dev_list_users):\n", url)
		fmt.Fprintf(w, "  curl -s -X POST %s/api/v1/dev_fetch_api_key -d username=%s\n", url, account)
		if _, key, ok := r.APIKey(account); ok {
			fmt.Fprintf(w, "Then call the API with the key, e.g. as %s:\n", account)
			fmt.Fprintf(w, "  curl -s -u %s:%s %s/api/v1/users/me\n", account, key, url)
		}
	}
	fmt.Fprintln(w, "Press Ctrl-C to stop.")
}
