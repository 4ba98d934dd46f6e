-- Idempotency keys move to a rowid table. As a WITHOUT ROWID table, each
-- key's 2-3 KB stored response sat in the primary key's b-tree, so every
-- lookup of a new key read overflow pages; now the lookup reads the small
-- unique index only. created_at is indexed for the expiry of old keys.
CREATE TABLE idempotency_keys_new (
    id          INTEGER PRIMARY KEY,
    scope       TEXT    NOT NULL,    -- who sent it: a seat or a user
    key         TEXT    NOT NULL,
    fingerprint BLOB    NOT NULL,    -- SHA-256 of method, path and body
    status      INTEGER NOT NULL,
    body        BLOB    NOT NULL,
    created_at  INTEGER NOT NULL,
    UNIQUE (scope, key)
) STRICT;

INSERT INTO idempotency_keys_new (scope, key, fingerprint, status, body, created_at)
    SELECT scope, key, fingerprint, status, body, created_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_new RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
