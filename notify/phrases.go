package notify

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/template"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/internal/catalog"
)

// phrases are the words of every email in one language, as the code reads
// them: the words themselves are the catalogue's mail.* messages
// (internal/catalog/locales; a field F is the message mail.f, see
// catalog.Fill). Each field is a text/template over the data named in its
// comment. Translations take the game's words from the publisher's rule
// sheet (DE Spielzug, Mauer, Doppelmauer; IT mossa, muro; ES movimiento,
// pared; FR coup, mur).
type phrases struct {
	Colors [4]string // by less.Color: white, black, yellow, red
	Teams  [2]string // the four-player sides: yellow-white, black-red
	// Presets name the rule presets, as the play page does.
	Presets map[less.Preset]string

	SubjectGame  string // .Game (its name: "Less", "Les"), .Players (names joined), .Short (short game id)
	SubjectLogin string

	LoginIntro  string // (the link follows)
	LoginButton string
	LoginCode   string // .Code
	LoginIgnore string

	Greeting string // .Name

	InviteIntro string // .Color
	// OtherInviteIntro is the invitation to a game of rules that have no
	// mail of their own (.Game: the rules' name as a title).
	OtherInviteIntro string // .Game, .Color
	PlayersHeading   string
	Rules            string // .Preset, .MaxTurns, .EarlyStop (bool)
	YouMoveFirst     string
	OtherMovesFirst  string // .ToMove
	HowToPlay        string

	YourTurn string // .Color, .Ply (turns played so far)
	Played   string // .Color, .Turn (notation)
	Counts   string // .Counts (e.g. "white 9, black 9")
	Deadline string // .Deadline
	Reminder string // .Deadline, .Timeout (what happens then: TimeoutLoses or TimeoutPasses)
	// TimeoutLoses and TimeoutPasses say what a time-out does, in Reminder.
	TimeoutLoses  string
	TimeoutPasses string
	TimedOutPass  string // .Color (whose time ran out)

	GameOver        string // .Result
	Win             string // .Side, .Margin
	Draw            string
	ByResignation   string // .Side (who resigned)
	ByTimeout       string // .Side (who ran out of time)
	ByTurnLimit     string
	ByBlockedCorner string // .Side (who left a piece on its start corner)
	ByAdjudication  string // a tournament game unfinished at the round's end
	ByWithdrawal    string // .Side (who withdrew from the tournament)
	Total           string // .Side, .Total, .Count, .Needed
	NeededExplained string // .Side, .Needed

	NewLink string

	// Playing by replying to an email (see games.Service.PlayByReply). "resign"
	// stays English in every language: it is the word the server reads.
	ReplyHow         string // .Example (a legal turn): how to answer by email
	ReplyAccepted    string // .Turn: the turn a reply played
	ReplyStranger    string // .From: a reply came from another address
	ReplyEarlier     string // the reply answered an email of an earlier turn
	ReplyNoTurn      string // no line was a turn (the lines read follow)
	ReplyIllegal     string // .Turn, .Rule (its code), .RuleRef, .Part (1-based; 0 for the whole turn)
	ReplyNotYourTurn string
	ReplyGameOver    string
	ReplyOther       string // .Reason (a code): any other refusal
	ReplyLimited     string // .Minutes: too many replies from the reader; wait that long
	ReplyForged      string // a reply to the reader's seat, whoever sent it, failed DKIM, SPF or DMARC
	ReplyMalformed   string // a reply to the reader's seat, whoever sent it, has a broken MIME structure
	ReplyTooLarge    string // a reply to the reader's seat, whoever sent it, is over the size a reply may have
	ReplyAgain       string // the reader may answer again

	TournamentRound   string // .Name, .Round: the line an invitation to a tournament game adds
	TournamentDecider string // .Round: the line an invitation to a knockout's deciding game adds
	RoundDeadline     string // .Deadline: when the round ends and unfinished games are adjudicated
	SubjectTournament string // .Name, .Round
	Bye               string // .Name, .Round
	Walkover          string // .Name, .Round, .Opponent (who withdrew): no game this round, a win
	WalkoverAnnulled  string // .Name, .Round, .Opponent (who withdrew, his games annulled): no game, nothing counts

	// The link of a game-over email: the finished game, to step through it
	// or play again (the play page's Play again).
	FinishedLabel  string
	FinishedButton string
	// TeamLine says a four-player game's teams to a player: .Team (his
	// side's name), .Partner and .Others (names with colours); And joins
	// two of them (.A, .B).
	TeamLine string
	And      string

	MoveLinkLabel string // the label above a player's own move link
	MoveButton    string // the button of the HTML part
	WatchLabel    string // the label above the spectator link
	RulesLabel    string // the label before the link to the rules page
	WatchAnchor   string // the spectator link's words in the HTML part, which shows no URL
	BoardAlt      string // alt text of the board picture
	Legend        string // .Pieces ("W B"), .Names (their colours), .Targets ("w b"): the ASCII board's legend
	Footer        string // .Game: why the reader gets this email
	Unsubscribe   string // the label of the unsubscribe link
	NeverEmail    string // the label of the "never email me again" link every email carries

	// The email to the owner of a webhook endpoint lesspost disabled.
	SubjectWebhookDisabled string
	WebhookDisabled        string // .URL, .Reason (in English: the delivery log's words)
	WebhookEnable          string // .ID (the endpoint's)
}

