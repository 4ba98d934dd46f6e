package notify

import (
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"text/template"
	"text/template/parse"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/internal/catalog"
)

// phraseData is data with every placeholder any phrase uses. The numbers
// come as 1 and 2, so that singular and plural branches both run.
func phraseData(p *phrases, n int, earlyStop bool) map[string]any {
	return map[string]any{
		"Game": "Less", "Name": "Anna", "Color": p.Colors[0], "Players": "Anna – Bob", "Short": "abc123", "Code": "123456",
		"Preset": "classic", "MaxTurns": 40, "EarlyStop": earlyStop, "ToMove": p.Colors[1], "Ply": n,
		"Turn": "e5e4:f5f3:e6e5", "Counts": p.Colors[0] + " 9, " + p.Colors[1] + " 9", "Deadline": "2025-03-01 18:00 UTC", "Timeout": p.TimeoutLoses, "Round": 2,
		"Result": p.Draw, "Side": p.Teams[0], "Opponent": "Bob", "Margin": n, "Total": 31, "Count": 28, "Needed": n,
		"Example": "e5e4:e4d4:d4c4", "From": "eve@example.org", "Rule": "blocked", "RuleRef": "M2", "Part": n - 1, "Reason": "stale_ply",
		"URL": "https://hooks.example.org/lesspost", "ID": 7, "Pieces": "W B", "Targets": "w b", "Names": p.Colors[0] + ", " + p.Colors[1],
		"Minutes": n, "Team": p.Teams[0], "Partner": "Wim (" + p.Colors[2] + ")", "Others": "Bea and Rae", "A": "Bea", "B": "Rae",
	}
}

// phraseFields are the template fields of phrases: every string field.
func phraseFields(t *testing.T) []reflect.StructField {
	t.Helper()
	var fields []reflect.StructField
	typ := reflect.TypeOf(phrases{})
	for i := range typ.NumField() {
		if f := typ.Field(i); f.Type.Kind() == reflect.String {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		t.Fatal("phrases has no string fields")
	}
	return fields
}

// placeholders are the data fields a template uses, e.g. [Margin Side].
func placeholders(t *testing.T, phrase string) []string {
	t.Helper()
	tmpl, err := template.New("phrase").Funcs(phraseFuncs).Parse(phrase)
	if err != nil {
		t.Fatalf("parse %q: %v", phrase, err)
	}
	seen := map[string]bool{}
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case nil:
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.ChainNode:
			walk(n.Node)
		case *parse.FieldNode:
			seen[n.Ident[0]] = true
		case *parse.VariableNode:
			if len(n.Ident) > 1 && n.Ident[0] == "$" {
				seen[n.Ident[1]] = true
			}
		}
	}
	for _, tree := range tmpl.Templates() {
		walk(tree.Root)
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func TestPhrasesEveryLocale(t *testing.T) {
	for _, l := range languages {
		if mailPhrases[l] == nil {
			t.Errorf("locale %q has no phrases", l)
		}
	}
	for locale, p := range mailPhrases {
		v := reflect.ValueOf(*p)
		for _, f := range phraseFields(t) {
			phrase := v.FieldByIndex(f.Index).String()
			if strings.TrimSpace(phrase) == "" {
				t.Errorf("%s.%s is empty", locale, f.Name)
				continue
			}
			tmpl, err := template.New(f.Name).Option("missingkey=error").Funcs(phraseFuncs).Parse(phrase)
			if err != nil {
				t.Errorf("%s.%s: %v", locale, f.Name, err)
				continue
			}
			for _, n := range []int{1, 2} {
				for _, early := range []bool{false, true} {
					var b strings.Builder
					if err := tmpl.Execute(&b, phraseData(p, n, early)); err != nil {
						t.Errorf("%s.%s (n=%d, early stop %v): %v", locale, f.Name, n, early, err)
					} else if strings.TrimSpace(b.String()) == "" {
						t.Errorf("%s.%s (n=%d, early stop %v) says nothing", locale, f.Name, n, early)
					}
				}
			}
		}
		for i, c := range p.Colors {
			if strings.TrimSpace(c) == "" {
				t.Errorf("%s.Colors[%d] is empty", locale, i)
			}
		}
		for i, team := range p.Teams {
			if strings.TrimSpace(team) == "" {
				t.Errorf("%s.Teams[%d] is empty", locale, i)
			}
		}
	}
}

func TestPhrasesSamePlaceholders(t *testing.T) {
	en := reflect.ValueOf(*phrasesFor("en"))
	for locale, p := range mailPhrases {
		v := reflect.ValueOf(*p)
		for _, f := range phraseFields(t) {
			want := placeholders(t, en.FieldByIndex(f.Index).String())
			got := placeholders(t, v.FieldByIndex(f.Index).String())
			if !slices.Equal(got, want) {
				t.Errorf("%s.%s uses %v, English uses %v", locale, f.Name, got, want)
			}
		}
	}
}

// TestPhrasesSubject keeps what tells a player's games apart in every
// subject line.
func TestPhrasesSubject(t *testing.T) {
	for locale, p := range mailPhrases {
		for _, part := range []string{"{{.Players}}", "[{{.Short}}]"} {
			if !strings.Contains(p.SubjectGame, part) {
				t.Errorf("%s.SubjectGame %q lacks %s", locale, p.SubjectGame, part)
			}
		}
	}
}

// TestPhrasesRender fills every phrase of every locale the way the
// renderer does, through say, which panics on a bad phrase.
func TestPhrasesRender(t *testing.T) {
	for locale, p := range mailPhrases {
		for _, size := range []int{6, 8} {
			for _, s := range []less.Side{less.SideWhite, less.SideBlack} {
				side := p.side(s, size)
				if side == "" {
					t.Errorf("%s: side %v of a %dx%d game has no name", locale, s, size, size)
				}
				got := say(p.Win, map[string]any{"Side": side, "Margin": 1})
				if !strings.Contains(got, side) {
					t.Errorf("%s.Win = %q, lacks %q", locale, got, side)
				}
			}
		}
	}
}

// A sixth language is one file: testdata's pt.toml fills the mails' table
// with its few words and English for the rest.
func TestASixthLanguagesMails(t *testing.T) {
	en, err := os.ReadFile("../internal/catalog/locales/en.toml")
	if err != nil {
		t.Fatal(err)
	}
	pt, err := os.ReadFile("../internal/catalog/testdata/pt.toml")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(fstest.MapFS{"en.toml": {Data: en}, "pt.toml": {Data: pt}})
	if err != nil {
		t.Fatal(err)
	}
	tables := catalog.Tables[phrases](cat, cat.Languages(), "mail.")
	if got := say(tables["pt"].Greeting, map[string]any{"Name": "Ana"}); got != "Olá Ana," {
		t.Errorf("pt greeting %q", got)
	}
	if got, want := tables["pt"].LoginIntro, mailPhrases["en"].LoginIntro; got != want || got == "" {
		t.Errorf("pt login intro %q, want English %q", got, want)
	}
}
