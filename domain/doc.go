// Package domain is the kernel of lesspost's game logic above the rules,
// and, until they move to a package of their own, the games: seats,
// clocks, vacations, turns, replies by email, rematches and the game's tick.
//
// The kernel is what every aggregate shares: the error type with stable
// codes that the HTTP edge maps to problems in one place (errors.go), the
// notices and events a change causes (notice.go, event.go), ids, the
// account a change names (User), the unit of work as the use cases see it
// (Tx, store.go) with the mail policy that runs inside it (mailpolicy.go)
// and the Requester it reads, the ruleset registry (rules.go) and the
// clock, which each Service is given.
//
// The aggregates are packages of their own, each with its Service and its
// store port: domain/tournaments, domain/accounts and domain/hooks. They
// import the kernel; the kernel imports none of them (internal/archtest
// checks it). package app builds every service once.
//
// A game's rules are a ruleset (domain/ruleset): Game.Rules holds the game
// under them, and the use cases ask it whose turn it is, play and check
// plies, time out, resign and adjudicate, without knowing which game it is.
// Rulesets lists the games the server knows (Less, in domain/less). Colours
// are the rules' names for the seats ("white"); a seat's place in turn
// order indexes its clock.
//
// Its use cases are the methods of Service: each reads through the store's
// ports (Store, and StoreTx inside one unit of work, see store.go), asks the
// rules, and writes the whole of a change in one unit of work. The edges
// (api, cmd/api's scheduler) authenticate, decode and call them; repo
// implements the ports on SQLite and PostgreSQL and domain/memstore in
// memory, and repo/storetest is the contract all keep.
//
// Every email a change causes passes through the mail policy
// (mailpolicy.go): the use cases see a unit of work as a Tx, which hands the
// store only the Mail the policy admitted, from the counts the store keeps
// and the Requester the edge names in the request's context.
//
// It knows no HTTP, SQL or SMTP. The clock is the Service's Now; the pure
// functions beneath it take the time and randomness as arguments.
package domain
