-- Push subscriptions made with a move link are scoped to that game, seat
-- and link version (domain.PushSubscription.Game): they get only that
-- game's events, and die with the link. Address-wide ones (made with an
-- account token) have game_id = '' and color = '' (not NULL: the key
-- (owner, endpoint, game_id, color) lets one browser hold an address-wide
-- and per-game subscriptions, and NULLs would never conflict), and no
-- link_version. SQLite cannot change a table's UNIQUE key, so both push
-- tables are rebuilt (push_deliveries references push_subscriptions).
DROP TRIGGER events_push;

CREATE TABLE push_subscriptions_new (
    id           INTEGER PRIMARY KEY,
    owner        TEXT    NOT NULL,
    endpoint     TEXT    NOT NULL,
    p256dh       BLOB    NOT NULL,
    auth         BLOB    NOT NULL,
    expires_at   INTEGER,
    created_at   INTEGER NOT NULL,
    game_id      TEXT    NOT NULL DEFAULT '',
    color        TEXT    NOT NULL DEFAULT '',
    link_version INTEGER,
    UNIQUE (owner, endpoint, game_id, color)
) STRICT;
INSERT INTO push_subscriptions_new (id, owner, endpoint, p256dh, auth, expires_at, created_at)
SELECT id, owner, endpoint, p256dh, auth, expires_at, created_at FROM push_subscriptions;

CREATE TABLE push_deliveries_new (
    id              INTEGER PRIMARY KEY,
    subscription_id INTEGER NOT NULL REFERENCES push_subscriptions_new (id) ON DELETE CASCADE,
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
INSERT INTO push_deliveries_new SELECT * FROM push_deliveries;

DROP TABLE push_deliveries;
DROP TABLE push_subscriptions;
-- Renaming also renames the reference in push_deliveries_new.
ALTER TABLE push_subscriptions_new RENAME TO push_subscriptions;
ALTER TABLE push_deliveries_new RENAME TO push_deliveries;

CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);
CREATE INDEX push_subscriptions_seat ON push_subscriptions (game_id, color) WHERE game_id <> '';
CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX push_deliveries_subscription ON push_deliveries (subscription_id, id);
CREATE INDEX push_deliveries_event_at ON push_deliveries (event_at);

-- Fan-out (as in 0022), now respecting the scope: a game-scoped
-- subscription gets only its game's events, and only while its link is
-- the seat's current one and the seat still the owner's.
CREATE TRIGGER events_push AFTER INSERT ON events
WHEN NEW.email <> '' AND NEW.kind IN ('your_turn', 'deadline_near', 'invitation', 'round_start', 'game_over') BEGIN
    INSERT INTO push_deliveries (subscription_id, kind, game_id, color, ply, data, event_at, next_attempt_at)
    SELECT p.id, NEW.kind, NEW.game_id, NEW.color, NEW.ply, NEW.data, NEW.created_at, NEW.created_at
    FROM push_subscriptions p
    WHERE p.owner = NEW.email AND (p.expires_at IS NULL OR p.expires_at > NEW.created_at)
        AND (p.game_id = '' OR (p.game_id = NEW.game_id AND EXISTS (SELECT 1 FROM seats s
            WHERE s.game_id = p.game_id AND s.color = p.color AND s.email = p.owner AND s.token_version = p.link_version)));
END;

-- A renewed link (or a seat given to another player) ends the game-scoped
-- subscriptions made with the old one, and their queued deliveries (whose
-- messages would carry the new link), in the same transaction.
CREATE TRIGGER seats_push_scope AFTER UPDATE OF token_version, email ON seats
WHEN OLD.token_version <> NEW.token_version OR OLD.email <> NEW.email BEGIN
    DELETE FROM push_subscriptions WHERE game_id = NEW.game_id AND color = NEW.color
        AND (link_version <> NEW.token_version OR owner <> NEW.email);
END;
