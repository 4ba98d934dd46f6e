package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// instances opens n stores on one fresh database, as n servers would.
func instances(t testing.TB, n int) (dsn string, dbs []*postgres.DB) {
	t.Helper()
	dsn = pgtest.DSN(t)
	for range n {
		db, err := postgres.Open(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
	}
	return dsn, dbs
}

// Workers of three instances claim and deliver at once: every mail is
// claimed once, and no mail is claimed before the earlier mails of its
// thread were delivered (or are in the same claim).
func TestClaimersRace(t *testing.T) {
	dsn, dbs := instances(t, 3)
	const threads, perThread = 6, 20
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(t.Context()))
	// Threads interleaved in id order; half of them belong to a game.
	thread := map[int64]string{}
	for i := range threads * perThread {
		email, game := fmt.Sprintf("p%d@example.org", i%threads), any(nil)
		if i%threads%2 == 0 {
			game = "g_race"
		}
		var id int64
		if err := conn.QueryRow(t.Context(), `INSERT INTO outbox (kind, email, game_id, color, ply, locale, message_id,
			created_at, next_attempt_at) VALUES ('your_turn', $1, $2, 'white', 1, 'en', $3, $4, $4) RETURNING id`,
			email, game, fmt.Sprint("m", i), t0).Scan(&id); err != nil {
			t.Fatal(err)
		}
		thread[id] = fmt.Sprint(email, game)
	}

	var (
		mu      sync.Mutex
		sent    = map[int64]bool{}
		claimed = map[int64]int{}
		left    atomic.Int64
	)
	left.Store(threads * perThread)
	now := t0.Add(time.Minute)
	var wg sync.WaitGroup
	for w := range 3 * len(dbs) {
		db := dbs[w%len(dbs)]
		claimant := fmt.Sprint("w", w)
		wg.Go(func() {
			for left.Load() > 0 {
				mail, err := db.ClaimMail(t.Context(), claimant, now, time.Hour, 1+rand.IntN(3))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				inClaim := map[int64]bool{}
				for _, m := range mail {
					inClaim[m.ID] = true
				}
				for _, m := range mail {
					claimed[m.ID]++
					for id, th := range thread {
						if th == thread[m.ID] && id < m.ID && !sent[id] && !inClaim[id] {
							t.Errorf("%s claimed mail %d before mail %d of its thread was delivered", claimant, m.ID, id)
						}
					}
					// Recorded before the store commits it: no other claimant
					// can see it delivered sooner.
					sent[m.ID] = true
				}
				mu.Unlock()
				var batch []domain.SentMail
				for _, m := range mail {
					batch = append(batch, domain.SentMail{ID: m.ID, At: now})
				}
				if err := db.MarkSentBatch(t.Context(), claimant, batch); err != nil {
					t.Error(err)
					return
				}
				left.Add(-int64(len(mail)))
			}
		})
	}
	wg.Wait()
	for id := range thread {
		if claimed[id] != 1 {
			t.Errorf("mail %d was claimed %d times", id, claimed[id])
		}
	}
	if b, err := dbs[0].Backlog(t.Context(), now); err != nil || b.MailPending != 0 {
		t.Errorf("after the race: %d pending, %v", b.MailPending, err)
	}
}

// Takers in three instances hammering one key at one moment take exactly
// the burst the tolerance allows; a returned request can be taken again,
// and a full bucket's key is pruned.
func TestRateLimitConcurrentTakers(t *testing.T) {
	_, dbs := instances(t, 3)
	const interval, tolerance = time.Second, 4 * time.Second // a burst of 5
	var taken atomic.Int64
	var wg sync.WaitGroup
	for w := range 12 {
		db := dbs[w%len(dbs)]
		wg.Go(func() {
			for range 10 {
				ok, wait, err := db.TakeRequest(t.Context(), "login:ann", interval, tolerance, t0)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					taken.Add(1)
				} else if wait <= 0 || wait > interval {
					t.Errorf("refused with wait %v, want within (0, %v]", wait, interval)
				}
			}
		})
	}
	wg.Wait()
	if n := taken.Load(); n != 5 {
		t.Errorf("took %d requests at one moment, want the burst of 5", n)
	}
	ctx := t.Context()
	if ok, wait, err := dbs[0].TakeRequest(ctx, "login:ann", interval, tolerance, t0); ok || err != nil || wait != interval {
		t.Errorf("after the burst: ok %v, wait %v, %v; want a refusal for %v", ok, wait, err, interval)
	}
	if err := dbs[1].ReturnRequest(ctx, "login:ann", interval); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := dbs[2].TakeRequest(ctx, "login:ann", interval, tolerance, t0); !ok || err != nil {
		t.Errorf("after a return: ok %v, %v; want it taken", ok, err)
	}
	if err := dbs[0].ReturnRequest(ctx, "login:nobody", interval); err != nil {
		t.Errorf("returning to a missing key: %v", err)
	}
	// Another key is independent; a second later, one more request fits.
	if ok, _, err := dbs[0].TakeRequest(ctx, "login:bob", interval, tolerance, t0); !ok || err != nil {
		t.Errorf("another key: ok %v, %v", ok, err)
	}
	if ok, _, err := dbs[0].TakeRequest(ctx, "login:ann", interval, tolerance, t0.Add(interval)); !ok || err != nil {
		t.Errorf("an interval later: ok %v, %v", ok, err)
	}
	// ann's bucket is full at t0+6s, bob's at t0+1s.
	for _, c := range []struct {
		at   time.Time
		want int
	}{{t0.Add(time.Second - time.Nanosecond), 0}, {t0.Add(time.Second), 1}, {t0.Add(time.Hour), 1}} {
		if n, err := dbs[0].PruneRateLimits(ctx, c.at, 10); err != nil || n != c.want {
			t.Errorf("PruneRateLimits(%v) = %d, %v; want %d", c.at, n, err, c.want)
		}
	}
}

