package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/repo/sqlite"
)

type seedConfig struct {
	DB         string
	Games      int
	Users      int
	Email      string
	Mine       int
	Templates  int
	Four       float64
	MaxHistory int
	Batch      int
}

// The seeded games are copies of a few hundred template games that the
// store itself created and finished (games.Service.CreateGame, then
// games.UpdateGame with games.SubmitTurn for a random number of legal turns and
// games.Resign), so every stored value is in the store's own encoding.
// Copying them in bulk (INSERT ... SELECT, 10,000 games a transaction) is
// what makes a million games take minutes instead of hours: through the
// store API each game would be 10-20 write transactions.
func runSeed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg seedConfig
	fs := newFlagSet("seed", `Fills a lesspost database file (created if missing, migrated by the store) with
--games finished games between --users seeded accounts (u0@seed.example ...),
--mine of them with --email in the first seat (and as creator), spread evenly
among the others. Each game is a copy, under a new id, of one of --templates
games that the store created and finished itself, each with up to
--max-history turns and a resignation. Run it while no server uses the file.
Sign in as --email afterwards (play/read --login-from-log) to read them.`, stderr)
	fs.StringVar(&cfg.DB, "db", "", "the SQLite database `file` to fill")
	fs.IntVar(&cfg.Games, "games", 1_000_000, "finished games to add")
	fs.IntVar(&cfg.Users, "users", 50_000, "seeded accounts that play them (each plays about 2*games/users, or 4*... for four players)")
	fs.StringVar(&cfg.Email, "email", "loadtest@example.org", "the load account's email `address`")
	fs.IntVar(&cfg.Mine, "mine", 1000, "games of --games in which --email plays the first seat")
	fs.IntVar(&cfg.Templates, "templates", 500, "distinct template games to copy")
	fs.Float64Var(&cfg.Four, "four", 0.1, "share of four-player games")
	fs.IntVar(&cfg.MaxHistory, "max-history", 20, "most turns a template game has before its resignation")
	fs.IntVar(&cfg.Batch, "batch", 10_000, "games per write transaction")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case cfg.DB == "":
		return errors.New("--db is required")
	case cfg.Games < 1 || cfg.Users < 4 || cfg.Templates < 1 || cfg.Batch < 1:
		return errors.New("--games, --templates and --batch must be positive and --users at least 4")
	case cfg.Mine < 0 || cfg.Mine > cfg.Games:
		return fmt.Errorf("--mine %d: want 0 to --games", cfg.Mine)
	}
	return seed(ctx, cfg, stdout)
}

const (
	seedDomain       = "seed.example"
	templateEmail    = "template@seed.invalid"
	yearMilliseconds = 365 * 24 * 3600 * 1000
)

func seed(ctx context.Context, cfg seedConfig, log io.Writer) error {
	start := time.Now()
	// 1. The schema, by the store's own migrations.
	store, err := sqlite.Open(ctx, cfg.DB)
	if err != nil {
		return err
	}
	store.Close()

	raw, err := openSeedDB(cfg.DB)
	if err != nil {
		return err
	}
	defer raw.Close()
	// 2. The accounts: the load account, the template creator and the players.
	now := time.Now().UnixMilli()
	if _, err := raw.ExecContext(ctx, `INSERT INTO users (email, created_at) VALUES (?1, ?3), (?2, ?3) ON CONFLICT (email) DO NOTHING`,
		strings.ToLower(cfg.Email), templateEmail, now); err != nil {
		return fmt.Errorf("create accounts: %w", err)
	}
	var firstUser int64
	if err := raw.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, "u0@"+seedDomain).Scan(&firstUser); errors.Is(err, sql.ErrNoRows) {
		if _, err := raw.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
			INSERT INTO users (email, name, created_at) SELECT 'u' || i || '@`+seedDomain+`', 'Player ' || i, ?2 FROM n`, cfg.Users, now); err != nil {
			return fmt.Errorf("create accounts: %w", err)
		}
		err = raw.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, "u0@"+seedDomain).Scan(&firstUser)
		if err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	var last int64
	if err := raw.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, fmt.Sprintf("u%d@%s", cfg.Users-1, seedDomain)).Scan(&last); err != nil || last-firstUser != int64(cfg.Users-1) {
		return fmt.Errorf("the seeded accounts u0..u%d@%s are not numbered consecutively (an earlier seed with another --users?): use a new file", cfg.Users-1, seedDomain)
	}
	var mineID, creatorID int64
	if err := raw.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, strings.ToLower(cfg.Email)).Scan(&mineID); err != nil {
		return err
	}
	if err := raw.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ?`, templateEmail).Scan(&creatorID); err != nil {
		return err
	}
	fmt.Fprintf(log, "accounts ready (%d players) after %v\n", cfg.Users, time.Since(start).Round(time.Millisecond))

	// 3. The templates, through the store.
	raw.Close()
	templates, err := makeTemplates(ctx, cfg, creatorID)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "%d template games played and finished through the store after %v\n", len(templates), time.Since(start).Round(time.Millisecond))

	// 4. The copies.
	if raw, err = openSeedDB(cfg.DB); err != nil {
		return err
	}
	if err := copyTemplates(ctx, raw, cfg, templates, firstUser, mineID, log); err != nil {
		return err
	}
	if _, err := raw.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return err
	}
	var games int
	if err := raw.QueryRowContext(ctx, `SELECT count(*) FROM games`).Scan(&games); err != nil {
		return err
	}
	fmt.Fprintf(log, "done in %v: the file has %d games; %s plays %d of them\n", time.Since(start).Round(time.Second), games, cfg.Email, cfg.Mine)
	return nil
}

