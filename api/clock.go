package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
)

// timeRequest is a game's time control as a client asks for it, in whole
// days or hours: correspondence time needs no finer grain.
type timeRequest struct {
	Kind string `json:"kind"`
	// per_turn: days or hours per turn (presets 1, 2, 3, 5, 7, 10, 14 days).
	Days  *int `json:"days"`
	Hours *int `json:"hours"`
	// bank: the bank, the increment per turn and the cap, in hours.
	InitialHours   *int `json:"initial_hours"`
	IncrementHours *int `json:"increment_hours"`
	CapHours       *int `json:"cap_hours"`
	// Reminders, in hours before the deadline; default 24 and 1.
	RemindersHours []int  `json:"reminders_hours"`
	TimeoutPolicy  string `json:"timeout_policy"`
	AllowVacation  *bool  `json:"allow_vacation"`
}

func hours(n *int) time.Duration {
	if n == nil {
		return 0
	}
	return time.Duration(*n) * time.Hour
}

// control turns the request into a domain time control (checked there).
func (r *timeRequest) control() (games.TimeControl, error) {
	if r == nil {
		return games.TimeControl{}, nil
	}
	tc := games.TimeControl{Kind: games.TimeKind(r.Kind), Timeout: games.TimeoutPolicy(r.TimeoutPolicy), AllowVacation: true}
	if r.AllowVacation != nil {
		tc.AllowVacation = *r.AllowVacation
	}
	if r.Days != nil && r.Hours != nil {
		return tc, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "time: give days or hours per turn, not both")
	}
	tc.PerTurn = hours(r.Hours) + 24*hours(r.Days)
	tc.Initial, tc.Increment, tc.Cap = hours(r.InitialHours), hours(r.IncrementHours), hours(r.CapHours)
	if r.RemindersHours != nil {
		tc.Reminders = []time.Duration{}
		for _, h := range r.RemindersHours {
			tc.Reminders = append(tc.Reminders, time.Duration(h)*time.Hour)
		}
	}
	return tc, nil
}

// timeView is a game's time control and where its clock stands.
type timeView struct {
	Kind           string         `json:"kind"`
	Hours          *int           `json:"hours,omitempty"`
	InitialHours   *int           `json:"initial_hours,omitempty"`
	IncrementHours *int           `json:"increment_hours,omitempty"`
	CapHours       *int           `json:"cap_hours,omitempty"`
	RemindersHours []int          `json:"reminders_hours"`
	TimeoutPolicy  *string        `json:"timeout_policy,omitempty"`
	AllowVacation  bool           `json:"allow_vacation"`
	BankSeconds    map[string]int `json:"bank_seconds,omitempty"` // time bank left per colour
}

func intp(n int) *int { return &n }

func viewTime(g *games.Game) timeView {
	v := viewControl(g.Clock.Control)
	if g.Clock.Control.Kind == games.TimeBank {
		v.BankSeconds = map[string]int{}
		for i, s := range g.Seats {
			v.BankSeconds[s.Color] = int(g.Clock.Banks[i] / time.Second)
		}
	}
	return v
}

// viewControl shows a time control without a clock (a tournament round's).
func viewControl(tc games.TimeControl) timeView {
	v := timeView{Kind: string(tc.Kind), AllowVacation: tc.AllowVacation, RemindersHours: []int{}}
	if tc.Kind == "" || tc.Kind == games.TimeNone {
		v.Kind = string(games.TimeNone)
		return v
	}
	policy := string(tc.Timeout)
	v.TimeoutPolicy = &policy
	for _, r := range tc.Reminders {
		v.RemindersHours = append(v.RemindersHours, int(r/time.Hour))
	}
	switch tc.Kind {
	case games.TimePerTurn:
		v.Hours = intp(int(tc.PerTurn / time.Hour))
	case games.TimeBank:
		v.InitialHours, v.IncrementHours, v.CapHours = intp(int(tc.Initial/time.Hour)), intp(int(tc.Increment/time.Hour)), intp(int(tc.Cap/time.Hour))
	}
	return v
}

type vacationView struct {
	ID    int64     `json:"id"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

type vacationsView struct {
	Vacations   []vacationView `json:"vacations"`
	DaysLeft    int            `json:"days_left"`
	DaysPerYear int            `json:"days_per_year"`
}

type vacationRequest struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

func (s *Server) listVacations(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountRead)
	if err != nil {
		return err
	}
	list, left, err := s.app.Vacations(c.Request().Context(), p.session.User)
	if err != nil {
		return err
	}
	out := vacationsView{Vacations: []vacationView{}, DaysLeft: left, DaysPerYear: p.session.User.VacationDays}
	for _, v := range list {
		out.Vacations = append(out.Vacations, vacationView{ID: v.ID, Start: v.Start, End: v.End})
	}
	return c.JSON(http.StatusOK, out)
}

// declareVacation records a period away: deadlines of the player's games
// (that allow vacations) do not count it.
func (s *Server) declareVacation(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	var req vacationRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	v, err := s.app.DeclareVacation(c.Request().Context(), p.session.User,
		games.Period{Start: req.Start.UTC().Truncate(time.Minute), End: req.End.UTC().Truncate(time.Minute)})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, vacationView{ID: v.ID, Start: v.Start, End: v.End})
}

func (s *Server) cancelVacation(c echo.Context) error {
	p, err := s.account(c, accounts.ScopeAccountWrite)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return NewProblem(http.StatusNotFound, domain.CodeNotFound, "There is no such vacation.")
	}
	if err := s.app.CancelVacation(c.Request().Context(), p.session.User, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
