-- The games of each address that sees them, for "my games" (repo.MyGames):
-- one row per game and address — each seat's email, and the creator's, who
-- may not play — with only what seldom changes: whether the game is
-- finished and, if it is, its sort key (-updated_at: the latest first). 0
-- for a running game.
--
-- listings_page gives an address's running games as one range (email,
-- finished = 0), which MyGames joins to games and seats to learn whose turn
-- it is and each game's deadline or last change at read time (an account
-- plays a handful to a few dozen games at once), and its finished games as
-- one range in page order (email, finished = 1, sort_key, game_id), however
-- many there are.
--
-- Triggers keep the rows in step with games, seats and creators, so no Go
-- code writes them, and they write only on rare events: a game created,
-- finished (or, in principle, reopened) or deleted, a finished game's
-- updated_at changing (a renewed link), a seat added, removed or given to
-- another address, a game's creator changing. A turn of a running game
-- writes nothing here: what orders running games (to_move, updated_at,
-- deadline_at) is read from games, not copied.
CREATE TABLE listings (
    game_id  TEXT    NOT NULL,
    email    TEXT    NOT NULL,
    finished INTEGER NOT NULL CHECK (finished IN (0, 1)),
    sort_key INTEGER NOT NULL,       -- -updated_at if finished, else 0
    PRIMARY KEY (game_id, email)
) STRICT, WITHOUT ROWID;

-- Every existing game, before the index and the triggers exist. Each branch
-- walks the games in id order (CROSS JOIN keeps that order) and the UNION
-- merges them in primary key order, dropping the creator's row where he also
-- plays; the index is then built by one sort instead of millions of
-- scattered inserts.
INSERT INTO listings (game_id, email, finished, sort_key)
SELECT g.id, s.email, g.status <> 'active', IIF(g.status <> 'active', -g.updated_at, 0)
FROM games g CROSS JOIN seats s ON s.game_id = g.id
UNION
SELECT g.id, u.email, g.status <> 'active', IIF(g.status <> 'active', -g.updated_at, 0)
FROM games g CROSS JOIN users u ON u.id = g.creator_id
ORDER BY 1, 2;

CREATE INDEX listings_page ON listings (email, finished, sort_key, game_id);

-- A new game: the creator's row (the seats' rows follow with the seats).
CREATE TRIGGER listings_game_insert AFTER INSERT ON games BEGIN
    INSERT INTO listings (game_id, email, finished, sort_key)
    SELECT NEW.id, u.email, NEW.status <> 'active', IIF(NEW.status <> 'active', -NEW.updated_at, 0)
    FROM users u WHERE u.id = NEW.creator_id
    ON CONFLICT (game_id, email) DO NOTHING;
END;

-- A game that finishes (or is reopened), or a finished game changed again
-- (a renewed link moves it up among the finished games). updateGame sets
-- status and updated_at on every turn, and SQLite fires an UPDATE OF trigger
-- whenever a listed column is in the SET list, changed or not: the WHEN
-- clause is what keeps a running game's turns from writing here.
CREATE TRIGGER listings_game_update AFTER UPDATE OF status, updated_at ON games
WHEN OLD.status IS NOT NEW.status
  OR (NEW.status <> 'active' AND OLD.updated_at IS NOT NEW.updated_at) BEGIN
    UPDATE listings SET finished = NEW.status <> 'active',
        sort_key = IIF(NEW.status <> 'active', -NEW.updated_at, 0)
    WHERE game_id = NEW.id;
END;

-- A new creator: his row goes unless he also plays; the new one comes.
CREATE TRIGGER listings_game_creator AFTER UPDATE OF creator_id ON games
WHEN OLD.creator_id IS NOT NEW.creator_id BEGIN
    DELETE FROM listings WHERE game_id = NEW.id
        AND email = (SELECT u.email FROM users u WHERE u.id = OLD.creator_id)
        AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = NEW.id AND s.email = listings.email);
    INSERT INTO listings (game_id, email, finished, sort_key)
    SELECT NEW.id, u.email, NEW.status <> 'active', IIF(NEW.status <> 'active', -NEW.updated_at, 0)
    FROM users u WHERE u.id = NEW.creator_id
    ON CONFLICT (game_id, email) DO NOTHING;
END;

CREATE TRIGGER listings_game_delete AFTER DELETE ON games BEGIN
    DELETE FROM listings WHERE game_id = OLD.id;
END;

-- A seat's address gets the game's row, unless it has one already (it
-- created the game, or holds another seat).
CREATE TRIGGER listings_seat_insert AFTER INSERT ON seats BEGIN
    INSERT INTO listings (game_id, email, finished, sort_key)
    SELECT g.id, NEW.email, g.status <> 'active', IIF(g.status <> 'active', -g.updated_at, 0)
    FROM games g WHERE g.id = NEW.game_id
    ON CONFLICT (game_id, email) DO NOTHING;
END;

-- A seat that goes, or changes hands or game (no code does either today;
-- token_version updates and colour changes do not fire this): the old
-- address keeps its row only while it still sees the game.
CREATE TRIGGER listings_seat_delete AFTER DELETE ON seats BEGIN
    DELETE FROM listings WHERE game_id = OLD.game_id AND email = OLD.email
        AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = OLD.game_id AND s.email = OLD.email)
        AND NOT EXISTS (SELECT 1 FROM games g JOIN users u ON u.id = g.creator_id
                        WHERE g.id = OLD.game_id AND u.email = OLD.email);
END;

CREATE TRIGGER listings_seat_update AFTER UPDATE OF game_id, email ON seats
WHEN OLD.game_id IS NOT NEW.game_id OR OLD.email IS NOT NEW.email BEGIN
    DELETE FROM listings WHERE game_id = OLD.game_id AND email = OLD.email
        AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = OLD.game_id AND s.email = OLD.email)
        AND NOT EXISTS (SELECT 1 FROM games g JOIN users u ON u.id = g.creator_id
                        WHERE g.id = OLD.game_id AND u.email = OLD.email);
    INSERT INTO listings (game_id, email, finished, sort_key)
    SELECT g.id, NEW.email, g.status <> 'active', IIF(g.status <> 'active', -g.updated_at, 0)
    FROM games g WHERE g.id = NEW.game_id
    ON CONFLICT (game_id, email) DO NOTHING;
END;
