package tournaments

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// A tournament's games are public: its page shows every pairing, links each
// game for spectators and offers the records for download, to anyone who has
// the tournament's address. These use cases read them without credentials,
// but only through the tournament, so no other game is exposed this way.

// GamesStamp sums up a tournament's games: every change to one (a turn,
// its end, a new link) raises its version, so the sum of versions, their
// number and the latest change move with any of them.
type GamesStamp struct {
	Count    int
	Versions int64
	Updated  time.Time // the latest change; zero without games
}

// TournamentGamesStamp sums up the games of a tournament (see GamesStamp).
// Read before the tournament and its games, it never claims more than a
// reader then shows: whatever changes meanwhile changes it again.
func (s *Service) TournamentGamesStamp(ctx context.Context, tournamentID string) (GamesStamp, error) {
	return s.store.TournamentGamesStamp(ctx, tournamentID)
}

// RoundGame is a played (or playing) game of a tournament with its turns.
type RoundGame struct {
	Round int // 1-based
	Board int // 1-based place of the pairing in its round (see Round.Board)
	Game  games.Game
	// Turns are the game's turns as far as Game has played them.
	Turns []games.StoredTurn
}

// TournamentGame reads one game of a tournament; a game that is not one of
// its games is not found.
func (s *Service) TournamentGame(ctx context.Context, tournamentID, gameID string) (games.Game, error) {
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return games.Game{}, err
	}
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if g.GameID != "" && g.GameID == gameID {
				return s.store.Game(ctx, gameID)
			}
		}
	}
	return games.Game{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "game %s is not a game of tournament %s", domain.Clip(gameID), t.ID)
}

// GamesInPlay reads the games of t that have no outcome yet, by id: what the
// tournament alone cannot say about them (whose turn it is, or that the game
// just ended and its round has not counted it yet). At most a round's games,
// read at once.
func (s *Service) GamesInPlay(ctx context.Context, t *Tournament) (map[string]games.Game, error) {
	var ids []string
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if g.GameID != "" && g.Outcome == nil {
				ids = append(ids, g.GameID)
			}
		}
	}
	found, err := s.store.Games(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("tournament %s: %w", t.ID, err)
	}
	out := make(map[string]games.Game, len(found))
	for _, g := range found {
		out[g.ID] = g
	}
	if len(out) != len(ids) {
		return nil, fmt.Errorf("tournament %s: %d of its %d games in play are missing: %w", t.ID, len(ids)-len(out), len(ids), domain.ErrStoredData)
	}
	return out, nil
}

// RoundGames reads the games of one round of t (round > 0) or of every
// round (round 0), in round and board order, each with its turns, in a few
// queries however many. Pairings played by nobody (byes, forfeits decided
// at pairing, games nobody moved in) are left out. A round the tournament does
// not have is not found; a round not yet paired has no games.
func (s *Service) RoundGames(ctx context.Context, t *Tournament, round int) ([]RoundGame, error) {
	if round < 0 || round > len(t.Rounds) {
		return nil, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "tournament %s has rounds 1 to %d, not %d", t.ID, len(t.Rounds), round)
	}
	var out []RoundGame
	var ids []string
	for _, r := range t.Rounds {
		if round != 0 && r.Number != round {
			continue
		}
		for i, g := range r.Games {
			if g.GameID != "" && !g.Unplayed {
				out = append(out, RoundGame{Round: r.Number, Board: r.Board(i), Game: games.Game{ID: g.GameID}})
				ids = append(ids, g.GameID)
			}
		}
	}
	// The games first, then their turns: a turn played in between is
	// dropped, so that each record is its game as it was read.
	found, err := s.store.Games(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("tournament %s: %w", t.ID, err)
	}
	turns, err := s.store.TurnsOf(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("tournament %s: %w", t.ID, err)
	}
	byID := make(map[string]*games.Game, len(found))
	for i := range found {
		byID[found[i].ID] = &found[i]
	}
	for i := range out {
		rg := &out[i]
		g := byID[rg.Game.ID]
		if g == nil {
			return nil, fmt.Errorf("tournament %s round %d: game %s: %w", t.ID, rg.Round, rg.Game.ID, domain.ErrStoredData)
		}
		rg.Game = *g
		// (A stored turn's Ply counts from 1: the game's ply after it.)
		n := g.Ply()
		rg.Turns = slices.DeleteFunc(turns[g.ID], func(t games.StoredTurn) bool { return t.Ply > n })
	}
	return out, nil
}

// BothForfeited says whether neither player scores: a game both forfeited
// (both withdrew, or neither moved), where Black's points are not 1 - White's.
func (o PairingResult) BothForfeited() bool { return doubleForfeit(o) }