// createGame stores a new game through db, of players of its own: many
// games do not spend one address's mail budget.
func createGame(t testing.TB, db *postgres.DB, id string, tc games.TimeControl) games.Game {
	t.Helper()
	var g games.Game
	err := db.Transact(t.Context(), func(tx domain.StoreTx) error {
		org, err := tx.EnsureUser(t.Context(), "org@example.org", t0)
		if err != nil {
			return err
		}
		c, err := games.CreateGame(games.NewGameSpec{Players: []games.Player{
			{Name: "Ann", Email: "ann-" + id + "@example.org"}, {Name: "Bob", Email: "bob-" + id + "@example.org"}},
			Params: less.Params{Walls: openWalls}.Map(), Creator: org.Email, Time: tc}, id, org.ID, t0, 1, nil)
		if err != nil {
			return err
		}
		g = c.Game
		gt, err := games.NewTx(tx, nil)
		if err != nil {
			return err
		}
		return gt.InsertGame(t.Context(), &c, domain.Cause{By: org.Email}, t0)
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

const openWalls = "000000000000000000000000000000000000000000000000000000000000"

// Changes to one game from two instances at once are each written once,
// none lost: a change that lost the race is computed again, the last time
// under the game's row lock.
func TestVersionRaceBetweenInstances(t *testing.T) {
	_, dbs := instances(t, 2)
	g := createGame(t, dbs[0], "g_race", games.TimeControl{})
	const perWorker, workers = 10, 6
	var wg sync.WaitGroup
	for w := range workers {
		db := dbs[w%len(dbs)]
		wg.Go(func() {
			for range perWorker {
				_, _, err := games.UpdateGame(t.Context(), db, nil, games.GameUpdate{GameID: g.ID, Now: t0,
					Compute: func(g games.Game) (games.GameChange, error) {
						g.Version++ // a change of nothing but the version: an ETag bump
						return games.GameChange{Game: g}, nil
					}})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	got, err := dbs[1].Game(t.Context(), g.ID)
	if err != nil || got.Version != g.Version+perWorker*workers {
		t.Errorf("version %d (%v), want %d: a change was lost", got.Version, err, g.Version+perWorker*workers)
	}
}

// Two instances' schedulers tick the same due game at once: one acts.
func TestSchedulersActOnce(t *testing.T) {
	_, dbs := instances(t, 2)
	g := createGame(t, dbs[0], "g_clock", games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour})
	deadline := t0.Add(3 * 24 * time.Hour)
	for _, at := range []time.Time{deadline.Add(-23 * time.Hour), deadline.Add(time.Minute)} {
		var wg sync.WaitGroup
		acted := make([]bool, len(dbs))
		for i, db := range dbs {
			wg.Go(func() {
				var err error
				svc := games.NewService(games.Config{Store: db, Now: func() time.Time { return at }})
				if acted[i], err = svc.TickGame(t.Context(), g.ID); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if acted[0] == acted[1] {
			t.Errorf("at %v: acted %v; want exactly one", at, acted)
		}
	}
	mail, err := dbs[0].GameMail(t.Context(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[domain.NoticeKind]int{}
	for _, m := range mail {
		counts[m.Kind]++
	}
	if counts[domain.NoticeReminder] != 1 {
		t.Errorf("mail of the game: %v; want one reminder", counts)
	}
}

// BenchmarkStoreTurn is one turn's unit of work, as the API plays it: read
// the game, then in one transaction update it, insert the turn, queue the
// next player's mail and store the idempotent response. Each turn is on a
// game of its own (made before the timer starts), as turns of a busy server
// are.
func BenchmarkStoreTurn(b *testing.B) {
	_, dbs := instances(b, 1)
	db := dbs[0]
	ids := make([]string, b.N)
	for i := range ids {
		ids[i] = createGame(b, db, fmt.Sprint("g_", i), games.TimeControl{}).ID
	}
	var next atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			id := ids[next.Add(1)-1]
			white := "white"
			_, _, err := games.UpdateGame(b.Context(), db, nil, games.GameUpdate{GameID: id, Now: t0,
				Idem: &domain.Idempotency{Scope: "seat:" + id + ":white", Key: "k", Fingerprint: []byte{1}},
				Compute: func(g games.Game) (games.GameChange, error) {
					sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &white}, 0, "e5e4:e4d4:d4c4", t0)
					return games.GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices,
						Response: domain.Response{Status: 201, Body: []byte(`{"ok":true}`)}}, err
				}})
			if err != nil {
				b.Error(err)
			}
		}
	})
}
