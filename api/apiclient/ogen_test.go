package apiclient_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// ogenVersion is the ogen the contract is proven with.
const ogenVersion = "v1.24.0"

// ogenSkips are the operations ogen leaves out, and why: the pages of an
// email's "turn reminders back on" and "never email me" buttons post an
// empty HTML form, which ogen cannot type yet ("complex form schema"); no
// app calls them.
var ogenSkips = []string{"resubscribe", "neverEmail"}

// The contract generates a Go client with ogen, as strict a generator as
// there is, and the client builds and vets: names that collide (a
// security scheme and a schema, an inline enum and a variant's constant)
// or a construct it cannot take fail here, not in an app developer's
// build. oapi-codegen (this package) and openapi-typescript (api/tsclient)
// are proven by their own tests. ogen comes from the Go module proxy into a
// module of its own, so that the repository's go.mod does not carry it;
// without the proxy the test skips, loudly, except under CI.
func TestOgenGeneratesAndCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ogen and its client: not in -short")
	}
	spec, err := filepath.Abs(filepath.Join("..", "..", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module lesspost.test/ogenclient\n\ngo 1.26\n")
	write("ogen.yml", "generator:\n  ignore_not_implemented: [\"complex form schema\"]\n")
	goCmd := func(args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		return cmd.CombinedOutput()
	}
	if out, err := goCmd("get", "github.com/ogen-go/ogen@"+ogenVersion); err != nil {
		unavailable(t, "go get ogen %s: %v\n%s", ogenVersion, err, out)
	}
	out, err := goCmd("run", "github.com/ogen-go/ogen/cmd/ogen", "-config", "ogen.yml", "-clean",
		"-package", "lessclient", "-target", "lessclient", spec)
	if err != nil {
		t.Fatalf("ogen %s cannot generate from openapi.yaml: %v\n%s", ogenVersion, err, errorLines(out))
	}
	for _, step := range [][]string{{"mod", "tidy"}, {"build", "./..."}, {"vet", "./..."}} {
		if out, err := goCmd(step...); err != nil {
			t.Fatalf("go %s of the client ogen generated: %v\n%s", strings.Join(step, " "), err, out)
		}
	}

	// Every operation is in the client but those ogen cannot take.
	client, err := os.ReadFile(filepath.Join(dir, "lessclient", "oas_client_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range c.Doc.Paths.Map() {
		for _, op := range item.Operations() {
			id := []rune(op.OperationID)
			id[0] = unicode.ToUpper(id[0])
			has := bytes.Contains(client, []byte("func (c *Client) "+string(id)+"(ctx context.Context"))
			if skip := slices.Contains(ogenSkips, op.OperationID); has == skip {
				t.Errorf("%s: in ogen's client %v, want %v", op.OperationID, has, !skip)
			}
		}
	}
}

// errorLines keeps what ogen says of its failure, not its warnings.
func errorLines(out []byte) string {
	var b strings.Builder
	for line := range strings.Lines(string(out)) {
		if !regexp.MustCompile(`^(WARN|INFO|DEBUG)\b`).MatchString(line) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// unavailable skips the test, loudly, for want of what it needs, except
// under CI, which promises that the contract was proven with ogen.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	why := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI must prove the contract with ogen: %s", why)
	}
	t.Skipf("SKIPPED: the ogen client test: %s", why)
}
