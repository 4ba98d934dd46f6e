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
