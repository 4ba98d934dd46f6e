-- A time bank (clock.Banks) was kept by Less's colour number (white, black,
-- yellow, red); games of any ruleset keep it by seat in turn order now. For
-- two players the order is the same (white, black); for four it is yellow,
-- black, white, red.
UPDATE games SET clock = json_set(clock, '$.Banks', json_array(
        json_extract(clock, '$.Banks[2]'), json_extract(clock, '$.Banks[1]'),
        json_extract(clock, '$.Banks[0]'), json_extract(clock, '$.Banks[3]')))
    WHERE ruleset = 'less' AND json_extract(state, '$.size') = 8
        AND json_type(clock, '$.Banks') = 'array' AND json_array_length(clock, '$.Banks') = 4;
