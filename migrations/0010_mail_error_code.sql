-- Why a delivery attempt failed, as a stable code (rejected,
-- temporary_failure, unreachable, render_failed); last_error becomes a
-- message lesspost writes, without what the mail server said, which can
-- name other people's addresses (that goes to the server log only).
ALTER TABLE outbox ADD COLUMN error_code TEXT;

-- Errors stored before hold the mail server's words: they are replaced.
UPDATE outbox SET error_code = 'unknown', last_error = 'The attempt failed; the server log says why.'
    WHERE last_error IS NOT NULL;
