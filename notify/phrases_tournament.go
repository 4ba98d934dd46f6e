package notify

import (
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// tournamentPhrases are the words of a tournament's results and changes,
// in one language; text/templates like phrases. They live apart from
// phrases because they belong to an event, not to a game; the words follow
// the catalog's (Runde, ronde, ronda, turno; du, vous, tú, tu).
type tournamentPhrases struct {
	GreetingNoName string // to the organiser who does not play

	SubjectResults string // .Name, .Round
	SubjectFinal   string // .Name, .Round
	SubjectUpdate  string // .Name, .Player (who acted, "" for the organiser)

	ResultsIntro   string // .Name, .Round (the results follow, one a line)
	FinalIntro     string // .Name, .Round (the last round)
	StandingsAfter string // .Name, .Round (the standings follow)
	FinalStandings string // .Name, .Round
	StandingLine   string // .Rank, .Player, .Points
	ByeLine        string // .Player
	// How a result came about, after the score, when not by play to the end.
	Undecided, Annulled, Overridden, Forfeit, OnTime, Adjudicated, Withdrawn string
	NextRound                                                                string // .Round, .Start: to a player
	NextRoundStarts                                                          string // .Round, .Start: to the organiser
	ResultLine                                                               string // .Pair (names), .Score

	// Actions say a logged action (tournaments.Action*): .Name, .Player.
	Actions      map[string]string
	Withdrew     string // .Name, .Player: to the organiser, a player withdrew himself
	Reason       string // .Reason, as the organiser wrote it
	When         string // .At
	YourDeadline string // .Round, .Deadline: when his running game is adjudicated
	// The reminder of a round's deadline: .Name, .Round, .Deadline.
	SubjectDeadline, DeadlineNear string
	// To a team event's partner whom his team mate entered: .Name,
	// .Player (the team mate), .Team.
	SubjectPartner, PartnerEntered string
	// A result the organiser set or annulled, naming the game: .Name,
	// .Pair (White – Black), .Round, and to ResultSet .Score (White's
	// first) and .Outcome (WinsBy or DrawnGame); to ByeAnnulled .Bye (the
	// player who had it). Actions' words are for a log entry stored
	// without its facts.
	ResultSet, ResultAnnulled, ByeAnnulled string
	WinsBy                                 string // .Winner, .Margin
	DrawnGame                              string
	// A game nobody moved in by its deadline, a double forfeit: the mail
	// to its players (.Name, .Pair, .Round; the subject .Name, .Round),
	// and how a result line marks it.
	SubjectUnplayed, Unplayed, NoMove string

	PageLabel       string
	PageButton      string
	FooterPlayer    string // .Name
	FooterOrganiser string // .Name
	FooterReplaced  string // .Name: to a player the organiser replaced
}

// tournamentCatalog holds the tournament phrases of every locale: the
// catalogue's mail.tournament.* messages.
var tournamentCatalog = catalog.Tables[tournamentPhrases](catalog.Shipped(), languages, "mail.tournament.")

// tournamentPhrasesFor returns a locale's tournament phrases, or English.
func tournamentPhrasesFor(locale string) *tournamentPhrases {
	if p, ok := tournamentCatalog[locale]; ok {
		return p
	}
	return tournamentCatalog[domain.DefaultLocale]
}
