-- The account's time zone (see the SQLite migration 0027).
ALTER TABLE users ADD COLUMN time_zone text NOT NULL DEFAULT '';
