package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/internal/metrics"
)

// readmeSection returns the section of README.md under the heading, up to
// the next heading of the same level.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(readme), "\n## "+heading+"\n")
	if !found {
		t.Fatalf("README.md has no section %q", heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}

// fenced returns the contents of the first fenced block of the language.
func fenced(t *testing.T, text, lang string) string {
	t.Helper()
	_, block, found := strings.Cut(text, "```"+lang+"\n")
	if !found {
		t.Fatalf("no ```%s block in:\n%s", lang, text)
	}
	block, _, found = strings.Cut(block, "```")
	if !found {
		t.Fatalf("unterminated ```%s block", lang)
	}
	return block
}

// stepRE is the comment that starts a step of the walkthrough: "# 1. ...".
var stepRE = regexp.MustCompile(`^# \d+\.`)

// readmeSteps splits the walkthrough's script at its numbered comments, so
// that the test can read the emails between the steps.
func readmeSteps(script string) []string {
	var steps []string
	for line := range strings.Lines(script) {
		if stepRE.MatchString(line) || steps == nil {
			steps = append(steps, "")
		}
		steps[len(steps)-1] += line
	}
	return steps
}

// shell runs one bash process that the test feeds a step at a time, so that
// the variables a step sets (TOKEN, GAME, ...) live on into the next.
type shell struct {
	t      *testing.T
	ctx    context.Context
	stdin  io.WriteCloser
	lines  chan string
	stderr *syncBuffer
}

// stepDone is echoed after each step; it is alone on its line.
const stepDone = "--- step done ---"

func startShell(t *testing.T, ctx context.Context, bash string) *shell {
	t.Helper()
	// -e and pipefail: a failing curl (no connection) ends the shell, and
	// the test with it. HOME keeps a personal ~/.curlrc out, and no proxy
	// variable is passed on.
	cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-e", "-o", "pipefail")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LC_ALL=C"}
	sh := &shell{t: t, ctx: ctx, lines: make(chan string), stderr: &syncBuffer{}}
	cmd.Stderr = sh.stderr
	var err error
	if sh.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			sh.lines <- sc.Text()
		}
		close(sh.lines)
	}()
	t.Cleanup(func() {
		sh.stdin.Close()
		if err := cmd.Wait(); err != nil && ctx.Err() == nil {
			t.Errorf("bash: %v\n%s", err, sh.stderr.String())
		}
	})
	return sh
}

// run runs a step and returns what it printed.
func (sh *shell) run(step string) string {
	sh.t.Helper()
	if _, err := io.WriteString(sh.stdin, step+"\necho; echo '"+stepDone+"'\n"); err != nil {
		sh.t.Fatalf("write to bash: %v", err)
	}
	var out strings.Builder
	for {
		select {
		case line, ok := <-sh.lines:
			if !ok {
				sh.t.Fatalf("bash stopped in the step\n%s\nprinted:\n%s\nerrors:\n%s", step, out.String(), sh.stderr.String())
			}
			if line == stepDone {
				return out.String()
			}
			out.WriteString(line + "\n")
		case <-sh.ctx.Done():
			sh.t.Fatalf("the step did not finish:\n%s\nprinted:\n%s", step, out.String())
		}
	}
}

// jsonValues decodes the JSON documents a step printed, one after another.
func jsonValues(t *testing.T, out string) []map[string]any {
	t.Helper()
	var values []map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v map[string]any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return values
		}
		if err != nil {
			t.Fatalf("output is not JSON documents: %v\n%s", err, out)
		}
		if typ, _ := v["type"].(string); strings.Contains(typ, "problem/") {
			t.Fatalf("the README's request was refused: %s", out)
		}
		values = append(values, v)
	}
}

var emailRE = regexp.MustCompile(`(?s)----- email to (\S+)\nSubject: ([^\n]*)\n(?:Reply-To: [^\n]*\n)?\n(.*?)----- end of email\n`)

// printedEmails returns the text of the emails the server printed to addr.
func printedEmails(logs *syncBuffer, addr string) []string {
	var out []string
	for _, m := range emailRE.FindAllStringSubmatch(logs.String(), -1) {
		if m[1] == addr {
			out = append(out, m[3])
		}
	}
	return out
}

