package api

import (
	"maps"
	"testing"

	"github.com/lesspost/lesspost/domain/tournaments"
)

// The catalogue's English log lines and units are domain's, which write a
// log entry's stored detail: a wording changed in one place only fails here.
func TestLogEnglishIsDomains(t *testing.T) {
	en := logLanguages["en"]
	if !maps.Equal(en.Lines, tournaments.LogEnglish) {
		for key, want := range tournaments.LogEnglish {
			if got := en.Lines[key]; got != want {
				t.Errorf("log.lines.%s = %q, domain says %q", key, got, want)
			}
		}
		t.Errorf("the catalogue has %d English log lines, domain %d", len(en.Lines), len(tournaments.LogEnglish))
	}
	if en.Units != tournaments.EnglishUnits {
		t.Errorf("log.units %+v, domain says %+v", en.Units, tournaments.EnglishUnits)
	}
}
