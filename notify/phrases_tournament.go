package notify

import (
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
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

	// Actions say a logged action (domain.Action*): .Name, .Player.
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

// tournamentCatalog holds the tournament phrases of every locale.
var tournamentCatalog = map[string]*tournamentPhrases{
	"en": {
		NextRoundStarts: "Round {{.Round}} starts on {{.Start}}.",
		ResultLine:      "{{.Pair}}: {{.Score}}",
		SubjectDeadline: "{{.Name}}: round {{.Round}} ends on {{.Deadline}}",
		DeadlineNear:    "your game of round {{.Round}} of the tournament {{.Name}} is not finished yet, and the round ends soon.",
		SubjectPartner:  "{{.Name}}: {{.Player}} entered you as a team",
		PartnerEntered:  "{{.Player}} entered you in the tournament {{.Name}} as a team with him: {{.Team}}. The two of you play every game together, as one side of a four-player game, each with his own move link. If you do not want to play, either of you may withdraw the team on the tournament's page before the first round starts.",
		GreetingNoName:  "Hello,",
		SubjectResults:  "{{.Name}}: results of round {{.Round}}",
		SubjectFinal:    "{{.Name}}: final standings",
		SubjectUpdate:   "{{.Name}}: {{if .Player}}{{.Player}} withdrew{{else}}a change by the organiser{{end}}",
		ResultsIntro:    "round {{.Round}} of the tournament {{.Name}} is over. The results:",
		FinalIntro:      "the tournament {{.Name}} is over. The results of the last round, round {{.Round}}:",
		StandingsAfter:  "The standings after round {{.Round}}:",
		FinalStandings:  "The final standings:",
		StandingLine:    "{{.Rank}}. {{.Player}}: {{.Points}}",
		ByeLine:         "{{.Player}}: a bye (a win)",
		Undecided:       "no result",
		Annulled:        "annulled by the organiser: it counts for nobody",
		Overridden:      "set by the organiser",
		Forfeit:         "forfeited, not played",
		OnTime:          "on time",
		Adjudicated:     "adjudicated at the end of the round",
		Withdrawn:       "withdrawn",
		NextRound:       "Round {{.Round}} starts on {{.Start}}; your pairing will come by email.",
		Actions: map[string]string{
			tournaments.ActionDeadlineExtended: "the organiser of the tournament {{.Name}} gave your game more time.",
			tournaments.ActionRoundPostponed:   "the organiser of the tournament {{.Name}} postponed a round: the schedule moved later.",
			tournaments.ActionPaused:           "the organiser paused the tournament {{.Name}}: the clocks of its games stand still, and no round starts or ends, until it resumes.",
			tournaments.ActionResumed:          "the tournament {{.Name}} runs again: the clocks of its games run, and its deadlines moved by the length of the pause.",
			tournaments.ActionResultOverridden: "the organiser of the tournament {{.Name}} set the result of a game; the standings count it.",
			tournaments.ActionResultAnnulled:   "the organiser of the tournament {{.Name}} annulled the result of a game: it counts for nobody.",
			tournaments.ActionCancelled:        "the organiser cancelled the tournament {{.Name}}: no more rounds will be played.",
			tournaments.ActionWithdrawn:        "the organiser withdrew you from the tournament {{.Name}}: you are paired no more.",
			tournaments.ActionEntrantReplaced:  "the organiser of the tournament {{.Name}} gave your place in it to another player: you play in it no more, and your move link no longer works.",
			tournaments.ActionUnplayed:         "a game of yours in the tournament {{.Name}} had no move by its deadline: it counts as a double forfeit, lost by both players.",
		},
		ResultSet:       "the organiser of the tournament {{.Name}} set the result of the game {{.Pair}} of round {{.Round}} to {{.Score}} ({{.Outcome}}); the standings count it.",
		ResultAnnulled:  "the organiser of the tournament {{.Name}} annulled the result of the game {{.Pair}} of round {{.Round}}: it counts for nobody.",
		ByeAnnulled:     "the organiser of the tournament {{.Name}} annulled the bye of {{.Bye}} in round {{.Round}}: it counts for nobody.",
		WinsBy:          "{{.Winner}} wins by {{.Margin}}",
		DrawnGame:       "a draw",
		SubjectUnplayed: "{{.Name}}: your game of round {{.Round}} was not played",
		Unplayed:        "nobody moved in your game {{.Pair}} of round {{.Round}} of the tournament {{.Name}} by its deadline: it counts as a double forfeit, lost by both of you (0 points each).",
		NoMove:          "no move by the deadline: a double forfeit",
		Withdrew:        "{{.Player}} withdrew from the tournament {{.Name}}. You may want to look at the pairings.",
		Reason:          "The organiser's reason: {{.Reason}}",
		When:            "This happened on {{.At}}.",
		YourDeadline:    "Your game of round {{.Round}} is now adjudicated, if unfinished, on {{.Deadline}}.",
		PageLabel:       "The tournament's page, with the standings, the crosstable and every game:",
		PageButton:      "Open the tournament",
		FooterPlayer:    "You receive this email because you play in the tournament {{.Name}} on lesspost.",
		FooterOrganiser: "You receive this email because you organise the tournament {{.Name}} on lesspost.",
		FooterReplaced:  "You receive this email because you were entered in the tournament {{.Name}} on lesspost.",
	},
	"de": {
		NextRoundStarts: "Runde {{.Round}} beginnt am {{.Start}}.",
		ResultLine:      "{{.Pair}}: {{.Score}}",
		SubjectDeadline: "{{.Name}}: Runde {{.Round}} endet am {{.Deadline}}",
		DeadlineNear:    "deine Partie der Runde {{.Round}} des Turniers {{.Name}} ist noch nicht beendet, und die Runde endet bald.",
		SubjectPartner:  "{{.Name}}: {{.Player}} hat dich als Team angemeldet",
		PartnerEntered:  "{{.Player}} hat dich für das Turnier {{.Name}} als Team mit sich angemeldet: {{.Team}}. Ihr spielt jede Partie zusammen, als eine Seite einer Partie zu viert, jeder mit seinem eigenen Link zum Spielen. Wenn du nicht spielen möchtest, kann jeder von euch das Team vor dem Beginn der ersten Runde auf der Seite des Turniers zurückziehen.",
		GreetingNoName:  "Hallo,",
		SubjectResults:  "{{.Name}}: Ergebnisse der Runde {{.Round}}",
		SubjectFinal:    "{{.Name}}: Endstand",
		SubjectUpdate:   "{{.Name}}: {{if .Player}}Rückzug von {{.Player}}{{else}}eine Änderung durch die Turnierleitung{{end}}",
		ResultsIntro:    "Runde {{.Round}} des Turniers {{.Name}} ist vorbei. Die Ergebnisse:",
		FinalIntro:      "das Turnier {{.Name}} ist vorbei. Die Ergebnisse der letzten Runde, Runde {{.Round}}:",
		StandingsAfter:  "Der Stand nach Runde {{.Round}}:",
		FinalStandings:  "Der Endstand:",
		StandingLine:    "{{.Rank}}. {{.Player}}: {{.Points}}",
		ByeLine:         "{{.Player}}: spielfrei (zählt als Sieg)",
		Undecided:       "kein Ergebnis",
		Annulled:        "von der Turnierleitung annulliert: zählt für niemanden",
		Overridden:      "von der Turnierleitung festgesetzt",
		Forfeit:         "kampflos, nicht gespielt",
		OnTime:          "durch Zeitüberschreitung",
		Adjudicated:     "am Ende der Runde gewertet",
		Withdrawn:       "zurückgezogen",
		NextRound:       "Runde {{.Round}} beginnt am {{.Start}}; deine Paarung kommt per E-Mail.",
		Actions: map[string]string{
			tournaments.ActionDeadlineExtended: "die Turnierleitung von {{.Name}} hat deiner Partie mehr Zeit gegeben.",
			tournaments.ActionRoundPostponed:   "die Turnierleitung von {{.Name}} hat eine Runde verschoben: Der Zeitplan ist später.",
			tournaments.ActionPaused:           "die Turnierleitung hat das Turnier {{.Name}} unterbrochen: Die Uhren seiner Partien stehen, und keine Runde beginnt oder endet, bis es weitergeht.",
			tournaments.ActionResumed:          "das Turnier {{.Name}} läuft wieder: Die Uhren seiner Partien laufen, und seine Fristen sind um die Dauer der Unterbrechung verschoben.",
			tournaments.ActionResultOverridden: "die Turnierleitung von {{.Name}} hat das Ergebnis einer Partie festgesetzt; der Stand zählt es.",
			tournaments.ActionResultAnnulled:   "die Turnierleitung von {{.Name}} hat das Ergebnis einer Partie annulliert: Es zählt für niemanden.",
			tournaments.ActionCancelled:        "die Turnierleitung hat das Turnier {{.Name}} abgesagt: Es werden keine weiteren Runden gespielt.",
			tournaments.ActionWithdrawn:        "die Turnierleitung hat dich aus dem Turnier {{.Name}} zurückgezogen: Du wirst nicht mehr gepaart.",
			tournaments.ActionEntrantReplaced:  "die Turnierleitung von {{.Name}} hat deinen Platz im Turnier einem anderen Spieler gegeben: Du spielst nicht mehr mit, und dein Link zum Spielen funktioniert nicht mehr.",
			tournaments.ActionUnplayed:         "in einer deiner Partien des Turniers {{.Name}} hat bis zu ihrer Frist niemand gezogen: Sie zählt für beide als kampflos verloren.",
		},
		ResultSet:       "die Turnierleitung von {{.Name}} hat das Ergebnis der Partie {{.Pair}} der Runde {{.Round}} auf {{.Score}} festgesetzt ({{.Outcome}}); der Stand zählt es.",
		ResultAnnulled:  "die Turnierleitung von {{.Name}} hat das Ergebnis der Partie {{.Pair}} der Runde {{.Round}} annulliert: Es zählt für niemanden.",
		ByeAnnulled:     "die Turnierleitung von {{.Name}} hat das Spielfrei von {{.Bye}} in Runde {{.Round}} annulliert: Es zählt für niemanden.",
		WinsBy:          "{{.Winner}} gewinnt mit {{.Margin}}",
		DrawnGame:       "Remis",
		SubjectUnplayed: "{{.Name}}: deine Partie der Runde {{.Round}} wurde nicht gespielt",
		Unplayed:        "in deiner Partie {{.Pair}} der Runde {{.Round}} des Turniers {{.Name}} hat bis zu ihrer Frist niemand gezogen: Sie zählt für beide als kampflos verloren (0 Punkte für jeden).",
		NoMove:          "kein Zug bis zur Frist: für beide kampflos verloren",
		Withdrew:        "{{.Player}} hat sich aus dem Turnier {{.Name}} zurückgezogen. Vielleicht möchtest du die Paarungen ansehen.",
		Reason:          "Begründung der Turnierleitung: {{.Reason}}",
		When:            "Das geschah am {{.At}}.",
		YourDeadline:    "Deine Partie der Runde {{.Round}} wird, falls nicht beendet, am {{.Deadline}} gewertet.",
		PageLabel:       "Die Seite des Turniers, mit Stand, Kreuztabelle und allen Partien:",
		PageButton:      "Turnier öffnen",
		FooterPlayer:    "Du erhältst diese E-Mail, weil du bei lesspost im Turnier {{.Name}} mitspielst.",
		FooterOrganiser: "Du erhältst diese E-Mail, weil du bei lesspost das Turnier {{.Name}} leitest.",
		FooterReplaced:  "Du erhältst diese E-Mail, weil du bei lesspost für das Turnier {{.Name}} gemeldet warst.",
	},
	"fr": {
		NextRoundStarts: "La ronde {{.Round}} commence le {{.Start}}.",
		ResultLine:      "{{.Pair}}\u00a0: {{.Score}}",
		SubjectDeadline: "{{.Name}}\u00a0: la ronde {{.Round}} finit le {{.Deadline}}",
		DeadlineNear:    "Votre partie de la ronde {{.Round}} du tournoi {{.Name}} n'est pas encore finie, et la ronde se termine bientôt.",
		SubjectPartner:  "{{.Name}}\u00a0: {{.Player}} vous a inscrit en équipe",
		PartnerEntered:  "{{.Player}} vous a inscrit au tournoi {{.Name}} en équipe avec lui\u00a0: {{.Team}}. Vous jouez chaque partie ensemble, un camp d'une partie à quatre, chacun avec son propre lien pour jouer. Si vous ne souhaitez pas jouer, l'un ou l'autre peut retirer l'équipe sur la page du tournoi avant le début de la première ronde.",
		GreetingNoName:  "Bonjour,",
		SubjectResults:  "{{.Name}}\u00a0: résultats de la ronde {{.Round}}",
		SubjectFinal:    "{{.Name}}\u00a0: classement final",
		SubjectUpdate:   "{{.Name}}\u00a0: {{if .Player}}{{.Player}} s'est retiré{{else}}un changement par l'organisateur{{end}}",
		ResultsIntro:    "La ronde {{.Round}} du tournoi {{.Name}} est terminée. Les résultats\u00a0:",
		FinalIntro:      "Le tournoi {{.Name}} est terminé. Les résultats de la dernière ronde, la ronde {{.Round}}\u00a0:",
		StandingsAfter:  "Le classement après la ronde {{.Round}}\u00a0:",
		FinalStandings:  "Le classement final\u00a0:",
		StandingLine:    "{{.Rank}}. {{.Player}}\u00a0: {{.Points}}",
		ByeLine:         "{{.Player}}\u00a0: exempt (une victoire)",
		Undecided:       "sans résultat",
		Annulled:        "annulé par l'organisateur\u00a0: il ne compte pour personne",
		Overridden:      "fixé par l'organisateur",
		Forfeit:         "par forfait, non jouée",
		OnTime:          "au temps",
		Adjudicated:     "arbitrée à la fin de la ronde",
		Withdrawn:       "retiré",
		NextRound:       "La ronde {{.Round}} commence le {{.Start}}\u00a0; votre appariement arrivera par e-mail.",
		Actions: map[string]string{
			tournaments.ActionDeadlineExtended: "L'organisateur du tournoi {{.Name}} a donné plus de temps à votre partie.",
			tournaments.ActionRoundPostponed:   "L'organisateur du tournoi {{.Name}} a reporté une ronde\u00a0: le calendrier est décalé.",
			tournaments.ActionPaused:           "L'organisateur a suspendu le tournoi {{.Name}}\u00a0: les pendules de ses parties sont arrêtées, et aucune ronde ne commence ni ne finit, jusqu'à la reprise.",
			tournaments.ActionResumed:          "Le tournoi {{.Name}} reprend\u00a0: les pendules de ses parties tournent, et ses échéances sont décalées de la durée de la pause.",
			tournaments.ActionResultOverridden: "L'organisateur du tournoi {{.Name}} a fixé le résultat d'une partie\u00a0; le classement en tient compte.",
			tournaments.ActionResultAnnulled:   "L'organisateur du tournoi {{.Name}} a annulé le résultat d'une partie\u00a0: il ne compte pour personne.",
			tournaments.ActionCancelled:        "L'organisateur a annulé le tournoi {{.Name}}\u00a0: plus aucune ronde ne sera jouée.",
			tournaments.ActionWithdrawn:        "L'organisateur vous a retiré du tournoi {{.Name}}\u00a0: vous ne serez plus apparié.",
			tournaments.ActionEntrantReplaced:  "L'organisateur du tournoi {{.Name}} a donné votre place à un autre joueur\u00a0: vous n'y jouez plus, et votre lien pour jouer ne fonctionne plus.",
			tournaments.ActionUnplayed:         "Personne n'a joué de coup dans une de vos parties du tournoi {{.Name}} avant son échéance\u00a0: elle compte comme un double forfait, perdue par les deux joueurs.",
		},
		ResultSet:       "L'organisateur du tournoi {{.Name}} a fixé le résultat de la partie {{.Pair}} de la ronde {{.Round}} à {{.Score}} ({{.Outcome}})\u00a0; le classement en tient compte.",
		ResultAnnulled:  "L'organisateur du tournoi {{.Name}} a annulé le résultat de la partie {{.Pair}} de la ronde {{.Round}}\u00a0: il ne compte pour personne.",
		ByeAnnulled:     "L'organisateur du tournoi {{.Name}} a annulé l'exemption de {{.Bye}} à la ronde {{.Round}}\u00a0: elle ne compte pour personne.",
		WinsBy:          "{{.Winner}} gagne de {{.Margin}}",
		DrawnGame:       "nulle",
		SubjectUnplayed: "{{.Name}}\u00a0: votre partie de la ronde {{.Round}} n'a pas été jouée",
		Unplayed:        "Personne n'a joué de coup dans votre partie {{.Pair}} de la ronde {{.Round}} du tournoi {{.Name}} avant son échéance\u00a0: elle compte comme un double forfait, perdue par vous deux (0 point chacun).",
		NoMove:          "aucun coup avant l'échéance\u00a0: double forfait",
		Withdrew:        "{{.Player}} s'est retiré du tournoi {{.Name}}. Vous voudrez peut-être regarder les appariements.",
		Reason:          "La raison de l'organisateur\u00a0: {{.Reason}}",
		When:            "C'était le {{.At}}.",
		YourDeadline:    "Votre partie de la ronde {{.Round}} sera arbitrée, si elle n'est pas finie, le {{.Deadline}}.",
		PageLabel:       "La page du tournoi, avec le classement, le tableau croisé et toutes les parties\u00a0:",
		PageButton:      "Ouvrir le tournoi",
		FooterPlayer:    "Vous recevez cet e-mail parce que vous jouez dans le tournoi {{.Name}} sur lesspost.",
		FooterOrganiser: "Vous recevez cet e-mail parce que vous organisez le tournoi {{.Name}} sur lesspost.",
		FooterReplaced:  "Vous recevez cet e-mail parce que vous étiez inscrit au tournoi {{.Name}} sur lesspost.",
	},
	"es": {
		NextRoundStarts: "La ronda {{.Round}} empieza el {{.Start}}.",
		ResultLine:      "{{.Pair}}: {{.Score}}",
		SubjectDeadline: "{{.Name}}: la ronda {{.Round}} termina el {{.Deadline}}",
		DeadlineNear:    "Tu partida de la ronda {{.Round}} del torneo {{.Name}} aún no ha terminado, y la ronda termina pronto.",
		SubjectPartner:  "{{.Name}}: {{.Player}} te ha inscrito en equipo",
		PartnerEntered:  "{{.Player}} te ha inscrito en el torneo {{.Name}} en equipo con él: {{.Team}}. Jugáis cada partida juntos, como un bando de una partida a cuatro, cada uno con su propio enlace para jugar. Si no quieres jugar, cualquiera de los dos puede retirar el equipo en la página del torneo antes de que empiece la primera ronda.",
		GreetingNoName:  "Hola:",
		SubjectResults:  "{{.Name}}: resultados de la ronda {{.Round}}",
		SubjectFinal:    "{{.Name}}: clasificación final",
		SubjectUpdate:   "{{.Name}}: {{if .Player}}{{.Player}} se ha retirado{{else}}un cambio del organizador{{end}}",
		ResultsIntro:    "La ronda {{.Round}} del torneo {{.Name}} ha terminado. Los resultados:",
		FinalIntro:      "El torneo {{.Name}} ha terminado. Los resultados de la última ronda, la ronda {{.Round}}:",
		StandingsAfter:  "La clasificación tras la ronda {{.Round}}:",
		FinalStandings:  "La clasificación final:",
		StandingLine:    "{{.Rank}}. {{.Player}}: {{.Points}}",
		ByeLine:         "{{.Player}}: descansa (una victoria)",
		Undecided:       "sin resultado",
		Annulled:        "anulado por el organizador: no cuenta para nadie",
		Overridden:      "fijado por el organizador",
		Forfeit:         "por incomparecencia, sin jugar",
		OnTime:          "por tiempo",
		Adjudicated:     "adjudicada al final de la ronda",
		Withdrawn:       "retirado",
		NextRound:       "La ronda {{.Round}} empieza el {{.Start}}; tu emparejamiento llegará por correo.",
		Actions: map[string]string{
			tournaments.ActionDeadlineExtended: "El organizador del torneo {{.Name}} ha dado más tiempo a tu partida.",
			tournaments.ActionRoundPostponed:   "El organizador del torneo {{.Name}} ha aplazado una ronda: el calendario se retrasa.",
			tournaments.ActionPaused:           "El organizador ha pausado el torneo {{.Name}}: los relojes de sus partidas están parados y ninguna ronda empieza ni termina hasta que se reanude.",
			tournaments.ActionResumed:          "El torneo {{.Name}} se ha reanudado: los relojes de sus partidas corren y sus plazos se han movido lo que duró la pausa.",
			tournaments.ActionResultOverridden: "El organizador del torneo {{.Name}} ha fijado el resultado de una partida; la clasificación lo cuenta.",
			tournaments.ActionResultAnnulled:   "El organizador del torneo {{.Name}} ha anulado el resultado de una partida: no cuenta para nadie.",
			tournaments.ActionCancelled:        "El organizador ha cancelado el torneo {{.Name}}: no se jugarán más rondas.",
			tournaments.ActionWithdrawn:        "El organizador te ha retirado del torneo {{.Name}}: ya no se te empareja.",
			tournaments.ActionEntrantReplaced:  "El organizador del torneo {{.Name}} ha dado tu plaza a otro jugador: ya no juegas en él, y tu enlace para jugar ya no funciona.",
			tournaments.ActionUnplayed:         "Nadie movió en una de tus partidas del torneo {{.Name}} antes de su plazo: cuenta como doble incomparecencia, perdida por ambos jugadores.",
		},
		ResultSet:       "El organizador del torneo {{.Name}} ha fijado el resultado de la partida {{.Pair}} de la ronda {{.Round}} en {{.Score}} ({{.Outcome}}); la clasificación lo cuenta.",
		ResultAnnulled:  "El organizador del torneo {{.Name}} ha anulado el resultado de la partida {{.Pair}} de la ronda {{.Round}}: no cuenta para nadie.",
		ByeAnnulled:     "El organizador del torneo {{.Name}} ha anulado el descanso de {{.Bye}} en la ronda {{.Round}}: no cuenta para nadie.",
		WinsBy:          "{{.Winner}} gana por {{.Margin}}",
		DrawnGame:       "tablas",
		SubjectUnplayed: "{{.Name}}: tu partida de la ronda {{.Round}} no se jugó",
		Unplayed:        "Nadie movió en tu partida {{.Pair}} de la ronda {{.Round}} del torneo {{.Name}} antes de su plazo: cuenta como doble incomparecencia, perdida por los dos (0 puntos cada uno).",
		NoMove:          "ningún movimiento antes del plazo: doble incomparecencia",
		Withdrew:        "{{.Player}} se ha retirado del torneo {{.Name}}. Quizá quieras revisar los emparejamientos.",
		Reason:          "El motivo del organizador: {{.Reason}}",
		When:            "Ocurrió el {{.At}}.",
		YourDeadline:    "Tu partida de la ronda {{.Round}} se adjudicará, si no ha terminado, el {{.Deadline}}.",
		PageLabel:       "La página del torneo, con la clasificación, el cuadro y todas las partidas:",
		PageButton:      "Abrir el torneo",
		FooterPlayer:    "Recibes este correo porque juegas en el torneo {{.Name}} en lesspost.",
		FooterOrganiser: "Recibes este correo porque organizas el torneo {{.Name}} en lesspost.",
		FooterReplaced:  "Recibes este correo porque estabas inscrito en el torneo {{.Name}} en lesspost.",
	},
	"it": {
		NextRoundStarts: "Il turno {{.Round}} inizia il {{.Start}}.",
		ResultLine:      "{{.Pair}}: {{.Score}}",
		SubjectDeadline: "{{.Name}}: il turno {{.Round}} finisce il {{.Deadline}}",
		DeadlineNear:    "la tua partita del turno {{.Round}} del torneo {{.Name}} non è ancora finita, e il turno termina presto.",
		SubjectPartner:  "{{.Name}}: {{.Player}} ti ha iscritto in squadra",
		PartnerEntered:  "{{.Player}} ti ha iscritto al torneo {{.Name}} in squadra con sé: {{.Team}}. Giocate ogni partita insieme, come uno schieramento di una partita a quattro, ciascuno con il proprio link per giocare. Se non vuoi giocare, ognuno dei due può ritirare la squadra dalla pagina del torneo prima che inizi il primo turno.",
		GreetingNoName:  "Ciao,",
		SubjectResults:  "{{.Name}}: risultati del turno {{.Round}}",
		SubjectFinal:    "{{.Name}}: classifica finale",
		SubjectUpdate:   "{{.Name}}: {{if .Player}}{{.Player}} si è ritirato{{else}}una modifica dell'organizzatore{{end}}",
		ResultsIntro:    "il turno {{.Round}} del torneo {{.Name}} è finito. I risultati:",
		FinalIntro:      "il torneo {{.Name}} è finito. I risultati dell'ultimo turno, il turno {{.Round}}:",
		StandingsAfter:  "La classifica dopo il turno {{.Round}}:",
		FinalStandings:  "La classifica finale:",
		StandingLine:    "{{.Rank}}. {{.Player}}: {{.Points}}",
		ByeLine:         "{{.Player}}: riposo (vale come vittoria)",
		Undecided:       "nessun risultato",
		Annulled:        "annullato dall'organizzatore: non conta per nessuno",
		Overridden:      "fissato dall'organizzatore",
		Forfeit:         "a tavolino, non giocata",
		OnTime:          "per tempo",
		Adjudicated:     "aggiudicata alla fine del turno",
		Withdrawn:       "ritirato",
		NextRound:       "Il turno {{.Round}} inizia il {{.Start}}; il tuo abbinamento ti arriverà per e-mail.",
		Actions: map[string]string{
			tournaments.ActionDeadlineExtended: "l'organizzatore del torneo {{.Name}} ha dato più tempo alla tua partita.",
			tournaments.ActionRoundPostponed:   "l'organizzatore del torneo {{.Name}} ha rinviato un turno: il calendario slitta.",
			tournaments.ActionPaused:           "l'organizzatore ha sospeso il torneo {{.Name}}: gli orologi delle sue partite sono fermi e nessun turno inizia o finisce finché non riprende.",
			tournaments.ActionResumed:          "il torneo {{.Name}} è ripreso: gli orologi delle sue partite corrono e le sue scadenze sono spostate della durata della pausa.",
			tournaments.ActionResultOverridden: "l'organizzatore del torneo {{.Name}} ha fissato il risultato di una partita; la classifica lo conta.",
			tournaments.ActionResultAnnulled:   "l'organizzatore del torneo {{.Name}} ha annullato il risultato di una partita: non conta per nessuno.",
			tournaments.ActionCancelled:        "l'organizzatore ha annullato il torneo {{.Name}}: non si giocheranno altri turni.",
			tournaments.ActionWithdrawn:        "l'organizzatore ti ha ritirato dal torneo {{.Name}}: non sarai più abbinato.",
			tournaments.ActionEntrantReplaced:  "l'organizzatore del torneo {{.Name}} ha dato il tuo posto a un altro giocatore: non ci giochi più, e il tuo link per giocare non funziona più.",
			tournaments.ActionUnplayed:         "nessuno ha mosso in una tua partita del torneo {{.Name}} entro la scadenza: conta come doppio forfait, persa da entrambi i giocatori.",
		},
		ResultSet:       "l'organizzatore del torneo {{.Name}} ha fissato il risultato della partita {{.Pair}} del turno {{.Round}} a {{.Score}} ({{.Outcome}}); la classifica lo conta.",
		ResultAnnulled:  "l'organizzatore del torneo {{.Name}} ha annullato il risultato della partita {{.Pair}} del turno {{.Round}}: non conta per nessuno.",
		ByeAnnulled:     "l'organizzatore del torneo {{.Name}} ha annullato il riposo di {{.Bye}} nel turno {{.Round}}: non conta per nessuno.",
		WinsBy:          "{{.Winner}} vince di {{.Margin}}",
		DrawnGame:       "patta",
		SubjectUnplayed: "{{.Name}}: la tua partita del turno {{.Round}} non è stata giocata",
		Unplayed:        "nessuno ha mosso nella tua partita {{.Pair}} del turno {{.Round}} del torneo {{.Name}} entro la scadenza: conta come doppio forfait, persa da entrambi (0 punti a testa).",
		NoMove:          "nessuna mossa entro la scadenza: doppio forfait",
		Withdrew:        "{{.Player}} si è ritirato dal torneo {{.Name}}. Forse vuoi guardare gli abbinamenti.",
		Reason:          "Il motivo dell'organizzatore: {{.Reason}}",
		When:            "È successo il {{.At}}.",
		YourDeadline:    "La tua partita del turno {{.Round}} sarà aggiudicata, se non finita, il {{.Deadline}}.",
		PageLabel:       "La pagina del torneo, con la classifica, la tabella incrociata e tutte le partite:",
		PageButton:      "Apri il torneo",
		FooterPlayer:    "Ricevi questa e-mail perché giochi nel torneo {{.Name}} su lesspost.",
		FooterOrganiser: "Ricevi questa e-mail perché organizzi il torneo {{.Name}} su lesspost.",
		FooterReplaced:  "Ricevi questa e-mail perché eri iscritto al torneo {{.Name}} su lesspost.",
	},
}

// tournamentPhrasesFor returns a locale's tournament phrases, or English.
func tournamentPhrasesFor(locale string) *tournamentPhrases {
	if p, ok := tournamentCatalog[locale]; ok {
		return p
	}
	return tournamentCatalog[domain.DefaultLocale]
}