// The README's "Five minutes with curl" works: its commands, read from the
// README itself, run with bash and curl against the real program, with the
// placeholders filled in from the emails the server prints, as a newcomer
// fills them in. Its example of an illegal turn is what the server answers.
func TestReadmeWalkthrough(t *testing.T) {
	bash, errBash := exec.LookPath("bash")
	_, errCurl := exec.LookPath("curl")
	if err := errors.Join(errBash, errCurl); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the README walkthrough needs bash and curl: %v", err)
		}
		t.Skipf("SKIPPED: the README walkthrough needs bash and curl: %v", err)
	}
	section := readmeSection(t, "Five minutes with curl")
	script := fenced(t, section, "sh")

	// The README talks to the default address; the test's server listens on
	// a free port instead.
	if def := newFlagSet(&Config{}).Lookup("addr").DefValue; !strings.Contains(script, "localhost"+def) {
		t.Fatalf("the walkthrough does not use the default address %s", def)
	}
	dbPath := filepath.Join(t.TempDir(), "lesspost.db")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var logs syncBuffer
	listening := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--db", dbPath}, func(string) string { return "" }, &logs,
			func(a net.Addr) { listening <- a })
	}()
	var addr string
	select {
	case a := <-listening:
		addr = a.String()
	case err := <-done:
		t.Fatalf("run returned before listening: %v\n%s", err, logs.String())
	}
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	script = strings.ReplaceAll(script, "localhost:8080", addr)

	// Links in the emails look the way the README shows them.
	link := regexp.MustCompile(`http://\S*<game id>#t=<seat token>`).FindString(script)
	if link == "" {
		t.Fatal("the walkthrough shows no move link with <game id> and <seat token>")
	}
	link = strings.ReplaceAll(link, addr, "localhost:8080") // the default base URL
	linkRE := regexp.MustCompile(strings.NewReplacer(regexp.QuoteMeta("<game id>"), `([A-Za-z0-9_]+)`,
		regexp.QuoteMeta("<seat token>"), `(\S+)`).Replace(regexp.QuoteMeta(link)))

	steps := readmeSteps(script)
	if len(steps) != 4 {
		t.Fatalf("%d steps in the walkthrough, the test knows 4", len(steps))
	}
	sh := startShell(t, ctx, bash)
	fill := func(step string, values map[string]string) string {
		t.Helper()
		for k, v := range values {
			step = strings.ReplaceAll(step, k, v)
		}
		if left := regexp.MustCompile(`<[a-z ]+>`).FindString(step); left != "" {
			t.Fatalf("the test cannot fill in %s in\n%s", left, step)
		}
		return step
	}
	waitEmail := func(addr string, n int) string {
		t.Helper()
		waitFor(t, func() bool { return len(printedEmails(&logs, addr)) >= n })
		return printedEmails(&logs, addr)[n-1]
	}

	// 1. A login email.
	if out := jsonValues(t, sh.run(fill(steps[0], nil))); len(out) != 1 || out[0]["status"] != "sent" {
		t.Fatalf("step 1 printed %v", out)
	}
	code := codeRE.FindStringSubmatch(waitEmail("ann@example.org", 1))
	if code == nil {
		t.Fatalf("no code in the login email:\n%s", logs.String())
	}
	// 2. The access token, kept in TOKEN.
	if out := jsonValues(t, sh.run(fill(steps[1], map[string]string{"<code from the email>": code[1]}))); len(out) != 0 {
		t.Fatalf("step 2 printed %v", out)
	}
	// 3. A game; Ann's invitation carries her move link.
	out := jsonValues(t, sh.run(fill(steps[2], nil)))
	if len(out) != 1 || out[0]["id"] == nil || out[0]["ply"] != 0.0 {
		t.Fatalf("step 3 printed %v", out)
	}
	move := linkRE.FindStringSubmatch(waitEmail("ann@example.org", 2))
	if move == nil {
		t.Fatalf("no link like %s in Ann's invitation:\n%s", link, logs.String())
	}
	gameID, ann := move[1], move[2]
	base := "http://" + addr + "/v1/games/" + gameID
	// The illegal turn of the README's example, at the same point.
	checkIllegalExample(t, section, base, ann)
	// 4. White's turn, and Bob's email that it is his.
	out = jsonValues(t, sh.run(fill(steps[3], map[string]string{"<game id>": gameID, "<seat token>": ann})))
	if len(out) != 2 || out[0]["moves"] == nil {
		t.Fatalf("step 4 printed %v", out)
	}
	if game, _ := out[1]["game"].(map[string]any); game == nil || game["ply"] != 1.0 {
		t.Fatalf("step 4's turn answered %v", out[1])
	}
	if yourTurn := waitEmail("bob@example.org", 2); !strings.Contains(yourTurn, "your turn") {
		t.Errorf("Bob's second email is not his turn:\n%s", yourTurn)
	}
}

