-- Mail to strangers (issue 11, item 2): one form per address, a suppression
-- list, and each address's daily budget of mail caused by others.

-- Addresses that followed a "never email me again" link. Nothing but the
-- login mail their owner asks for is sent to them; invitations and link
-- renewals naming them are refused.
CREATE TABLE suppressions (
    email      TEXT    PRIMARY KEY,
    created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- 1 for mail that someone other than the recipient caused (an invitation,
-- a renewed link, a tournament round): it counts against the recipient's
-- daily budget (repo/budget.go), which is read from this index.
ALTER TABLE outbox ADD COLUMN budgeted INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_budget ON outbox (email, created_at) WHERE budgeted = 1;

-- Addresses are now stored lower-cased (domain.NormalizeEmail). Until now
-- only the domain was, so Ann@example.org and ann@example.org could be two
-- accounts. SQLite's lower() folds ASCII letters only: an address with other
-- letters in its local part, or a domain that is not yet IDNA-encoded, keeps
-- its stored form (such addresses were rare, and SQL cannot encode them).
--
-- Accounts that become one address are merged into the oldest: the newer
-- ones' games, tournaments, sessions and vacations move to it, and the newer
-- accounts go. The oldest is the one the person has used longest; the newer
-- ones were created by a sign-in with other capitals and are mostly empty.
CREATE TEMP TABLE account_merge AS
SELECT u.id AS old_id, k.keep AS new_id
FROM users u JOIN (SELECT lower(email) AS email, min(id) AS keep FROM users GROUP BY lower(email)) k
    ON lower(u.email) = k.email
WHERE u.id <> k.keep;

UPDATE games SET creator_id = (SELECT new_id FROM account_merge WHERE old_id = creator_id)
WHERE creator_id IN (SELECT old_id FROM account_merge);
UPDATE tournaments SET organizer_id = (SELECT new_id FROM account_merge WHERE old_id = organizer_id)
WHERE organizer_id IN (SELECT old_id FROM account_merge);
UPDATE sessions SET user_id = (SELECT new_id FROM account_merge WHERE old_id = user_id)
WHERE user_id IN (SELECT old_id FROM account_merge);
UPDATE vacations SET user_id = (SELECT new_id FROM account_merge WHERE old_id = user_id)
WHERE user_id IN (SELECT old_id FROM account_merge);
DELETE FROM users WHERE id IN (SELECT old_id FROM account_merge);
DROP TABLE account_merge;

UPDATE users SET email = lower(email) WHERE email <> lower(email);
UPDATE seats SET email = lower(email) WHERE email <> lower(email);
UPDATE login_tokens SET email = lower(email) WHERE email <> lower(email);
UPDATE outbox SET email = lower(email) WHERE email <> lower(email);
-- Two spellings of one unsubscribed address: the lower-case row stays.
UPDATE OR IGNORE unsubscribes SET email = lower(email) WHERE email <> lower(email);
DELETE FROM unsubscribes WHERE email <> lower(email);
-- A tournament's entrants are part of its JSON document.
UPDATE tournaments SET data = json_set(data, '$.Entrants',
    (SELECT json_group_array(json_set(e.value, '$.Email', lower(e.value ->> '$.Email')))
     FROM json_each(data, '$.Entrants') e))
WHERE EXISTS (SELECT 1 FROM json_each(data, '$.Entrants') e WHERE e.value ->> '$.Email' <> lower(e.value ->> '$.Email'));

-- The triggers above kept "my games" listings in step row by row; rebuilt
-- here from scratch, as 0006 built them, they are right whatever merged.
DELETE FROM listings;
INSERT INTO listings (game_id, email, finished, sort_key)
SELECT g.id, s.email, g.status <> 'active', IIF(g.status <> 'active', -g.updated_at, 0)
FROM games g CROSS JOIN seats s ON s.game_id = g.id
UNION
SELECT g.id, u.email, g.status <> 'active', IIF(g.status <> 'active', -g.updated_at, 0)
FROM games g CROSS JOIN users u ON u.id = g.creator_id
ORDER BY 1, 2;
