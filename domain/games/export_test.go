package games

// The clock's pure changes, which only InTx uses, for the external tests.
var (
	HaltClock   = haltClock
	ResumeClock = resumeClock
	ExtendTurn  = extendTurn
)
