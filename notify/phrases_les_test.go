package notify

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"text/template"
)

// lesPhraseData has every placeholder a Les phrase uses; the numbers come
// as 0, 1 and 2, so that every branch runs.
func lesPhraseData(p *lesPhrases, n int) map[string]any {
	return map[string]any{
		"Setter": "Anna", "Chooser": "Bob", "Name": "Anna", "Side": 9, "Points": 217, "Rows": 17,
		"Color": p.Colors[0], "Stones": p.Colors[0] + " e5, " + p.Colors[1] + " e6", "Ply": "d4:k12",
		"Margin": max(n, 1), "Winner": p.Colors[0], "Loser": p.Colors[1], "More": 2, "Fewer": n,
		"Count": n, "Win": 5, "Lose": 3, "List": "5 (13), 2 (8)", "Deadline": "2025-03-01 18:00 UTC",
	}
}

// lesPhraseFields are the template fields of lesPhrases: every string field.
func lesPhraseFields() []reflect.StructField {
	var fields []reflect.StructField
	typ := reflect.TypeOf(lesPhrases{})
	for i := range typ.NumField() {
		if f := typ.Field(i); f.Type.Kind() == reflect.String {
			fields = append(fields, f)
		}
	}
	return fields
}

func TestLesPhrasesEveryLocale(t *testing.T) {
	fields := lesPhraseFields()
	if len(fields) < 20 {
		t.Fatalf("lesPhrases has %d string fields", len(fields))
	}
	for _, l := range languages {
		if lesCatalog[l] == nil {
			t.Errorf("locale %q has no Les phrases", l)
		}
	}
	en := reflect.ValueOf(*lesPhrasesFor("en"))
	for locale, p := range lesCatalog {
		v := reflect.ValueOf(*p)
		for _, f := range fields {
			phrase := v.FieldByIndex(f.Index).String()
			tmpl, err := template.New(f.Name).Option("missingkey=error").Funcs(phraseFuncs).Parse(phrase)
			if err != nil || strings.TrimSpace(phrase) == "" {
				t.Errorf("%s.%s = %q: %v", locale, f.Name, phrase, err)
				continue
			}
			for n := range 3 {
				var b strings.Builder
				if err := tmpl.Execute(&b, lesPhraseData(p, n)); err != nil || strings.TrimSpace(b.String()) == "" {
					t.Errorf("%s.%s (n=%d) = %q: %v", locale, f.Name, n, b.String(), err)
				}
			}
			want := placeholders(t, en.FieldByIndex(f.Index).String())
			if got := placeholders(t, phrase); !slices.Equal(got, want) {
				t.Errorf("%s.%s uses %v, English uses %v", locale, f.Name, got, want)
			}
		}
		for _, s := range append(p.Colors[:], p.Seats[:]...) {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: an empty colour or seat name", locale)
			}
		}
	}
}
