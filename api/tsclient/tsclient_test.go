package tsclient_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify/smtptest"
	"github.com/lesspost/lesspost/repo/repotest"
)

const (
	// module is the repository's Go module; its root is two levels up.
	module = "github.com/lesspost/lesspost"
	// npmTimeout bounds npm ci: a cold cache downloads about 40 packages.
	npmTimeout = 5 * time.Minute
	// runTimeout bounds the whole program, which waits for events and
	// email itself (30 s at most for each).
	runTimeout = 5 * time.Minute
)

// The TypeScript program, typed from the repository's openapi.yaml and
// type-checked with tsc --strict, plays against the real server binary: it
// signs two players in by email, refreshes a token, registers a webhook
// whose signed messages its own receiver verifies, plays a game while
// following both players' event streams (disconnecting and resuming),
// checks the problems the API answers with, and that the webhook's messages
// match the events, the delivery log, a secret rotation and the refusal of
// tampered messages. Its output is the test's log.
func TestTypeScriptClient(t *testing.T) {
	node := tool(t, "node")
	npm := tool(t, "npm")
	checkNodeVersion(t, node)

	root := moduleRoot(t)
	dir := t.TempDir()
	copyProject(t, root, dir)

	// The server builds while npm installs. A test that ends early waits
	// for the build, which writes into a directory the test removes.
	built, buildDone := make(chan error, 1), make(chan struct{})
	binary := filepath.Join(t.TempDir(), "lesspost")
	go func() {
		defer close(buildDone)
		built <- buildServer(root, binary)
	}()
	t.Cleanup(func() { <-buildDone })

	start := time.Now()
	npmCI(t, npm, dir)
	t.Logf("npm ci: %v", time.Since(start).Round(time.Millisecond))

	// Types from the contract, then the program type-checked against them
	// (strict, whatever tsconfig.json says) and compiled to dist/.
	start = time.Now()
	bin := filepath.Join(dir, "node_modules", ".bin")
	runIn(t, dir, filepath.Join(bin, "openapi-typescript"), "openapi.yaml", "--output", filepath.Join("src", "api.ts"))
	runIn(t, dir, filepath.Join(bin, "tsc"), "--project", "tsconfig.json", "--strict")
	t.Logf("openapi-typescript and tsc: %v", time.Since(start).Round(time.Millisecond))

	// The program's own unit tests (the event-stream parser, the webhook
	// receiver).
	unitTests, err := filepath.Glob(filepath.Join(dir, "dist", "*.test.js"))
	if err != nil || len(unitTests) == 0 {
		t.Fatalf("no dist/*.test.js: %v", err)
	}
	runIn(t, dir, node, append([]string{"--test"}, unitTests...)...)

	start = time.Now()
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	readServerSources(t, root)
	t.Logf("go build ./cmd/api (waited after npm): %v", time.Since(start).Round(time.Millisecond))

	smtp := smtptest.Start(t)
	srv := startServer(t, binary, smtp)
	mail := serveMailbox(t, smtp)

	start = time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("dist", "main.js"))
	cmd.Dir = dir
	// The program's webhook receiver picks its own port on loopback and
	// registers it: the server may deliver there (see startServer).
	cmd.Env = append(os.Environ(), "LESSPOST_URL="+srv.url, "LESSPOST_MAILBOX_URL="+mail,
		"NODE_OPTIONS=--enable-source-maps")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	t.Logf("node dist/main.js (%v):\n%s", time.Since(start).Round(time.Millisecond), out.String())
	if err != nil {
		t.Fatalf("the TypeScript client failed (%v); the server's log:\n%s", err, srv.logs())
	}
	if !strings.HasSuffix(out.String(), "PASS\n") {
		t.Fatalf("the TypeScript client ended without PASS")
	}
}

// unavailable skips the test, loudly, for want of what it needs, except
// under CI, which promises that the client ran.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	why := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI must run the TypeScript client test: %s", why)
	}
	t.Skipf("SKIPPED: the TypeScript client test: %s", why)
}

// tool finds a command on PATH.
func tool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		unavailable(t, "no %s (install node 20 or later with npm): %v", name, err)
	}
	return path
}

// checkNodeVersion wants node 20 or later (fetch streaming, the package's
// engines).
func checkNodeVersion(t *testing.T, node string) {
	t.Helper()
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		unavailable(t, "node --version: %v", err)
	}
	m := regexp.MustCompile(`^v(\d+)\.`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("node --version said %q", out)
	}
	if major, _ := strconv.Atoi(string(m[1])); major < 20 {
		unavailable(t, "node %s is older than 20", bytes.TrimSpace(out))
	}
}

// moduleRoot is the repository's root: the test runs in api/tsclient, also
// in a copy of the repository made with git archive.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.HasPrefix(gomod, []byte("module "+module+"\n")) {
		t.Fatalf("%s is not the root of %s: %v", root, module, err)
	}
	return root
}

