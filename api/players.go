package api

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/players"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// profileView is an account's profile as its owner sees and edits it.
type profileView struct {
	Handle       *string  `json:"handle"`
	Country      *string  `json:"country"`
	Languages    []string `json:"languages"`
	Bio          string   `json:"bio"`
	HideFinished bool     `json:"hide_finished"`
	Unlisted     bool     `json:"unlisted"`
	URL          *string  `json:"url"` // the public page, once he has a handle
}

func viewProfile(p players.Profile) profileView {
	v := profileView{Languages: p.Languages, Bio: p.Bio, HideFinished: p.HideFinished, Unlisted: p.Unlisted}
	if v.Languages == nil {
		v.Languages = []string{}
	}
	if p.Handle != "" {
		h, u := p.Handle, playerPath(p.Handle)
		v.Handle, v.URL = &h, &u
	}
	if p.Country != "" {
		v.Country = &p.Country
	}
	return v
}

// playerPath is the public page of the player with handle.
func playerPath(handle string) string { return "/players/" + url.PathEscape(handle) }

type handleRequest struct {
	Handle string `json:"handle"`
}

// setHandle chooses or changes the caller's handle; the old one leads to
// him for players.Retired.
func (s *Server) setHandle(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	var req handleRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	pr, err := s.players.SetHandle(c.Request().Context(), p.session.User.ID, req.Handle)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, viewProfile(pr))
}

// myProfile is the caller's own profile.
func (s *Server) myProfile(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountRead)
	if err != nil {
		return err
	}
	pr, err := s.players.Profile(c.Request().Context(), p.session.User.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, viewProfile(pr))
}

type profileRequest struct {
	Country      *string   `json:"country"`
	Languages    *[]string `json:"languages"`
	Bio          *string   `json:"bio"`
	HideFinished *bool     `json:"hide_finished"`
	Unlisted     *bool     `json:"unlisted"`
}

// updateProfile changes the fields of the caller's profile that the body
// names.
func (s *Server) updateProfile(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	var req profileRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	pr, err := s.players.UpdateProfile(c.Request().Context(), p.session.User.ID, players.ProfileChange{Country: req.Country,
		Languages: req.Languages, Bio: req.Bio, HideFinished: req.HideFinished, Unlisted: req.Unlisted})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, viewProfile(pr))
}

// playerGameView is a game on a profile: whom he plays, how it ended, and
// where to watch it. It names the players, never their addresses.
type playerGameView struct {
	ID        string     `json:"id"`
	Game      string     `json:"game"`
	Color     string     `json:"color"`
	Opponents []string   `json:"opponents"`
	Result    *string    `json:"result"`  // "won", "lost" or "drawn" once over
	Outcome   *string    `json:"outcome"` // the record's result ("white+2")
	Margin    *int       `json:"margin"`
	Watch     string     `json:"watch_url"`
	Ended     *time.Time `json:"ended_at"`
}

type tallyView struct {
	Game          string  `json:"game"`
	Played        int     `json:"played"`
	Won           int     `json:"won"`
	Drawn         int     `json:"drawn"`
	Lost          int     `json:"lost"`
	AverageMargin float64 `json:"average_margin"`
}

type playerTournamentView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

// publicPlayerView is a public profile (GET /v1/players/{handle}).
type publicPlayerView struct {
	Handle         string                 `json:"handle"`
	Name           string                 `json:"name"`
	Country        *string                `json:"country"`
	Languages      []string               `json:"languages"`
	Bio            string                 `json:"bio"`
	MemberSince    time.Time              `json:"member_since"`
	Playing        []playerGameView       `json:"playing"`
	Finished       []playerGameView       `json:"finished"`
	FinishedHidden bool                   `json:"finished_hidden"`
	Tournaments    []playerTournamentView `json:"tournaments"`
	Stats          []tallyView            `json:"stats"`
	URL            string                 `json:"url"`
}

// maxProfileTournaments bounds the tournaments a profile lists.
const maxProfileTournaments = 50

// playerCard reads the public profile of handle and the tournaments its
// player entered.
func (s *Server) playerCard(ctx context.Context, handle string) (players.Card, []tournaments.TournamentListing, error) {
	card, err := s.players.Card(ctx, handle)
	if err != nil {
		return players.Card{}, nil, err
	}
	ts, _, err := s.tournaments.Tournaments(ctx, domain.User{ID: card.UserID, Email: card.Email},
		[]tournaments.TournamentCategory{tournaments.PlayingIn}, nil, maxProfileTournaments)
	if err != nil {
		return players.Card{}, nil, err
	}
	return card, ts, nil
}

