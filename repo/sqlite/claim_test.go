package sqlite

import (
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// testClaimant claims mail in tests that deliver as one worker.
const testClaimant = "test"

const testLease = 5 * time.Minute

// claimAll claims every claimable mail for testClaimant.
func claimAll(t *testing.T, db *DB, now time.Time) []domain.OutboxMail {
	t.Helper()
	_, mail := claim(t, db, testClaimant, now, 1000)
	return mail
}

// claim claims up to limit mails and lists them as "kind email" strings.
func claim(t *testing.T, db *DB, claimant string, now time.Time, limit int) (string, []domain.OutboxMail) {
	t.Helper()
	mail, err := db.ClaimMail(t.Context(), claimant, now, testLease, limit)
	if err != nil {
		t.Fatalf("ClaimMail %s: %v", claimant, err)
	}
	var out []string
	for _, m := range mail {
		out = append(out, string(m.Notice.Kind)+" "+m.Email)
	}
	return strings.Join(out, "|"), mail
}
