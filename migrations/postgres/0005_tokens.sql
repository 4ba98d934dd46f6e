-- Refresh tokens (domain.Service.Refresh). A session is a family of them:
-- each refresh spends one and issues the next, and presenting a spent one
-- again revokes the session. Stored only as their SHA-256; spent ones are
-- kept while their session is, to recognise reuse.
CREATE TABLE refresh_tokens (
    hash       bytea PRIMARY KEY,
    session_id text  NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    spent_at   timestamptz
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- Personal access tokens (domain.PersonalToken), for scripts and bots:
-- named, scoped (scopes space-separated), stored only as the SHA-256 of the
-- secret. last_used_at is kept to the hour.
CREATE TABLE personal_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text   NOT NULL,
    scopes       text   NOT NULL,
    hash         bytea  NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    expires_at   timestamptz
);
CREATE INDEX personal_tokens_user ON personal_tokens (user_id);
