package api_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chromedp/chromedp"
)

// The accessibility checks of the browser tests (issue 18 item 10): axe-core,
// the engine of the browsers' accessibility tools, runs in the page as a
// test has brought it about and fails the test on every serious or critical
// violation. axe-core comes from npm, pinned by testdata/axe/package.json
// and its lock file; npm ci installs it into a cache outside the repository
// (go test ./... never walks a node_modules, and a second run installs
// nothing). Without node and npm the checks skip, loudly, and fail under CI,
// like the browser tests without Chromium.

// axeProject is the npm project that pins axe-core.
const axeProject = "testdata/axe"

var axeScript = sync.OnceValues(installAxe)

// installAxe runs npm ci for axeProject in a cache directory named after its
// lock file's hash, unless an earlier run did, and returns axe.min.js.
func installAxe() ([]byte, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, fmt.Errorf("no npm (install node and npm): %w", err)
	}
	lock, err := os.ReadFile(filepath.Join(axeProject, "package-lock.json"))
	if err != nil {
		return nil, err
	}
	manifest, err := os.ReadFile(filepath.Join(axeProject, "package.json"))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(append(append([]byte{}, manifest...), lock...))
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "lesspost", "axe-"+hex.EncodeToString(sum[:8]))
	script := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	if src, err := os.ReadFile(script); err == nil {
		return src, nil
	}
	// npm ci in a directory of its own, renamed into place when complete:
	// another test binary may be installing at the same time.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "installing-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	for name, data := range map[string][]byte{"package.json": manifest, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = tmp
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npm ci in a copy of %s: %v\n%s", axeProject, err, out.String())
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(script); statErr != nil { // not one installed meanwhile
			return nil, err
		}
	}
	return os.ReadFile(script)
}

// axeViolation is one rule a page breaks, with the elements that break it.
type axeViolation struct {
	ID, Impact, Help, HelpURL string
	Nodes                     []struct{ Target, Summary string }
}

// axe checks the page as it is now with axe-core, fails the test on every
// serious or critical violation (rule, element, what to do), logs the
// lesser ones, and keeps a screenshot named after what (and the window's
// size) in screenshotDir.
func (p *page) axe(what string) {
	p.t.Helper()
	width, height := eval[int](p, "innerWidth"), eval[int](p, "innerHeight")
	name := fmt.Sprintf("%s-%dx%d", what, width, height)
	if err := p.screenshot(filepath.Join(screenshotDir(), name+".png")); err != nil {
		p.t.Errorf("screenshot %s: %v", name, err)
	}
	for _, v := range p.axeViolations() {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: axe %s (%s): %s (%s)", name, v.ID, v.Impact, v.Help, v.HelpURL)
		for _, n := range v.Nodes {
			fmt.Fprintf(&b, "\n\t%s: %s", n.Target, strings.ReplaceAll(n.Summary, "\n", " "))
		}
		if v.Impact == "serious" || v.Impact == "critical" {
			p.t.Error(b.String())
		} else {
			p.t.Log(b.String())
		}
	}
}

// axeViolations runs axe-core's rules for WCAG 2.2 A and AA and its best
// practices on the page. The script goes in through the DevTools protocol
// (Runtime.evaluate), which the pages' Content-Security-Policy, rightly
// strict about scripts, does not govern.
func (p *page) axeViolations() []axeViolation {
	p.t.Helper()
	src, err := axeScript()
	if err != nil {
		if os.Getenv("CI") != "" {
			p.t.Fatalf("CI must run the accessibility checks: %v", err)
		}
		p.t.Skipf("SKIPPED: accessibility checks: %v", err)
	}
	if !eval[bool](p, "typeof axe === 'object'") {
		p.do("load axe-core", chromedp.Evaluate[chromedp.Void](string(src)))
	}
	ctx, cancel := context.WithTimeout(p.ctx, browserTimeout)
	defer cancel()
	violations, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {
		runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
		resultTypes: ['violations'],
	}).then((r) => r.violations.map((v) => ({
		ID: v.id, Impact: v.impact || '', Help: v.help, HelpURL: v.helpUrl,
		Nodes: v.nodes.map((n) => ({Target: n.target.flat().join(' '), Summary: n.failureSummary || ''})),
	})))`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("axe.run: %v", err)
	}
	return violations
}
