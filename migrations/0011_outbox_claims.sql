-- Outbox claims, so that several server instances can deliver from one
-- database: a worker claims due mail until claimed_until (a lease), and only
-- the claimant (claimed_by) records what became of it; claimed_by then stays
-- on mail delivered or given up, naming the worker that did it. A crashed
-- worker's claim lapses when its lease does.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;

-- Undelivered mail in outbox order: workers claim the oldest first.
CREATE INDEX outbox_undelivered ON outbox (id) WHERE sent_at IS NULL AND failed_at IS NULL;
-- Undelivered mail by thread: a mail waits while an earlier one of its
-- thread (address and game) is claimed or waiting for a retry.
CREATE INDEX outbox_thread ON outbox (email, game_id, id) WHERE sent_at IS NULL AND failed_at IS NULL;
