-- Retention: the scheduler deletes what the store no longer needs, a batch
-- at a time (repo/retention.go). These indexes let it find that without
-- scanning the tables.
-- Delivered and given-up mail, by age.
CREATE INDEX outbox_created ON outbox (created_at);
-- Login mail still holding its login code: a handful of rows at any time.
CREATE INDEX outbox_secrets ON outbox (created_at) WHERE secret IS NOT NULL;
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX sessions_revoked ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
CREATE INDEX login_tokens_expires ON login_tokens (expires_at);

-- The version a user's calendar link and a game's spectator link carry:
-- rotating the link bumps it, and links of an older version are refused.
-- Links made before this migration carry none, which reads as 0.
ALTER TABLE users ADD COLUMN calendar_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN watch_version INTEGER NOT NULL DEFAULT 0;
