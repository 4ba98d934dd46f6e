-- A finished game's rematch (domain.Rematch): one per game, however many of
-- its players ask at once; the primary key is what refuses a second one.
CREATE TABLE rematches (
    game_id    TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rematch_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
);
