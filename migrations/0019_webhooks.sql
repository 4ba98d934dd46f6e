-- Webhooks (domain.WebhookEndpoint): an account's HTTPS endpoints and the
-- event kinds each wants. event_types is space-separated with a space at
-- either end (' turn_played game_over '), so that the trigger below finds a
-- kind with instr. secret signs every delivery; previous_secret, after a
-- rotation, signs beside it until previous_until. failing_since is the
-- first failed attempt since the last delivered one (NULL: not failing).
CREATE TABLE webhook_endpoints (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url             TEXT    NOT NULL,
    description     TEXT    NOT NULL DEFAULT '',
    event_types     TEXT    NOT NULL,
    enabled         INTEGER NOT NULL DEFAULT 1,
    disabled_reason TEXT    NOT NULL DEFAULT '',
    secret          TEXT    NOT NULL,
    previous_secret TEXT,
    previous_until  INTEGER,
    failing_since   INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_endpoints_user ON webhook_endpoints (user_id);

-- The webhook outbox and delivery log: one row per event and endpoint.
-- msg_id is the webhook-id receivers deduplicate by: the same on every
-- attempt and redelivery. The event's fields are copied, so a delivery
-- outlives the event's retention. next_attempt_at is NULL once the delivery
-- is delivered or given up; claimed_by/claimed_until are a worker's lease.
CREATE TABLE webhook_deliveries (
    id              INTEGER PRIMARY KEY,
    endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    msg_id          TEXT    NOT NULL UNIQUE,
    kind            TEXT    NOT NULL,
    game_id         TEXT    NOT NULL,
    color           TEXT    NOT NULL,
    ply             INTEGER NOT NULL,
    data            TEXT    NOT NULL,
    event_at        INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    delivered_at    INTEGER,
    failed_at       INTEGER,
    last_attempt_at INTEGER,
    last_status     INTEGER,
    last_error      TEXT,
    claimed_by      TEXT,
    claimed_until   INTEGER
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);
CREATE INDEX webhook_deliveries_event_at ON webhook_deliveries (event_at);

-- Fan-out: every event that concerns an address is queued for each enabled
-- endpoint of that address's account that wants its kind, in the
-- transaction that writes the event. Exactly once: the event is written
-- once, and with it its deliveries, or neither.
CREATE TRIGGER events_webhooks AFTER INSERT ON events WHEN NEW.email <> '' BEGIN
    INSERT INTO webhook_deliveries (endpoint_id, msg_id, kind, game_id, color, ply, data, event_at, next_attempt_at)
    SELECT w.id, 'msg_' || lower(hex(randomblob(16))), NEW.kind, NEW.game_id, NEW.color, NEW.ply, NEW.data,
        NEW.created_at, NEW.created_at
    FROM users u JOIN webhook_endpoints w ON w.user_id = u.id
    WHERE u.email = NEW.email AND w.enabled AND instr(w.event_types, ' ' || NEW.kind || ' ') > 0;
END;
