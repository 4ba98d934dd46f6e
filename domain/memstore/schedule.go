package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// DueGames lists running games whose clock needs attention at now, most
// overdue first.
func (s *Store) DueGames(ctx context.Context, now time.Time, limit int) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	type due struct {
		id string
		at time.Time
	}
	var found []due
	for id, g := range s.data.games {
		if at := g.Clock.NextDue(); !g.Over() && !at.IsZero() && !at.After(now) {
			found = append(found, due{id, at})
		}
	}
	slices.SortFunc(found, func(a, b due) int { return cmp.Or(a.at.Compare(b.at), strings.Compare(a.id, b.id)) })
	var ids []string
	for _, d := range found[:min(limit, len(found))] {
		ids = append(ids, d.id)
	}
	return ids, nil
}

// DueTournaments lists tournaments whose schedule needs attention at now:
// by their NextDue alone (the SQLite store also looks at once when a game
// of the running round ends).
func (s *Store) DueTournaments(ctx context.Context, now time.Time, limit int) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var ids []string
	for id, t := range s.data.tournaments {
		if at := t.NextDue(); !at.IsZero() && !at.After(now) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids[:min(limit, len(ids))], nil
}

// Tournament reads a committed tournament.
func (s *Store) Tournament(ctx context.Context, id string) (tournaments.Tournament, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.tournament(id)
}

// tournament returns a deep copy, as a store that encodes it would: the
// caller may change his.
func (d *data) tournament(id string) (tournaments.Tournament, error) {
	t, ok := d.tournaments[id]
	if !ok {
		return tournaments.Tournament{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no tournament %s", domain.Clip(id))
	}
	return deepCopy(t)
}

func deepCopy(t tournaments.Tournament) (tournaments.Tournament, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return tournaments.Tournament{}, err
	}
	var out tournaments.Tournament
	return out, json.Unmarshal(b, &out)
}

func (t *tx) Tournament(ctx context.Context, id string) (tournaments.Tournament, error) {
	return t.data.tournament(id)
}

func (t *tx) InsertTournament(ctx context.Context, tm *tournaments.Tournament) error {
	if _, ok := t.data.tournaments[tm.ID]; ok {
		return fmt.Errorf("insert tournament %s: it exists", tm.ID)
	}
	c, err := deepCopy(*tm)
	t.data.tournaments[tm.ID] = c
	return err
}

func (t *tx) SaveTournament(ctx context.Context, tm *tournaments.Tournament, version int) error {
	stored, ok := t.data.tournaments[tm.ID]
	if !ok || stored.Version != version {
		return fmt.Errorf("update tournament %s: version %d is gone: %w", tm.ID, version, domain.ErrStale)
	}
	c, err := deepCopy(*tm)
	t.data.tournaments[tm.ID] = c
	return err
}

// RescheduleTournament has nothing to do: the due time is computed from the
// stored tournament.
func (t *tx) RescheduleTournament(ctx context.Context, tm *tournaments.Tournament) error { return nil }

func (t *tx) AddNotice(ctx context.Context, n domain.Notice, mail []domain.Mail, now time.Time) error {
	if e, ok := games.NoticeEvent(n); ok {
		t.addEvents([]domain.Event{e}, now)
	}
	t.queue(mail, "", now)
	return nil
}

// AddEvents writes events to the live streams.
func (t *tx) AddEvents(ctx context.Context, evs []domain.Event, now time.Time) error {
	t.addEvents(evs, now)
	return nil
}

// AccountTournaments lists a page of one category of an account's
// tournaments, newest first (see tournaments.Lister). Its cursor is
// the last tournament's creation (Unix milliseconds) and id.
func (s *Store) AccountTournaments(ctx context.Context, userID int64, email string, now time.Time, cat tournaments.TournamentCategory,
	cursor string, limit int) (tournaments.TournamentPage, error) {
	limit = max(limit, 1)
	afterMs, afterID := int64(math.MaxInt64), ""
	if cursor != "" {
		ms, id, ok := strings.Cut(cursor, ":")
		n, err := strconv.ParseInt(ms, 10, 64)
		if !ok || err != nil || id == "" {
			return tournaments.TournamentPage{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidCursor, "the cursor is not one this server gave out")
		}
		afterMs, afterID = n, id
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []tournaments.Tournament
	for id, t := range s.data.tournaments {
		_, plays := t.EntrantOf(email)
		var in bool
		switch cat {
		case tournaments.Organising:
			in = t.OrganizerID == userID
		case tournaments.PlayingIn:
			in = plays
		case tournaments.CanJoin:
			in = !plays && t.Joinable(now) && t.Registration.Public
		}
		ms := t.CreatedAt.UnixMilli()
		if !in || cmp.Or(cmp.Compare(ms, afterMs), strings.Compare(id, afterID)) >= 0 {
			continue
		}
		c, err := s.data.tournament(id)
		if err != nil {
			return tournaments.TournamentPage{}, err
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b tournaments.Tournament) int {
		return cmp.Or(cmp.Compare(b.CreatedAt.UnixMilli(), a.CreatedAt.UnixMilli()), strings.Compare(b.ID, a.ID))
	})
	if len(out) <= limit {
		return tournaments.TournamentPage{Tournaments: out}, nil
	}
	last := out[limit-1]
	return tournaments.TournamentPage{Tournaments: out[:limit], Next: fmt.Sprintf("%d:%s", last.CreatedAt.UnixMilli(), last.ID)}, nil
}

// Games reads many games at once, leaving out ids that do not exist.
func (s *Store) Games(ctx context.Context, ids []string) ([]games.Game, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []games.Game
	for _, id := range ids {
		if g, err := s.data.game(id); err == nil {
			out = append(out, g)
		}
	}
	return out, nil
}

// TurnsOf lists the committed turns of each of the games, by game id.
func (s *Store) TurnsOf(ctx context.Context, ids []string) (map[string][]games.StoredTurn, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string][]games.StoredTurn, len(ids))
	for _, id := range ids {
		if turns := s.data.turns[id]; len(turns) > 0 {
			out[id] = slices.Clone(turns)
		}
	}
	return out, nil
}

// TournamentGamesStamp sums up the games of a tournament.
func (s *Store) TournamentGamesStamp(ctx context.Context, id string) (tournaments.GamesStamp, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var st tournaments.GamesStamp
	for _, g := range s.data.games {
		if g.Tournament == nil || g.Tournament.ID != id {
			continue
		}
		st.Count++
		st.Versions += int64(g.Version)
		if g.UpdatedAt.After(st.Updated) {
			st.Updated = g.UpdatedAt.Truncate(time.Millisecond)
		}
	}
	return st, nil
}
