package notify

import "github.com/lesspost/lesspost/domain/less"

// german addresses the reader with "du", as German game apps and emails
// between players do (the printed rule sheet says "Sie", as printed rules
// usually do). After the greeting "Hallo Anna," the text goes on in lower
// case, as German letters do. Game words from the rule sheet: Spielzug (one
// point of a turn), Spielstein, Feld, Ecke, Anfangsecke, Mauer,
// Doppelmauer, Runde (a player's turn, "in seiner letzten Runde"), an der
// Reihe, Punkte (the score), unentschieden. A side (.Side) is a colour or a
// team ("Gelb und Weiß"), so phrases about a side avoid a verb that would
// have to agree with it.
var german = phrases{
	Colors:  [4]string{less.White: "Weiß", less.Black: "Schwarz", less.Yellow: "Gelb", less.Red: "Rot"},
	Teams:   [2]string{"Gelb und Weiß", "Schwarz und Rot"},
	Presets: map[less.Preset]string{less.PresetClassic: "Klassische Regeln", less.PresetCodeCup: "CodeCup-Regeln"},

	SubjectGame:  "{{.Game}}: {{.Players}} [{{.Short}}]",
	SubjectLogin: "Dein Anmeldelink für lesspost",

	LoginIntro:  "Melde dich mit diesem Link bei lesspost an. Er gilt nur einmal und 15 Minuten lang:",
	LoginButton: "Anmelden",
	LoginCode:   "Oder gib diesen Code in der App ein: {{.Code}}",
	LoginIgnore: "Falls du keine Anmeldung angefordert hast, ignoriere diese E-Mail: Ohne den Link passiert nichts.",

	Greeting: "Hallo {{.Name}},",

	InviteIntro:     "du bist zu einer Partie Less per E-Mail eingeladen. Du spielst {{.Color}}.",
	PlayersHeading:  "Es spielen:",
	Rules:           "{{.Preset}}, höchstens {{.MaxTurns}} {{plural `de` .MaxTurns `Runde` `Runden`}} je Spieler{{if .EarlyStop}}, eine Runde darf nach jedem Spielzug enden{{end}}.",
	YouMoveFirst:    "Du fängst an.",
	OtherMovesFirst: "{{.ToMove}} fängt an; wir schreiben dir, sobald du an der Reihe bist.",
	HowToPlay: "So wird gespielt: Bring deine 4 Spielsteine in die gegenüberliegende Ecke. In jeder Runde hast du " +
		"3 Spielzüge: Ein Schritt auf ein angrenzendes Feld zählt als einer, ebenso das Überspringen eines Spielsteins; " +
		"das Überspringen einer Mauer zählt als zwei, das einer Doppelmauer als drei. Wer insgesamt weniger Spielzüge braucht, gewinnt.",

	YourTurn: "du bist mit {{.Color}} an der Reihe (bisher gespielte Runden: {{.Ply}}).",
	Played:   "{{.Color}} hat {{.Turn}} gespielt",
	Counts:   "Gezählte Spielzüge: {{.Counts}}",
	Deadline: "Bitte spiele deine Runde bis spätestens {{.Deadline}}.",
	Reminder: "deine Runde in dieser Partie muss bis spätestens {{.Deadline}} gespielt sein. Danach {{.Timeout}}.",

	TimeoutLoses:  "verliert deine Seite wegen Zeitüberschreitung",
	TimeoutPasses: "wird deine Runde ausgelassen",
	TimedOutPass:  "{{.Color}} hat die Zeit überschritten; die Runde wurde ausgelassen",

	GameOver:        "die Partie ist vorbei: {{.Result}}.",
	Win:             "Sieg für {{.Side}} mit {{.Margin}} {{plural `de` .Margin `Punkt` `Punkten`}} Vorsprung",
	Draw:            "unentschieden",
	ByResignation:   "Aufgabe von {{.Side}}",
	ByTimeout:       "Zeitüberschreitung bei {{.Side}}",
	ByTurnLimit:     "die Höchstzahl an Runden ist erreicht",
	ByBlockedCorner: "ein Spielstein von {{.Side}} stand noch in der Anfangsecke",
	ByAdjudication:  "Wertung am Ende der Turnierrunde",
	ByWithdrawal:    "Rückzug von {{.Side}} aus dem Turnier",
	Total:           "{{.Side}}: {{.Total}} ({{.Count}} gezählt + {{.Needed}} noch nötig)",
	NeededExplained: "Bei {{.Side}} waren nicht alle Spielsteine im Ziel: Dafür hätte es noch mindestens {{.Needed}} " +
		"{{plural `de` .Needed `Spielzug` `Spielzüge`}} gebraucht, und dieses Minimum zählt mit.",

	NewLink: "dein Link zum Spielen in dieser Partie wurde erneuert. Frühere Links funktionieren nicht mehr.",

	ReplyHow:         "Antworte auf diese E-Mail mit deiner Runde, z. B. {{.Example}}, oder mit resign, um aufzugeben.",
	ReplyAccepted:    "deine Runde {{.Turn}} wurde gespielt. Wir schreiben dir, sobald du wieder an der Reihe bist.",
	ReplyStranger:    "eine Antwort auf eine E-Mail dieser Partie kam von {{.From}}, nicht von deiner Adresse; deshalb wurde nichts gespielt. Antworte von der Adresse, an die unsere E-Mails gehen.",
	ReplyEarlier:     "deine Antwort bezog sich auf eine E-Mail zu einer früheren Runde; die Partie ist seitdem weitergegangen, deshalb wurde nichts gespielt. So steht die Partie jetzt.",
	ReplyNoTurn:      "in deiner Antwort haben wir keine Runde gefunden, deshalb wurde nichts gespielt. Schreib deine Runde in eine eigene Zeile. Gelesen haben wir:",
	ReplyIllegal:     "deine Runde {{.Turn}} ist nicht erlaubt: sie verstößt gegen Regel {{.RuleRef}} ({{.Rule}}){{if .Part}}, bei Teil {{.Part}}{{end}}. Es wurde nichts gespielt.",
	ReplyNotYourTurn: "deine Antwort kam, als du nicht an der Reihe warst; deshalb wurde nichts gespielt.",
	ReplyGameOver:    "diese Partie ist vorbei; deine Antwort hat nichts gespielt.",
	ReplyOther:       "deine Antwort hat nichts gespielt ({{.Reason}}).",
	ReplyLimited:     "zu viele deiner Antworten kamen in kurzer Zeit, deshalb hat diese nichts gespielt. Warte {{.Minutes}} {{plural `de` .Minutes `Minute` `Minuten`}} und schick deine Runde dann noch einmal: Antworten davor spielen nichts und bleiben unbeantwortet.",
	ReplyForged:      "eine Antwort auf eine E-Mail dieser Partie hat die Absenderprüfung unseres Mailservers nicht bestanden (sie ist vielleicht gefälscht), deshalb wurde nichts gespielt. Wenn du sie geschickt hast, schick sie noch einmal von deinem üblichen E-Mail-Konto.",
	ReplyMalformed:   "eine Antwort auf eine E-Mail dieser Partie war nicht lesbar (ihr Format ist beschädigt), deshalb wurde nichts gespielt. Wenn du sie geschickt hast, schreib deine Runde noch einmal als einfachen Text.",
	ReplyTooLarge:    "eine Antwort auf eine E-Mail dieser Partie war zu groß zum Lesen, deshalb wurde nichts gespielt. Wenn du sie geschickt hast, antworte noch einmal ohne Anhänge und ohne die zitierte E-Mail.",
	ReplyAgain:       "Um erneut zu antworten, antworte auf diese E-Mail.",

	TournamentRound:   "Diese Partie ist Runde {{.Round}} des Turniers {{.Name}}.",
	TournamentDecider: "Dies ist die Entscheidungspartie deines Matches: Die Partien der Runde {{.Round}} endeten unentschieden. Wer sie gewinnt, kommt weiter; endet auch sie remis, kommt der höher Gesetzte weiter.",
	RoundDeadline:     "Die Turnierrunde endet am {{.Deadline}}. Ist die Partie dann nicht beendet, wird sie gewertet, als wäre die Höchstzahl an Runden erreicht.",
	SubjectTournament: "Less: {{.Name}}, Runde {{.Round}}",
	Bye:               "in Runde {{.Round}} des Turniers {{.Name}} hast du spielfrei; das zählt als Sieg. Deine nächste Paarung kommt per E-Mail.",
	Walkover:          "{{.Opponent}} hat sich aus dem Turnier {{.Name}} zurückgezogen; deine Partie in Runde {{.Round}} zählt für dich als Sieg, ohne dass du spielen musst. Deine nächste Paarung kommt per E-Mail.",
	WalkoverAnnulled:  "{{.Opponent}} hat sich aus dem Turnier {{.Name}} zurückgezogen: Du hast in Runde {{.Round}} keine Partie, und keine seiner Partien zählt, weder für ihn noch für seine Gegner. Deine nächste Paarung kommt per E-Mail.",

	FinishedLabel:  "Sieh dir die beendete Partie an, geh ihre Runden durch oder spiel noch einmal:",
	FinishedButton: "Partie öffnen",
	TeamLine:       "Du spielst im Team {{.Team}} mit {{.Partner}}, gegen {{.Others}}.",
	And:            "{{.A}} und {{.B}}",

	MoveLinkLabel: "Dein persönlicher Link zum Spielen (nur für dich, bitte nicht weiterleiten):",
	MoveButton:    "Spielbrett öffnen",
	WatchLabel:    "Die Partie für Zuschauer:",
	RulesLabel:    "Die Spielregeln:",
	WatchAnchor:   "Partie ansehen",
	BoardAlt:      "Das Spielbrett",
	Legend: "{{.Pieces}} die Spielsteine ({{.Names}}), {{.Targets}} die freien Felder ihrer Zielecken, " +
		"| und --- Mauern, # und === Doppelmauern, * die in der letzten Runde verlassenen Felder.",
	Footer:      "Du erhältst diese E-Mail, weil du bei lesspost in dieser Partie {{.Game}} mitspielst.",
	Unsubscribe: "Erinnerungen und Zuschauer-Benachrichtigungen abbestellen",
	NeverEmail:  "Nie wieder E-Mails an mich (beendet alle E-Mails von lesspost an diese Adresse)",

	SubjectWebhookDisabled: "Dein lesspost-Webhook wurde deaktiviert",
	WebhookDisabled:        "lesspost sendet keine Ereignisse mehr an deinen Webhook-Endpunkt {{.URL}}. Grund (englisch): {{.Reason}}.",
	WebhookEnable:          "Ereignisse deines Kontos gehen nicht mehr dorthin. Sobald er wieder funktioniert, aktiviere ihn (PATCH /v1/me/webhooks/{{.ID}} mit {\"enabled\": true}); sein Zustellprotokoll (GET /v1/me/webhooks/{{.ID}}/deliveries) zeigt, was fehlschlug, und jede Nachricht kann erneut gesendet werden.",
}

func init() { catalog["de"] = &german }
