-- Sign-up and the account's list of tournaments (domain.Service.Tournaments):
-- who plays in each tournament, by address, kept with the document on every
-- save; and until when a public registration is open (NULL: none is).
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    email         TEXT NOT NULL,
    PRIMARY KEY (email, tournament_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX tournament_players_tournament ON tournament_players (tournament_id);
INSERT INTO tournament_players (tournament_id, email)
    SELECT DISTINCT t.id, json_extract(e.value, '$.Email') FROM tournaments t, json_each(t.data, '$.Entrants') e
    WHERE json_extract(e.value, '$.Email') IS NOT NULL;

ALTER TABLE tournaments ADD COLUMN public_until INTEGER;
CREATE INDEX tournaments_public ON tournaments (public_until) WHERE public_until IS NOT NULL;
CREATE INDEX tournaments_organizer ON tournaments (organizer_id);
