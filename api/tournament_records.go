package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// recordTag is one header tag a record carries besides the rules' own.
type recordTag struct{ Name, Value string }

// recordText writes a game and its turns in its ruleset's record format,
// with extra header tags after the rules' own (both formats keep tags they
// do not know, so the records still import).
func recordText(g *domain.Game, rows []domain.StoredTurn, extra []recordTag) (string, error) {
	switch rules := g.Rules.(type) {
	case *less.RulesGame:
		rec := less.Record{Game: rules.Game, Players: map[less.Color]string{}, Preset: rules.Preset, Seed: rules.Seed}
		for _, t := range extra {
			rec.Extra = append(rec.Extra, less.Tag{Name: t.Name, Value: t.Value})
		}
		for _, seat := range g.Seats {
			c, err := less.ParseColor(seat.Color)
			if err != nil {
				return "", fmt.Errorf("game %s: %w: %w", g.ID, domain.ErrStoredData, err)
			}
			rec.Players[c] = seat.Name
		}
		for _, t := range rows {
			p, err := less.PlayedFrom(t.Played())
			if err != nil {
				return "", fmt.Errorf("game %s turn %d: %w: %w", g.ID, t.Ply, domain.ErrStoredData, err)
			}
			rec.History = append(rec.History, p)
		}
		return rec.String(), nil
	case *les.Engine:
		rec := les.Record{Game: rules, Players: map[les.Seat]string{}}
		for _, t := range extra {
			rec.Extra = append(rec.Extra, les.Tag{Name: t.Name, Value: t.Value})
		}
		for _, seat := range g.Seats {
			s, err := les.ParseSeat(seat.Color)
			if err != nil {
				return "", fmt.Errorf("game %s: %w: %w", g.ID, domain.ErrStoredData, err)
			}
			rec.Players[s] = seat.Name
		}
		for i, t := range rows {
			p, err := rules.PlayedFrom(i, t.Played())
			if err != nil {
				return "", fmt.Errorf("game %s ply %d: %w: %w", g.ID, t.Ply, domain.ErrStoredData, err)
			}
			rec.History = append(rec.History, p)
		}
		return rec.String(), nil
	}
	return "", fmt.Errorf("game %s: no record of %s games", g.ID, g.Rules.Ruleset())
}

// gameTags are the tags every record lesspost serves has: where and when the
// game was played, and which game it is.
func gameTags(g *domain.Game) []recordTag {
	return []recordTag{{"Site", "lesspost"}, {"GameId", g.ID}, {"Date", g.CreatedAt.UTC().Format("2006.01.02")}}
}

// recordExtension is the file name extension of a ruleset's records (a
// tournament stored before rulesets has none: Less).
func recordExtension(rulesetName string) string {
	if rulesetName == les.RulesetName {
		return ".les"
	}
	return ".less"
}

// tournamentRecords answers every game record of a tournament, or of one
// round (?round=N), as one text file: the records one after the other, each
// separated from the next by a blank line, as a PGN file holds the games of
// a chess event. That is what game viewers and databases import (one file,
// many games), and a record starts at its first tag line, so a tool splits
// the file without knowing the rules. Each record is tagged with the event,
// the round and the board; a game still being played has Result "*".
func (s *Server) tournamentRecords(c echo.Context) error {
	round := 0
	if q := c.QueryParam("round"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 {
			return NewProblem(http.StatusBadRequest, "invalid_request", "round is a round number, 1 or more.")
		}
		round = n
	}
	t, current, err := s.cachedTournament(c, fixedVariant("records round="+strconv.Itoa(round)),
		func(h http.Header, t *tournaments.Tournament) {
			name := t.ID
			if round != 0 {
				name += "-round-" + strconv.Itoa(round)
			}
			h.Set("Content-Disposition", `attachment; filename="`+name+recordExtension(t.Ruleset)+`"`)
		})
	if err != nil {
		return err
	}
	if current {
		return notModified(c)
	}
	games, err := s.tournaments.RoundGames(c.Request().Context(), &t, round)
	if err != nil {
		return err
	}
	var b strings.Builder
	for i, rg := range games {
		tags := append([]recordTag{{"Event", t.Name}, {"EventId", t.ID},
			{"Round", strconv.Itoa(rg.Round)}, {"Board", strconv.Itoa(rg.Board)}}, gameTags(&rg.Game)...)
		tags = append(tags, teamTags(&t, &rg)...)
		text, err := recordText(&rg.Game, rg.Turns, tags)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(text)
	}
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(b.String()))
}

// teamTags name the teams of a team event's game, whose four players the
// rules' own tags name by colour: WhiteTeam plays side 0 (the pairing's
// White), BlackTeam side 1.
func teamTags(t *tournaments.Tournament, rg *tournaments.RoundGame) []recordTag {
	if !t.Teams || rg.Round < 1 || rg.Round > len(t.Rounds) {
		return nil
	}
	for _, g := range t.Rounds[rg.Round-1].Games {
		if g.GameID == rg.Game.ID && g.Black != tournaments.Bye {
			return []recordTag{{"WhiteTeam", t.Entrants[g.White].Title()}, {"BlackTeam", t.Entrants[g.Black].Title()}}
		}
	}
	return nil
}