// copyProject copies the TypeScript project's sources and the contract to
// dir; nothing generated or installed comes along.
func copyProject(t *testing.T, root, dir string) {
	t.Helper()
	files := []string{"package.json", "package-lock.json", "tsconfig.json"}
	sources, err := filepath.Glob("src/*.ts")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sources {
		if f != filepath.Join("src", "api.ts") { // generated by a run by hand
			files = append(files, f)
		}
	}
	if len(sources) == 0 {
		t.Fatal("no src/*.ts")
	}
	copyFile(t, filepath.Join(root, "openapi.yaml"), filepath.Join(dir, "openapi.yaml"))
	for _, f := range files {
		copyFile(t, f, filepath.Join(dir, f))
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// npmNetworkRE matches what npm says when it cannot reach the registry.
var npmNetworkRE = regexp.MustCompile(`ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network|socket hang up|request to \S+ failed`)

// npmCI installs the locked packages into dir. npm's cache (~/.npm) makes a
// repeat quick; an unreachable registry skips the test (fails it under CI).
func npmCI(t *testing.T, npm, dir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), npmTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return
	}
	if npmNetworkRE.Match(out) {
		unavailable(t, "npm ci cannot reach the registry: %v\n%s", err, out)
	}
	t.Fatalf("npm ci: %v\n%s", err, out)
}

// runIn runs a program in dir and fails the test with its output if it
// fails.
func runIn(t *testing.T, dir, program string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), program, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(program), strings.Join(args, " "), err, out)
	}
}

// buildServer builds the server binary (cmd/api) into binary, with the race
// detector when the test has it: the packages are then those go test built
// already.
func buildServer(root, binary string) error {
	args := []string{"build", "-o", binary}
	if raceEnabled() {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "./cmd/api")...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/api: %v\n%s", err, out)
	}
	return nil
}

func raceEnabled() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// readServerSources reads the files the server binary is built from, so
// that go test's cache, which cannot see into go build, runs the test again
// when they change.
func readServerSources(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}|{{.Dir}}|{{join .GoFiles ","}}|{{join .EmbedFiles ","}}`, "./cmd/api")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./cmd/api: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimSpace(line), "|")
		if len(f) != 4 || (f[0] != module && !strings.HasPrefix(f[0], module+"/")) {
			continue
		}
		for _, name := range strings.Split(f[2]+","+f[3], ",") {
			if name == "" {
				continue
			}
			if _, err := os.ReadFile(filepath.Join(f[1], name)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// server is the running binary.
type server struct {
	url string
	mu  sync.Mutex
	log strings.Builder // what it logged so far
}

func (s *server) logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// startServer runs the server binary on a new database of the test's store
// (SQLite, or PostgreSQL with LESSPOST_TEST_STORE=postgres), sending mail
// to smtp, and waits until it listens. It is stopped with SIGTERM when the
// test ends.
func startServer(t *testing.T, binary string, smtp *smtptest.Server) *server {
	t.Helper()
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "--addr", "127.0.0.1:0", "--db", repotest.DSN(t),
		"--base-url", "http://lesspost.test", "--log-level", "info",
		"--smtp-host", smtp.Host, "--smtp-port", strconv.Itoa(smtp.Port), "--smtp-tls", "none",
		"--smtp-from", "Less <games@lesspost.test>", "--mail-retry-delay", "100ms", "--mail-attempts", "1000",
		// The program's webhook receiver is http on 127.0.0.1.
		"--webhook-allow-private",
	)
	// The server takes its configuration from LESSPOST_* too: none of the
	// caller's may leak in.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LESSPOST_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "LESSPOST_SECRET="+hex.EncodeToString(secret))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{}
	listening := make(chan string, 1)
	exited := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			s.mu.Lock()
			s.log.Write(append(line, '\n'))
			s.mu.Unlock()
			var entry struct{ Msg, Addr string }
			if json.Unmarshal(line, &entry) == nil && entry.Msg == "listening" {
				select {
				case listening <- entry.Addr:
				default:
				}
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		if err := <-exited; err != nil {
			t.Errorf("the server: %v\n%s", err, s.logs())
		}
	})
	select {
	case addr := <-listening:
		s.url = "http://" + addr
	case err := <-exited:
		exited <- err // for the cleanup
		t.Fatalf("the server stopped before it listened: %v\n%s", err, s.logs())
	case <-time.After(time.Minute):
		t.Fatalf("the server did not listen within a minute:\n%s", s.logs())
	}
	return s
}

// serveMailbox serves the messages smtp received, as the program's user
// reads them: GET /mail?to=<address> answers every message to the address,
// oldest first, as JSON [{subject, text}].
func serveMailbox(t *testing.T, smtp *smtptest.Server) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /mail", func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		if to == "" {
			http.Error(w, "want ?to=<address>", http.StatusBadRequest)
			return
		}
		type message struct {
			Subject string `json:"subject"`
			Text    string `json:"text"`
		}
		msgs := []message{}
		for _, m := range smtp.To(to) {
			msgs = append(msgs, message{Subject: m.Subject(), Text: m.Text})
		}
		w.Header().Set("Content-Type", "application/json")
		if err := json.NewEncoder(w).Encode(msgs); err != nil && !errors.Is(err, net.ErrClosed) {
			t.Errorf("mailbox: %v", err)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}
