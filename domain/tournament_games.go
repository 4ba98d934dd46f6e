package domain

import (
	"context"
	"fmt"
	"slices"
)

// A tournament's games are public: its page shows every pairing, links each
// game for spectators and offers the records for download, to anyone who has
// the tournament's address. These use cases read them without credentials,
// but only through the tournament, so no other game is exposed this way.

// RoundGame is a played (or playing) game of a tournament with its turns.
type RoundGame struct {
	Round int // 1-based
	Board int // 1-based place of the pairing in its round (see Round.Board)
	Game  Game
	// Turns are the game's turns as far as Game has played them.
	Turns []StoredTurn
}

// TournamentGame reads one game of a tournament; a game that is not one of
// its games is not found.
func (s *Service) TournamentGame(ctx context.Context, tournamentID, gameID string) (Game, error) {
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return Game{}, err
	}
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if g.GameID != "" && g.GameID == gameID {
				return s.store.Game(ctx, gameID)
			}
		}
	}
	return Game{}, Errorf(KindNotFound, CodeNotFound, "game %s is not a game of tournament %s", Clip(gameID), t.ID)
}

// GamesInPlay reads the games of t that have no outcome yet, by id: what the
// tournament alone cannot say about them (whose turn it is, or that the game
// just ended and its round has not counted it yet). At most a round's games.
func (s *Service) GamesInPlay(ctx context.Context, t *Tournament) (map[string]Game, error) {
	out := map[string]Game{}
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if g.GameID == "" || g.Outcome != nil {
				continue
			}
			game, err := s.store.Game(ctx, g.GameID)
			if err != nil {
				return nil, fmt.Errorf("tournament %s round %d: %w", t.ID, r.Number, err)
			}
			out[g.GameID] = game
		}
	}
	return out, nil
}

// TournamentGames reads the tournament and the games of one round (round
// > 0) or of every round (round 0), in round and board order, each with its
// turns. Pairings played by nobody (byes, forfeits decided at pairing) have
// no game and are left out. A round the tournament does not have is not
// found; a round not yet paired has no games.
func (s *Service) TournamentGames(ctx context.Context, id string, round int) (Tournament, []RoundGame, error) {
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, nil, err
	}
	if round < 0 || round > len(t.Rounds) {
		return Tournament{}, nil, Errorf(KindNotFound, CodeNotFound, "tournament %s has rounds 1 to %d, not %d", t.ID, len(t.Rounds), round)
	}
	var out []RoundGame
	for _, r := range t.Rounds {
		if round != 0 && r.Number != round {
			continue
		}
		for i, g := range r.Games {
			if g.GameID == "" {
				continue
			}
			// The game first, then its turns: a turn played in between is
			// dropped, so the record is the game as it was read.
			game, err := s.store.Game(ctx, g.GameID)
			if err != nil {
				return Tournament{}, nil, fmt.Errorf("tournament %s round %d: %w", t.ID, r.Number, err)
			}
			turns, err := s.store.Turns(ctx, g.GameID)
			if err != nil {
				return Tournament{}, nil, fmt.Errorf("tournament %s round %d: %w", t.ID, r.Number, err)
			}
			// (A stored turn's Ply counts from 1: the game's ply after it.)
			n := game.Ply()
			turns = slices.DeleteFunc(turns, func(t StoredTurn) bool { return t.Ply > n })
			out = append(out, RoundGame{Round: r.Number, Board: r.Board(i), Game: game, Turns: turns})
		}
	}
	return t, out, nil
}

// BothForfeited says whether neither player scores: a game both forfeited
// (both withdrew), where Black's points are not 1 - White's.
func (o PairingResult) BothForfeited() bool { return doubleForfeit(o) }
