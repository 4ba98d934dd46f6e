package sqlite

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/lesspost/lesspost/domain"
)

// Group commit. Every write transaction goes to one goroutine that owns the
// write connection. It takes whatever transactions are waiting, up to
// maxBatch, runs each inside a savepoint of one SQLite transaction, and
// commits them together: the commit's WAL write is shared, and a rolled-back
// transaction undoes only its own savepoint. Each caller learns its outcome
// only after the commit, so nothing is acknowledged that is not durable.
//
// It also makes the queue fair. Callers waiting on database/sql for the one
// connection were served in random order, which under load gave the
// slowest requests several times the median wait.

// maxBatch bounds the transactions committed together, and with it how long
// the first of them waits for the commit.
const maxBatch = 64

// errClosed is returned by writes after Close.
var errClosed = errors.New("database closed")

type writeJob struct {
	ctx  context.Context
	fn   func(*Tx) error
	done chan writeOutcome // buffered: the writer never waits for a caller
}

type writeOutcome struct {
	err      error
	panicked any // what fn panicked with; the caller panics again
}

func (o writeOutcome) failed() bool { return o.err != nil || o.panicked != nil }

// write runs fn in the next batch and waits for its outcome. It waits even
// when ctx ends meanwhile, because fn's changes may already be committing:
// a caller never reports a failure for a change that was kept.
func (db *DB) write(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	job := &writeJob{ctx: ctx, fn: fn, done: make(chan writeOutcome, 1)}
	select {
	case db.jobs <- job:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.closing:
		return errClosed
	}
	out := <-job.done
	if out.panicked != nil {
		panic(out.panicked)
	}
	if sqliteUnavailable(out.err) {
		return domain.Unavailable(out.err)
	}
	return out.err
}

// writeLoop runs batches until Close.
func (db *DB) writeLoop() {
	defer close(db.writerDone)
	batch := make([]*writeJob, 0, maxBatch)
	for {
		select {
		case <-db.closing:
			return
		case <-db.syncAsked:
			// A read found that something committed: look again.
			db.syncCache(db.writeConn)
			continue
		case job := <-db.jobs:
			batch = append(batch[:0], job)
		}
	more:
		for len(batch) < maxBatch {
			select {
			case job := <-db.jobs:
				batch = append(batch, job)
			default:
				break more
			}
		}
		outcomes := db.commitBatch(batch)
		db.noteWrites(outcomes)
		// The commit moved the monitor's data_version, so reads do not trust
		// the game cache until the writer has looked again for other
		// processes' commits: it does so at once, before the callers learn
		// their outcome and read what they wrote.
		db.syncCache(db.writeConn)
		for i, job := range batch {
			job.done <- outcomes[i]
		}
		clear(batch) // let the jobs' closures go
		// After the callers have their outcome: the next batch waits for it.
		db.limitWAL()
	}
}

// noteWrites notes a write that failed for want of disk (see Ping).
func (db *DB) noteWrites(outcomes []writeOutcome) {
	for _, o := range outcomes {
		if sqliteUnavailable(o.err) {
			db.writesFailing.Store(true)
			return
		}
	}
}

// begin begins a batch's transaction, which holds SQLite's write lock, and
// looks for other processes' commits (syncCache).
func (db *DB) begin() (*Tx, error) {
	// Not a caller's context: one caller giving up must not end the others'
	// transaction. Each job's statements use its own context.
	sqlTx, err := db.writeConn.BeginTx(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	tx := &Tx{sqlTx: sqlTx, stmts: db.writeStmts, cache: db.games}
	db.syncCache(tx.sqlTx)
	// Whatever reads asked for before is done: nothing commits while tx
	// holds the lock.
	select {
	case <-db.syncAsked:
	default:
	}
	return tx, nil
}

// commitBatch runs jobs in one transaction and commits it.
func (db *DB) commitBatch(jobs []*writeJob) []writeOutcome {
	outcomes := make([]writeOutcome, len(jobs))
	failAll := func(err error) []writeOutcome {
		for i := range outcomes {
			if !outcomes[i].failed() {
				outcomes[i].err = err
			}
		}
		return outcomes
	}
	tx, err := db.begin()
	if err != nil {
		return failAll(fmt.Errorf("begin transaction: %w", err))
	}
	var games batchGames
	tx.batch = &games
	defer func() { _ = tx.Rollback() }() // after a Commit, it does nothing
	if len(jobs) == 1 {
		// Alone in its batch, a job needs no savepoint: an error rolls back
		// the whole transaction.
		tx.games = &jobGames{}
		if outcomes[0] = runJob(jobs[0], tx); outcomes[0].failed() {
			return outcomes
		}
		games.add(tx.games)
	} else {
		for i, job := range jobs {
			if err := exec(tx, sqlSavepoint); err != nil {
				return failAll(fmt.Errorf("begin savepoint: %w", err))
			}
			tx.games = &jobGames{}
			outcomes[i] = runJob(job, tx)
			if outcomes[i].failed() {
				if err := exec(tx, sqlRollbackToSavepoint); err != nil {
					return failAll(fmt.Errorf("roll back savepoint: %w", err))
				}
			} else {
				games.add(tx.games)
			}
			if err := exec(tx, sqlReleaseSavepoint); err != nil {
				return failAll(fmt.Errorf("release savepoint: %w", err))
			}
		}
	}
	// Before the commit makes the changes visible, so that no read meets
	// an entry older than them; and after, so that no read that began
	// before fills one (see gameCache).
	ids := slices.Collect(maps.Keys(games.rows))
	if games.touched {
		db.games.clear()
	} else if len(ids) > 0 {
		db.games.evict(ids...)
	}
	err = tx.Commit()
	if games.touched {
		db.games.clear()
	} else if len(ids) > 0 {
		db.games.committed(ids, games.filled(err == nil))
	}
	if err != nil {
		return failAll(fmt.Errorf("commit transaction: %w", err))
	}
	return outcomes
}

// runJob runs one job's fn, turning a panic into an outcome.
func runJob(job *writeJob, tx *Tx) (out writeOutcome) {
	if err := job.ctx.Err(); err != nil {
		return writeOutcome{err: err}
	}
	defer func() {
		if p := recover(); p != nil {
			out = writeOutcome{panicked: p}
		}
	}()
	if err := job.fn(tx); err != nil {
		return writeOutcome{err: err}
	}
	return writeOutcome{}
}

const (
	sqlSavepoint           = "SAVEPOINT job"
	sqlRollbackToSavepoint = "ROLLBACK TO job"
	sqlReleaseSavepoint    = "RELEASE job"
)

// exec runs the writer's own statements, which change no game.
func exec(tx *Tx, query string) error {
	_, err := tx.execGame(context.Background(), query)
	return err
}