// openSeedDB opens the file for bulk writing: one connection (the temporary
// table lives on it), a large page cache, and synchronous=OFF, which is
// safe for a seed that can be rerun.
func openSeedDB(path string) (*sql.DB, error) {
	q := url.Values{"_pragma": {"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(OFF)", "foreign_keys(1)", "cache_size(-524288)"},
		"_time_format": {"sqlite"}}
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	return db, db.Ping()
}

// makeTemplates creates and finishes the template games through the store.
func makeTemplates(ctx context.Context, cfg seedConfig, creatorID int64) ([]string, error) {
	store, err := sqlite.Open(ctx, cfg.DB)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	app := games.NewService(games.Config{Store: store, Now: time.Now})
	rng := rand.New(rand.NewPCG(1, 2))
	actor := games.Actor{UserID: creatorID, UserEmail: templateEmail}
	ids := make([]string, 0, cfg.Templates)
	for range cfg.Templates {
		players := 2
		if rng.Float64() < cfg.Four {
			players = 4
		}
		spec := games.NewGameSpec{}
		for i := range players {
			spec.Players = append(spec.Players, games.Player{Name: fmt.Sprintf("P%d", i+1), Email: templateEmail})
		}
		boardSeed := rng.Uint64()
		spec.Seed = &boardSeed
		g, err := app.CreateGame(ctx, spec, creatorID)
		if err != nil {
			return nil, fmt.Errorf("create template game: %w", err)
		}
		history := rng.IntN(cfg.MaxHistory + 1)
		for range history {
			if g.Over() {
				break
			}
			pos, err := lessPosition(g.Rules)
			if err != nil {
				return nil, fmt.Errorf("template game %s: %w", g.ID, err)
			}
			turn, err := pickTurn(pos, rng)
			if err != nil {
				return nil, err
			}
			if g, err = change(ctx, store, g.ID, func(g games.Game) (games.Submitted, error) {
				return games.SubmitTurn(g, actor, g.Ply(), turn.String(), time.Now())
			}); err != nil {
				return nil, fmt.Errorf("play template game %s: %w", g.ID, err)
			}
		}
		if !g.Over() {
			if g, err = change(ctx, store, g.ID, func(g games.Game) (games.Submitted, error) {
				return games.Resign(g, actor, time.Now())
			}); err != nil {
				return nil, fmt.Errorf("resign template game %s: %w", g.ID, err)
			}
		}
		ids = append(ids, g.ID)
	}
	return ids, nil
}

// change applies one change to a game through the store, as the use cases do.
func change(ctx context.Context, store *sqlite.DB, id string, fn func(games.Game) (games.Submitted, error)) (games.Game, error) {
	var after games.Game
	_, _, err := games.UpdateGame(ctx, store, nil, games.GameUpdate{GameID: id, Now: time.Now(),
		Compute: func(g games.Game) (games.GameChange, error) {
			sub, err := fn(g)
			if err != nil {
				return games.GameChange{}, err
			}
			after = sub.Game
			return games.GameChange{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, nil
		}})
	return after, err
}

// columns lists a table's columns, each as itself or as the expression in
// override, so copies keep every column a later migration adds.
func columns(ctx context.Context, db *sql.DB, table, alias string, override map[string]string) (names, exprs string, err error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return "", "", err
	}
	defer rows.Close()
	var ns, es []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return "", "", err
		}
		ns = append(ns, n)
		if e, ok := override[n]; ok {
			es = append(es, e)
		} else {
			es = append(es, alias+"."+n)
		}
	}
	return strings.Join(ns, ", "), strings.Join(es, ", "), rows.Err()
}

