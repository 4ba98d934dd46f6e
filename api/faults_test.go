package api_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/repo/repotest"
)

// On a full disk a change is answered 503 unavailable with Retry-After
// (it was 500 internal), and /readyz turns to 503 though reads still work;
// once a few MB are free, both work again by themselves.
func TestFullDiskIsUnavailable(t *testing.T) {
	repotest.SQLiteOnly(t, "fills the disk of the SQLite file")
	disk := repotest.SmallDisk(t, 16<<20)
	h := newHarnessAt(t, repotest.PathIn(t, disk), func(c *api.Config) {
		many := api.RateLimit{Requests: 1_000_000, Per: time.Hour}
		c.RateLimits.CreateGameAccount, c.RateLimits.CreateGameIP = many, many
	})
	organiser := h.login("org@example.org")
	n := 0
	create := func() response {
		n++ // new players each time: an address gets 50 emails a day that others caused
		return h.do("POST", "/v1/games", organiser, map[string]any{
			"players": []map[string]any{{"name": "Ann", "email": fmt.Sprintf("ann%d@example.org", n)},
				{"name": "Bob", "email": fmt.Sprintf("bob%d@example.org", n)}},
			"board": map[string]any{"walls": strings.Repeat("0", 60)},
		})
	}
	create().want(t, http.StatusCreated)
	// More than the WAL's limit (4 MiB) to free later; the rest filled.
	spare := filepath.Join(disk, "spare")
	if err := os.WriteFile(spare, make([]byte, 6<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	repotest.Fill(t, filepath.Join(disk, "filler"))

	r := create()
	for i := 0; r.status == http.StatusCreated && i < 1000; i++ {
		r = create()
	}
	r.want(t, http.StatusServiceUnavailable, "unavailable")
	if got := r.header.Get("Retry-After"); got != "5" {
		t.Errorf("Retry-After %q, want 5", got)
	}
	h.do("GET", "/v1/me", organiser, nil).want(t, http.StatusOK)
	h.do("GET", "/readyz", "", nil).want(t, http.StatusServiceUnavailable, "not_ready")

	if err := os.Remove(spare); err != nil {
		t.Fatal(err)
	}
	h.do("GET", "/readyz", "", nil).want(t, http.StatusOK)
	create().want(t, http.StatusCreated)
}
