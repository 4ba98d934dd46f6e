package tournaments_test

import (
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// A tournament's games are read through the tournament: only its own, a
// round it has, and without the byes that have no game.
func TestTournamentGames(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tour, err := f.tours.CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	roundGames := func(round int) ([]tournaments.RoundGame, error) {
		tour, err := f.tours.Tournament(ctx, tour.ID)
		if err != nil {
			return nil, err
		}
		return f.tours.RoundGames(ctx, &tour, round)
	}
	if played, err := roundGames(0); err != nil || len(played) != 0 {
		t.Errorf("before the start: %d games, %v", len(played), err)
	}
	f.now = t0.Add(time.Hour)
	if _, err := f.tours.TickTournament(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	tour, err = f.tours.Tournament(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	var gameID string
	board := 0
	for i, g := range tour.Rounds[0].Games {
		if g.GameID != "" {
			gameID, board = g.GameID, i+1
		}
	}

	for _, round := range []int{0, 1} {
		played, err := roundGames(round)
		if err != nil || len(played) != 1 || played[0].Game.ID != gameID || played[0].Round != 1 || played[0].Board != board {
			t.Errorf("round %d: %+v, %v; want game %s of round 1, board %d", round, played, err, gameID, board)
		}
	}
	if played, err := roundGames(2); err != nil || len(played) != 0 {
		t.Errorf("round 2 (not started): %d games, %v", len(played), err)
	}
	for _, round := range []int{-1, 4} {
		if _, err := roundGames(round); domain.CodeOf(err) != domain.CodeNotFound {
			t.Errorf("round %d of 3: %v, want not found", round, err)
		}
	}

	if g, err := f.tours.TournamentGame(ctx, tour.ID, gameID); err != nil || g.ID != gameID {
		t.Errorf("its game: %v", err)
	}
	// The fixture's own game is no game of the tournament.
	if _, err := f.tours.TournamentGame(ctx, tour.ID, f.game.ID); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("another game through the tournament: %v, want not found", err)
	}
	if _, err := f.tours.TournamentGame(ctx, "t_none", gameID); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("a game through no tournament: %v, want not found", err)
	}

	playing, err := f.tours.GamesInPlay(ctx, &tour)
	if _, ok := playing[gameID]; err != nil || len(playing) != 1 || !ok {
		t.Errorf("games in play %v, %v; want %s alone", playing, err, gameID)
	}
}