// copyTemplates inserts cfg.Games copies in batches. Game i copies template
// i mod T under a new id (a bijection of i, so ids are spread over the
// primary key as random ids are); its seats are u((4i+seat) mod users), or
// the load account in the first seat of every (games/mine)-th game; its
// times are spread over the past year, oldest first.
func copyTemplates(ctx context.Context, db *sql.DB, cfg seedConfig, templates []string, firstUser, mineID int64, log io.Writer) error {
	if _, err := db.ExecContext(ctx, `CREATE TEMP TABLE tmpl (k INTEGER PRIMARY KEY, id TEXT NOT NULL)`); err != nil {
		return err
	}
	for k, id := range templates {
		if _, err := db.ExecContext(ctx, `INSERT INTO tmpl (k, id) VALUES (?, ?)`, k, id); err != nil {
			return err
		}
	}
	stride := cfg.Games + 1 // no game is the load account's
	if cfg.Mine > 0 {
		stride = cfg.Games / cfg.Mine
	}
	// m: one row per new game with its id, template, owner and time shift.
	const gamesCTE = `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2),
		m AS (SELECT n.i, 'g_' || printf('%012x', (n.i * 2654435761) % 281474976710656) AS gid, tmpl.id AS tid,
			(n.i % ?3 = 0 AND n.i / ?3 < ?4) AS mine,
			?5 - (?6 - n.i) * ?7 - tg.created_at AS shift
			FROM n JOIN tmpl ON tmpl.k = n.i % ?8 JOIN games tg ON tg.id = tmpl.id)`
	gameCols, gameExprs, err := columns(ctx, db, "games", "t", map[string]string{
		"id":         "m.gid",
		"creator_id": fmt.Sprintf("CASE WHEN m.mine THEN %d ELSE %d + (m.i * 4) %% %d END", mineID, firstUser, cfg.Users),
		"created_at": "t.created_at + m.shift", "updated_at": "t.updated_at + m.shift",
	})
	if err != nil {
		return err
	}
	seatCols, seatExprs, err := columns(ctx, db, "seats", "t", map[string]string{
		"game_id": "m.gid",
		"email": fmt.Sprintf("CASE WHEN m.mine AND t.seat_order = 0 THEN %s ELSE 'u' || ((m.i * 4 + t.seat_order) %% %d) || '@%s' END",
			sqlQuote(strings.ToLower(cfg.Email)), cfg.Users, seedDomain),
		"name": fmt.Sprintf("CASE WHEN m.mine AND t.seat_order = 0 THEN 'Load' ELSE 'Player ' || ((m.i * 4 + t.seat_order) %% %d) END", cfg.Users),
	})
	if err != nil {
		return err
	}
	turnCols, turnExprs, err := columns(ctx, db, "turns", "t", map[string]string{"game_id": "m.gid", "played_at": "t.played_at + m.shift"})
	if err != nil {
		return err
	}
	stmts := []string{
		gamesCTE + ` INSERT INTO games (` + gameCols + `) SELECT ` + gameExprs + ` FROM m JOIN games t ON t.id = m.tid`,
		gamesCTE + ` INSERT INTO seats (` + seatCols + `) SELECT ` + seatExprs + ` FROM m JOIN seats t ON t.game_id = m.tid`,
		gamesCTE + ` INSERT INTO turns (` + turnCols + `) SELECT ` + turnExprs + ` FROM m JOIN turns t ON t.game_id = m.tid`,
	}
	spacing := int64(yearMilliseconds / cfg.Games)
	now := time.Now().UnixMilli()
	t0 := time.Now()
	for lo := 0; lo < cfg.Games; lo += cfg.Batch {
		hi := min(lo+cfg.Batch, cfg.Games)
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s, lo, hi, stride, cfg.Mine, now, cfg.Games, spacing, len(templates)); err != nil {
				tx.Rollback()
				return fmt.Errorf("copy games %d-%d: %w", lo, hi, err)
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if hi%(10*cfg.Batch) == 0 || hi == cfg.Games {
			el := time.Since(t0)
			fmt.Fprintf(log, "%d games copied in %v (%.0f/s)\n", hi, el.Round(time.Second), float64(hi)/el.Seconds())
		}
	}
	// The templates themselves go: their seats are not the seeded accounts'.
	for _, table := range []string{"turns", "seats", "outbox"} {
		if _, err := db.ExecContext(ctx, `DELETE FROM `+table+` WHERE game_id IN (SELECT id FROM tmpl)`); err != nil {
			return fmt.Errorf("delete templates' %s: %w", table, err)
		}
	}
	if _, err := db.ExecContext(ctx, `DELETE FROM games WHERE id IN (SELECT id FROM tmpl)`); err != nil {
		return fmt.Errorf("delete templates: %w", err)
	}
	return nil
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
