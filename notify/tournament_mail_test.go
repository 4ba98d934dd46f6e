package notify

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// tournamentRecords serves one tournament and its games to the renderer.
type tournamentRecords struct {
	t     tournaments.Tournament
	games map[string]games.Game
	zones map[string]string // accounts' time zones by address
}

func (s *tournamentRecords) Game(_ context.Context, id string) (games.Game, error) {
	if g, ok := s.games[id]; ok {
		return g, nil
	}
	return games.Game{}, fmt.Errorf("no game %s", id)
}
func (s *tournamentRecords) Turns(context.Context, string) ([]games.StoredTurn, error) {
	return nil, nil
}
func (s *tournamentRecords) TurnsFrom(context.Context, string, int) ([]games.StoredTurn, error) {
	return nil, nil
}
func (s *tournamentRecords) TimeZoneOf(_ context.Context, email string) (string, error) {
	return s.zones[email], nil
}
func (s *tournamentRecords) Tournament(_ context.Context, id string) (tournaments.Tournament, error) {
	if id != s.t.ID {
		return tournaments.Tournament{}, fmt.Errorf("no tournament %s", id)
	}
	return s.t, nil
}

// tournamentFixture is a three-player round robin whose first round
// closed (Ann's game with Bob adjudicated at the deadline, Cat's bye),
// whose second round runs with its game extended, and from which Cat then
// withdrew herself: every kind of tournament mail has something to say.
func tournamentFixture(t *testing.T) *tournamentRecords {
	t.Helper()
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tour, err := tournaments.CreateTournament(tournaments.NewTournamentSpec{Name: "Winter Cup", Format: tournaments.RoundRobin,
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}},
		FirstStart: t0.Add(time.Hour), Interval: 24 * time.Hour}, "t_cup", 1, t0, 7)
	if err != nil {
		t.Fatal(err)
	}
	s := &tournamentRecords{games: map[string]games.Game{}}
	play := func(at time.Time, adjudicate bool) {
		r, toPlay, err := tour.StartRound(at)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range toPlay {
			id := fmt.Sprintf("g_r%d", r.Number)
			created, err := games.CreateGame(tour.GameSpec(r, i), id, 1, at, r.Seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.Games[i].GameID = id
			g := created.Game
			if adjudicate {
				sub, err := games.Adjudicate(g, r.Deadline)
				if err != nil {
					t.Fatal(err)
				}
				g = sub.Game
				res, _ := g.Result()
				tour.RecordResult(id, res, r.Deadline)
			}
			s.games[id] = g
		}
		if adjudicate {
			if err := tour.CloseRound(r.Deadline); err != nil {
				t.Fatal(err)
			}
		}
	}
	play(t0.Add(time.Hour), true)
	play(t0.Add(25*time.Hour), false)
	if err := tour.ExtendGame("g_r2", 6*time.Hour, "a power cut", t0.Add(30*time.Hour)); err != nil {
		t.Fatal(err)
	}
	s.t = tour
	return s
}

// tournamentMails are the golden tournament emails: name, notice, recipient.
func tournamentMails(s *tournamentRecords) []struct {
	name string
	n    domain.Notice
} {
	return []struct {
		name string
		n    domain.Notice
	}{
		{"round_results", domain.Notice{Kind: domain.NoticeRoundResults, Email: "cat@example.org", Tournament: "t_cup", Ply: 1}},
		{"round_results_organiser", domain.Notice{Kind: domain.NoticeRoundResults, Email: "org@example.org", Tournament: "t_cup", Ply: 1}},
		{"final_standings", domain.Notice{Kind: domain.NoticeFinalStandings, Email: "ann@example.org", Tournament: "t_cup", Ply: 1}},
		{"tournament_extended", domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: "ann@example.org", Tournament: "t_cup", Ply: len(s.t.Log)}},
		{"round_deadline", domain.Notice{Kind: domain.NoticeRoundDeadline, Email: "ann@example.org", Tournament: "t_cup", Ply: 2}},
	}
}

