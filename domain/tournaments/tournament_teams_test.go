package tournaments_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// teamSpec is a team round robin of n teams: team i is Pi with Qi.
func teamSpec(n int) tournaments.NewTournamentSpec {
	spec := tournaments.NewTournamentSpec{Name: "Pairs", Format: tournaments.RoundRobin, Teams: true,
		Time:       games.TimeControl{Kind: games.TimePerTurn, PerTurn: day},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}
	for i := range n {
		spec.Players = append(spec.Players, games.Player{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@example.org", i)})
		spec.Partners = append(spec.Partners, games.Player{Name: fmt.Sprintf("Q%d", i), Email: fmt.Sprintf("q%d@example.org", i)})
	}
	return spec
}

// refused checks a case's error against the code it expects ("" for
// none): it reports whether the case was refused, as expected.
func refused(t *testing.T, err error, want string) bool {
	t.Helper()
	if want != "" {
		if domain.CodeOf(err) != want {
			t.Fatalf("got %v, want %s", err, want)
		}
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

func TestCreateTeamTournament(t *testing.T) {
	tests := []struct {
		name   string
		change func(*tournaments.NewTournamentSpec)
		code   string // "" when it is created
		titles []string
	}{
		{"teams named by their members", func(*tournaments.NewTournamentSpec) {}, "", []string{"P0 & Q0", "P1 & Q1", "P2 & Q2"}},
		{"a named team", func(s *tournaments.NewTournamentSpec) { s.TeamNames = []string{"", "Walls"} }, "", []string{"P0 & Q0", "Walls", "P2 & Q2"}},
		{"a player without a partner", func(s *tournaments.NewTournamentSpec) { s.Partners = s.Partners[:2] }, domain.CodeInvalidInput, nil},
		{"partners without teams", func(s *tournaments.NewTournamentSpec) { s.Teams = false }, domain.CodeInvalidInput, nil},
		{"his own partner", func(s *tournaments.NewTournamentSpec) { s.Partners[1].Email = "P1@example.org" }, domain.CodeDuplicateAddress, nil},
		{"a partner in two teams", func(s *tournaments.NewTournamentSpec) { s.Partners[2].Email = "q0@example.org" }, domain.CodeDuplicateAddress, nil},
		{"a partner who is another team's player", func(s *tournaments.NewTournamentSpec) { s.Partners[2].Email = "p0@example.org" }, domain.CodeDuplicateAddress, nil},
		{"a team name with a newline", func(s *tournaments.NewTournamentSpec) { s.TeamNames = []string{"A\nB"} }, domain.CodeInvalidInput, nil},
		{"more names than teams", func(s *tournaments.NewTournamentSpec) { s.TeamNames = make([]string, 4) }, domain.CodeInvalidInput, nil},
		{"Les has no team game", func(s *tournaments.NewTournamentSpec) { s.Ruleset = les.RulesetName }, tournaments.CodeTeamsUnsupported, nil},
		{"a 6x6 wall string", func(s *tournaments.NewTournamentSpec) { s.Params = map[string]string{"walls": "x"} }, domain.CodeInvalidInput, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := teamSpec(3)
			tt.change(&spec)
			tour, err := tournaments.CreateTournament(spec, "t_1", testCreator, t0, 100)
			if refused(t, err, tt.code) {
				return
			}
			var titles []string
			for _, e := range tour.Entrants {
				titles = append(titles, e.Title())
			}
			if !tour.Teams || !slices.Equal(titles, tt.titles) {
				t.Errorf("teams %v: %q", tour.Teams, titles)
			}
			// Four-player games: a pass on time, as four-player games have.
			if tour.Time.Timeout != games.TimeoutPass {
				t.Errorf("time-out policy %q", tour.Time.Timeout)
			}
		})
	}
}

// A pairing's game seats the White team on side 0 (Yellow and White) and
// the Black team on side 1 (Black and Red), on 8x8; either member finds
// his team, and the team's result is the side's.
func TestTeamGameSeatsAndStandings(t *testing.T) {
	tour, err := tournaments.CreateTournament(teamSpec(2), "t_1", testCreator, t0, 100)
	if err != nil {
		t.Fatal(err)
	}
	r, toPlay, err := tour.StartRound(t0.Add(time.Hour))
	if err != nil || len(toPlay) != 1 {
		t.Fatalf("%v, %v", toPlay, err)
	}
	p := r.Games[0].Pairing
	c, err := games.CreateGame(tour.GameSpec(r, 0), "g_1", testCreator, t0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	white, black := tour.Entrants[p.White], tour.Entrants[p.Black]
	want := map[string]string{"yellow": white.Email, "white": white.Partner.Email, "black": black.Email, "red": black.Partner.Email}
	var colors []string
	for _, s := range c.Game.Seats {
		colors = append(colors, s.Color)
		if want[s.Color] != s.Email {
			t.Errorf("%s: %s, want %s", s.Color, s.Email, want[s.Color])
		}
		side := 0
		if s.Color == "black" || s.Color == "red" {
			side = 1
		}
		if c.Game.Rules.Side(s.Color) != side {
			t.Errorf("%s plays for side %d", s.Color, c.Game.Rules.Side(s.Color))
		}
	}
	if !slices.Equal(colors, []string{"yellow", "black", "white", "red"}) {
		t.Errorf("seats %v", colors)
	}
	for _, email := range []string{white.Email, white.Partner.Email} {
		if i, ok := tour.EntrantOf(email); !ok || i != p.White {
			t.Errorf("EntrantOf(%s) = %d, %v", email, i, ok)
		}
	}
	r.Games[0].GameID = "g_1"
	if !tour.RecordResult("g_1", ruleset.Result{Reason: "complete", Winner: 1, Margin: 4}, t0.Add(2*time.Hour)) {
		t.Fatal("result not recorded")
	}
	st := tour.Standings()
	if len(st) != 2 || st[0].Player != p.Black || st[0].Points != 1 || st[0].Margins != 4 || st[1].Points != 0 {
		t.Errorf("standings %+v", st)
	}
}

// Either member withdraws the team; a partner corrected or replaced keeps
// the team, and neither member's address may be another team's.
func TestTeamEntrantChanges(t *testing.T) {
	now := t0.Add(time.Minute)
	tests := []struct {
		name string
		do   func(*tournaments.Tournament) error
		code string
		want func(*tournaments.Tournament) string // "" when as expected
	}{
		{"the partner withdraws the team", func(tour *tournaments.Tournament) error {
			i, ok := tour.EntrantOf("q1@example.org")
			if !ok {
				return errors.New("the partner finds no team")
			}
			_, err := tour.Withdraw(i, "", tournaments.ByPlayer("Q1"), "", now)
			return err
		}, "", func(tour *tournaments.Tournament) string {
			if _, in := tour.EntrantOf("p1@example.org"); in || len(tour.Entrants) != 2 {
				return "the team is still entered"
			}
			return ""
		}},
		{"the partner corrected", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Member: 1, Name: ptr("Quinn"), Email: ptr("quinn@example.org"), Correction: true}, false, now)
		}, "", func(tour *tournaments.Tournament) string {
			if e := tour.Entrants[1]; e.Partner.Email != "quinn@example.org" || e.Email != "p1@example.org" || e.Title() != "P1 & Quinn" {
				return fmt.Sprintf("%+v", e)
			}
			return ""
		}},
		{"a partner who plays for another team", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Member: 1, Name: ptr("P2"), Email: ptr("p2@example.org"), Correction: true}, false, now)
		}, tournaments.CodeAlreadyEntered, nil},
		{"a partner who is his team mate", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Member: 1, Name: ptr("P1"), Email: ptr("p1@example.org"), Correction: true}, false, now)
		}, domain.CodeDuplicateAddress, nil},
		{"a third member", func(tour *tournaments.Tournament) error {
			return tour.UpdateEntrant(1, tournaments.EntrantChange{Member: 2, Name: ptr("X"), Email: ptr("x@example.org"), Correction: true}, false, now)
		}, domain.CodeNotFound, nil},
		{"a team added", func(tour *tournaments.Tournament) error {
			_, err := tour.AddEntrant(tournaments.Entrant{Player: games.Player{Name: "Ann", Email: "ann@example.org"},
				Partner: &games.Player{Name: "Bob", Email: "bob@example.org"}, Team: "AB"}, "", now)
			return err
		}, "", func(tour *tournaments.Tournament) string {
			if e := tour.Entrants[3]; e.Title() != "AB" || len(e.Members()) != 2 {
				return fmt.Sprintf("%+v", e)
			}
			return ""
		}},
		{"a player added alone", func(tour *tournaments.Tournament) error {
			_, err := tour.AddEntrant(tournaments.Entrant{Player: games.Player{Name: "Ann", Email: "ann@example.org"}}, "", now)
			return err
		}, domain.CodeInvalidInput, nil},
		{"a team with an entered partner", func(tour *tournaments.Tournament) error {
			_, err := tour.AddEntrant(tournaments.Entrant{Player: games.Player{Name: "Ann", Email: "ann@example.org"},
				Partner: &games.Player{Name: "Q0", Email: "q0@example.org"}}, "", now)
			return err
		}, tournaments.CodeAlreadyEntered, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, err := tournaments.CreateTournament(teamSpec(3), "t_1", testCreator, t0, 100)
			if err != nil {
				t.Fatal(err)
			}
			err = tt.do(&tour)
			if refused(t, err, tt.code) {
				return
			}
			if msg := tt.want(&tour); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// A player signs his team up: his partner is mailed (the log entry of the
// join), and a player already entered as someone's partner cannot join.
func TestServiceJoinTeam(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	spec := teamSpec(0)
	spec.Registration = &tournaments.Registration{Public: true}
	tour, err := f.tours.CreateTournament(ctx, spec, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	req := tournaments.TournamentRequest{ID: tour.ID}
	seen := len(f.store.Queued())
	ann := domain.User{ID: annID, Email: "ann@example.org"}
	entry := tournaments.Entrant{Player: games.Player{Name: "Ann"}, Partner: &games.Player{Name: "Bob", Email: "bob@example.org"}, Team: "Walls"}
	done, err := f.tours.JoinTournament(ctx, req, ann, entry, 0)
	if err != nil {
		t.Fatal(err)
	}
	e := done.Tournament.Entrants[0]
	if e.Email != "ann@example.org" || e.Locale != "de" || e.Partner.Email != "bob@example.org" || e.Title() != "Walls" {
		t.Errorf("entrant %+v", e)
	}
	var got []string
	for _, q := range f.store.Queued()[seen:] {
		got = append(got, fmt.Sprintf("%s %d %s", q.Kind, q.Ply, q.Email))
	}
	if want := []string{fmt.Sprintf("tournament_update %d bob@example.org", len(done.Tournament.Log))}; !slices.Equal(got, want) {
		t.Errorf("mail %q, want %q", got, want)
	}
	bob := domain.User{ID: 99, Email: "bob@example.org"}
	_, err = f.tours.JoinTournament(ctx, tournaments.TournamentRequest{ID: tour.ID}, bob,
		tournaments.Entrant{Player: games.Player{Name: "Bob"}, Partner: &games.Player{Name: "Cat", Email: "cat@example.org"}}, 0)
	if domain.CodeOf(err) != tournaments.CodeAlreadyEntered {
		t.Errorf("Bob joined again: %v", err)
	}
	_, err = f.tours.JoinTournament(ctx, tournaments.TournamentRequest{ID: tour.ID}, bob, tournaments.Entrant{Player: games.Player{Name: "Bob"}}, 0)
	if domain.CodeOf(err) != domain.CodeInvalidInput {
		t.Errorf("joined a team event alone: %v", err)
	}
}

// A team round: one four-player game whose every seat is invited; the
// White team's partner withdraws the team, which resigns the game for its
// side, and the round's results go to all four and the organiser.
func TestServiceTeamRound(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	spec := teamSpec(2)
	spec.FirstStart, spec.Interval = f.now.Add(time.Hour), 10*day
	tour, err := f.tours.CreateTournament(ctx, spec, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(time.Hour)
	seen := len(f.store.Queued())
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	if tour, err = f.tours.Tournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	g, err := f.store.Game(ctx, tour.RunningGames()[0])
	if err != nil || len(g.Seats) != 4 {
		t.Fatalf("game %+v, %v", g.Seats, err)
	}
	invited := map[string]bool{}
	for _, q := range f.store.Queued()[seen:] {
		if q.Kind == domain.NoticeInvitation {
			s, _ := g.Seat(q.Color)
			invited[s.Email] = true
		}
	}
	if len(invited) != 4 {
		t.Errorf("invited %v", invited)
	}
	p := tour.Rounds[0].Games[0].Pairing
	partner := tour.Entrants[p.White].Partner.Email
	entrant, _ := tour.EntrantOf(partner)
	seen = len(f.store.Queued())
	done, err := f.tours.Withdraw(ctx, tournaments.TournamentRequest{ID: tour.ID}, entrant, "", tournaments.ByPlayer("Q"), "")
	if err != nil {
		t.Fatal(err)
	}
	if g, _ = f.store.Game(ctx, g.ID); !g.Over() {
		t.Fatal("the withdrawn team's game goes on")
	}
	if res, _ := g.Result(); res.Winner != 1 || res.Reason != "resignation" {
		t.Errorf("result %+v", res)
	}
	if o := done.Tournament.Rounds[0].Games[0].Outcome; o == nil || o.Score != 0 {
		t.Errorf("outcome %+v", o)
	}
	f.now = f.now.Add(time.Minute)
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	var final []string
	for _, q := range f.store.Queued()[seen:] {
		if q.Kind == domain.NoticeFinalStandings {
			final = append(final, q.Email)
		}
	}
	slices.Sort(final)
	if want := []string{"org@example.org", "p0@example.org", "p1@example.org", "q0@example.org", "q1@example.org"}; !slices.Equal(final, want) {
		t.Errorf("final standings to %v, want %v", final, want)
	}
}
