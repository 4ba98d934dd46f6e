-- Accounts, games and everything a turn writes. Times are Unix milliseconds (UTC).

CREATE TABLE users (
    id         INTEGER PRIMARY KEY,
    email      TEXT    NOT NULL UNIQUE,
    name       TEXT    NOT NULL DEFAULT '',
    locale     TEXT    NOT NULL DEFAULT 'en',
    created_at INTEGER NOT NULL
) STRICT;

-- A login link's token is stored only as its SHA-256: a copy of the database
-- cannot be used to sign in.
CREATE TABLE login_tokens (
    hash       BLOB    PRIMARY KEY,
    email      TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
) STRICT;
CREATE INDEX login_tokens_email ON login_tokens (email, expires_at);

-- An access token names its session; logging out revokes the session.
CREATE TABLE sessions (
    id         TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT;

CREATE TABLE games (
    id         TEXT    PRIMARY KEY,
    creator_id INTEGER NOT NULL REFERENCES users (id),
    size       INTEGER NOT NULL CHECK (size IN (6, 8)),
    walls      TEXT    NOT NULL,
    seed       TEXT,                 -- uint64 as decimal text; NULL for a given wall string
    preset     TEXT    NOT NULL,
    early_stop INTEGER NOT NULL,
    max_turns  INTEGER NOT NULL,
    start      TEXT    NOT NULL,     -- start placement, as less.Position.String writes it
    position   TEXT    NOT NULL,     -- current placement
    to_move    TEXT    NOT NULL,
    counts     TEXT    NOT NULL,     -- JSON array of the move counts by colour
    ply        INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('active', 'finished')),
    result     TEXT,                 -- JSON, once finished
    version    INTEGER NOT NULL,     -- bumped by every change: the ETag
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX games_creator ON games (creator_id);

CREATE TABLE seats (
    game_id       TEXT    NOT NULL REFERENCES games (id),
    color         TEXT    NOT NULL,
    seat_order    INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    email         TEXT    NOT NULL,
    locale        TEXT    NOT NULL,
    token_version INTEGER NOT NULL,
    PRIMARY KEY (game_id, color)
) STRICT, WITHOUT ROWID;
CREATE INDEX seats_email ON seats (email, game_id);

CREATE TABLE turns (
    game_id   TEXT    NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,      -- 1 for the first turn
    color     TEXT    NOT NULL,
    notation  TEXT    NOT NULL,      -- canonical (N2)
    used      INTEGER NOT NULL,
    counted   INTEGER NOT NULL,
    auto      INTEGER NOT NULL,      -- 1: a pass the server made (E2, T2)
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;

-- The stored response of a request made with an Idempotency-Key, written in
-- the same transaction as the change it answers.
CREATE TABLE idempotency_keys (
    scope       TEXT    NOT NULL,    -- who sent it: a seat or a user
    key         TEXT    NOT NULL,
    fingerprint BLOB    NOT NULL,    -- SHA-256 of method, path and body
    status      INTEGER NOT NULL,
    body        BLOB    NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
) STRICT, WITHOUT ROWID;

-- Emails to send, written in the same transaction as the change that causes
-- them, delivered by the outbox worker.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    kind            TEXT    NOT NULL,
    email           TEXT    NOT NULL,
    game_id         TEXT,
    color           TEXT,
    ply             INTEGER,
    secret          TEXT,            -- a login token until the mail is sent, then NULL
    message_id      TEXT    NOT NULL UNIQUE,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    sent_at         INTEGER,
    failed_at       INTEGER,
    last_error      TEXT
) STRICT;
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX outbox_game ON outbox (game_id);