// One golden file per tournament email and language. Run `go test
// ./notify -run Golden -update` after a wording change and read the diff.
func TestGoldenTournament(t *testing.T) {
	s := tournamentFixture(t)
	r := &Renderer{Store: s, Links: fakeLinks{}, Host: "less.example"}
	for _, locale := range languages {
		for _, c := range tournamentMails(s) {
			t.Run(c.name+"."+locale, func(t *testing.T) {
				msg, err := r.Render(t.Context(), domain.OutboxMail{ID: 1, Notice: c.n, Email: c.n.Email, Locale: locale, MessageID: "m1"})
				if err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata", "golden", "tournament_"+c.name+"."+locale+".txt"), goldenText(msg))
			})
		}
	}
}

// The mail of a log entry: a player withdrawing himself names him to the
// organiser; an entry or round that does not exist is an error, not an
// empty email; a reminder of a round's deadline to a player without a
// game in it running is obsolete (dropped).
func TestTournamentMailEntries(t *testing.T) {
	s := tournamentFixture(t)
	if _, err := s.t.Withdraw(2, tournaments.WithdrawForfeit, tournaments.ByPlayer("Cat"), "", s.t.UpdatedAt); err != nil {
		t.Fatal(err)
	}
	r := &Renderer{Store: s, Links: fakeLinks{}, Host: "less.example"}
	render := func(n domain.Notice) (Message, error) {
		return r.Render(t.Context(), domain.OutboxMail{ID: 1, Notice: n, Email: n.Email, Locale: "en", MessageID: "m1"})
	}
	msg, err := render(domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: "org@example.org", Tournament: "t_cup", Ply: len(s.t.Log)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Winter Cup: Cat withdrew", "Cat withdrew from the tournament Winter Cup", "you organise the tournament"} {
		if !strings.Contains(msg.Subject+"\n"+msg.Text, want) {
			t.Errorf("the organiser's withdrawal email lacks %q:\n%s\n%s", want, msg.Subject, msg.Text)
		}
	}
	for _, n := range []domain.Notice{
		{Kind: domain.NoticeRoundDeadline, Email: "ann@example.org", Tournament: "t_cup", Ply: 1}, // closed
		{Kind: domain.NoticeRoundDeadline, Email: "cat@example.org", Tournament: "t_cup", Ply: 2}, // withdrew
		{Kind: domain.NoticeRoundDeadline, Email: "org@example.org", Tournament: "t_cup", Ply: 2}, // plays not
	} {
		if _, err := render(n); !errors.Is(err, ErrObsolete) {
			t.Errorf("render %+v: %v; want obsolete", n, err)
		}
	}
	for _, n := range []domain.Notice{
		{Kind: domain.NoticeTournamentUpdate, Email: "ann@example.org", Tournament: "t_cup", Ply: len(s.t.Log) + 1},
		{Kind: domain.NoticeTournamentUpdate, Email: "ann@example.org", Tournament: "t_cup", Ply: 0},
		{Kind: domain.NoticeRoundResults, Email: "ann@example.org", Tournament: "t_cup", Ply: 9},
		{Kind: domain.NoticeRoundResults, Email: "ann@example.org", Tournament: "t_other", Ply: 1},
	} {
		if _, err := render(n); err == nil {
			t.Errorf("render %+v: no error", n)
		}
	}
}

// Every language has every tournament phrase and the words of every
// mailed action, with the placeholders English uses.
func TestTournamentPhrasesEveryLocale(t *testing.T) {
	en := tournamentCatalog["en"]
	for _, locale := range languages {
		p, ok := tournamentCatalog[locale]
		if !ok {
			t.Errorf("no tournament phrases in %s", locale)
			continue
		}
		v, ve := reflect.ValueOf(*p), reflect.ValueOf(*en)
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if s, ok := v.Field(i).Interface().(string); ok {
				if s == "" {
					t.Errorf("%s: %s is empty", locale, name)
				}
				if got, want := placeholders(t, s), placeholders(t, ve.Field(i).String()); !slices.Equal(got, want) {
					t.Errorf("%s: %s uses %v; English %v", locale, name, got, want)
				}
			}
		}
		for action, words := range en.Actions {
			if got, want := placeholders(t, p.Actions[action]), placeholders(t, words); p.Actions[action] == "" || !slices.Equal(got, want) {
				t.Errorf("%s: action %s: %q uses %v; English %v", locale, action, p.Actions[action], got, want)
			}
		}
		if len(p.Actions) != len(en.Actions) {
			t.Errorf("%s: %d actions; English has %d", locale, len(p.Actions), len(en.Actions))
		}
	}
}

