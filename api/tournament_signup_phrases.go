package api

import (
	"github.com/lesspost/lesspost/internal/catalog"
)

// signupPhrases are the words of the public page's sign-up and log, in one
// language, apart from pagePhrases because they belong to running an
// event rather than to its results. The words the page's script shows
// (tournament.js) are rendered into the page with the rest, so that the
// script holds no words of its own. A string's arguments are {{.name}},
// filled in by fill, {{.email}} by the script.
type signupPhrases struct {
	Registration   string
	OpenUntil      string // %s: when sign-up closes
	OpenUntilStart string // %s: the first round's start, when sign-up closes then
	PlacesLeft     countForms
	Public         string
	InviteOnly     string
	Closed         string

	EmailLabel, SendCode string
	CodeSent             string // {{.email}}
	CodeLabel, SignIn    string
	SignedInAs           string // {{.email}}
	NameLabel, Join      string
	// A team event's join form: the partner, who is told by email, and
	// the team's name (optional).
	PartnerName, PartnerEmail, TeamName string
	Joined                              string
	Withdraw                            string
	WithdrawNote                        string
	Withdrawn                           string

	// Errors the script shows, by the API's problem code.
	ErrClosed, ErrFull, ErrAlready, ErrInvite, ErrLogin, ErrTooMany, ErrNetwork, ErrGeneric string

	Log                  string
	LogDropped           countForms // {{.n}}: the log's oldest entries no longer kept
	Organiser, Scheduler string
	Reason               string // %s
	Actions              map[string]string
}

// signupLanguages are the sign-up's and log's words in each language, the
// catalogue's signup.* messages.
var signupLanguages = catalog.Tables[signupPhrases](catalog.Shipped(), languages, "signup.")
