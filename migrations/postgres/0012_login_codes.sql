-- A login email's code to type is short (domain.LoginCode): it is looked up
-- with its address, kept as domain.LoginCodeHash, and stops working after
-- domain.MaxLoginCodeMisses wrong codes for the address (code_misses).
-- Tokens issued before have no code_hash: they sign in by their token only,
-- which their emails showed as the code.
ALTER TABLE login_tokens ADD COLUMN code_hash bytea, ADD COLUMN code_misses integer NOT NULL DEFAULT 0;
