package webui_test

// The browser harness: a headless Chromium driven by chromedp, controls
// found by accessible role and name (the accessibility tree), axe-core
// injected from MINIZULIP_AXE, and console errors collected per page.
//
// The tests run when a browser is found; with MINIZULIP_BROWSER_TESTS set
// (as CI sets it) a missing browser or axe-core fails them instead.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// required says whether the browser tests must run (CI).
func required() bool { return os.Getenv("MINIZULIP_BROWSER_TESTS") != "" }

// browserPath finds Chromium: MINIZULIP_CHROMIUM, else the usual names.
func browserPath() string {
	if p := os.Getenv("MINIZULIP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

var (
	allocOnce   sync.Once
	allocCtx    context.Context
	allocCancel context.CancelFunc
	browserCtx  context.Context
	browserErr  error
	userDataDir string // the browser's fresh profile, removed at the end
)

func TestMain(m *testing.M) {
	code := m.Run()
	if allocCancel != nil {
		allocCancel() // stops the browser
	}
	if userDataDir != "" {
		os.RemoveAll(userDataDir)
	}
	os.Exit(code)
}

// browser starts the shared headless Chromium on first use.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := browserPath()
	if path == "" {
		if required() {
			t.Fatal("no Chromium found (install Debian's chromium, or set MINIZULIP_CHROMIUM)")
		}
		t.Skip("no Chromium found; set MINIZULIP_BROWSER_TESTS=1 to make this a failure")
	}
	allocOnce.Do(func() {
		dir, err := os.MkdirTemp("", "minizulip-chromium-")
		if err != nil {
			browserErr = err
			return
		}
		userDataDir = dir
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.UserDataDir(dir),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.WindowSize(1280, 900),
		}
		allocCtx, allocCancel = chromedp.NewExecAllocator(context.Background(), opts...)
		browserCtx, _ = chromedp.NewContext(allocCtx)
		browserErr = chromedp.Do(browserCtx) // starts the browser
	})
	if browserErr != nil {
		t.Fatalf("starting Chromium at %s: %v", path, browserErr)
	}
	return browserCtx
}

// page is one tab in a browser context of its own (its own cookies).
type page struct {
	t   *testing.T
	ctx context.Context

	mu      sync.Mutex
	console []string // console errors and uncaught exceptions
}

func newPage(t *testing.T) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			// The browser's own log of failed loads (the 500s and 429s
			// the tests inject) is no script error.
			if m.Source == "network" {
				continue
			}
			if m.IsException() || m.Type == "error" || m.Type == "assert" {
				p.mu.Lock()
				p.console = append(p.console, m.String())
				p.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { p.noConsoleErrors() })
	return p
}

// do runs actions with a deadline.
func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// target runs f on the page's target with a deadline.
func (p *page) target(f func(ctx context.Context, t *chromedp.Target) error) {
	p.t.Helper()
	p.do(chromedp.Func(f))
}

func (p *page) open(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(url))
}

// eval evaluates a JavaScript expression (awaiting a promise) into out,
// which may be nil.
func (p *page) eval(js string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[jsonv2.Value](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %.80q: %v", js, err)
	}
	if out != nil && len(v) > 0 {
		if err := json.Unmarshal(v, out); err != nil {
			p.t.Fatalf("evaluating %.80q: %v", js, err)
		}
	}
}

