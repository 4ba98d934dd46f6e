-- Handles and profiles (domain/players). A handle is unique by its folded
-- form (lower case) among the handles held: an account's current one
-- (retired_until NULL) and those it left, held until retired_until so that
-- old links still lead to it and nobody else takes them meanwhile.
CREATE TABLE handles (
    folded        TEXT    PRIMARY KEY,
    shown         TEXT    NOT NULL,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    retired_until INTEGER
) STRICT;
CREATE UNIQUE INDEX handles_current ON handles (user_id) WHERE retired_until IS NULL;
CREATE INDEX handles_user ON handles (user_id);

-- What a player tells others about himself, and what he hides. languages
-- is a space-separated list.
CREATE TABLE profiles (
    user_id       INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    country       TEXT    NOT NULL DEFAULT '',
    languages     TEXT    NOT NULL DEFAULT '',
    bio           TEXT    NOT NULL DEFAULT '',
    hide_finished INTEGER NOT NULL DEFAULT 0,
    unlisted      INTEGER NOT NULL DEFAULT 0,
    updated_at    INTEGER NOT NULL
) STRICT;
