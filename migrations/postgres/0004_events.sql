-- Live events (domain.Event), written in the transaction of the change that
-- causes them and read by the event streams.
--
-- Identity values are handed out in the order transactions ask for them,
-- not the order they commit: a reader could see event 11 before event 10
-- commits, and a reader resuming after 11 would skip 10 forever. So each
-- event keeps its transaction's id (tx), events are read in (tx, id) order,
-- and a reader serves only events whose tx is below the oldest transaction
-- still running in its snapshot (see postgres.DB.Events): those are all
-- settled, and any transaction that commits later has a larger tx.
--
-- email is the address an event concerns, '' for the game's own events;
-- game_id is '' for a bye. data is domain.EventData as JSON (text: only
-- ever read back whole).
CREATE TABLE events (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tx         xid8 NOT NULL DEFAULT pg_current_xact_id(),
    kind       text NOT NULL,
    game_id    text NOT NULL,
    email      text NOT NULL,
    color      text NOT NULL,
    ply        integer NOT NULL,
    data       text NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX events_order ON events (tx, id);
CREATE INDEX events_of_address ON events (email, tx, id) WHERE email <> '';
CREATE INDEX events_of_game ON events (game_id, tx, id) WHERE email = '';
CREATE INDEX events_created ON events (created_at);
