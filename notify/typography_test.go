package notify

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/lesspost/lesspost/internal/typography"
)

var jsonInText = regexp.MustCompile(`\{"[^}]*\}`)

// Every French phrase of the emails has its no-break spaces before : ; ? !
// and inside « », as the pages do (one rule book: internal/typography).
func TestFrenchTypography(t *testing.T) {
	tables := map[string]any{"phrases": *mailPhrases["fr"], "tournament": *tournamentPhrasesFor("fr")}
	for name, table := range tables {
		v := reflect.ValueOf(table)
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() != reflect.String {
				continue
			}
			// JSON in a phrase ({"enabled": true}) is code, not French.
			text := jsonInText.ReplaceAllString(f.String(), "{}")
			if faults := typography.FrenchFaults(text); len(faults) > 0 {
				t.Errorf("%s.%s %q: no-break space missing %v", name, v.Type().Field(i).Name, f.String(), faults)
			}
		}
	}
}
