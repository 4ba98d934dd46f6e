-- Received mail (repo/inbound.go, domain.Inbox): each message a receiver
-- (the SMTP listener, the IMAP poller) accepted, kept as received before
-- the sender is told so, until a processor has acted on it. dedupe_key
-- makes a second delivery of one message a no-op. A processor claims rows
-- as the outbox's workers do (claimed_by, claimed_until); processed_at and
-- outcome say what became of it. raw holds personal data: the scheduler
-- deletes processed rows after a week (repo.InboundRetention).
CREATE TABLE inbound (
    id            INTEGER PRIMARY KEY,
    dedupe_key    TEXT    NOT NULL UNIQUE,
    source        TEXT    NOT NULL,
    recipient     TEXT    NOT NULL,
    envelope_from TEXT    NOT NULL,
    raw           BLOB    NOT NULL,
    received_at   INTEGER NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    claimed_by    TEXT,
    claimed_until INTEGER,
    processed_at  INTEGER,
    outcome       TEXT
) STRICT;

CREATE INDEX inbound_unprocessed ON inbound (id) WHERE processed_at IS NULL;
CREATE INDEX inbound_processed ON inbound (processed_at) WHERE processed_at IS NOT NULL;
