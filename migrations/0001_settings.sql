-- Settings are server-wide key/value pairs, such as the generated token signing secret.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
