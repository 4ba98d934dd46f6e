-- Received mail (postgres.DB's Inbox; see the SQLite migration 0016):
-- kept as received before the sender is told so, until a processor has
-- acted on it. Processors claim rows FOR UPDATE SKIP LOCKED.
CREATE TABLE inbound (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dedupe_key    text        NOT NULL UNIQUE,
    source        text        NOT NULL,
    recipient     text        NOT NULL,
    envelope_from text        NOT NULL,
    raw           bytea       NOT NULL,
    received_at   timestamptz NOT NULL,
    attempts      integer     NOT NULL DEFAULT 0,
    claimed_by    text,
    claimed_until timestamptz,
    processed_at  timestamptz,
    outcome       text
);
CREATE INDEX inbound_unprocessed ON inbound (id) WHERE processed_at IS NULL;
CREATE INDEX inbound_processed ON inbound (processed_at) WHERE processed_at IS NOT NULL;
