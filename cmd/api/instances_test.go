package main

import (
	"database/sql"
	"math/rand/v2"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/notify/smtptest"
)

// outboxRow is what the test reads back from the outbox.
type outboxRow struct {
	messageID, thread, status, deliveredBy string
	kind, email, game                      string
}

// readOutbox lists the outbox of a SQLite file in its order, read-only
// beside the servers.
func readOutbox(t *testing.T, path string) []outboxRow {
	t.Helper()
	db := openReadOnly(t, path)
	defer db.Close()
	return queryOutbox(t, db)
}

// openReadOnly opens a SQLite file read-only, beside the servers that
// write it. Connections open lazily: the file may not exist yet.
func openReadOnly(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?"+url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(5000)"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// queryOutbox lists the outbox in its order, in SQL that SQLite and
// PostgreSQL read alike.
func queryOutbox(t *testing.T, db *sql.DB) []outboxRow {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT message_id, email || ' ' || COALESCE(game_id, ''),
		CASE WHEN sent_at IS NOT NULL THEN 'sent' WHEN failed_at IS NOT NULL THEN 'failed' ELSE 'pending' END,
		COALESCE(claimed_by, ''), kind, email, COALESCE(game_id, '') FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []outboxRow
	for rows.Next() {
		var r outboxRow
		if err := rows.Scan(&r.messageID, &r.thread, &r.status, &r.deliveredBy, &r.kind, &r.email, &r.game); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Two server instances on one database file, with one mail server, while
// games are played on both: every email arrives exactly once, each thread
// (an address and a game) in the order its emails were queued, and both
// instances deliver.
func TestTwoInstancesDeliverEachMailOnce(t *testing.T) {
	smtp := smtptest.Start(t)
	dbPath := filepath.Join(t.TempDir(), "lesspost.db")
	servers := []*server{startServer(t, dbPath, smtp.Addr), startServer(t, dbPath, smtp.Addr)}
	const email = "org@example.org"
	token := servers[0].login(smtp, email)

	// Games whose every seat is the account's, so its token plays them all
	// and all their mail is to one address: one thread per game.
	var games []crashGame
	for i := range 4 {
		players := []map[string]any{{"name": "P1", "email": email}, {"name": "P2", "email": email}}
		var g crashGame
		servers[i%2].call("POST", "/v1/games", token, map[string]any{"players": players,
			"board": map[string]any{"walls": strings.Repeat("0", 60)}}, http.StatusCreated, &g)
		games = append(games, g)
	}
	// Turns go to either instance, so that each wakes its own worker.
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 6 {
		for i := range games {
			g := &games[i]
			if g.Status != "active" {
				continue
			}
			pos, err := g.position()
			if err != nil {
				t.Fatal(err)
			}
			var res crashPlayed
			servers[(i+round)%2].call("POST", "/v1/games/"+g.ID+"/turns", token,
				map[string]any{"turn": randomTurn(pos, rng).String(), "ply": g.Ply}, http.StatusCreated, &res)
			*g = res.Game
		}
	}

	var outbox []outboxRow
	waitFor(t, func() bool {
		outbox = readOutbox(t, dbPath)
		for _, r := range outbox {
			if r.status == "pending" {
				return false
			}
		}
		return true
	})
	// The SMTP server got every mail once, nothing else, in thread order.
	arrived := map[string]int{} // Message-ID → position of arrival
	for i, m := range smtp.Messages() {
		id := strings.Trim(m.Header.Get("Message-Id"), "<>")
		if _, twice := arrived[id]; twice {
			t.Errorf("%s arrived twice", id)
		}
		arrived[id] = i
	}
	if len(arrived) != len(outbox) {
		t.Errorf("%d emails arrived, the outbox has %d", len(arrived), len(outbox))
	}
	last := map[string]int{} // thread → arrival of its latest email so far in outbox order
	deliverers := map[string]int{}
	for _, r := range outbox {
		at, ok := arrived[r.messageID+"@lesspost.test"]
		if r.status != "sent" || !ok {
			t.Errorf("%s (%s) is %s, arrived %v", r.messageID, r.thread, r.status, ok)
			continue
		}
		if prev, ok := last[r.thread]; ok && prev > at {
			t.Errorf("%s: %s arrived before the email queued ahead of it", r.thread, r.messageID)
		}
		last[r.thread] = at
		deliverers[r.deliveredBy]++
	}
	if len(deliverers) != 2 {
		t.Errorf("the emails were delivered by %v, want both instances", deliverers)
	}
	t.Logf("%d emails in %d threads, delivered by %v", len(outbox), len(last), deliverers)
}
