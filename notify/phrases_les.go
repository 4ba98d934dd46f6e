package notify

import (
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/les"
)

// lesPhrases are the words of the emails of a game of Les in one language,
// beside the phrases every game's emails share (greeting, links,
// deadlines, the result's reasons, footers). Each field is a text/template
// over the data named in its comment; each language keeps the register and
// the conventions its Less phrases describe (phrases_de.go and the others).
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

// lesCatalog holds the Les phrases of every locale lesspost speaks.
var lesCatalog = map[string]*lesPhrases{
	"en": &lesEnglish,
}

// lesPhrasesFor returns a locale's Les phrases, or English.
func lesPhrasesFor(locale string) *lesPhrases {
	if p, ok := lesCatalog[locale]; ok {
		return p
	}
	return lesCatalog[domain.DefaultLocale]
}

var lesEnglish = lesPhrases{
	Colors: [2]string{les.Black: "Black", les.White: "White"},
	Seats:  [2]string{les.Setter: "Sets up", les.Chooser: "Chooses"},

	InviteSetter: "you are invited to a game of Les by correspondence. You set up: you place the first four stones, " +
		"then {{.Chooser}} chooses a colour, and you play the other one.",
	InviteChooser: "you are invited to a game of Les by correspondence. {{.Setter}} sets up the first four stones, " +
		"then you choose your colour, black or white; {{.Setter}} plays the other one.",
	Board: "Board: a hexagon with {{.Side}} points on each edge, {{.Points}} points in {{.Rows}} rows.",
	HowToPlay: "How to play: each turn you place a stone of your colour on a point that touches both a black and a white stone, " +
		"then, while any point touches no stone at all, a second stone on such a point. When the player to move has no point " +
		"touching both colours the game ends, and whoever owns more holes (groups of empty points bordered by his own stones alone) " +
		"wins; with as many holes each, the larger holes win, then the holes with more stones around them.",
	SetterFirst: "{{.Setter}} sets up first; we will email you when it is your turn to choose.",

	SetupHow: "Set up four stones, in this order: a black stone anywhere, a white stone touching it, a second black stone anywhere, " +
		"and a second white stone in line with the second black one, two points away. You do not know yet which colour you " +
		"will play, so make the position even.",
	ChooseHow: "Choose black or white: Black plays the first turn, and {{.Setter}} plays the other colour.",
	TurnHow: "Place a stone on a point that touches both a black and a white stone, then, if some point still touches no stone " +
		"at all, a second stone on such a point.",

	YourSetup:  "it is your turn to set up the game.",
	YourChoice: "it is your turn to choose your colour.",
	YourTurn:   "it is your turn as {{.Color}}.",

	SetUp:    "{{.Name}} set up {{.Stones}}",
	Chose:    "{{.Name}} chose {{.Color}}",
	YouChose: "You chose {{.Color}}, so you play first",
	Played:   "{{.Color}} played {{.Ply}}",

	Side:      "{{.Color}} ({{.Name}})",
	Win:       "{{.Side}} won by {{.Margin}} {{plural `en` .Margin `hole` `holes`}}",
	WinSizes:  "{{.Side}} won on the sizes of the holes",
	WinAround: "{{.Side}} won on the stones around the holes",

	ByCount: "{{.Winner}} owns more holes than {{.Loser}}, {{.More}} to {{.Fewer}}: the number of holes decides first.",
	BySizes: "Both own {{.Count}} {{plural `en` .Count `hole` `holes`}}, so the first tie-break decided, the sizes: " +
		"going down both lists from the largest hole, the first pair that differs is {{.Winner}}'s hole of {{.Win}} points " +
		"against {{.Loser}}'s of {{.Lose}}.",
	ByAround: "Both own {{.Count}} {{plural `en` .Count `hole` `holes`}} of the same sizes, so the second tie-break " +
		"decided, the stones around the holes: going down both lists, the first pair that differs is {{.Winner}}'s hole " +
		"with {{.Win}} stones around against {{.Loser}}'s with {{.Lose}}.",
	Equal:     "Both own {{.Count}} {{plural `en` .Count `hole` `holes`}}, alike in size and in stones around: the game is drawn.",
	NoHoles:   "Nobody owns a hole: the game is drawn.",
	NoColours: "The game ended before the colours were chosen, so it is drawn.",
	Conceded: "After a resignation or a time-out the other player wins by the difference in holes owned on the board as it " +
		"stands, and by at least 1.",

	HolesHeading: "Holes owned, largest first, each as its size in points (and the stones around it):",
	Holes:        "{{.Side}}: {{if eq .Count 0}}none{{else}}{{.Count}} {{plural `en` .Count `hole` `holes`}}: {{.List}}{{end}}",

	RoundDeadline: "The round ends on {{.Deadline}}: a game still unfinished then is adjudicated, scored on the board as it stands.",
	Legend: "B W stones, (B) a stone of the last ply, . an empty point, b w the empty points of a hole Black or White owns " +
		"(at the end). Each row counts its points from 1 at its left end.",
}
