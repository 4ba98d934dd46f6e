package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// The endpoints of running an event: the account's list, sign-up, and the
// organiser's control. Every action answers with the tournament after it;
// its log shows the action to everyone.

type tournamentListItem struct {
	ID           string            `json:"id"`
	Name         string            `json:"name"`
	Format       string            `json:"format"`
	Status       string            `json:"status"`
	Players      int               `json:"players"`
	Organising   bool              `json:"organising"`
	Playing      bool              `json:"playing"`
	Joinable     bool              `json:"joinable"`
	Registration *registrationView `json:"registration"`
	FirstStart   time.Time         `json:"first_start"`
	PageURL      string            `json:"page_url"`
	CreatedAt    time.Time         `json:"created_at"`
}

type tournamentList struct {
	Tournaments []tournamentListItem `json:"tournaments"`
	// Next is the cursor of each category's next page; null when it has
	// no more, or was not asked for.
	Next map[tournaments.TournamentCategory]*string `json:"next"`
}

// listTournaments lists the tournaments the account organises, plays in,
// or can join (an open public registration), newest first: the first page
// of every category, or (category=) a page of one, each category bounded
// and paged on its own.
func (s *Server) listTournaments(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeGamesRead)
	if err != nil {
		return err
	}
	limit := tournaments.DefaultTournamentList
	if v := c.QueryParam("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > tournaments.MaxTournamentList {
			return NewProblem(http.StatusBadRequest, "invalid_request", fmt.Sprintf("limit is a number from 1 to %d.", tournaments.MaxTournamentList))
		}
	}
	cats := tournaments.TournamentCategories
	cursors := map[tournaments.TournamentCategory]string{}
	if v := c.QueryParam("category"); v != "" {
		cat := tournaments.TournamentCategory(v)
		if !slices.Contains(tournaments.TournamentCategories, cat) {
			return NewProblem(http.StatusBadRequest, "invalid_request", "category is organising, playing or joinable.")
		}
		cats, cursors[cat] = []tournaments.TournamentCategory{cat}, c.QueryParam("cursor")
	} else if c.QueryParam("cursor") != "" {
		return NewProblem(http.StatusBadRequest, "invalid_request", "A cursor is of one category: give the category it came with.")
	}
	ls, next, err := s.tournaments.Tournaments(c.Request().Context(), p.session.User, cats, cursors, limit)
	if err != nil {
		return err
	}
	out := tournamentList{Tournaments: []tournamentListItem{}, Next: map[tournaments.TournamentCategory]*string{}}
	for _, cat := range tournaments.TournamentCategories {
		if cursor, ok := next[cat]; ok {
			out.Next[cat] = &cursor
		} else {
			out.Next[cat] = nil
		}
	}
	for _, l := range ls {
		v := s.viewTournament(&l.Tournament)
		item := tournamentListItem{ID: l.ID, Name: l.Name, Format: string(l.Format), Status: string(l.Status),
			Players: len(l.Entrants), Organising: l.Organising, Playing: l.Playing, Joinable: l.Joinable,
			Registration: v.Registration, PageURL: v.PageURL, CreatedAt: l.CreatedAt}
		if len(l.Rounds) > 0 {
			item.FirstStart = l.Rounds[0].Start
		}
		out.Tournaments = append(out.Tournaments, item)
	}
	return c.JSON(http.StatusOK, out)
}

// control says how an action on a tournament is run and answered.
type control struct {
	what string // the organiser's action, for the refusal of anyone else
	// keyRequired: the action is not idempotent (it adds time, or issues a
	// new invite link), so a retry without an Idempotency-Key would act
	// twice; it is refused (428) rather than done so.
	keyRequired bool
	// answer renders the tournament after the action as the answer, to
	// who; nil: the tournament itself.
	answer func(t *tournaments.Tournament, who viewer) (any, error)
}

// codeIdempotencyKeyRequired refuses an action that is not idempotent when
// it comes without an Idempotency-Key.
const codeIdempotencyKeyRequired = "idempotency_key_required"

func keyRequired() error {
	return NewProblem(http.StatusPreconditionRequired, codeIdempotencyKeyRequired,
		"Send an Idempotency-Key with this action: a retry without one would do it twice.")
}

