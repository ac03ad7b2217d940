package test

// The exported site in a real browser: Debian's chromium, headless, driven
// over the DevTools protocol (chromedp). .ci/run installs it and sets
// GCT_REQUIRE_BROWSER=1, which turns a missing browser into a failure;
// elsewhere the tests skip without one, and with -short always. GCT_CHROMIUM names the binary
// (default: chromium on PATH).
//
// Screenshots of the root page, a leaf (also in the dark scheme), search
// results and the map are kept for people to
// look at: under $GCT_ARTIFACTS/site-browser when that is set (.ci/run
// sets it), else in the test's artifact directory (go test -artifacts
// -outputdir <dir> keeps it; without -artifacts it is removed).

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/git-context-tree/git-context-tree/internal/cli"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// chromiumPath finds the browser, failing under GCT_REQUIRE_BROWSER=1 and
// skipping otherwise when there is none.
func chromiumPath(tb testing.TB) string {
	tb.Helper()
	name := os.Getenv("GCT_CHROMIUM")
	if name == "" {
		name = "chromium"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("GCT_REQUIRE_BROWSER") == "1" {
			tb.Fatalf("GCT_REQUIRE_BROWSER=1 but no browser: %v", err)
		}
		tb.Skipf("no chromium (%v); .ci/run installs it", err)
	}
	return p
}

// browser starts a headless chromium with a fresh profile and records
// console errors, uncaught exceptions, error log entries and every
// request's URL.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	errors   []string
	requests []string
}

func newBrowser(tb testing.TB) *browser {
	tb.Helper()
	profile := tb.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(tb)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	tb.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})
	b := &browser{ctx: ctx}
	if err := chromedp.Listen(ctx, b.record); err != nil {
		tb.Fatalf("start chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		tb.Fatalf("enable network events: %v", err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		tb.Fatalf("enable log events: %v", err)
	}
	return b
}

