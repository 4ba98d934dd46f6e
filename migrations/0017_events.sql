-- Live events (domain.Event), written in the transaction of the change that
-- causes them and read by the event streams. SQLite has one writer, so
-- rowid order is commit order: a reader that resumes after an id misses
-- nothing. AUTOINCREMENT, so that an id is never used twice, even once
-- every event was pruned: clients resume after one.
--
-- email is the address an event concerns, '' for the game's own events;
-- game_id is '' for a bye. data is domain.EventData as JSON.
CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    email      TEXT NOT NULL,
    color      TEXT NOT NULL,
    ply        INTEGER NOT NULL,
    data       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX events_of_address ON events (email, id) WHERE email <> '';
CREATE INDEX events_of_game ON events (game_id, id) WHERE email = '';
CREATE INDEX events_created ON events (created_at);
