-- Turns played by replying to an email (domain.PlayByReply).
--
-- The answer to a reply says what it made of it (the turn as written, the
-- rule it breaks, the lines read): domain.ReplyDetail as JSON, NULL for
-- every other kind of mail. Text, not jsonb: it is only ever read back
-- whole.
ALTER TABLE outbox ADD COLUMN detail text;

-- Whether an account wants a confirmation of each turn it plays by email.
ALTER TABLE users ADD COLUMN reply_confirmations boolean NOT NULL DEFAULT true;
