package api

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
)

// pageTournament is a double round robin of three players after two
// rounds: A beat B by 4, B and C drew, A forfeited against C (A withdrew),
// then B beat A by 2, and C and B both forfeited (both withdrew)… as the
// domain records them.
func pageTournament() *domain.Tournament {
	t := &domain.Tournament{ID: "t_x", Name: "Cup", Format: domain.DoubleRoundRobin, Status: domain.TournamentRunning,
		Entrants: []domain.Entrant{{Player: domain.Player{Name: "A"}}, {Player: domain.Player{Name: "B"}}, {Player: domain.Player{Name: "C"}}}}
	game := func(round, w, b int, score float64, margin int, forfeit bool) domain.TournamentGame {
		return domain.TournamentGame{Pairing: domain.Pairing{White: w, Black: b}, GameID: "g",
			Outcome: &domain.PairingResult{Round: round, White: w, Black: b, Score: score, Margin: margin, Forfeit: forfeit}}
	}
	t.Rounds = []domain.Round{
		{Number: 1, Status: domain.RoundClosed, Games: []domain.TournamentGame{game(1, 0, 1, 1, 4, false)}},
		{Number: 2, Status: domain.RoundClosed, Games: []domain.TournamentGame{game(2, 1, 2, 0.5, 0, false)}},
		{Number: 3, Status: domain.RoundClosed, Games: []domain.TournamentGame{game(3, 0, 2, 0, -10, true)}},
		{Number: 4, Status: domain.RoundClosed, Games: []domain.TournamentGame{game(4, 1, 0, 1, 2, false)}},
		{Number: 5, Status: domain.RoundClosed, Games: []domain.TournamentGame{game(5, 2, 1, 0, 0, true)}},
	}
	return t
}

func TestCrosstable(t *testing.T) {
	tour := pageTournament()
	ct := buildCrosstable(tour, tour.Standings())
	got := map[string]string{}
	for _, row := range ct.Rows {
		for j, c := range row.Cells {
			if !c.Self {
				got[row.Name+"-"+ct.Rows[j].Name] = c.Text + " | " + c.Detail
			}
		}
	}
	want := map[string]string{
		"A-B": "1 0 | 1 (+4), 0 (−2)",
		"B-A": "0 1 | 0 (−4), 1 (+2)",
		"B-C": "½ − | ½ (0), − (0)", // the double forfeit: neither scores
		"C-B": "½ − | ½ (0), − (0)",
		"A-C": "− | − (−10)",
		"C-A": "+ | + (+10)",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	if len(ct.Rows) != 3 || len(ct.Numbers) != 3 {
		t.Errorf("crosstable %+v", ct)
	}
}

func TestPageGameWords(t *testing.T) {
	tour := pageTournament()
	tr := pageLanguages["en"]
	cases := []struct {
		round int
		want  string
	}{
		{1, "1–0 A wins by 4"},
		{2, "½–½ draw"},
		{3, "0–1 C wins by 10 · forfeit"},
		{4, "1–0 B wins by 2"},
		{5, "0–0 forfeit"},
	}
	for _, c := range cases {
		g := buildPageGame(tour, c.round, tour.Rounds[c.round-1].Games[0], nil, tr)
		if got := strings.TrimSpace(g.Score + " " + g.Detail); got != c.want {
			t.Errorf("round %d: %q, want %q", c.round, got, c.want)
		}
	}
	bye := buildPageGame(tour, 1, domain.TournamentGame{Pairing: domain.Pairing{White: 0, Black: domain.Bye},
		Outcome: &domain.PairingResult{Round: 1, White: 0, Black: domain.Bye, Score: 1}}, nil, tr)
	if bye.Black != "" || bye.Detail != "a bye: 1 point" || bye.WatchLabel != "" {
		t.Errorf("bye %+v", bye)
	}
}

// Every language has every phrase: an empty one would leave a hole in the page.
func TestPagePhrasesComplete(t *testing.T) {
	for _, l := range domain.Locales {
		p, ok := pageLanguages[l]
		if !ok {
			t.Fatalf("no phrases for %s", l)
		}
		for name, s := range phraseFields(p) {
			if s == "" {
				t.Errorf("%s: %s is empty", l, name)
			}
		}
		for _, f := range []domain.Format{domain.RoundRobin, domain.DoubleRoundRobin, domain.Swiss} {
			if p.Formats[f] == "" {
				t.Errorf("%s: no words for %s", l, f)
			}
		}
		for _, st := range []domain.TournamentStatus{domain.TournamentScheduled, domain.TournamentRunning, domain.TournamentFinished, domain.TournamentCancelled} {
			if p.Statuses[st] == "" {
				t.Errorf("%s: no words for %s", l, st)
			}
		}
		for _, st := range []domain.RoundStatus{domain.RoundPending, domain.RoundRunning, domain.RoundClosed} {
			if p.RoundStatuses[st] == "" {
				t.Errorf("%s: no words for round %s", l, st)
			}
		}
	}
}

// phraseFields lists the string phrases of p by field name.
func phraseFields(p *pagePhrases) map[string]string {
	out := map[string]string{}
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String {
			out[v.Type().Field(i).Name] = f.String()
		}
	}
	return out
}