func (b *browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			b.errors = append(b.errors, "console."+string(ev.Type)+": "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		b.errors = append(b.errors, "exception: "+(&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError {
			b.errors = append(b.errors, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request.URL)
	}
}

// check fails the test for any console error and any request that left
// the file system.
func (b *browser) check(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		t.Errorf("browser error: %s", e)
	}
	if len(b.requests) == 0 {
		t.Errorf("no request was seen: the network events are not recorded")
	}
	for _, r := range b.requests {
		if !strings.HasPrefix(r, "file://") {
			t.Errorf("a request left the file system: %s", r)
		}
	}
}

func (b *browser) do(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// waitTitle waits for the page whose h1 is title: a click's navigation
// has happened.
func waitTitle(title string) chromedp.Action[chromedp.Void] {
	expr := fmt.Sprintf(`(() => { const h = document.querySelector("main h1"); return h !== null && h.textContent === %q && document.readyState === "complete"; })()`, title)
	return until(expr)
}

// until evaluates a condition until it holds (for at most a minute),
// through navigations: while a page is replaced, evaluating fails, and
// that is not an answer.
func until(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		deadline := time.Now().Add(time.Minute)
		for {
			ok, err := chromedp.Evaluate[bool](expr)(ctx, tg)
			if err == nil && ok {
				return chromedp.Void{}, nil
			}
			if time.Now().After(deadline) {
				return chromedp.Void{}, fmt.Errorf("still not true after a minute (last error %v): %s", err, expr)
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
}

func (b *browser) screenshot(t *testing.T, dir, name string) {
	t.Helper()
	buf, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// scheme emulates prefers-color-scheme ("" ends the emulation).
func (b *browser) scheme(t *testing.T, value string) {
	t.Helper()
	params := emulation.SetEmulatedMediaParams{}
	if value != "" {
		params.Features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}}
	}
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, params); err != nil {
		t.Fatalf("emulate prefers-color-scheme %q: %v", value, err)
	}
}

func artifactDir(t *testing.T) string {
	dir := t.ArtifactDir()
	if base := os.Getenv("GCT_ARTIFACTS"); base != "" {
		dir = filepath.Join(base, "site-browser")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// exportSite exports a tree with the command line, in-process.
func exportSite(tb testing.TB, tree, out string) {
	tb.Helper()
	var stdout, stderr strings.Builder
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	if code := cli.Main(cli.Process{Dir: wd, Env: os.Environ(), Stdout: &stdout, Stderr: &stderr}, []string{"export", "site", tree, "-o", out}); code != 0 {
		tb.Fatalf("export site: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

func fileURL(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }

// TestSiteInBrowser opens the handbook's site from file://, follows the
// navigation to a leaf, a soft link and a backlink, searches with the
// keyboard and opens a result, and clicks a node of the map.
func TestSiteInBrowser(t *testing.T) {
	skipRealClientInShort(t)
	b := newBrowser(t)
	shots := artifactDir(t)
	site := filepath.Join(t.TempDir(), "site")
	handbook, err := filepath.Abs(filepath.Join("..", "examples", "handbook"))
	if err != nil {
		t.Fatal(err)
	}
	exportSite(t, handbook, site)

	b.do(t, "open the root page", chromedp.Navigate(fileURL(filepath.Join(site, "index.html"))), waitTitle("git-context-tree handbook"))
	b.screenshot(t, shots, "root.png")

	b.do(t, "navigate to a leaf",
		chromedp.Click(`nav.tree a[href="architecture/index.html"]`), waitTitle("Architecture"),
		chromedp.Click(`nav.tree a[href="../architecture/layers.html"]`), waitTitle("Layers"))
	b.screenshot(t, shots, "leaf.png")
	// The dark scheme, as a reader who prefers it sees the page.
	b.scheme(t, "dark")
	b.screenshot(t, shots, "leaf-dark.png")
	b.scheme(t, "")

	b.do(t, "follow a soft link", chromedp.Click(`section.soft-links a[href="../architecture/git-adapter.html"]`), waitTitle("The git adapter"))
	b.do(t, "follow a backlink", chromedp.Click(`section.backlinks a[href="../workflow/write-sessions.html"]`), waitTitle("Write sessions"))

	// Search with the keyboard: type, move into the results, open one.
	b.do(t, "search",
		chromedp.Focus(`#search-input`),
		chromedp.SendKeys(`#search-input`, "symlinks"),
		chromedp.WaitVisible(`#search-results a.search-result`))
	b.screenshot(t, shots, "search.png")
	first, err := chromedp.Run(b.ctx, chromedp.Text(`#search-results a.search-result .result-title`))
	if err != nil || first != "Verification" {
		t.Fatalf("first result %q, %v", first, err)
	}
	b.do(t, "open the result", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter), waitTitle("Verification"))

	// A code path in the search box finds the page citing it, which
	// lists its sources.
	b.do(t, "search a cited code path",
		chromedp.SendKeys(`#search-input`, "adapters/git/git.go"),
		chromedp.WaitVisible(`#search-results a.search-result`))
	cited, err := chromedp.Run(b.ctx, chromedp.Text(`#search-results a.search-result .result-title`))
	if err != nil || cited != "The git adapter" {
		t.Fatalf("first result for a cited path %q, %v", cited, err)
	}
	b.do(t, "open the citing page", chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter), waitTitle("The git adapter"),
		chromedp.WaitVisible(`section.sources code`))
	src, err := chromedp.Run(b.ctx, chromedp.Text(`section.sources li`))
	if err != nil || !strings.Contains(src, "internal/adapters/git/git.go") || !strings.Contains(src, "unstamped") {
		t.Fatalf("sources %q, %v", src, err)
	}
	b.screenshot(t, shots, "sources.png")

	b.do(t, "open the map", chromedp.Click(`.site-links a[href="../_site/map.html"]`), waitTitle("Soft-link map"), chromedp.WaitVisible(`svg.map`))
	b.screenshot(t, shots, "map.png")
	b.do(t, "click a node of the map", chromedp.Click(`svg.map a[data-path="workflow/NODE.md"] circle`), waitTitle("Workflow"))

	b.check(t)
	t.Logf("screenshots: %s", shots)
}

// BenchmarkSiteSearchInBrowser measures the in-page search of a site of a
// 5,000-document generated tree in chromium: the time search.js itself
// records for a query (matching every document and drawing the results),
// reported as ms/search; the first query, which loads the index, as
// ms/first-search.
func BenchmarkSiteSearchInBrowser(b *testing.B) {
	br := newBrowser(b)
	dir := b.TempDir()
	root := filepath.Join(dir, "tree")
	if err := treegen.Generate(root, treegen.Options{Seed: 7, Docs: 5000}); err != nil {
		b.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	exportSite(b, root, site)
	if err := chromedp.Do(br.ctx, chromedp.Navigate(fileURL(filepath.Join(site, "index.html")))); err != nil {
		b.Fatal(err)
	}
	// A first query loads the index (reported as ms/first-search, from
	// the key press to the results); the timing of queries starts after.
	started := time.Now()
	if err := chromedp.Do(br.ctx, chromedp.SendKeys(`#search-input`, "a"),
		until(`document.body.hasAttribute("data-search-ms")`)); err != nil {
		b.Fatal(err)
	}
	first := time.Since(started)
	queries := []string{"the", "verify tree", "zz-no-such-word", "session commit"}
	total, n := 0.0, 0
	for b.Loop() {
		q := queries[n%len(queries)]
		js := fmt.Sprintf(`(() => { const i = document.getElementById("search-input"); i.value = %q; i.dispatchEvent(new Event("input")); return Number(document.body.getAttribute("data-search-ms") || "-1"); })()`, q)
		ms, err := chromedp.Run(br.ctx, chromedp.Evaluate[float64](js))
		if err != nil {
			b.Fatal(err)
		}
		if ms < 0 {
			b.Fatalf("no time recorded for %q", q)
		}
		total += ms
		n++
	}
	b.ReportMetric(total/float64(n), "ms/search")
	b.ReportMetric(float64(first.Milliseconds()), "ms/first-search")
}

// TestSiteImagesInBrowser opens a page whose document shows an image of
// the tree and one from the web: the tree's is copied and drawn, the
// web's is its alt text (no request leaves file://), and the page names
// its clean Markdown copy as the alternate.
func TestSiteImagesInBrowser(t *testing.T) {
	skipRealClientInShort(t)
	b := newBrowser(t)
	root := filepath.Join(t.TempDir(), "tree")
	writeFile(t, filepath.Join(root, "NODE.md"), "---\nschemaVersion: 1\ntitle: Pictures\n---\n\n![Diagram](img/diagram.svg)\n\n![Remote](https://example.com/remote.png)\n")
	writeFile(t, filepath.Join(root, "img", "NODE.md"), "---\ntitle: Images\n---\n\nImages.\n")
	writeFile(t, filepath.Join(root, "img", "diagram.svg"), `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#0b57d0"/></svg>`)
	site := filepath.Join(t.TempDir(), "site")
	exportSite(t, root, site)
	b.do(t, "open the page", chromedp.Navigate(fileURL(filepath.Join(site, "index.html"))), waitTitle("Pictures"),
		until(`(() => { const i = document.querySelector("img[alt=Diagram]"); return i !== null && i.complete && i.naturalWidth === 120; })()`))
	alt, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.querySelector('link[rel=alternate][type="text/markdown"]').getAttribute('href') + " " + document.querySelectorAll("img").length + " " + document.body.innerText.includes("[Remote]")`))
	if err != nil || alt != "index.md 1 true" {
		t.Errorf("alternate, images, remote alt text: %q %v", alt, err)
	}
	b.check(t)
}