func viewPlayer(card players.Card, ts []tournaments.TournamentListing) publicPlayerView {
	p := card.Profile
	v := publicPlayerView{Handle: p.Handle, Name: card.Name, Languages: p.Languages, Bio: p.Bio, MemberSince: card.MemberSince,
		Playing: []playerGameView{}, Finished: []playerGameView{}, FinishedHidden: p.HideFinished,
		Tournaments: []playerTournamentView{}, Stats: []tallyView{}, URL: playerPath(p.Handle)}
	if v.Languages == nil {
		v.Languages = []string{}
	}
	if v.Name == "" {
		v.Name = p.Handle
	}
	if p.Country != "" {
		v.Country = &p.Country
	}
	for _, g := range card.Playing {
		v.Playing = append(v.Playing, viewPlayerGame(card, g))
	}
	for _, g := range card.Finished {
		v.Finished = append(v.Finished, viewPlayerGame(card, g))
	}
	for _, t := range ts {
		v.Tournaments = append(v.Tournaments, playerTournamentView{ID: t.ID, Name: t.Name, URL: "/tournaments/" + url.PathEscape(t.ID)})
	}
	for _, t := range card.Tallies {
		v.Stats = append(v.Stats, tallyView{Game: t.Ruleset, Played: t.Played, Won: t.Won, Drawn: t.Drawn, Lost: t.Lost, AverageMargin: t.Margin})
	}
	return v
}

func viewPlayerGame(card players.Card, g games.Game) playerGameView {
	v := playerGameView{ID: g.ID, Game: g.Rules.Ruleset(), Opponents: []string{},
		Watch: playerPath(card.Profile.Handle) + "/games/" + url.PathEscape(g.ID) + "/watch"}
	for _, st := range g.Seats {
		if strings.EqualFold(st.Email, card.Email) {
			v.Color = st.Color
		}
	}
	for _, st := range g.Seats {
		if !strings.EqualFold(st.Email, card.Email) && g.Rules.Side(st.Color) != g.Rules.Side(v.Color) {
			v.Opponents = append(v.Opponents, st.Name)
		}
	}
	if res, over := g.Result(); over {
		word := "lost"
		switch {
		case res.Draw:
			word = "drawn"
		case res.Winner == g.Rules.Side(v.Color):
			word = "won"
		}
		ended := g.UpdatedAt
		v.Result, v.Outcome, v.Margin, v.Ended = &word, &res.Text, &res.Margin, &ended
	}
	return v
}

// getPlayer is a public profile. A retired handle answers its player's
// profile, whose handle is the current one.
func (s *Server) getPlayer(c echo.Context) error {
	card, ts, err := s.playerCard(c.Request().Context(), c.Param("handle"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, viewPlayer(card, ts))
}

// watchPlayerGame sends a visitor of a profile to watch one of the games it
// lists, by a spectator link made for the moment (as a tournament's page
// does).
func (s *Server) watchPlayerGame(c echo.Context) error {
	card, err := s.players.Card(c.Request().Context(), c.Param("handle"))
	if err != nil {
		return err
	}
	id := c.Param("game")
	i := slices.IndexFunc(slices.Concat(card.Playing, card.Finished), func(g games.Game) bool { return g.ID == id })
	if i < 0 {
		return NewProblem(http.StatusNotFound, domain.CodeNotFound, "This player's profile lists no such game.")
	}
	g := slices.Concat(card.Playing, card.Finished)[i]
	tok, err := s.tokens.Watch(g.ID, g.WatchVersion)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Referrer-Policy", "no-referrer")
	h.Set(echo.HeaderCacheControl, "no-store")
	return c.Redirect(http.StatusSeeOther, "/play/"+url.PathEscape(g.ID)+"#t="+tok)
}

// invitees puts the account behind each handle in the players that name
// one instead of a name and address, and says which addresses they are:
// those the caller must never see (see hideInvitees).
func (s *Server) invitees(ctx context.Context, ps ...*playerRequest) ([]inviteeAddress, error) {
	var out []inviteeAddress
	for _, p := range ps {
		if p == nil || p.Handle == "" {
			continue
		}
		if p.Name != "" || p.Email != "" {
			return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a player is a handle, or a name and an email address: not both")
		}
		inv, err := s.players.Invitee(ctx, p.Handle)
		if err != nil {
			return nil, err
		}
		out = append(out, inviteeAddress{email: inv.Email, handle: p.Handle})
		// Resolved once: a unit of work run again sees a name and address.
		p.Name, p.Email, p.Handle = inv.Name, inv.Email, ""
		if p.Locale == "" {
			p.Locale = inv.Locale
		}
	}
	return out, nil
}

// inviteeAddress is the address of a player invited by handle.
type inviteeAddress struct{ email, handle string }

// hideInvitees writes the handle in place of the address of each invitee
// in err's message: a refusal (two seats for one address, an address that
// asked for no mail) must not tell the caller an address he never gave.
func hideInvitees(err error, inv []inviteeAddress) error {
	de, ok := domain.ErrorOf(err)
	if !ok || len(inv) == 0 {
		return err
	}
	msg := de.Message
	for _, i := range inv {
		msg = strings.ReplaceAll(msg, i.email, "@"+i.handle)
	}
	if msg == de.Message {
		return err
	}
	hidden := *de
	hidden.Message = msg
	return &hidden
}
