// Package less is the rules engine of the board game Less, exactly as
// docs/rules.md states it: boards and wall strings, sides and pieces,
// moves and turns with their error codes, end of game and score, notation,
// presets, move generation, game records and diagrams.
//
// The package is pure: no I/O, no clock, no randomness except the seeded board
// generator. Values are immutable once built: a Position is a small value that
// applying a turn copies, and a Board is shared read-only by pointer.
//
// Rule numbers in comments and error messages (B4, M3, T1, …) refer to
// docs/rules.md, which has an anchor per rule (docs/rules.md#m3).
package less
