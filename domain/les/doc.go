// Package les is the rules engine of Les, the two-player placement game on
// the points of a hexagonal board of triangles, exactly as docs/les-rules.md
// states it. It owns the board of any side (points, names, neighbours, lines),
// the setup, the colour choice, turns with their error codes in the order the
// notation rules give, the end of the game, holes and the result with its
// tie-breaks, legal-turn enumeration, notation, game records, an ASCII
// diagram and the board view; Rules puts it behind the ruleset interface.
//
// The package is pure: no I/O, no clock, no randomness. Boards are built
// once per side and shared read-only; a Position is a value that placing a
// stone copies, with its sets of points as bitsets (the default board's 217
// points fit in four words).
//
// Rule ids in comments and error values (LB1, LT3, …) refer to
// docs/les-rules.md, which has an anchor per rule (docs/les-rules.md#lt3).
package les
