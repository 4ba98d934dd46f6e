-- Push subscriptions made with a move link are scoped to that game, seat
-- and link version (see the SQLite migration 0023): game_id = '' and
-- color = '' for address-wide ones, so that the key (owner, endpoint,
-- game_id, color) conflicts for them too.
ALTER TABLE push_subscriptions
    ADD COLUMN game_id text NOT NULL DEFAULT '',
    ADD COLUMN color text NOT NULL DEFAULT '',
    ADD COLUMN link_version integer,
    DROP CONSTRAINT push_subscriptions_owner_endpoint_key,
    ADD CONSTRAINT push_subscriptions_owner_endpoint_scope_key UNIQUE (owner, endpoint, game_id, color);
CREATE INDEX push_subscriptions_seat ON push_subscriptions (game_id, color) WHERE game_id <> '';

-- Fan-out (as in 0009), now respecting the scope: a game-scoped
-- subscription gets only its game's events, and only while its link is
-- the seat's current one and the seat still the owner's.
CREATE OR REPLACE FUNCTION events_push() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO push_deliveries (subscription_id, kind, game_id, color, ply, data, event_at, next_attempt_at)
    SELECT p.id, e.kind, e.game_id, e.color, e.ply, e.data, e.created_at, e.created_at
    FROM new_events e JOIN push_subscriptions p ON p.owner = e.email
    WHERE e.email <> '' AND e.kind IN ('your_turn', 'deadline_near', 'invitation', 'round_start', 'game_over')
        AND (p.expires_at IS NULL OR p.expires_at > e.created_at)
        AND (p.game_id = '' OR (p.game_id = e.game_id AND EXISTS (SELECT 1 FROM seats s
            WHERE s.game_id = p.game_id AND s.color = p.color AND s.email = p.owner AND s.token_version = p.link_version)))
    ORDER BY e.id, p.id;
    RETURN NULL;
END
$$;

-- A renewed link (or a seat given to another player) ends the game-scoped
-- subscriptions made with the old one, and their queued deliveries (whose
-- messages would carry the new link), in the same transaction.
CREATE FUNCTION seats_push_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM push_subscriptions WHERE game_id = NEW.game_id AND color = NEW.color
        AND (link_version <> NEW.token_version OR owner <> NEW.email);
    RETURN NULL;
END
$$;
CREATE TRIGGER seats_push_scope AFTER UPDATE OF token_version, email ON seats
    FOR EACH ROW WHEN (OLD.token_version <> NEW.token_version OR OLD.email <> NEW.email)
    EXECUTE FUNCTION seats_push_scope();
