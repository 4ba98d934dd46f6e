package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The browser tests drive Debian's Chromium headless through chromedp. They
// open the pages from the harness's own server, with links taken from the
// emails, the way a player does. Without Chromium they skip; .ci/run installs it.

// browserTimeout bounds each step of a browser test, and the start of the browser.
const browserTimeout = 30 * time.Second

// chromiumPath finds the browser: $LESSPOST_CHROMIUM, chromium on the PATH, or
// Debian's /usr/bin/chromium. "" when there is none.
func chromiumPath() string {
	if p := os.Getenv("LESSPOST_CHROMIUM"); p != "" {
		return p
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// page is one browser tab of a test.
type page struct {
	t   *testing.T
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// openBrowser starts a fresh headless Chromium (its own profile) with a
// viewport of width x height CSS pixels. It is closed when the test ends;
// if the test failed, a screenshot is saved first and its path logged.
func openBrowser(t *testing.T, width, height int) *page {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		const why = "no Chromium found (install Debian's chromium: apt-get install chromium, " +
			"or set LESSPOST_CHROMIUM to a Chromium binary); .ci/run installs it"
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run the browser tests: " + why) // a green CI means the page was tested
		}
		t.Skip("browser test skipped: " + why)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	// The first Run starts the browser for the life of its context, so it
	// gets no timeout of its own (chromedp docs); a watchdog bounds it.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("start Chromium (%s): %v", path, err)
		}
	case <-time.After(browserTimeout):
		t.Fatalf("Chromium (%s) did not start within %v", path, browserTimeout)
	}
	p := &page{t: t, ctx: ctx}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m)
			p.mu.Unlock()
		}
	}()
	// Cleanups run last-registered first: check the console, then take the
	// screenshot of a failure, then close the browser.
	t.Cleanup(p.screenshotOnFailure)
	t.Cleanup(p.checkConsole)
	return p
}

// do runs browser steps, bounded by browserTimeout.
func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, browserTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page and decodes its value.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, browserTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor waits until the JavaScript expression is true. It polls from Go:
// chromedp's Poll builds its predicate with new Function, which the page's
// Content-Security-Policy forbids, as it should.
func (p *page) waitFor(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(browserTimeout)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, browserTimeout)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %v for %s (%s); last error: %v", browserTimeout, what, expr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// open navigates to url and waits until the page has loaded the game.
func (p *page) open(url string) {
	p.t.Helper()
	p.do("open "+url, chromedp.Navigate(url))
	p.waitFor("the game to load", `!document.body.classList.contains('loading')`)
}

// click clicks the centre of the first element matching the CSS selector,
// with the mouse, as a person would: what is on top there gets the click.
func (p *page) click(sel string) {
	p.t.Helper()
	p.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// text is the text content of the first element matching the CSS selector.
func (p *page) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(document.querySelector(%s) || {}).textContent || ''`, jsString(sel)))
}

// visible reports whether the element matching sel is displayed.
func (p *page) visible(sel string) bool {
	p.t.Helper()
	return eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%s); return !!e && e.getClientRects().length > 0; })()`, jsString(sel)))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// screenshot saves a full-page PNG to path.
func (p *page) screenshot(path string) error {
	ctx, cancel := context.WithTimeout(p.ctx, browserTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, png, 0o644)
}

// failureDir keeps screenshots of failed browser tests after the test ends
// (t.TempDir would delete them). It ignores itself, so git never sees them.
const failureDir = "testdata/failures"

func (p *page) screenshotOnFailure() {
	if !p.t.Failed() {
		return
	}
	p.mu.Lock()
	for _, m := range p.console {
		p.t.Logf("browser console: %s", m)
	}
	p.mu.Unlock()
	name := regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(p.t.Name(), "_") + ".png"
	path, err := filepath.Abs(filepath.Join(failureDir, name))
	if err == nil {
		err = p.screenshot(path)
	}
	if err != nil {
		p.t.Logf("no screenshot of the failure: %v", err)
		return
	}
	_ = os.WriteFile(filepath.Join(failureDir, ".gitignore"), []byte("*\n"), 0o644)
	p.t.Logf("screenshot of the failure: %s", path)
}

// checkConsole fails the test on an uncaught exception or a
// Content-Security-Policy violation in the page.
func (p *page) checkConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.console {
		if m.IsException() || m.Source == "security" || strings.Contains(m.Text, "Content Security Policy") {
			p.t.Errorf("browser console: %s", m)
		}
	}
}

// pageURL turns a link from an email (base http://lesspost.test) into one to
// the harness's server.
func (h *harness) pageURL(link string) string {
	return strings.Replace(link, "http://lesspost.test", h.url, 1)
}
