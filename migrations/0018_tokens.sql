-- Refresh tokens (domain.Service.Refresh). A session is a family of them:
-- each refresh spends one and issues the next, and presenting a spent one
-- again revokes the session. Stored only as their SHA-256; spent ones are
-- kept while their session is, to recognise reuse.
CREATE TABLE refresh_tokens (
    hash       BLOB    PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL,
    spent_at   INTEGER
) STRICT;
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- Personal access tokens (domain.PersonalToken), for scripts and bots:
-- named, scoped (scopes space-separated), stored only as the SHA-256 of the
-- secret. last_used_at is kept to the hour.
CREATE TABLE personal_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    scopes       TEXT    NOT NULL,
    hash         BLOB    NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    expires_at   INTEGER
) STRICT;
CREATE INDEX personal_tokens_user ON personal_tokens (user_id);