// tournamentAction runs an action with the request's Idempotency-Key, if
// any, and answers with the tournament after it (or the stored answer to
// an earlier request with the same key).
func (s *Server) tournamentAction(c echo.Context, p *principal, body []byte, id string,
	act func(tournaments.TournamentRequest) (tournaments.TournamentDone, error)) error {
	return s.controlAction(c, p, body, id, control{}, act)
}

// controlAction is tournamentAction as ctl says.
func (s *Server) controlAction(c echo.Context, p *principal, body []byte, id string, ctl control,
	act func(tournaments.TournamentRequest) (tournaments.TournamentDone, error)) error {
	idem, err := idempotency(c, p, body)
	if err != nil {
		return err
	}
	if idem == nil && ctl.keyRequired {
		return keyRequired()
	}
	answer := ctl.answer
	if answer == nil {
		answer = func(t *tournaments.Tournament, who viewer) (any, error) { return s.viewTournamentFor(t, who), nil }
	}
	req := tournaments.TournamentRequest{ID: id, Idem: idem, Present: func(t *tournaments.Tournament) (domain.Response, error) {
		v, err := answer(t, viewerOf(p, t))
		if err != nil {
			return domain.Response{}, err
		}
		b, err := json.Marshal(v)
		return domain.Response{Status: http.StatusOK, Body: b}, err
	}}
	done, err := act(req)
	if err != nil {
		return err
	}
	if done.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
		return c.JSONBlob(done.Response.Status, done.Response.Body)
	}
	s.wakeMail()
	v, err := answer(&done.Tournament, viewerOf(p, &done.Tournament))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// organiser authenticates the organiser of the tournament in the path.
func (s *Server) organiser(c echo.Context, what string) (*principal, tournaments.Tournament, error) {
	p, err := s.account(c, accounts.ScopeTournamentsWrite)
	if err != nil {
		return nil, tournaments.Tournament{}, err
	}
	t, err := s.tournaments.Tournament(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, tournaments.Tournament{}, err
	}
	if t.OrganizerID != p.session.User.ID {
		return nil, tournaments.Tournament{}, NewProblem(http.StatusForbidden, domain.CodeForbidden, "Only the organiser may "+what+".")
	}
	return p, t, nil
}

// organiserDo is an action of the organiser: it authenticates him,
// decodes the request into req and runs act with the request's
// Idempotency-Key.
func (s *Server) organiserDo(c echo.Context, what string, req any,
	act func(ctx context.Context, r tournaments.TournamentRequest, t *tournaments.Tournament) (tournaments.TournamentDone, error)) error {
	return s.organiserControl(c, control{what: what}, req, act)
}

// organiserControl is organiserDo as ctl says.
func (s *Server) organiserControl(c echo.Context, ctl control, req any,
	act func(ctx context.Context, r tournaments.TournamentRequest, t *tournaments.Tournament) (tournaments.TournamentDone, error)) error {
	p, t, err := s.organiser(c, ctl.what)
	if err != nil {
		return err
	}
	body, err := decodeJSONBody(c, req)
	if err != nil {
		return err
	}
	return s.controlAction(c, p, body, t.ID, ctl, func(r tournaments.TournamentRequest) (tournaments.TournamentDone, error) {
		return act(c.Request().Context(), r, &t)
	})
}

type reasonRequest struct {
	Reason string `json:"reason"`
}

// organiserAction is an action of the organiser whose request says only why.
func (s *Server) organiserAction(c echo.Context, what string,
	act func(context.Context, tournaments.TournamentRequest, string) (tournaments.TournamentDone, error)) error {
	var req reasonRequest
	return s.organiserDo(c, what, &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		return act(ctx, r, req.Reason)
	})
}

type seedsRequest struct {
	Order  []int  `json:"order"`
	Reason string `json:"reason"`
}

// setSeeds puts the entrants in the organiser's order before the start.
// The order renumbers the entrants as they are, so a retry would apply it
// to the new numbers: the Idempotency-Key is required.
func (s *Server) setSeeds(c echo.Context) error {
	var req seedsRequest
	return s.organiserControl(c, control{what: "set the seeds", keyRequired: true}, &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		return s.tournaments.SetSeeds(ctx, r, req.Order, req.Reason)
	})
}

type openRegistrationRequest struct {
	registrationRequest
	NewLink bool `json:"new_link"`
}

type inviteView struct {
	Tournament tournamentView `json:"tournament"`
	InviteURL  string         `json:"invite_url"`
}

