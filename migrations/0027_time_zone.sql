-- The account's time zone (an IANA name such as "Europe/Berlin"), in which
-- its emails write deadlines; '' until the owner's browser tells the page.
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT '';
