-- Addresses that turned off non-essential mail (reminders, spectator
-- notices) with an unsubscribe link. Moves and results still go to them.
CREATE TABLE unsubscribes (
    email      TEXT    PRIMARY KEY,
    created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- The language of mail that belongs to no seat (login links).
ALTER TABLE outbox ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
