package api

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/catalog"
)

// pageTournament is a double round robin of three players after two
// rounds: A beat B by 4, B and C drew, A forfeited against C (A withdrew),
// then B beat A by 2, and C and B both forfeited (both withdrew)… as the
// domain records them.
func pageTournament() *tournaments.Tournament {
	t := &tournaments.Tournament{ID: "t_x", Name: "Cup", Format: tournaments.DoubleRoundRobin, Status: tournaments.TournamentRunning,
		Entrants: []tournaments.Entrant{{Player: games.Player{Name: "A"}}, {Player: games.Player{Name: "B"}}, {Player: games.Player{Name: "C"}}}}
	game := func(round, w, b int, score float64, margin int, forfeit bool) tournaments.TournamentGame {
		return tournaments.TournamentGame{Pairing: tournaments.Pairing{White: w, Black: b}, GameID: "g",
			Outcome: &tournaments.PairingResult{Round: round, White: w, Black: b, Score: score, Margin: margin, Forfeit: forfeit}}
	}
	t.Rounds = []tournaments.Round{
		{Number: 1, Status: tournaments.RoundClosed, Games: []tournaments.TournamentGame{game(1, 0, 1, 1, 4, false)}},
		{Number: 2, Status: tournaments.RoundClosed, Games: []tournaments.TournamentGame{game(2, 1, 2, 0.5, 0, false)}},
		{Number: 3, Status: tournaments.RoundClosed, Games: []tournaments.TournamentGame{game(3, 0, 2, 0, -10, true)}},
		{Number: 4, Status: tournaments.RoundClosed, Games: []tournaments.TournamentGame{game(4, 1, 0, 1, 2, false)}},
		{Number: 5, Status: tournaments.RoundClosed, Games: []tournaments.TournamentGame{game(5, 2, 1, 0, 0, true)}},
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
	// A game nobody moved in says so; once the organiser sets its result,
	// that result.
	unplayed := tour.Rounds[4].Games[0]
	unplayed.Unplayed = true
	if g := buildPageGame(tour, 5, unplayed, nil, tr); g.Score+" "+g.Detail != "0–0 no move by the deadline: a double forfeit" {
		t.Errorf("an unplayed game: %q", g.Score+" "+g.Detail)
	}
	unplayed.Overridden, unplayed.Outcome = true, &tournaments.PairingResult{Round: 5, White: 2, Black: 1, Score: 1, Margin: 5}
	if g := buildPageGame(tour, 5, unplayed, nil, tr); g.Score+" "+g.Detail != "1–0 C wins by 5" {
		t.Errorf("an unplayed game whose result the organiser set: %q", g.Score+" "+g.Detail)
	}
	bye := buildPageGame(tour, 1, tournaments.TournamentGame{Pairing: tournaments.Pairing{White: 0, Black: tournaments.Bye},
		Outcome: &tournaments.PairingResult{Round: 1, White: 0, Black: tournaments.Bye, Score: 1}}, nil, tr)
	if bye.Black != "" || bye.Detail != "a bye: 1 point" || bye.WatchLabel != "" {
		t.Errorf("bye %+v", bye)
	}
}

// Every language has every phrase: an empty one would leave a hole in the page.
func TestPagePhrasesComplete(t *testing.T) {
	for _, l := range catalog.Shipped().Languages() {
		p, ok := pageLanguages[l]
		if !ok {
			t.Fatalf("no phrases for %s", l)
		}
		for name, s := range phraseFields(p) {
			if s == "" {
				t.Errorf("%s: %s is empty", l, name)
			}
		}
		for _, f := range []tournaments.Format{tournaments.RoundRobin, tournaments.DoubleRoundRobin, tournaments.Swiss} {
			if p.Formats[f] == "" {
				t.Errorf("%s: no words for %s", l, f)
			}
		}
		for _, st := range []tournaments.TournamentStatus{tournaments.TournamentScheduled, tournaments.TournamentRunning, tournaments.TournamentFinished, tournaments.TournamentCancelled} {
			if p.Statuses[st] == "" {
				t.Errorf("%s: no words for %s", l, st)
			}
		}
		for _, st := range []tournaments.RoundStatus{tournaments.RoundPending, tournaments.RoundRunning, tournaments.RoundClosed} {
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

// knockoutPage is a knockout of five after its first round: seeds 1–3
// had byes, seeds 4 and 5 drew and seed 5 won the deciding game; the
// semi-finals are being played.
func knockoutPage(t *testing.T) *tournaments.Tournament {
	t.Helper()
	var ps []games.Player
	for _, n := range []string{"Ann", "Bob", "Cy", "Dee", "Eve"} {
		ps = append(ps, games.Player{Name: n, Email: strings.ToLower(n) + "@example.org"})
	}
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.Knockout, Players: ps,
		FirstStart: start, Interval: 72 * time.Hour}, "t_k", 1, start.Add(-time.Hour), 9)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := tour.StartRound(start)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Games {
		if g := &r.Games[i]; g.Outcome == nil {
			g.GameID = "g_1"
			g.Outcome = &tournaments.PairingResult{Round: 1, White: g.White, Black: g.Black, Score: 0.5}
		}
	}
	r.Games = append(r.Games, tournaments.TournamentGame{Pairing: tournaments.Pairing{White: 4, Black: 3}, GameID: "g_2", Decider: true,
		Outcome: &tournaments.PairingResult{Round: 1, White: 4, Black: 3, Score: 1, Margin: 5}})
	if err := tour.CloseRound(start.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tour.StartRound(tour.Rounds[1].Start); err != nil {
		t.Fatal(err)
	}
	return &tour
}

// The bracket: every round by name, byes, a match with its points and its
// deciding game, who went through, and the slots still to be decided;
// the standings say how far each went.
func TestPageBracket(t *testing.T) {
	tour := knockoutPage(t)
	tr := pageLanguages["en"]
	v := buildPageView(tour, map[string]games.Game{}, tr)
	type slot struct {
		name   string
		seed   int
		points string
		won    bool
	}
	show := func(s pageSlot) slot { return slot{s.Name + s.Placeholder, s.Seed, s.Points, s.Won} }
	var titles []string
	for _, r := range v.Bracket {
		titles = append(titles, r.Title)
	}
	if strings.Join(titles, ", ") != "Quarter-finals, Semi-finals, Final" {
		t.Fatalf("rounds %v", titles)
	}
	tests := []struct {
		round, match int
		number       int
		top, bottom  slot
		games        []string
		note         string
	}{
		{0, 0, 1, slot{"Ann", 1, "", true}, slot{"bye", 0, "", false}, nil, tr.ByeThrough},
		{0, 1, 2, slot{"Dee", 4, "½", false}, slot{"Eve", 5, "½", true}, []string{"draw", "Deciding game · Eve wins by 5"}, ""},
		{1, 0, 5, slot{"Ann", 1, "", false}, slot{"Eve", 5, "", false}, []string{"in progress"}, ""},
		{2, 0, 7, slot{"Winner of match 5", 0, "", false}, slot{"Winner of match 6", 0, "", false}, nil, ""},
	}
	for _, tt := range tests {
		m := v.Bracket[tt.round].Matches[tt.match]
		var games []string
		for _, g := range m.Games {
			games = append(games, g.Detail)
		}
		if m.Number != tt.number || show(m.Slots[0]) != tt.top || show(m.Slots[1]) != tt.bottom || !reflect.DeepEqual(games, tt.games) || m.Note != tt.note {
			t.Errorf("round %d match %d: #%d %+v – %+v, games %q, note %q; want #%d %+v – %+v, %q, %q", tt.round+1, tt.match+1,
				m.Number, show(m.Slots[0]), show(m.Slots[1]), games, m.Note, tt.number, tt.top, tt.bottom, tt.games, tt.note)
		}
	}
	places := map[string]string{}
	for _, s := range v.Standings {
		places[s.Name] = fmt.Sprintf("%d %s", s.Rank, s.Tiebreak)
	}
	// Those still in rank above the one out.
	want := map[string]string{"Ann": "1 still in", "Bob": "1 still in", "Cy": "1 still in", "Eve": "1 still in", "Dee": "5 Quarter-finals"}
	if !reflect.DeepEqual(places, want) {
		t.Errorf("out in %v, want %v", places, want)
	}
	if v.RankingNote != tr.KnockoutRankingNote || v.Tiebreak.Abbr != tr.Reached {
		t.Errorf("ranking note %q, column %q: want the knockout's", v.RankingNote, v.Tiebreak.Abbr)
	}
}

// The log in the reader's language, from the facts each entry keeps; an
// entry stored before they were kept shows its English line, marked so.
func TestPageLogLanguages(t *testing.T) {
	tour := pageTournament()
	tour.Log = []tournaments.LogEntry{
		{Action: tournaments.ActionPaused, By: tournaments.ByOrganiser, Detail: "the tournament is paused: no deadline runs"},
		{Action: tournaments.ActionRoundPostponed, By: tournaments.ByOrganiser, Detail: "round 2 was postponed by 2 days: it starts 2026-03-03 12:00 UTC",
			Args: &tournaments.LogArgs{Round: 2, For: 48 * time.Hour, At: time.Date(2026, 3, 3, 12, 0, 0, 0, time.UTC)}, Reason: "Ferien"},
		{Action: tournaments.ActionSeedsSet, By: tournaments.ByScheduler, Args: &tournaments.LogArgs{Kind: tournaments.LogRandom, Players: []string{"B", "A"}}},
	}
	tests := []struct {
		lang    string
		details []string // newest first
		english []bool
	}{
		{"de", []string{"die Setzliste wurde ausgelost: 1. B, 2. A", "Runde 2 wurde um 2 Tage verschoben: sie beginnt 2026-03-03 12:00 UTC",
			"the tournament is paused: no deadline runs"}, []bool{false, false, true}},
		{"fr", []string{"les têtes de série ont été tirées au sort\u00a0: 1. B, 2. A", "la ronde 2 a été reportée de 2 jours\u00a0: elle commence le 2026-03-03 12:00 UTC",
			"the tournament is paused: no deadline runs"}, []bool{false, false, true}},
		{"en", []string{"the seeds were drawn at random: 1. B, 2. A", "round 2 was postponed by 2 days: it starts 2026-03-03 12:00 UTC",
			"the tournament is paused: no deadline runs"}, []bool{false, false, false}},
	}
	for _, tt := range tests {
		var details []string
		var english []bool
		for _, e := range buildPageLog(tour, signupLanguages[tt.lang], tt.lang) {
			details = append(details, e.Detail)
			english = append(english, e.English)
		}
		if !reflect.DeepEqual(details, tt.details) || !reflect.DeepEqual(english, tt.english) {
			t.Errorf("%s: %q (English %v), want %q (%v)", tt.lang, details, english, tt.details, tt.english)
		}
	}
}

// Every language words every line the domain logs, with the placeholders
// the English one has.
func TestLogPhrasesComplete(t *testing.T) {
	placeholder := regexp.MustCompile(`\{[a-z0-9]+\}`)
	for _, lang := range catalog.Shipped().Languages() {
		words, ok := logLanguages[lang]
		if !ok {
			t.Errorf("no log words in %s", lang)
			continue
		}
		for key, en := range tournaments.LogEnglish {
			line, ok := words.Lines[key]
			want := placeholder.FindAllString(en, -1)
			got := placeholder.FindAllString(line, -1)
			slices.Sort(want)
			slices.Sort(got)
			if !ok || !slices.Equal(slices.Compact(got), slices.Compact(want)) {
				t.Errorf("%s %s: %q, want the placeholders of %q", lang, key, line, en)
			}
		}
		if len(words.Lines) != len(tournaments.LogEnglish) {
			t.Errorf("%s has %d log lines, English %d", lang, len(words.Lines), len(tournaments.LogEnglish))
		}
	}
}

// Before the start the bracket is drawn from the seeds as they stand: the
// names, or, when the seeds are to be drawn at random, the seeds alone.
func TestPageBracketBeforeTheStart(t *testing.T) {
	tr := pageLanguages["en"]
	for _, seeding := range []tournaments.Seeding{tournaments.SeedingEntry, tournaments.SeedingRandom} {
		tour := &tournaments.Tournament{ID: "t_k", Format: tournaments.Knockout, Status: tournaments.TournamentScheduled, Seeding: seeding,
			Entrants: []tournaments.Entrant{{Player: games.Player{Name: "Ann"}}, {Player: games.Player{Name: "Bob"}}, {Player: games.Player{Name: "Cy"}}}}
		v := buildPageView(tour, nil, tr)
		if len(v.Bracket) != 2 {
			t.Fatalf("%s: %d rounds, want 2", seeding, len(v.Bracket))
		}
		var slots []string
		for _, m := range v.Bracket[0].Matches {
			for _, s := range m.Slots {
				slots = append(slots, s.Name+s.Placeholder)
			}
		}
		want, note := "Ann bye Bob Cy", ""
		if seeding == tournaments.SeedingRandom {
			want, note = "Seed 1 bye Seed 2 Seed 3", tr.SeedsDrawnNote
		}
		if got := strings.Join(slots, " "); got != want || v.BracketNote != note {
			t.Errorf("%s: round 1 %q, note %q; want %q, %q", seeding, got, v.BracketNote, want, note)
		}
		if final := v.Bracket[1].Matches[0]; final.Slots[0].Placeholder != "Winner of match 1" || final.Slots[1].Placeholder != "Winner of match 2" {
			t.Errorf("%s: the final %+v", seeding, final.Slots)
		}
	}
}