// waitJS waits until a JavaScript expression is true.
func (p *page) waitJS(what, js string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ok bool
		p.eval("!!("+js+")", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited 10 s for %s (%s)", what, js)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// node is a DOM node found in the accessibility tree.
type node struct {
	backend cdp.BackendNodeID
	name    string
}

// query lists the unignored nodes of a role (and exact accessible name,
// unless name is empty) under scope (the document when scope is zero).
func (p *page) query(scope cdp.BackendNodeID, role, name string) []node {
	p.t.Helper()
	var found []node
	p.target(func(ctx context.Context, t *chromedp.Target) error {
		q := accessibility.QueryAXTreeParams{Role: role, AccessibleName: name}
		if scope != 0 {
			q.BackendNodeID = scope
		} else {
			doc, err := cdp.Call(ctx, t, dom.GetDocument, dom.GetDocumentParams{})
			if err != nil {
				return err
			}
			q.NodeID = doc.Root.NodeID
		}
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, q)
		if err != nil && strings.Contains(err.Error(), "Could not find node") {
			return nil // the page replaced the node: nothing found this time
		}
		if err != nil {
			return err
		}
		for _, n := range res.Nodes {
			if n.Ignored || n.BackendDOMNodeID == 0 {
				continue
			}
			var nm string
			if n.Name != nil && len(n.Name.Value) > 0 {
				_ = json.Unmarshal(n.Name.Value, &nm)
			}
			found = append(found, node{backend: n.BackendDOMNodeID, name: nm})
		}
		return nil
	})
	return found
}

// find waits for exactly one node of a role and name under scope.
func (p *page) find(scope cdp.BackendNodeID, role, name string) cdp.BackendNodeID {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		nodes := p.query(scope, role, name)
		if len(nodes) == 1 {
			return nodes[0].backend
		}
		if time.Now().After(deadline) {
			var names []string
			for _, n := range p.query(scope, role, "") {
				names = append(names, n.name)
			}
			p.t.Fatalf("found %d of %s %q, want 1 (%ss there: %q)", len(nodes), role, name, role, names)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// gone waits until no node of a role and name is left under scope.
func (p *page) gone(scope cdp.BackendNodeID, role, name string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(p.query(scope, role, name)) > 0 {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s %q is still there", role, name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// callOn runs a function with this bound to a node and gives its result.
func (p *page) callOn(n cdp.BackendNodeID, fn string, out any) {
	p.t.Helper()
	p.target(func(ctx context.Context, t *chromedp.Target) error {
		obj, err := cdp.Call(ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: n})
		if err != nil {
			return err
		}
		yes := true
		res, err := cdp.Call(ctx, t, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: fn, ObjectID: obj.Object.ObjectID, ReturnByValue: &yes, AwaitPromise: &yes})
		if err != nil {
			return err
		}
		if exc := res.ExceptionDetails; exc != nil {
			return fmt.Errorf("%s", exc.Text)
		}
		if out != nil && res.Result != nil && len(res.Result.Value) > 0 {
			return json.Unmarshal(res.Result.Value, out)
		}
		return nil
	})
}

func (p *page) click(n cdp.BackendNodeID) {
	p.t.Helper()
	p.callOn(n, `function() { this.scrollIntoView({block: "nearest"}); this.click(); }`, nil)
}

func (p *page) text(n cdp.BackendNodeID) string {
	p.t.Helper()
	var s string
	p.callOn(n, `function() { return this.innerText; }`, &s)
	return s
}

// typeIn focuses a field, clears it and types text as the keyboard would
// insert it.
func (p *page) typeIn(n cdp.BackendNodeID, text string) {
	p.t.Helper()
	p.callOn(n, `function() { this.focus(); this.value = ""; }`, nil)
	p.insert(text)
}

// insert types text into the focused field.
func (p *page) insert(text string) {
	p.t.Helper()
	p.target(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

// key presses one key in the focused element.
func (p *page) key(k string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.do(chromedp.KeyEvent(k, chromedp.KeyModifiers(mods...)))
}

// noConsoleErrors fails the test for any console error or exception.
func (p *page) noConsoleErrors() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.console {
		p.t.Errorf("browser console: %s", e)
	}
	p.console = nil
}

// axe runs axe-core on the page and fails on serious or critical
// violations. axe.min.js comes from MINIZULIP_AXE.
func (p *page) axe(label string) {
	p.t.Helper()
	path := os.Getenv("MINIZULIP_AXE")
	if path == "" {
		if required() {
			p.t.Fatalf("MINIZULIP_AXE is not set: the path of axe-core's axe.min.js")
		}
		p.t.Logf("axe-core not checked on %s: set MINIZULIP_AXE to axe.min.js", label)
		return
	}
	src, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatalf("reading axe-core: %v", err)
	}
	p.eval(string(src)+";0", nil)
	var violations []struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target []any  `json:"target"`
			HTML   string `json:"html"`
		} `json:"nodes"`
	}
	p.eval(`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations)`, &violations)
	for _, v := range violations {
		if v.Impact != "serious" && v.Impact != "critical" {
			p.t.Logf("axe on %s (%s): %s: %s", label, v.Impact, v.ID, v.Help)
			continue
		}
		for _, n := range v.Nodes {
			p.t.Errorf("axe on %s: %s (%s): %s at %v: %s", label, v.ID, v.Impact, v.Help, n.Target, n.HTML)
		}
	}
}
