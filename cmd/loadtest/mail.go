package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver, as the server uses
)

// MailSummary is the turn -> SMTP hand-off latency of the emails created in
// a window: from the outbox row's created_at (the time of the turn that
// queued it, in the same transaction) to its sent_at (recorded right after
// the SMTP server accepted the message). Emails still pending are counted
// with their age so far, a lower bound of their latency.
type MailSummary struct {
	Kinds   []string `json:"kinds"`
	Emails  int      `json:"emails"`
	Sent    int      `json:"sent"`
	Pending int      `json:"pending"`
	Failed  int      `json:"failed"`
	P50     Duration `json:"p50"`
	P95     Duration `json:"p95"`
	P99     Duration `json:"p99"`
	Max     Duration `json:"max"`
	Waited  Duration `json:"waited"`
	// SentPerSecond is how many emails of any kind the outbox handed to SMTP
	// per second during the window: what the worker kept up with.
	SentPerSecond float64 `json:"sent_per_second_in_window"`
	// BehindAtEnd is how many emails created before the window's end were
	// not yet sent at its end: the backlog the load left.
	BehindAtEnd int `json:"behind_at_window_end"`
	// Backlog is how many emails created before each fifth of the window
	// (its start, 20%, ..., its end) were not yet sent at that moment: flat
	// when the outbox keeps pace, growing when it falls behind.
	Backlog []int `json:"backlog"`
}

func (m *MailSummary) print(w io.Writer) {
	fmt.Fprintf(w, "turn -> SMTP hand-off (%s emails created in the window; waited %v for the outbox):\n", strings.Join(m.Kinds, ", "), m.Waited)
	fmt.Fprintf(w, "  %d emails: %d sent, %d pending, %d failed\n", m.Emails, m.Sent, m.Pending, m.Failed)
	fmt.Fprintf(w, "  latency p50 %v  p95 %v  p99 %v  max %v (pending ones count with their age so far)\n", m.P50, m.P95, m.P99, m.Max)
	fmt.Fprintf(w, "  outbox sent %.1f emails/s during the window; %d emails created before its end were still unsent at its end\n", m.SentPerSecond, m.BehindAtEnd)
	fmt.Fprintf(w, "  backlog (created, not yet sent) at 0, 20, 40, 60, 80, 100%% of the window: %v\n", m.Backlog)
}

// openReadOnly opens a lesspost database file for reading only, beside a
// server that may still be writing it (WAL readers never block it).
func openReadOnly(path string) (*sql.DB, error) {
	q := url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(5000)"}}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, db.Ping()
}

// mailLatency waits (up to wait) until the emails of the given kinds
// created in [from, to) are sent, then measures them.
func mailLatency(ctx context.Context, path string, from, to time.Time, wait time.Duration, kinds []string) (*MailSummary, error) {
	db, err := openReadOnly(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	args := []any{from.UnixMilli(), to.UnixMilli()}
	marks := make([]string, len(kinds))
	for i, k := range kinds {
		marks[i] = "?"
		args = append(args, k)
	}
	where := `created_at >= ? AND created_at < ? AND kind IN (` + strings.Join(marks, ",") + `)`
	t0 := time.Now()
	for {
		var pending int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE `+where+` AND sent_at IS NULL AND failed_at IS NULL`, args...).Scan(&pending); err != nil {
			return nil, fmt.Errorf("count pending mail: %w", err)
		}
		if pending == 0 || time.Since(t0) > wait {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	m := &MailSummary{Kinds: kinds, Waited: Duration(time.Since(t0).Round(time.Millisecond))}
	rows, err := db.QueryContext(ctx, `SELECT created_at, sent_at, failed_at IS NOT NULL FROM outbox WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("read mail: %w", err)
	}
	defer rows.Close()
	now := time.Now().UnixMilli()
	var lat []time.Duration
	for rows.Next() {
		var created int64
		var sent sql.NullInt64
		var failed bool
		if err := rows.Scan(&created, &sent, &failed); err != nil {
			return nil, err
		}
		m.Emails++
		switch {
		case sent.Valid:
			m.Sent++
			lat = append(lat, time.Duration(sent.Int64-created)*time.Millisecond)
		case failed:
			m.Failed++
		default:
			m.Pending++
			lat = append(lat, time.Duration(now-created)*time.Millisecond)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		m.P50, m.P95, m.P99, m.Max = Duration(percentile(lat, 50)), Duration(percentile(lat, 95)), Duration(percentile(lat, 99)), Duration(lat[len(lat)-1])
	}
	var sentIn int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE sent_at >= ? AND sent_at < ?`, from.UnixMilli(), to.UnixMilli()).Scan(&sentIn); err != nil {
		return nil, err
	}
	m.SentPerSecond = float64(sentIn) / to.Sub(from).Seconds()
	for i := range 6 {
		at := from.Add(to.Sub(from) * time.Duration(i) / 5)
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE created_at < ?1 AND failed_at IS NULL AND (sent_at IS NULL OR sent_at >= ?1)`,
			at.UnixMilli()).Scan(&n); err != nil {
			return nil, err
		}
		m.Backlog = append(m.Backlog, n)
	}
	m.BehindAtEnd = m.Backlog[len(m.Backlog)-1]
	return m, nil
}

func runMail(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("mail", `Reports the turn -> SMTP hand-off latency of the emails created in a window,
from the outbox of a lesspost database file: created_at (the turn's commit) to
sent_at (the SMTP server accepted the message). Safe beside a running server.`, stderr)
	path := fs.String("db", "", "the server's SQLite database `file`")
	fromS := fs.String("from", "", "window start: RFC 3339 time or Unix milliseconds (default: --last before now)")
	toS := fs.String("to", "", "window end: RFC 3339 time or Unix milliseconds (default: now)")
	last := fs.Duration("last", time.Minute, "window length when --from is not given")
	wait := fs.Duration("wait", 0, "wait up to this long for the window's emails to be sent first")
	kinds := fs.String("kinds", "your_turn,game_over", "comma-separated outbox kinds to measure")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *path == "" {
		return fmt.Errorf("--db is required")
	}
	to := time.Now()
	var err error
	if *toS != "" {
		if to, err = parseTime(*toS); err != nil {
			return fmt.Errorf("--to: %w", err)
		}
	}
	from := to.Add(-*last)
	if *fromS != "" {
		if from, err = parseTime(*fromS); err != nil {
			return fmt.Errorf("--from: %w", err)
		}
	}
	m, err := mailLatency(ctx, *path, from, to, *wait, strings.Split(*kinds, ","))
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, m)
	}
	fmt.Fprintf(stdout, "window %s .. %s\n", from.UTC().Format(time.RFC3339Nano), to.UTC().Format(time.RFC3339Nano))
	m.print(stdout)
	return nil
}

func parseTime(s string) (time.Time, error) {
	var ms int64
	if _, err := fmt.Sscan(s, &ms); err == nil && !strings.ContainsAny(s, "-:T") {
		return time.UnixMilli(ms), nil
	}
	return time.Parse(time.RFC3339Nano, s)
}
