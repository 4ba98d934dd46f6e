// Package games owns a game between players: its seats and their links,
// clocks, vacations, turns (on the page, or by replying to an email),
// resignation, rematches, replays of its record, and the scheduler's tick
// that reminds and times out.
//
// A game's rules are a ruleset (domain/ruleset): Game.Rules holds the game
// under them, and the use cases ask it whose turn it is, play and check
// plies, time out, resign and adjudicate, without knowing which game it is.
// Colours are the rules' names for the seats ("white"); a seat's place in
// turn order indexes its clock.
//
// Its use cases are the methods of Service, each one unit of work of the
// store: a Tx, the kernel's (every notice through the mail policy) with
// the store's writes to games (StoreTx). Tournaments create and change
// games in their own units of work through InTx (Service.In), which owns
// the changes it writes. It imports the kernel (package domain) and the
// rules; the kernel knows nothing of it.
package games
