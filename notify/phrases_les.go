package notify

import (
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// lesPhrases are the words of the emails of a game of Les in one language
// (the catalogue's mail.les.* messages), beside the phrases every game's
// emails share (greeting, links, deadlines, the result's reasons, footers).
// Each field is a text/template over the data named in its comment; each
// language keeps the register and the conventions its Less phrases describe
// (the comments of each locale file's mail section).
type lesPhrases struct {
	Colors [2]string // by les.Color: Black, White, as names
	Seats  [2]string // by les.Seat, in the list of players: who sets up, who chooses

	InviteSetter  string // .Chooser (a name): the setter's invitation
	InviteChooser string // .Setter: the chooser's
	Board         string // .Side, .Points, .Rows
	HowToPlay     string // the rules in two sentences (the rules page is not served)
	SetterFirst   string // .Setter: the chooser waits for the setup

	SetupHow  string // how to set up (ply 0)
	ChooseHow string // .Setter: what choosing means (ply 1)
	TurnHow   string // the two placements of a turn

	YourSetup  string // it is the setter's ply 0
	YourChoice string // it is the chooser's ply 1
	YourTurn   string // .Color: a turn

	SetUp    string // .Name, .Stones ("Black e5, White e6, …"): the setup played
	Chose    string // .Name, .Color: the choice played
	YouChose string // .Color: the recipient chose the colour that plays first
	Played   string // .Color, .Ply (notation): a turn played

	Side      string // .Color, .Name: a player once colours are chosen, "Black (Ann)"
	Win       string // .Side, .Margin (holes): more holes, or a resignation or time-out
	WinSizes  string // .Side: the first tie-break, the sizes (LE3 step 2)
	WinAround string // .Side: the second, the stones around (step 3)

	ByCount   string // .Winner, .Loser (colours), .More, .Fewer: step 1 decided
	BySizes   string // .Count (holes each), .Winner, .Loser, .Win, .Lose (the sizes that differ)
	ByAround  string // .Count, .Winner, .Loser, .Win, .Lose (the stones around that differ)
	Equal     string // .Count: nothing differs, a draw
	NoHoles   string // nobody owns a hole, a draw
	NoColours string // adjudicated before the choice, a draw
	Conceded  string // the margin after a resignation or a time-out (LE4)

	HolesHeading string
	Holes        string // .Side, .Count, .List ("5 (13), 2 (8)")

	RoundDeadline string // .Deadline: when a tournament round ends, and what happens to the game then
	Legend        string // the ASCII board's legend
}

// lesCatalog holds the Les phrases of every locale lesspost speaks: the
// catalogue's mail.les.* messages.
var lesCatalog = catalog.Tables[lesPhrases](catalog.Shipped(), languages, "mail.les.")

// lesPhrasesFor returns a locale's Les phrases, or English.
func lesPhrasesFor(locale string) *lesPhrases {
	if p, ok := lesCatalog[locale]; ok {
		return p
	}
	return lesCatalog[domain.DefaultLocale]
}
