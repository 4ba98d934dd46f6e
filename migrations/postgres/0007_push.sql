-- Web Push (domain.PushSubscription): the browsers that asked to be told
-- when it is their address's turn. Owned by an address, not an account:
-- players who only follow move links have none. One row per address and
-- endpoint; the same browser may serve two addresses.
CREATE TABLE push_subscriptions (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner      text   NOT NULL,
    endpoint   text   NOT NULL,
    p256dh     bytea  NOT NULL,
    auth       bytea  NOT NULL,
    expires_at timestamptz,
    created_at timestamptz NOT NULL,
    UNIQUE (owner, endpoint)
);
-- A push service's "gone" names the endpoint only.
CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);

-- The server's one VAPID key pair (domain.PushKey, RFC 8292), shared by
-- every instance: subscriptions are bound to its public key.
CREATE TABLE push_keys (
    id          integer PRIMARY KEY CHECK (id = 1),
    private_key bytea NOT NULL,
    public_key  bytea NOT NULL,
    created_at  timestamptz NOT NULL
);
