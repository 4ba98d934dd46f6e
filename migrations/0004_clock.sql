-- The correspondence clock: each game's time control and where its current
-- turn stands (JSON of domain.Clock), the current deadline, and when the
-- scheduler must next look at the game (a reminder or the deadline).
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT '{}';
ALTER TABLE games ADD COLUMN deadline_at INTEGER;
ALTER TABLE games ADD COLUMN due_at INTEGER;
CREATE INDEX games_due ON games (due_at) WHERE due_at IS NOT NULL;

-- Vacations players declare: time inside them does not count against their
-- deadlines, in games that allow it.
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    starts_at  INTEGER NOT NULL,
    ends_at    INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    CHECK (ends_at > starts_at)
) STRICT;
CREATE INDEX vacations_user ON vacations (user_id, ends_at);

ALTER TABLE users ADD COLUMN vacation_days INTEGER NOT NULL DEFAULT 14;

-- A turn passed because the player's time ran out (counts 3, like any pass).
ALTER TABLE turns ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