// languages are the languages lesspost speaks: the catalogue's, one
// locale file each.
var languages = catalog.Shipped().Languages()

// mailPhrases holds the phrases of every locale lesspost speaks: the
// catalogue's mail.* messages.
var mailPhrases = catalog.Tables[phrases](catalog.Shipped(), languages, "mail.")

// phrasesFor returns a locale's phrases, or English.
func phrasesFor(locale string) *phrases {
	if p, ok := mailPhrases[locale]; ok {
		return p
	}
	return mailPhrases[domain.DefaultLocale]
}

// color names a colour (in the rules' names: "white") in the locale.
func (p *phrases) color(name string) string {
	c, err := less.ParseColor(name)
	if err != nil {
		return name
	}
	return p.Colors[c]
}

// side names a side: a colour for two players, a team for four.
func (p *phrases) side(s less.Side, size int) string {
	if size == 8 {
		return p.Teams[s]
	}
	return p.Colors[less.SideColors(s, size)[0]]
}

// say fills in one phrase. The phrases are fixed and tested in every
// locale, so a failure is a bug.
func say(phrase string, data any) string {
	t, ok := parsedPhrases.Load(phrase)
	if !ok {
		parsed, err := template.New("").Option("missingkey=error").Funcs(phraseFuncs).Parse(phrase)
		if err != nil {
			panic(fmt.Sprintf("notify: phrase %q: %v", phrase, err))
		}
		t, _ = parsedPhrases.LoadOrStore(phrase, parsed)
	}
	var b bytes.Buffer
	if err := t.(*template.Template).Execute(&b, data); err != nil {
		panic(fmt.Sprintf("notify: phrase %q: %v", phrase, err))
	}
	return b.String()
}

// preset names a rule preset in the phrases' language; one without a name
// here (a preset newer than the phrases) keeps the engine's.
func (p *phrases) preset(name less.Preset) string {
	if s, ok := p.Presets[name]; ok {
		return s
	}
	return string(name)
}

// phraseFuncs are what phrases may call: plural picks the form of a noun
// for a count by the CLDR rules of the phrase's language (x/text), as in
// {{plural `fr` .Needed `coup` `coups`}} for a language of two forms (one,
// other: French takes the singular for 0 too), or with each form named by
// its CLDR category for a language of more, as in {{plural `pl` .N
// `one:ruch` `few:ruchy` `many:ruchów` `other:ruchu`}}. TestPluralForms
// checks that every locale file names its own language and gives every
// form that language's integers take.
var phraseFuncs = template.FuncMap{"plural": pluralForm}

// pluralCategories name x/text's plural forms as CLDR (and the phrases) do.
var pluralCategories = map[plural.Form]string{plural.Zero: "zero", plural.One: "one", plural.Two: "two",
	plural.Few: "few", plural.Many: "many", plural.Other: "other"}

// pluralForm is the form of forms that n takes in lang (see phraseFuncs).
func pluralForm(lang string, n int, forms ...string) (string, error) {
	category := pluralCategories[plural.Cardinal.MatchPlural(language.Make(lang), n, 0, 0, 0, 0)]
	byCategory, err := pluralTable(forms)
	if err != nil {
		return "", err
	}
	if f, ok := byCategory[category]; ok {
		return f, nil
	}
	return byCategory["other"], nil
}

// pluralTable reads plural's forms: two bare words are one and other, else
// every form is category:word and other is among them.
func pluralTable(forms []string) (map[string]string, error) {
	if len(forms) == 2 && !strings.Contains(forms[0], ":") && !strings.Contains(forms[1], ":") {
		return map[string]string{"one": forms[0], "other": forms[1]}, nil
	}
	table := map[string]string{}
	for _, f := range forms {
		category, word, ok := strings.Cut(f, ":")
		if !ok || !slices.Contains(slices.Collect(maps.Values(pluralCategories)), category) {
			return nil, fmt.Errorf("plural form %q: want category:word (zero, one, two, few, many, other)", f)
		}
		table[category] = word
	}
	if _, ok := table["other"]; !ok {
		return nil, fmt.Errorf("plural forms %q: no other form", forms)
	}
	return table, nil
}

// parsedPhrases keeps each phrase parsed once: an email says several, and
// the phrases are a fixed set.
var parsedPhrases sync.Map // phrase -> *template.Template
