// Package domain owns lesspost's game logic above the rules engine: accounts,
// games with their seats, turn submission, and the notices (emails) each
// change causes, plus the error type with stable codes that the HTTP edge maps
// to problems in one place. The rules engine is in domain/less.
//
// Its use cases are the methods of Service: each reads through the store's
// ports (Store, and StoreTx inside one unit of work, see store.go), asks the
// rules, and writes the whole of a change in one unit of work. The edges
// (api, cmd/api's scheduler) authenticate, decode and call them; repo
// implements the ports on SQLite and domain/memstore in memory, and
// repo/storetest is the contract both keep.
//
// It knows no HTTP, SQL or SMTP. The clock is the Service's Now; the pure
// functions beneath it take the time and randomness as arguments.
package domain
