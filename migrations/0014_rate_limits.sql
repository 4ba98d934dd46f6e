-- Request rate limits, shared by every server instance on this database
-- (repo/ratelimit.go): per key, the Unix time in nanoseconds at which its
-- bucket is full again. A key past that time is a full bucket, so the
-- scheduler deletes it; the index finds those without a scan.
CREATE TABLE rate_limits (
    key     TEXT    PRIMARY KEY,
    full_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX rate_limits_full ON rate_limits (full_at);
