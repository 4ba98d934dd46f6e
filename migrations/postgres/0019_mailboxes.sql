-- The mail policy (domain/mailpolicy.go) keys budgets and suppression on
-- the mailbox, not the address as written: ann+1@x, ann+bar@x and ann@x are
-- one person's (domain.Mailbox: the address without a +tag, and at Gmail
-- without dots). Until now each +tag had a budget of its own and escaped a
-- "never email me" of another.

-- mailbox_of is domain.Mailbox of the addresses this migration keys, in
-- SQL; repo/postgres's TestMigratedMailboxes checks the two agree.
CREATE TEMP TABLE mailbox_of ON COMMIT DROP AS
WITH addresses AS (
    SELECT email FROM outbox
    WHERE (sent_at IS NULL AND failed_at IS NULL) OR created_at > now() - interval '24 hours'
    UNION SELECT email FROM suppressions
    UNION SELECT email FROM login_tokens
), parts AS (
    SELECT email, split_part(email, '@', 1) AS local, split_part(email, '@', 2) AS domain FROM addresses
), untagged AS (
    SELECT email, CASE WHEN strpos(local, '+') > 1 THEN left(local, strpos(local, '+') - 1) ELSE local END AS local, domain
    FROM parts
)
SELECT email, CASE WHEN domain IN ('gmail.com', 'googlemail.com') THEN replace(local, '.', '') || '@gmail.com'
    ELSE local || '@' || domain END AS mailbox
FROM untagged;

-- The recipient's budget counts by mailbox; mail older than the budget's
-- day and already delivered keeps no mailbox (it counts for nothing).
-- quiet marks mail that leaves out the words of whoever caused it (a
-- reason, a team's name): its recipient did not agree to hear them.
ALTER TABLE outbox ADD COLUMN mailbox text;
ALTER TABLE outbox ADD COLUMN quiet boolean NOT NULL DEFAULT false;
UPDATE outbox SET mailbox = m.mailbox FROM mailbox_of m
WHERE m.email = outbox.email AND ((sent_at IS NULL AND failed_at IS NULL) OR created_at > now() - interval '24 hours');
DROP INDEX outbox_budget;
CREATE INDEX outbox_budget ON outbox (mailbox, created_at) WHERE budgeted;
-- Suppress fails a mailbox's mail still waiting.
CREATE INDEX outbox_undelivered_mailbox ON outbox (mailbox) WHERE sent_at IS NULL AND failed_at IS NULL;

-- A suppression stops every address of its mailbox.
CREATE TABLE suppressed_mailboxes (
    mailbox    text PRIMARY KEY,
    created_at timestamptz NOT NULL
);
INSERT INTO suppressed_mailboxes (mailbox, created_at)
SELECT m.mailbox, min(s.created_at) FROM suppressions s JOIN mailbox_of m ON m.email = s.email GROUP BY m.mailbox;
DROP TABLE suppressions;
ALTER TABLE suppressed_mailboxes RENAME TO suppressions;
ALTER INDEX suppressed_mailboxes_pkey RENAME TO suppressions_pkey;

-- The login mail's hourly cap counts by mailbox.
ALTER TABLE login_tokens ADD COLUMN mailbox text;
UPDATE login_tokens SET mailbox = m.mailbox FROM mailbox_of m WHERE m.email = login_tokens.email;
CREATE INDEX login_tokens_mailbox ON login_tokens (mailbox, expires_at);
