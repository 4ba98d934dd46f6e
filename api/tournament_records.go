package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// recordTag is one header tag a record carries besides the rules' own.
type recordTag = ruleset.Tag

// recordText writes a game and its turns in its ruleset's record format,
// with extra header tags after the rules' own (both formats keep tags they
// do not know, so the records still import).
func recordText(g *games.Game, rows []games.StoredTurn, extra []recordTag) (string, error) {
	players := make(map[string]string, len(g.Seats))
	for _, seat := range g.Seats {
		players[seat.Color] = seat.Name
	}
	history := make([]ruleset.Played, len(rows))
	for i, t := range rows {
		history[i] = t.Played()
	}
	text, err := g.Rules.Record(history, players, extra...)
	if err != nil {
		return "", fmt.Errorf("game %s: %w: %w", g.ID, domain.ErrStoredData, err)
	}
	return text, nil
}

// gameTags are the tags every record lesspost serves has: where and when the
// game was played, and which game it is.
func gameTags(g *games.Game) []recordTag {
	return []recordTag{{Name: "Site", Value: "lesspost"}, {Name: "GameId", Value: g.ID}, {Name: "Date", Value: g.CreatedAt.UTC().Format("2006.01.02")}}
}

// recordExtension is the file name extension of a ruleset's records, its
// name (a tournament stored before rulesets has none: the default's).
func recordExtension(rulesetName string) string {
	if rulesetName == "" {
		rulesetName = domain.Rulesets.Default().Name()
	}
	return "." + rulesetName
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
		tags := append([]recordTag{{Name: "Event", Value: t.Name}, {Name: "EventId", Value: t.ID},
			{Name: "Round", Value: strconv.Itoa(rg.Round)}, {Name: "Board", Value: strconv.Itoa(rg.Board)}}, gameTags(&rg.Game)...)
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
			return []recordTag{{Name: "WhiteTeam", Value: t.Entrants[g.White].Title()}, {Name: "BlackTeam", Value: t.Entrants[g.Black].Title()}}
		}
	}
	return nil
}
