package notify

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/repotest"
)

// mailGame is a game played through the use cases on a fresh database, at
// a clock the test moves, whose mail the test renders.
type mailGame struct {
	tb  testing.TB
	db  *repo.DB
	svc *domain.Service
	now time.Time
	g   domain.Game
}

func newMailGame(tb testing.TB, spec domain.NewGameSpec) *mailGame {
	tb.Helper()
	ctx := tb.Context()
	db, err := repo.Open(ctx, repotest.Path(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	mg := &mailGame{tb: tb, db: db, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	var creator domain.User
	err = db.Transact(ctx, func(tx domain.StoreTx) error {
		creator, err = tx.EnsureUser(ctx, "org@example.org", mg.now)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	mg.svc = domain.NewService(domain.ServiceConfig{Store: db, Now: func() time.Time { return mg.now }})
	if mg.g, err = mg.svc.CreateGame(ctx, spec, creator.ID); err != nil {
		tb.Fatal(err)
	}
	return mg
}

// players are n players, with a locale each.
func players(n int) []domain.Player {
	all := []domain.Player{{Name: "Ann", Email: "ann@example.org", Locale: "en"}, {Name: "Bob", Email: "bob@example.org", Locale: "fr"},
		{Name: "Cat", Email: "cat@example.org", Locale: "de"}, {Name: "Dan", Email: "dan@example.org", Locale: "it"}}
	return all[:n]
}

// reread reads the game as stored.
func (mg *mailGame) reread() {
	mg.tb.Helper()
	var err error
	if mg.g, err = mg.db.Game(mg.tb.Context(), mg.g.ID); err != nil {
		mg.tb.Fatal(err)
	}
}

// mover is the request of the mover's seat, by its link.
func (mg *mailGame) mover() domain.GameRequest {
	c := mg.g.ToMove()
	s, _ := mg.g.Seat(c)
	return domain.GameRequest{GameID: mg.g.ID, By: domain.Credentials{GameID: mg.g.ID, Seat: &c, LinkVersion: s.TokenVersion}}
}

func created(domain.Actor, *domain.Game, *domain.Submitted, time.Time) (domain.Response, error) {
	return domain.Response{Status: 201}, nil
}

// play plays the mover's ply an hour later.
func (mg *mailGame) play(text string) {
	mg.tb.Helper()
	mg.now = mg.now.Add(time.Hour)
	if _, _, err := mg.svc.SubmitTurn(mg.tb.Context(), mg.mover(), mg.g.Ply(), text, created); err != nil {
		mg.tb.Fatalf("ply %d %q by %s: %v", mg.g.Ply(), text, mg.g.ToMove(), err)
	}
	mg.reread()
}

// playLess plays a legal turn of Less: the example the emails show.
func (mg *mailGame) playLess() {
	mg.tb.Helper()
	turn, ok := mg.g.Rules.(*less.RulesGame).Game.Position().ExampleTurn()
	if !ok {
		mg.tb.Fatalf("no legal turn at ply %d", mg.g.Ply())
	}
	mg.play(turn.String())
}

// resign resigns for the mover.
func (mg *mailGame) resign() {
	mg.tb.Helper()
	mg.now = mg.now.Add(time.Hour)
	if _, _, err := mg.svc.Resign(mg.tb.Context(), mg.mover(), created); err != nil {
		mg.tb.Fatal(err)
	}
	mg.reread()
}

// tick moves the clock to at and does what the game's clock asks then.
func (mg *mailGame) tick(at time.Time) {
	mg.tb.Helper()
	mg.now = at
	if _, err := mg.svc.TickGame(mg.tb.Context(), mg.g.ID); err != nil {
		mg.tb.Fatal(err)
	}
	mg.reread()
}

// due is the mail queued, oldest first.
func (mg *mailGame) due() []domain.OutboxMail {
	mg.tb.Helper()
	due, err := mg.db.DueMail(mg.tb.Context(), mg.now, 10000)
	if err != nil {
		mg.tb.Fatal(err)
	}
	return due
}

// A long game's email, rendered right after its turn (the worker's usual
// case): the position and counts of the game as stored, and the turns
// since the recipient's last.
func BenchmarkRenderCurrentMail(b *testing.B) {
	mg := newMailGame(b, domain.NewGameSpec{Players: players(2),
		Params: less.Params{Walls: strings.Repeat("0", 60), MaxTurns: new(60)}.Map()})
	for range 100 {
		mg.playLess()
	}
	due := mg.due()
	i := slices.IndexFunc(due, func(m domain.OutboxMail) bool {
		return m.Notice.Kind == domain.NoticeYourTurn && m.Notice.Ply == mg.g.Ply()
	})
	if i < 0 || mg.g.Ply() != 100 {
		b.Fatalf("no your-turn mail at ply %d", mg.g.Ply())
	}
	r := &Renderer{Store: mg.db, Links: fakeLinks{}, Host: "less.example"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Render(b.Context(), due[i]); err != nil {
			b.Fatal(err)
		}
	}
}
