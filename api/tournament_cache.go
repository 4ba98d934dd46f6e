package api

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain/tournaments"
)

// A tournament's public views (its page, JSON, standings and records) are
// read by everyone who follows the event, again and again, and a big one
// is thousands of games. Each view has an ETag made of the tournament's
// version and the stamp of its games (tournaments.GamesStamp), so that a reader
// who has it gets 304 for the cost of two small queries, and caches may
// keep the view as long as they revalidate it.

// tournamentCacheControl lets any cache keep a public view, but only to
// revalidate it: results come in at any moment.
const tournamentCacheControl = "public, no-cache"

// personalCacheControl is a view with what only its reader may see (the
// organiser's, with the entrants' addresses): no shared cache keeps it.
const personalCacheControl = "private, no-cache"

// renderEpoch names the code that renders the views, so that a new
// release does not answer 304 to a copy an older one rendered: its VCS
// revision, or else when this process started.
var renderEpoch = func() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return strconv.FormatInt(time.Now().UnixNano(), 36)
}()

// cachedTournament reads the tournament in the path for a public view and
// sets the view's ETag and Cache-Control, and its other headers with
// headers (if not nil). variant names the view (and whatever else it
// depends on: its language, whether sign-up is open now). notModified
// reports that the client's copy is current: the caller answers 304 and
// reads nothing more. The 304 has the view's headers, every one: a cache
// updates its copy with them (RFC 9110 15.4.5), and a browser that kept
// the page would take the API's default policy for the page's own.
func (s *Server) cachedTournament(c echo.Context, variant func(t *tournaments.Tournament) string,
	headers func(h http.Header, t *tournaments.Tournament)) (t tournaments.Tournament, notModified bool, err error) {
	ctx := c.Request().Context()
	id := c.Param("id")
	// The stamp first: whatever changes after it changes it again, so the
	// ETag never names more than the view shows.
	stamp, err := s.tournaments.TournamentGamesStamp(ctx, id)
	if err != nil {
		return tournaments.Tournament{}, false, err
	}
	if t, err = s.tournaments.Tournament(ctx, id); err != nil {
		return tournaments.Tournament{}, false, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%d\n%d\n%d\n%d\n%d\n%s\n%s", t.ID, t.Version, t.UpdatedAt.UnixNano(), stamp.Count, stamp.Versions,
		stamp.Updated.UnixMilli(), variant(&t), renderEpoch)
	etag := `"t` + hex.EncodeToString(h.Sum(nil)[:12]) + `"`
	header := c.Response().Header()
	header.Set("ETag", etag)
	header.Set(echo.HeaderCacheControl, tournamentCacheControl)
	if headers != nil {
		headers(header, &t)
	}
	if match := c.Request().Header.Get("If-None-Match"); match != "" && etagMatches(match, etag) {
		return t, true, nil
	}
	return t, false, nil
}

// notModified answers 304 to a reader whose copy is current.
func notModified(c echo.Context) error { return c.NoContent(http.StatusNotModified) }

// fixedVariant names a view that depends on nothing but the tournament.
func fixedVariant(name string) func(*tournaments.Tournament) string {
	return func(*tournaments.Tournament) string { return name }
}
