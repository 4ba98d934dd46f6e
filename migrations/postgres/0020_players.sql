-- Handles and profiles (see the SQLite migration 0033).
CREATE TABLE handles (
    folded        text        PRIMARY KEY,
    shown         text        NOT NULL,
    user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    retired_until timestamptz
);
CREATE UNIQUE INDEX handles_current ON handles (user_id) WHERE retired_until IS NULL;
CREATE INDEX handles_user ON handles (user_id);

CREATE TABLE profiles (
    user_id       bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    country       text        NOT NULL DEFAULT '',
    languages     text        NOT NULL DEFAULT '',
    bio           text        NOT NULL DEFAULT '',
    hide_finished boolean     NOT NULL DEFAULT false,
    unlisted      boolean     NOT NULL DEFAULT false,
    updated_at    timestamptz NOT NULL
);
