package tournaments_test

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/tournaments"
)

// A logged duration says "1 day", not "1 days", in each language's units.
func TestLogDurationSingularAndPlural(t *testing.T) {
	german := tournaments.LogUnits{Day: "{{.n}} Tag", Days: "{{.n}} Tage", Hour: "{{.n}} Stunde", Hours: "{{.n}} Stunden"}
	cases := []struct {
		d     time.Duration
		units tournaments.LogUnits
		want  string
	}{
		{24 * time.Hour, tournaments.EnglishUnits, "1 day"},
		{48 * time.Hour, tournaments.EnglishUnits, "2 days"},
		{time.Hour, tournaments.EnglishUnits, "1 hour"},
		{36 * time.Hour, tournaments.EnglishUnits, "36 hours"},
		{24 * time.Hour, german, "1 Tag"},
		{72 * time.Hour, german, "3 Tage"},
		{time.Hour, german, "1 Stunde"},
		{5 * time.Hour, german, "5 Stunden"},
	}
	for _, c := range cases {
		if got := (tournaments.LogArgs{For: c.d}).Render("{{.for}}", c.units); got != c.want {
			t.Errorf("%v: %q, want %q", c.d, got, c.want)
		}
	}
}