// Deadlines are written in the reader's time zone (his account's), named;
// without one, and for a zone this server does not know, in UTC.
func TestTournamentMailInTheReadersTime(t *testing.T) {
	s := tournamentFixture(t)
	r := &Renderer{Store: s, Links: fakeLinks{}, Host: "less.example"}
	n := domain.Notice{Kind: domain.NoticeRoundDeadline, Email: "ann@example.org", Tournament: "t_cup", Ply: 2}
	render := func() string {
		t.Helper()
		msg, err := r.Render(t.Context(), domain.OutboxMail{ID: 1, Notice: n, Email: n.Email, Locale: "en", MessageID: "m1"})
		if err != nil {
			t.Fatal(err)
		}
		return msg.Text
	}
	utc := render()
	deadline := regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d UTC`).FindString(utc)
	if deadline == "" {
		t.Fatalf("no deadline in UTC in:\n%s", utc)
	}
	at, err := time.Parse("2006-01-02 15:04 MST", deadline)
	if err != nil {
		t.Fatal(err)
	}
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	s.zones = map[string]string{"ann@example.org": "Asia/Tokyo"}
	want := at.In(tokyo).Format("2006-01-02 15:04") + " (Asia/Tokyo)"
	if got := render(); !strings.Contains(got, want) || strings.Contains(got, deadline) {
		t.Errorf("in Tokyo the deadline is not %q:\n%s", want, got)
	}
	s.zones = map[string]string{"ann@example.org": "Nowhere/Atlantis"}
	if got := render(); !strings.Contains(got, deadline) {
		t.Errorf("an unknown zone does not fall back to UTC:\n%s", got)
	}
}

// The mail of a result the organiser set names the game (its players and
// round) and the new result, in every language; so does an annulment, and
// the annulment of a bye names who had it. One golden file per language.
func TestOverrideMailNamesTheGameAndResult(t *testing.T) {
	s := tournamentFixture(t)
	r := &Renderer{Store: s, Links: fakeLinks{}, Host: "less.example"}
	round := s.t.Rounds[0]
	game, bye := -1, -1
	for i, g := range round.Games {
		if g.Black == tournaments.Bye {
			bye = i
		} else {
			game = i
		}
	}
	g := round.Games[game]
	white, black := s.t.Entrants[g.White].Name, s.t.Entrants[g.Black].Name
	pair := white + " – " + black
	at := s.t.UpdatedAt
	render := func(locale string) string {
		t.Helper()
		n := domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: "ann@example.org", Tournament: "t_cup", Ply: len(s.t.Log)}
		msg, err := r.Render(t.Context(), domain.OutboxMail{ID: 1, Notice: n, Email: n.Email, Locale: locale, MessageID: "m1"})
		if err != nil {
			t.Fatal(err)
		}
		return goldenText(msg)
	}
	if err := s.t.Override(1, game, 0, -3, false, "the score was miscounted", at); err != nil {
		t.Fatal(err)
	}
	for _, locale := range languages {
		text := render(locale)
		for _, want := range []string{pair, " 1 ", "0–1", black + " ", " 3"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the override's email lacks %q:\n%s", locale, want, text)
			}
		}
		golden(t, filepath.Join("testdata", "golden", "tournament_overridden."+locale+".txt"), text)
	}
	if err := s.t.Override(1, game, 0.5, 0, false, "both agree", at); err != nil {
		t.Fatal(err)
	}
	if text := render("en"); !strings.Contains(text, "the game "+pair+" of round 1 to ½–½ (a draw)") {
		t.Errorf("a drawn override's email:\n%s", text)
	}
	if err := s.t.Override(1, game, 0, 0, true, "cheating", at); err != nil {
		t.Fatal(err)
	}
	if text := render("en"); !strings.Contains(text, "annulled the result of the game "+pair+" of round 1") {
		t.Errorf("the annulment's email:\n%s", text)
	}
	if err := s.t.Override(1, bye, 0, 0, true, "he never was free", at); err != nil {
		t.Fatal(err)
	}
	if text := render("en"); !strings.Contains(text, "annulled the bye of "+s.t.Entrants[round.Games[bye].White].Name+" in round 1") {
		t.Errorf("the bye's annulment's email:\n%s", text)
	}
}

// A game nobody moved in by its deadline is a double forfeit: its players
// are told so, naming the game (the scheduler's doing, not the
// organiser's), and the round's results show it 0–0, marked. One golden
// file per language.
func TestUnplayedGameMail(t *testing.T) {
	s := tournamentFixture(t)
	r := &Renderer{Store: s, Links: fakeLinks{}, Host: "less.example"}
	round := s.t.Current()
	i := slices.IndexFunc(round.Games, func(g tournaments.TournamentGame) bool { return g.GameID == "g_r2" })
	g := round.Games[i]
	pair := s.t.Entrants[g.White].Name + " – " + s.t.Entrants[g.Black].Name
	to := s.t.Entrants[g.White].Email
	at := round.GameDeadline(i)
	if err := s.t.ScoreUnplayed(i, at); err != nil {
		t.Fatal(err)
	}
	render := func(n domain.Notice, locale string) Message {
		t.Helper()
		msg, err := r.Render(t.Context(), domain.OutboxMail{ID: 1, Notice: n, Email: n.Email, Locale: locale, MessageID: "m1"})
		if err != nil {
			t.Fatal(err)
		}
		return msg
	}
	update := domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: to, Tournament: "t_cup", Ply: len(s.t.Log)}
	for _, locale := range languages {
		msg := render(update, locale)
		if !strings.Contains(msg.Text, pair) || !strings.Contains(msg.Subject, "2") {
			t.Errorf("%s: the unplayed game's email does not name %s of round 2:\n%s\n%s", locale, pair, msg.Subject, msg.Text)
		}
		golden(t, filepath.Join("testdata", "golden", "tournament_unplayed."+locale+".txt"), goldenText(msg))
	}
	if msg := render(update, "en"); msg.Subject != "Winter Cup: your game of round 2 was not played" ||
		!strings.Contains(msg.Text, "nobody moved in your game "+pair+" of round 2 of the tournament Winter Cup by its deadline: it counts as a double forfeit, lost by both of you (0 points each).") {
		t.Errorf("the unplayed game's email:\n%s\n%s", msg.Subject, msg.Text)
	}
	if err := s.t.CloseRound(at); err != nil {
		t.Fatal(err)
	}
	results := render(domain.Notice{Kind: domain.NoticeFinalStandings, Email: to, Tournament: "t_cup", Ply: 2}, "en")
	if want := pair + ": 0–0 (no move by the deadline: a double forfeit)"; !strings.Contains(results.Text, want) {
		t.Errorf("the round's results lack %q:\n%s", want, results.Text)
	}
}

// The mail of a log entry finds it by its number after older entries are
// dropped; an entry no longer kept (dropped, or a join its leave cancelled)
// makes its mail obsolete, and a number never given is an error.
func TestTournamentMailOfADroppedEntry(t *testing.T) {
	s := tournamentFixture(t)
	at := s.t.UpdatedAt
	extended := s.t.LastLogNumber()
	if err := s.t.Pause("holiday", at); err != nil {
		t.Fatal(err)
	}
	paused := s.t.LastLogNumber()
	s.t.TrimLog(1)
	r := &Renderer{Store: s, Links: fakeLinks{}, Host: "less.example"}
	render := func(ply int) (Message, error) {
		n := domain.Notice{Kind: domain.NoticeTournamentUpdate, Email: "ann@example.org", Tournament: "t_cup", Ply: ply}
		return r.Render(t.Context(), domain.OutboxMail{ID: 1, Notice: n, Email: n.Email, Locale: "en", MessageID: "m1"})
	}
	if msg, err := render(paused); err != nil || !strings.Contains(msg.Text, "paused the tournament") {
		t.Errorf("the pause's email: %v\n%s", err, msg.Text)
	}
	if _, err := render(extended); !errors.Is(err, ErrObsolete) {
		t.Errorf("the email of a dropped entry: %v; want obsolete", err)
	}
	if _, err := render(paused + 1); err == nil || errors.Is(err, ErrObsolete) {
		t.Errorf("the email of an entry never logged: %v; want an error", err)
	}
}
