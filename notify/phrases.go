package notify

import (
	"bytes"
	"fmt"
	"sync"
	"text/template"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// phrases are the words of every email in one language. Each field is a
// text/template over the data named in its comment. Translations take the
// game's words from the publisher's rule sheet (DE Spielzug, Mauer,
// Doppelmauer; IT mossa, muro; ES movimiento, pared; FR coup, mur).
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

	InviteIntro     string // .Color
	PlayersHeading  string
	Rules           string // .Preset, .MaxTurns, .EarlyStop (bool)
	YouMoveFirst    string
	OtherMovesFirst string // .ToMove
	HowToPlay       string

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

	// Playing by replying to an email (see domain.PlayByReply). "resign"
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

// catalog holds the phrases of every locale lesspost speaks.
var catalog = map[string]*phrases{
	"en": &english,
}

// phrasesFor returns a locale's phrases, or English.
func phrasesFor(locale string) *phrases {
	if p, ok := catalog[locale]; ok {
		return p
	}
	return catalog[domain.DefaultLocale]
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
// {{plural `fr` .Needed `coup` `coups`}}: French takes the singular for 0
// too, and a language's other forms fall back to the second.
var phraseFuncs = template.FuncMap{
	"plural": func(lang string, n int, one, other string) string {
		if plural.Cardinal.MatchPlural(language.Make(lang), n, 0, 0, 0, 0) == plural.One {
			return one
		}
		return other
	},
}

// parsedPhrases keeps each phrase parsed once: an email says several, and
// the phrases are a fixed set.
var parsedPhrases sync.Map // phrase -> *template.Template

var english = phrases{
	Colors:  [4]string{less.White: "White", less.Black: "Black", less.Yellow: "Yellow", less.Red: "Red"},
	Presets: map[less.Preset]string{less.PresetClassic: "Classic rules", less.PresetCodeCup: "CodeCup rules"},
	Teams:   [2]string{"Yellow and White", "Black and Red"},

	SubjectGame:  "{{.Game}}: {{.Players}} [{{.Short}}]",
	SubjectLogin: "Your lesspost sign-in link",

	LoginIntro:  "Sign in to lesspost with this link. It works once, within 15 minutes:",
	LoginButton: "Sign in",
	LoginCode:   "Or enter this code in the app: {{.Code}}",
	LoginIgnore: "If you did not ask to sign in, ignore this email: nothing happens without the link.",

	Greeting: "Hello {{.Name}},",

	InviteIntro:     "you are invited to a game of Less by correspondence. You play {{.Color}}.",
	PlayersHeading:  "Players:",
	Rules:           "{{.Preset}}, at most {{.MaxTurns}} {{plural `en` .MaxTurns `turn` `turns`}} each{{if .EarlyStop}}, a turn may end after any move{{end}}.",
	YouMoveFirst:    "You move first.",
	OtherMovesFirst: "{{.ToMove}} moves first; we will email you when it is your turn.",
	HowToPlay: "How to play: bring your 4 pieces to the opposite corner. Each turn has 3 points: " +
		"a step to a neighbouring square costs 1, a jump over one piece 1, a step across a wall 2, " +
		"across a double wall 3. Whoever needs fewer moves in all wins.",

	YourTurn: "it is your turn as {{.Color}} ({{.Ply}} {{plural `en` .Ply `turn` `turns`}} played so far).",
	Played:   "{{.Color}} played {{.Turn}}",
	Counts:   "Moves counted: {{.Counts}}",
	Deadline: "Please move by {{.Deadline}}.",
	Reminder: "your turn in this game is due by {{.Deadline}}. After that, {{.Timeout}}.",

	TimeoutLoses:  "your side loses on time",
	TimeoutPasses: "your turn is passed",
	TimedOutPass:  "{{.Color}} ran out of time; the turn was passed",

	GameOver:        "the game is over: {{.Result}}.",
	Win:             "{{.Side}} won by {{.Margin}}",
	Draw:            "a draw",
	ByResignation:   "{{.Side}} resigned",
	ByTimeout:       "{{.Side}} ran out of time",
	ByTurnLimit:     "the turn limit was reached",
	ByBlockedCorner: "a piece of {{.Side}} stayed on its start corner",
	ByAdjudication:  "adjudicated at the end of the round",
	ByWithdrawal:    "{{.Side}} withdrew from the tournament",
	Total:           "{{.Side}}: {{.Total}} ({{.Count}} {{plural `en` .Count `move` `moves`}} counted + {{.Needed}} still needed)",
	NeededExplained: "{{.Side}} had not brought every piece home: at least {{.Needed}} more points would have done it, and they count too.",

	NewLink: "your move link for this game was renewed. Earlier links no longer work.",

	ReplyHow:         "Reply to this email with your turn, e.g. {{.Example}}, or resign.",
	ReplyAccepted:    "your turn {{.Turn}} was played. We will email you when it is your turn again.",
	ReplyStranger:    "a reply to an email of this game came from {{.From}}, not from your address, so it played nothing. To play by email, reply from the address our emails reach.",
	ReplyEarlier:     "your reply answered an email about an earlier turn; the game has moved on since, so it played nothing. Here is the board now.",
	ReplyNoTurn:      "we found no turn in your reply, so it played nothing. Write your turn on a line of its own. We read:",
	ReplyIllegal:     "your turn {{.Turn}} cannot be played: it breaks rule {{.RuleRef}} ({{.Rule}}){{if .Part}} at its part {{.Part}}{{end}}. Nothing was played.",
	ReplyNotYourTurn: "your reply came when it was not your turn, so it played nothing.",
	ReplyGameOver:    "this game is over, so your reply played nothing.",
	ReplyOther:       "your reply played nothing ({{.Reason}}).",
	ReplyLimited:     "too many of your replies came in a short time, so this one played nothing. Wait {{.Minutes}} {{plural `en` .Minutes `minute` `minutes`}}, then send your turn again: replies sent before then play nothing and get no answer.",
	ReplyForged:      "a reply to an email of this game failed our mail server's sender checks (it may be forged), so it played nothing. If you sent it, send it again from your usual mail account.",
	ReplyMalformed:   "a reply to an email of this game could not be read (its format is broken), so it played nothing. If you sent it, write your turn again as plain text.",
	ReplyTooLarge:    "a reply to an email of this game was too large to read, so it played nothing. If you sent it, reply again without attachments or the quoted email.",
	ReplyAgain:       "To answer again, reply to this email.",

	TournamentRound:   "This game is round {{.Round}} of the tournament {{.Name}}.",
	TournamentDecider: "This is the deciding game of your match: the games of round {{.Round}} left it level. Its winner goes through; if it is drawn too, the higher seed does.",
	RoundDeadline:     "The round ends on {{.Deadline}}: a game still unfinished then is adjudicated, scored as if the turn limit were reached.",
	SubjectTournament: "Less: {{.Name}}, round {{.Round}}",
	Bye:               "you have a bye in round {{.Round}} of the tournament {{.Name}}: it counts as a win. Your next pairing will come by email.",
	Walkover:          "{{.Opponent}} has withdrawn from the tournament {{.Name}}: your game of round {{.Round}} counts as a win for you, without play. Your next pairing will come by email.",
	WalkoverAnnulled:  "{{.Opponent}} has withdrawn from the tournament {{.Name}}: you have no game in round {{.Round}}, and none of his games count, for him or his opponents. Your next pairing will come by email.",

	FinishedLabel:  "See the finished game, step through its turns, or play again:",
	FinishedButton: "Open the game",
	TeamLine:       "You play in the team {{.Team}} with {{.Partner}}, against {{.Others}}.",
	And:            "{{.A}} and {{.B}}",

	MoveLinkLabel: "Your personal move link (it is yours alone: do not forward it):",
	MoveButton:    "Open the board",
	WatchLabel:    "The game for spectators:",
	RulesLabel:    "The rules of the game:",
	WatchAnchor:   "Watch the game",
	BoardAlt:      "The board",
	Legend:        "{{.Pieces}} the pieces ({{.Names}}), {{.Targets}} the empty squares of their target corners, | and --- walls, # and === double walls, * the squares the last turn left.",
	Footer:        "You receive this email because you play in this game of {{.Game}} on lesspost.",
	Unsubscribe:   "Turn off reminders and spectator notices",
	NeverEmail:    "Never email me again (stops all email from lesspost to this address)",

	SubjectWebhookDisabled: "Your lesspost webhook endpoint was disabled",
	WebhookDisabled:        "lesspost stopped sending events to your webhook endpoint {{.URL}}. Why: {{.Reason}}.",
	WebhookEnable:          "Events of the account are no longer sent to it. Once it works again, enable it (PATCH /v1/me/webhooks/{{.ID}} with {\"enabled\": true}); its delivery log (GET /v1/me/webhooks/{{.ID}}/deliveries) shows what failed, and each message can be sent again.",
}