// openRegistration opens sign-up (or changes its terms) and gives the
// organiser the invite link; new_link issues a new one, and older links
// stop working. Issuing a link is not idempotent (a retry would revoke the
// link the first answer gave), so new_link needs an Idempotency-Key; its
// retry replays the same link.
func (s *Server) openRegistration(c echo.Context) error {
	var req openRegistrationRequest
	ctl := control{what: "open registration", answer: func(t *tournaments.Tournament, who viewer) (any, error) {
		link, err := s.links.InviteURL(t.ID, t.Registration.InviteVersion)
		return inviteView{Tournament: s.viewTournamentFor(t, who), InviteURL: link}, err
	}}
	return s.organiserControl(c, ctl, &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		if req.NewLink && r.Idem == nil {
			return tournaments.TournamentDone{}, keyRequired()
		}
		return s.tournaments.OpenRegistration(ctx, r, req.registration(), req.NewLink)
	})
}

// closeRegistration ends sign-up and revokes the invite link.
func (s *Server) closeRegistration(c echo.Context) error {
	return s.organiserDo(c, "close registration", &struct{}{}, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		return s.tournaments.CloseRegistration(ctx, r)
	})
}

type joinRequest struct {
	Invite string `json:"invite"`
	Name   string `json:"name"`
	// A team event's: the partner (told by email) and the team's name.
	Partner *playerRequest `json:"partner"`
	Team    string         `json:"team"`
}

// joinTournament signs the account up, by the invite link's token or, for
// a public registration, without.
func (s *Server) joinTournament(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeTournamentsWrite)
	if err != nil {
		return err
	}
	var req joinRequest
	body, err := decodeJSONBody(c, &req)
	if err != nil {
		return err
	}
	id := c.Param("id")
	version := 0
	if req.Invite != "" {
		if version, err = s.tokens.inviteVersion(req.Invite, id); err != nil {
			return NewProblem(http.StatusForbidden, tournaments.CodeInviteInvalid, "This invite link is not valid for this tournament.")
		}
	}
	u := p.session.User
	name := strings.TrimSpace(req.Name)
	if name == "" {
		name = u.Name
	}
	if name == "" {
		// Never a part of his address: the event's page is public.
		return NewProblem(http.StatusUnprocessableEntity, domain.CodeInvalidInput, "Give the name the event should show you by: your account has none.")
	}
	// A partner named by handle: only the organiser and the partner himself
	// see his address (viewer.address).
	if _, err := s.invitees(c.Request().Context(), req.Partner); err != nil {
		return err
	}
	return s.tournamentAction(c, p, body, id, func(r tournaments.TournamentRequest) (tournaments.TournamentDone, error) {
		entry := entryRequest{playerRequest: playerRequest{Name: name}, Partner: req.Partner, Team: req.Team}
		return s.tournaments.JoinTournament(c.Request().Context(), r, u, entry.entrant(), version)
	})
}

type entrantRequest struct {
	entryRequest
	Reason string `json:"reason"`
	// Member says which of a team the request is about (a replacement):
	// "player" (the default) or "partner".
	Member string `json:"member"`
}

// memberIndex reads which member of an entrant a request names: 0 for the
// player, 1 for a team's partner.
func memberIndex(member string) (int, error) {
	switch member {
	case "", "player":
		return 0, nil
	case "partner":
		return 1, nil
	}
	return 0, NewProblem(http.StatusUnprocessableEntity, domain.CodeInvalidInput, "member: want player or partner.")
}

// addEntrant enters a player: before the start, or as a late entry into a
// running Swiss event.
func (s *Server) addEntrant(c echo.Context) error {
	var req entrantRequest
	return s.organiserDo(c, "add players", &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		if _, err := s.invitees(ctx, &req.playerRequest, req.Partner); err != nil {
			return tournaments.TournamentDone{}, err
		}
		return s.tournaments.AddEntrant(ctx, r, req.entrant(), req.Reason)
	})
}

// playerParam reads the entrant index in the path.
func playerParam(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("player"))
	if err != nil || n < 0 {
		return 0, NewProblem(http.StatusNotFound, domain.CodeNotFound, "No such player in this tournament.")
	}
	return n, nil
}

type editEntrantRequest struct {
	Name       *string `json:"name"`
	Email      *string `json:"email"`
	Correction bool    `json:"correction"`
	Reason     string  `json:"reason"`
	Member     string  `json:"member"` // see entrantRequest
}

