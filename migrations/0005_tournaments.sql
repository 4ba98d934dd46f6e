-- Tournaments: the schedule, entrants, pairings and outcomes are one JSON
-- document (domain.Tournament) — a tournament is small and always read
-- whole — with the columns the scheduler and lists query.
CREATE TABLE tournaments (
    id           TEXT    PRIMARY KEY,
    organizer_id INTEGER NOT NULL REFERENCES users (id),
    name         TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    data         TEXT    NOT NULL,
    version      INTEGER NOT NULL,
    due_at       INTEGER,            -- the next round's start or the running round's deadline
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX tournaments_due ON tournaments (due_at) WHERE due_at IS NOT NULL;

-- A tournament game knows its tournament and round (JSON of domain.TournamentRef).
ALTER TABLE games ADD COLUMN tournament_id TEXT REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN tournament TEXT;
CREATE INDEX games_tournament ON games (tournament_id) WHERE tournament_id IS NOT NULL;

-- Mail about a tournament but no game (a bye).
ALTER TABLE outbox ADD COLUMN tournament_id TEXT;
