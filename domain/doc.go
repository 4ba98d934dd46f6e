// Package domain owns lesspost's game logic above the rules engine: accounts,
// games with their seats, turn submission, and the notices (emails) each
// change causes, plus the error type with stable codes that the HTTP edge maps
// to problems in one place. It is pure: no HTTP, SQL, SMTP or wall clock;
// callers pass the time and randomness in. The rules engine is in domain/less.
package domain
