-- A game keeps its ruleset's name and its ruleset's own state (opaque to the
-- store: Less writes JSON) beside the columns every game has and the queries
-- use: ply, whose turn, status, deadline, version. Less's own columns move
-- into the state, so the table can hold games of any ruleset.
ALTER TABLE games ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'less';
ALTER TABLE games ADD COLUMN state TEXT NOT NULL DEFAULT '{}';

-- What less.RulesGame.Encode writes.
UPDATE games SET state = json_object(
    'size', size,
    'walls', walls,
    'seed', seed,
    'preset', preset,
    'early_stop', json(IIF(early_stop, 'true', 'false')),
    'max_turns', max_turns,
    'start', start,
    'position', position,
    'counts', json(counts),
    'ply', ply,
    'result', json(result));

-- No index, trigger or view names these columns (the listings triggers of
-- 0006 and 0008 use id, creator_id, status and updated_at).
ALTER TABLE games DROP COLUMN size;
ALTER TABLE games DROP COLUMN walls;
ALTER TABLE games DROP COLUMN seed;
ALTER TABLE games DROP COLUMN preset;
ALTER TABLE games DROP COLUMN early_stop;
ALTER TABLE games DROP COLUMN max_turns;
ALTER TABLE games DROP COLUMN start;
ALTER TABLE games DROP COLUMN position;
ALTER TABLE games DROP COLUMN counts;
ALTER TABLE games DROP COLUMN result;