// checkIllegalExample submits the turn the README names before its example
// of a 422 answer and compares every member the example shows.
func checkIllegalExample(t *testing.T, section, gameURL, token string) {
	t.Helper()
	turn := regexp.MustCompile("for example, White's turn `([^`]+)` gets:").FindStringSubmatch(section)
	if turn == nil {
		t.Fatal("the README names no turn for its example of an illegal turn")
	}
	example := strings.TrimSpace(fenced(t, section, "json"))
	example = strings.Replace(example, ", ...}", "}", 1) // the README leaves the other members out
	var want map[string]any
	if err := json.Unmarshal([]byte(example), &want); err != nil {
		t.Fatalf("the README's example is not JSON once \", ...\" is gone: %v\n%s", err, example)
	}
	body, _ := json.Marshal(map[string]any{"turn": turn[1], "ply": 0})
	req, _ := http.NewRequestWithContext(t.Context(), "POST", gameURL+"/turns", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got map[string]any
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("%s: status %d, the README says 422: %v", turn[1], res.StatusCode, got)
	}
	for k, v := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(t, v) {
			t.Errorf("%s: %s is %s, the README says %s", turn[1], k, g, mustJSON(t, v))
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every lesspost command line in "Running in production" names a command
// and flags this binary has, and every metric it lists is one the server
// exports.
func TestReadmeProductionCommands(t *testing.T) {
	section := readmeSection(t, "Running in production")
	commands := map[string]*flag.FlagSet{
		"serve":   newFlagSet(&Config{}),
		"migrate": migrateFlags(new(string)),
		"backup":  backupFlags(&backupOptions{}),
	}
	flagRE := regexp.MustCompile(`(?:^|\s)--?([a-z][a-z-]*)`)
	found := 0
	for line := range strings.Lines(section) {
		line = strings.Trim(line, " \n`-")
		if !strings.HasPrefix(line, "lesspost ") {
			continue
		}
		found++
		args := strings.Fields(line)[1:]
		name := "serve"
		if _, ok := commands[args[0]]; ok {
			name = args[0]
		}
		for _, m := range flagRE.FindAllStringSubmatch(strings.Join(args, " "), -1) {
			if commands[name].Lookup(m[1]) == nil {
				t.Errorf("README: lesspost %s has no flag --%s: %s", name, m[1], line)
			}
		}
	}
	if found < 2 {
		t.Errorf("found %d lesspost command lines in the section, want the migrate and backup examples", found)
	}
	// Flags named in the text, such as `--trusted-proxies 1`, exist too.
	for _, m := range regexp.MustCompile("`--([a-z-]+)").FindAllStringSubmatch(section, -1) {
		if commands["serve"].Lookup(m[1]) == nil && commands["backup"].Lookup(m[1]) == nil {
			t.Errorf("README names --%s, which no command has", m[1])
		}
	}
	exported := exportedMetrics(t)
	for _, m := range regexp.MustCompile("`(lesspost_[a-z_]+)").FindAllStringSubmatch(section, -1) {
		if !exported[m[1]] {
			t.Errorf("README names the metric %s, which the server does not export", m[1])
		}
	}
}

// exportedMetrics names the metric families the server exports once each
// of its hooks has been called.
func exportedMetrics(t *testing.T) map[string]bool {
	t.Helper()
	m := metrics.New(openTestDB(t), time.Now, slog.New(slog.DiscardHandler))
	m.ObserveRequest("/healthz", "GET", http.StatusOK, time.Millisecond)
	m.MailSent()
	m.MailFailed(true)
	m.SchedulerPass()
	m.SchedulerActed("game", 1)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	names := map[string]bool{}
	for line := range strings.Lines(rec.Body.String()) {
		if name, ok := strings.CutPrefix(line, "# TYPE "); ok {
			names[strings.Fields(name)[0]] = true
		}
	}
	return names
}
