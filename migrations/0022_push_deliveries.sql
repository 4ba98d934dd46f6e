-- The Web Push outbox and delivery log (domain.PushDelivery): one row per
-- event and push subscription, claimed, retried and logged as webhook
-- deliveries are (the same attempt columns, the same shared code in repo).
-- The event's fields are copied; the message itself (with its move link, a
-- secret) is rendered only when it is sent. A subscription that is deleted
-- (unsubscribed, or gone at the push service) takes its deliveries with it.
CREATE TABLE push_deliveries (
    id              INTEGER PRIMARY KEY,
    subscription_id INTEGER NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
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
CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX push_deliveries_subscription ON push_deliveries (subscription_id, id);
CREATE INDEX push_deliveries_event_at ON push_deliveries (event_at);

-- Fan-out: every event of a pushed kind (domain.PushEventKinds) that
-- concerns an address is queued for each live subscription of that
-- address, in the transaction that writes the event: exactly once.
CREATE TRIGGER events_push AFTER INSERT ON events
WHEN NEW.email <> '' AND NEW.kind IN ('your_turn', 'deadline_near', 'invitation', 'round_start', 'game_over') BEGIN
    INSERT INTO push_deliveries (subscription_id, kind, game_id, color, ply, data, event_at, next_attempt_at)
    SELECT p.id, NEW.kind, NEW.game_id, NEW.color, NEW.ply, NEW.data, NEW.created_at, NEW.created_at
    FROM push_subscriptions p
    WHERE p.owner = NEW.email AND (p.expires_at IS NULL OR p.expires_at > NEW.created_at);
END;