// editEntrant changes an entrant's name or address: a correction keeps
// his results, and a new address not declared a correction is a
// replacement (tournaments.EntrantChange.Replaces decides which).
func (s *Server) editEntrant(c echo.Context) error {
	var req editEntrantRequest
	return s.organiserDo(c, "edit players", &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		n, err := playerParam(c)
		if err != nil {
			return tournaments.TournamentDone{}, err
		}
		member, err := memberIndex(req.Member)
		if err != nil {
			return tournaments.TournamentDone{}, err
		}
		return s.tournaments.UpdateEntrant(ctx, r, n, tournaments.EntrantChange{Member: member, Name: req.Name, Email: req.Email,
			Correction: req.Correction, Reason: req.Reason})
	})
}

// replaceEntrant puts another player in an entrant's place before he has
// played; the new player is emailed his game's move link.
func (s *Server) replaceEntrant(c echo.Context) error {
	var req entrantRequest
	return s.organiserDo(c, "replace players", &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		n, err := playerParam(c)
		if err != nil {
			return tournaments.TournamentDone{}, err
		}
		member, err := memberIndex(req.Member)
		if err != nil {
			return tournaments.TournamentDone{}, err
		}
		p := req.player()
		return s.tournaments.UpdateEntrant(ctx, r, n, tournaments.EntrantChange{Member: member, Name: &p.Name, Email: &p.Email, Locale: p.Locale,
			Replace: true, Reason: req.Reason})
	})
}

type moreTimeRequest struct {
	Hours  int    `json:"hours"`
	Reason string `json:"reason"`
}

// extendGame gives one game of the running round more time.
func (s *Server) extendGame(c echo.Context) error {
	var req moreTimeRequest
	return s.organiserControl(c, control{what: "extend a game", keyRequired: true}, &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		return s.tournaments.ExtendGame(ctx, r, c.Param("game"), time.Duration(req.Hours)*time.Hour, req.Reason)
	})
}

// roundParam reads the round number in the path.
func roundParam(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("round"))
	if err != nil || n < 1 {
		return 0, NewProblem(http.StatusNotFound, domain.CodeNotFound, "No such round in this tournament.")
	}
	return n, nil
}

// postponeRound moves a round, and the rounds after it, later.
func (s *Server) postponeRound(c echo.Context) error {
	var req moreTimeRequest
	return s.organiserControl(c, control{what: "postpone a round", keyRequired: true}, &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		round, err := roundParam(c)
		if err != nil {
			return tournaments.TournamentDone{}, err
		}
		return s.tournaments.PostponeRound(ctx, r, round, time.Duration(req.Hours)*time.Hour, req.Reason)
	})
}

func (s *Server) pauseTournament(c echo.Context) error {
	return s.organiserAction(c, "pause the tournament", s.tournaments.PauseTournament)
}

func (s *Server) resumeTournament(c echo.Context) error {
	return s.organiserAction(c, "resume the tournament", s.tournaments.ResumeTournament)
}

type overrideRequest struct {
	WhiteScore *float64 `json:"white_score"`
	Margin     int      `json:"margin"`
	Annul      bool     `json:"annul"`
	Reason     string   `json:"reason"`
}

// overrideResult sets or annuls the result of one pairing of a round.
func (s *Server) overrideResult(c echo.Context) error {
	var req overrideRequest
	return s.organiserDo(c, "override a result", &req, func(ctx context.Context, r tournaments.TournamentRequest, _ *tournaments.Tournament) (tournaments.TournamentDone, error) {
		round, err := roundParam(c)
		if err != nil {
			return tournaments.TournamentDone{}, err
		}
		index, err := strconv.Atoi(c.Param("index"))
		if err != nil || index < 0 {
			return tournaments.TournamentDone{}, NewProblem(http.StatusNotFound, domain.CodeNotFound, "No such game in this round.")
		}
		if req.WhiteScore == nil && !req.Annul {
			return tournaments.TournamentDone{}, NewProblem(http.StatusUnprocessableEntity, domain.CodeInvalidInput,
				"Give white_score (1, 0.5 or 0) with a margin, or annul.")
		}
		score := 0.0
		if req.WhiteScore != nil {
			score = *req.WhiteScore
		}
		return s.tournaments.OverrideResult(ctx, r, round, index, score, req.Margin, req.Annul, req.Reason)
	})
}
