-- Sign-up and the account's list of tournaments (domain.Service.Tournaments):
-- who plays in each tournament, by address, kept with the document on every
-- save; and until when a public registration is open (NULL: none is).
CREATE TABLE tournament_players (
    tournament_id text COLLATE "C" NOT NULL REFERENCES tournaments (id),
    email         text NOT NULL,
    PRIMARY KEY (email, tournament_id)
);
CREATE INDEX tournament_players_tournament ON tournament_players (tournament_id);
INSERT INTO tournament_players (tournament_id, email)
    SELECT DISTINCT t.id, e->>'Email' FROM tournaments t, jsonb_array_elements(t.data->'Entrants') e
    WHERE e->>'Email' IS NOT NULL;

ALTER TABLE tournaments ADD COLUMN public_until timestamptz;
CREATE INDEX tournaments_public ON tournaments (public_until) WHERE public_until IS NOT NULL;
