-- A finished game's rematch (see the SQLite migration 0026): one per game.
CREATE TABLE rematches (
    game_id    text   PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rematch_id text   NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    created_at bigint NOT NULL
);
