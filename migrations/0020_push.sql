-- Web Push (domain.PushSubscription): the browsers that asked to be told
-- when it is their address's turn. Owned by an address, not an account:
-- players who only follow move links have none. One row per address and
-- endpoint; the same browser may serve two addresses. Times in Unix ms.
CREATE TABLE push_subscriptions (
    id         INTEGER PRIMARY KEY,
    owner      TEXT    NOT NULL,
    endpoint   TEXT    NOT NULL,
    p256dh     BLOB    NOT NULL,
    auth       BLOB    NOT NULL,
    expires_at INTEGER,
    created_at INTEGER NOT NULL,
    UNIQUE (owner, endpoint)
) STRICT;
-- A push service's "gone" names the endpoint only.
CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);

-- The server's one VAPID key pair (domain.PushKey, RFC 8292), shared by
-- every process on the database: subscriptions are bound to its public key.
CREATE TABLE push_keys (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    private_key BLOB    NOT NULL,
    public_key  BLOB    NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;
