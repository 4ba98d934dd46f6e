// Package domain is the kernel of lesspost's use cases: what every
// aggregate shares, and nothing of any one of them.
//
// It holds the error type with stable codes that the HTTP edge maps to
// problems in one place (errors.go); the notices and events a change causes
// (notice.go, event.go); ids; the account a change names (User); input
// checks; the unit of work as the use cases see it (Tx, store.go) with the
// mail policy that runs inside it (mailpolicy.go) and the Requester it
// reads; the ruleset registry (rules.go). Each service is given its clock.
//
// The aggregates are packages of their own, each with its Service and its
// store port, which extends the kernel's (Store, StoreTx): domain/games,
// domain/tournaments (which calls games), domain/accounts, domain/hooks
// (whose push subscriptions may be a seat's) and domain/players (handles
// and profiles, which tally games). They import the kernel; the
// kernel imports none of them (internal/archtest checks it, tests
// included), and internal/app builds every service once. repo/sqlite and
// repo/postgres implement the ports, domain/memstore in memory, and
// repo/storetest is the contract all keep.
//
// Every email a change causes passes through the mail policy: the use cases
// see a unit of work as a Tx, which hands the store only the Mail the
// policy admitted (Tx.Admit, Tx.AddNotice), from the counts the store keeps
// and the Requester the edge names in the request's context.
//
// It knows no HTTP, SQL or SMTP.
package domain
