package api

import (
	"net/http"
	"slices"

	"golang.org/x/text/language"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// pagePhrases are the words of the tournament's public page, in one
// language. The page is rendered on the server (it has no script), so its
// words live here, in one table, rather than in web/i18n.js. Colours and
// seats are named as the play page (web/i18n.js) and the emails
// (notify/phrases*.go) name them; a round is a Runde, ronde, ronda and
// turno, as the tournament emails say. Strings with % take fmt verbs.
type pagePhrases struct {
	Lang       string // the BCP 47 tag, for <html lang>
	LangName   string // the language in itself, for the switcher
	Tournament string // the page title after the name

	Formats       map[tournaments.Format]string
	SwissRounds   countForms // %d rounds
	Statuses      map[tournaments.TournamentStatus]string
	RoundStatuses map[tournaments.RoundStatus]string
	GameLess      string
	GameLes       string     // %d: the board's side
	Players       countForms // %d players
	Teams         countForms // %d teams (of a team event)

	Standings    string
	RankingNote  string // %s: the tiebreak's name
	Rank         string
	Player       string
	Team         string // the standings' head in a team event
	Points       string
	Played       string
	PlayedTitle  string
	WDL          string // won–drawn–lost, the column's head
	WDLTitle     string
	Margins      string
	MarginsTitle string
	// Tiebreaks by format: the name, its abbreviation and what it sums.
	Buchholz, BuchholzAbbr, BuchholzTitle                      string
	SonnebornBerger, SonnebornBergerAbbr, SonnebornBergerTitle string
	Withdrawn                                                  string
	NoStandings                                                string

	Crosstable     string
	CrosstableNote string
	Total          string

	Rounds          string
	Round           string // %d
	Schedule        string // %s start, %s end
	RoundEndNote    string
	White, Black    string
	Setter, Chooser string // Les: the first and second seat
	Bye             string
	ByePoint        string
	Forfeit         string
	NoMove          string // a game nobody moved in by its deadline: a double forfeit
	Draw            string
	WinsBy          string // %s who, %d margin
	ToMove          string // %s who
	InProgress      string
	GameOver        string // a game over whose round has not counted it yet
	Watch           string
	WatchLabel      string // %s white, %s black: the link's accessible name
	NoGamesYet      string

	// A knockout: its bracket, and its standings by how far each went.
	Bracket               string
	Final, SemiFinals     string
	QuarterFinals         string
	MatchN                string // %d: a match's number, across the rounds
	WinnerOf              string // %d: the match whose winner fills a slot
	SeedN                 string // %d: a seed not drawn yet
	SeedTitle             string
	SeedsDrawnNote        string
	DecidingGame          string
	HigherSeedThrough     string // a level match decided by seed
	ByeThrough            string
	GoesThrough           string // for screen readers, after the winner's name
	KnockoutRankingNote   string
	Reached, ReachedTitle string // the standings' column of how far each went
	Champion, StillIn     string

	Downloads      string
	StandingsCSV   string
	TournamentJSON string
	AllRecords     string
	RoundRecords   string // %d
	RecordsNote    string
	Language       string
}

// pageLanguages are the page's languages, in domain.Locales's order.
var pageLanguages = map[string]*pagePhrases{
	"en": {
		Lang: "en", LangName: "English", Tournament: "tournament",
		Formats: map[tournaments.Format]string{tournaments.RoundRobin: "Round robin", tournaments.DoubleRoundRobin: "Double round robin",
			tournaments.Swiss: "Swiss system", tournaments.Knockout: "Knockout"},
		SwissRounds: countForms{"%d round", "%d rounds"},
		Statuses: map[tournaments.TournamentStatus]string{tournaments.TournamentScheduled: "Not started yet",
			tournaments.TournamentRunning: "In progress", tournaments.TournamentFinished: "Finished", tournaments.TournamentCancelled: "Cancelled"},
		RoundStatuses: map[tournaments.RoundStatus]string{tournaments.RoundPending: "not started", tournaments.RoundRunning: "being played",
			tournaments.RoundClosed: "finished"},
		GameLess: "Less", GameLes: "Les, board side %d", Players: countForms{"%d player", "%d players"}, Teams: countForms{"%d team of two", "%d teams of two"},
		Standings: "Standings", RankingNote: "Ranked by points (win 1, draw ½, bye 1), then the sum of margins, then %s.",
		Rank: "#", Player: "Player", Team: "Team", Points: "Points", Played: "Played", PlayedTitle: "Games played (a bye is not a game)",
		WDL: "W–D–L", WDLTitle: "Won, drawn, lost", Margins: "Margins", MarginsTitle: "The sum of the margins of the player's games: what he won by, less what he lost by",
		Buchholz: "Buchholz", BuchholzAbbr: "Bh", BuchholzTitle: "Buchholz: the sum of the points of the opponents met",
		SonnebornBerger: "Sonneborn-Berger", SonnebornBergerAbbr: "SB",
		SonnebornBergerTitle: "Sonneborn-Berger: the points of the opponents beaten, plus half the points of those drawn with",
		Withdrawn:            "withdrawn", NoStandings: "No game has been decided yet.",
		Crosstable: "Crosstable", CrosstableNote: "Each row is a player's results against the players of the columns, numbered by rank: 1 a win, ½ a draw, 0 a loss, + and − a forfeit.",
		Total:  "Total",
		Rounds: "Rounds", Round: "Round %d", Schedule: "%s – %s", RoundEndNote: "Games unfinished at the end of a round are adjudicated then.",
		White: "White", Black: "Black", Setter: "Sets up", Chooser: "Chooses",
		Bye: "bye", ByePoint: "a bye: 1 point", Forfeit: "forfeit", NoMove: "no move by the deadline: a double forfeit", Draw: "draw", WinsBy: "%s wins by %d",
		ToMove: "%s to move", InProgress: "in progress", GameOver: "game over", Watch: "Watch", WatchLabel: "Watch %s against %s",
		NoGamesYet: "Paired when the round starts.",
		Bracket:    "Bracket", Final: "Final", SemiFinals: "Semi-finals", QuarterFinals: "Quarter-finals", MatchN: "Match %d",
		WinnerOf: "Winner of match %d", SeedN: "Seed %d", SeedTitle: "Seed", SeedsDrawnNote: "The seeds are drawn at random when the first round starts.",
		DecidingGame: "Deciding game", HigherSeedThrough: "Level: the higher seed goes through.", ByeThrough: "A bye: through to the next round.",
		GoesThrough:         "goes through",
		KnockoutRankingNote: "Ranked by how far each player went: the winner, the finalist, then the players out in each earlier round, sharing a place (both semi-final losers are 3rd). A match goes to whoever has more points in it, then the greater sum of margins, then the winner of a deciding game, then the higher seed. Points and margins are shown, not ranked by.",
		Reached:             "Out in", ReachedTitle: "The round the player went out in", Champion: "Winner", StillIn: "still in",
		Downloads: "Downloads", StandingsCSV: "Standings (CSV)", TournamentJSON: "Tournament (JSON)", AllRecords: "Every game record",
		RoundRecords: "Game records of round %d", RecordsNote: "The records are one text file, the games one after the other; games still being played have the result *.",
		Language: "Language",
	},
	"de": {
		Lang: "de", LangName: "Deutsch", Tournament: "Turnier",
		Formats: map[tournaments.Format]string{tournaments.RoundRobin: "Rundenturnier", tournaments.DoubleRoundRobin: "Doppelrundenturnier",
			tournaments.Swiss: "Schweizer System", tournaments.Knockout: "K.-o.-System"},
		SwissRounds: countForms{"%d Runde", "%d Runden"},
		Statuses: map[tournaments.TournamentStatus]string{tournaments.TournamentScheduled: "Noch nicht begonnen",
			tournaments.TournamentRunning: "Läuft", tournaments.TournamentFinished: "Beendet", tournaments.TournamentCancelled: "Abgesagt"},
		RoundStatuses: map[tournaments.RoundStatus]string{tournaments.RoundPending: "noch nicht begonnen", tournaments.RoundRunning: "wird gespielt",
			tournaments.RoundClosed: "beendet"},
		GameLess: "Less", GameLes: "Les, Brettseite %d", Players: countForms{"%d Spieler", "%d Spieler"}, Teams: countForms{"%d Zweierteam", "%d Zweierteams"},
		Standings: "Tabelle", RankingNote: "Gewertet nach Punkten (Sieg 1, Remis ½, spielfrei 1), dann nach der Summe der Differenzen, dann nach %s.",
		Rank: "Pl.", Player: "Spieler", Team: "Team", Points: "Punkte", Played: "Gesp.", PlayedTitle: "Gespielte Partien (spielfreie Runden nicht mitgezählt)",
		WDL: "S–R–N", WDLTitle: "Siege, Remis, Niederlagen", Margins: "Diff.", MarginsTitle: "Die Summe der Differenzen der Partien des Spielers: womit er gewann, abzüglich womit er verlor",
		Buchholz: "Buchholz", BuchholzAbbr: "Bh", BuchholzTitle: "Buchholz: die Summe der Punkte der Gegner",
		SonnebornBerger: "Sonneborn-Berger", SonnebornBergerAbbr: "SB",
		SonnebornBergerTitle: "Sonneborn-Berger: die Punkte der besiegten Gegner plus die Hälfte der Punkte der Gegner, gegen die er remis spielte",
		Withdrawn:            "zurückgezogen", NoStandings: "Noch ist keine Partie entschieden.",
		Crosstable: "Kreuztabelle", CrosstableNote: "Jede Zeile zeigt die Ergebnisse eines Spielers gegen die Spieler der Spalten, nach Platz nummeriert: 1 Sieg, ½ Remis, 0 Niederlage, + und − kampflos.",
		Total:  "Summe",
		Rounds: "Runden", Round: "Runde %d", Schedule: "%s – %s", RoundEndNote: "Partien, die am Ende einer Runde nicht beendet sind, werden dann gewertet.",
		White: "Weiß", Black: "Schwarz", Setter: "Stellt auf", Chooser: "Wählt",
		Bye: "spielfrei", ByePoint: "spielfrei: 1 Punkt", Forfeit: "kampflos", NoMove: "kein Zug bis zur Frist: für beide kampflos verloren", Draw: "Remis", WinsBy: "%s gewinnt mit %d",
		ToMove: "%s ist am Zug", InProgress: "läuft", GameOver: "Partie beendet", Watch: "Zuschauen", WatchLabel: "%s gegen %s zuschauen",
		NoGamesYet: "Wird zu Rundenbeginn gepaart.",
		Bracket:    "Turnierbaum", Final: "Finale", SemiFinals: "Halbfinale", QuarterFinals: "Viertelfinale", MatchN: "Match %d",
		WinnerOf: "Sieger von Match %d", SeedN: "Setzplatz %d", SeedTitle: "Setzplatz", SeedsDrawnNote: "Die Setzplätze werden zu Beginn der ersten Runde ausgelost.",
		DecidingGame: "Entscheidungspartie", HigherSeedThrough: "Gleichstand: Der höher Gesetzte kommt weiter.", ByeThrough: "Spielfrei: kommt in die nächste Runde.",
		GoesThrough:         "kommt weiter",
		KnockoutRankingNote: "Gewertet danach, wie weit jeder kam: der Sieger, der Finalist, dann die in jeder früheren Runde Ausgeschiedenen auf geteiltem Platz (beide Halbfinalverlierer sind Dritte). Ein Match gewinnt, wer darin mehr Punkte hat, dann die größere Summe der Differenzen, dann der Sieger einer Entscheidungspartie, dann der höher Gesetzte. Punkte und Differenzen werden gezeigt, nicht gewertet.",
		Reached:             "Aus in", ReachedTitle: "Die Runde, in der der Spieler ausschied", Champion: "Sieger", StillIn: "noch dabei",
		Downloads: "Downloads", StandingsCSV: "Tabelle (CSV)", TournamentJSON: "Turnier (JSON)", AllRecords: "Alle Partieaufzeichnungen",
		RoundRecords: "Partieaufzeichnungen der Runde %d", RecordsNote: "Die Aufzeichnungen sind eine Textdatei, die Partien nacheinander; laufende Partien haben das Ergebnis *.",
		Language: "Sprache",
	},
	"fr": {
		Lang: "fr", LangName: "Français", Tournament: "tournoi",
		Formats: map[tournaments.Format]string{tournaments.RoundRobin: "Toutes rondes", tournaments.DoubleRoundRobin: "Toutes rondes aller-retour",
			tournaments.Swiss: "Système suisse", tournaments.Knockout: "Élimination directe"},
		SwissRounds: countForms{"%d ronde", "%d rondes"},
		Statuses: map[tournaments.TournamentStatus]string{tournaments.TournamentScheduled: "Pas encore commencé",
			tournaments.TournamentRunning: "En cours", tournaments.TournamentFinished: "Terminé", tournaments.TournamentCancelled: "Annulé"},
		RoundStatuses: map[tournaments.RoundStatus]string{tournaments.RoundPending: "pas commencée", tournaments.RoundRunning: "en cours",
			tournaments.RoundClosed: "terminée"},
		GameLess: "Less", GameLes: "Les, plateau de côté %d", Players: countForms{"%d joueur", "%d joueurs"}, Teams: countForms{"%d équipe de deux", "%d équipes de deux"},
		Standings: "Classement", RankingNote: "Classé aux points (victoire 1, nulle ½, exempt 1), puis à la somme des écarts, puis au %s.",
		Rank: "N°", Player: "Joueur", Team: "Équipe", Points: "Points", Played: "Joués", PlayedTitle: "Parties jouées (sans les exemptions)",
		WDL: "G–N–P", WDLTitle: "Gagnées, nulles, perdues", Margins: "Écarts", MarginsTitle: "La somme des écarts des parties du joueur\u00a0: ce dont il a gagné, moins ce dont il a perdu",
		Buchholz: "Buchholz", BuchholzAbbr: "Bh", BuchholzTitle: "Buchholz\u00a0: la somme des points des adversaires rencontrés",
		SonnebornBerger: "Sonneborn-Berger", SonnebornBergerAbbr: "SB",
		SonnebornBergerTitle: "Sonneborn-Berger\u00a0: les points des adversaires battus, plus la moitié des points de ceux avec qui il a fait nulle",
		Withdrawn:            "retiré", NoStandings: "Aucune partie n’est encore décidée.",
		Crosstable: "Grille américaine", CrosstableNote: "Chaque ligne donne les résultats d’un joueur contre les joueurs des colonnes, numérotés par rang\u00a0: 1 une victoire, ½ une nulle, 0 une défaite, + et − par forfait.",
		Total:  "Total",
		Rounds: "Rondes", Round: "Ronde %d", Schedule: "%s – %s", RoundEndNote: "Les parties non terminées à la fin d’une ronde sont alors arbitrées.",
		White: "Blanc", Black: "Noir", Setter: "Met en place", Chooser: "Choisit",
		Bye: "exempt", ByePoint: "exempt\u00a0: 1 point", Forfeit: "forfait", NoMove: "aucun coup avant l'échéance\u00a0: double forfait", Draw: "nulle", WinsBy: "%s gagne de %d",
		ToMove: "Au tour de %s", InProgress: "en cours", GameOver: "partie terminée", Watch: "Regarder", WatchLabel: "Regarder %s contre %s",
		NoGamesYet: "Appariée au début de la ronde.",
		Bracket:    "Tableau", Final: "Finale", SemiFinals: "Demi-finales", QuarterFinals: "Quarts de finale", MatchN: "Match %d",
		WinnerOf: "Vainqueur du match %d", SeedN: "Tête de série %d", SeedTitle: "Tête de série", SeedsDrawnNote: "Les têtes de série sont tirées au sort au début de la première ronde.",
		DecidingGame: "Partie décisive", HigherSeedThrough: "Égalité\u00a0: la meilleure tête de série se qualifie.", ByeThrough: "Exempt\u00a0: qualifié pour la ronde suivante.",
		GoesThrough:         "se qualifie",
		KnockoutRankingNote: "Classé selon le parcours de chacun\u00a0: le vainqueur, le finaliste, puis les éliminés de chaque ronde précédente, à égalité de place (les deux demi-finalistes battus sont 3es). Un match revient à celui qui y marque le plus de points, puis à la plus grande somme des écarts, puis au vainqueur d’une partie décisive, puis à la meilleure tête de série. Les points et les écarts sont affichés, pas classés.",
		Reached:             "Éliminé en", ReachedTitle: "La ronde où le joueur a été éliminé", Champion: "Vainqueur", StillIn: "encore en lice",
		Downloads: "Téléchargements", StandingsCSV: "Classement (CSV)", TournamentJSON: "Tournoi (JSON)", AllRecords: "Toutes les parties",
		RoundRecords: "Parties de la ronde %d", RecordsNote: "Les parties forment un seul fichier texte, l’une après l’autre\u00a0; une partie en cours a le résultat *.",
		Language: "Langue",
	},
	"it": {
		Lang: "it", LangName: "Italiano", Tournament: "torneo",
		Formats: map[tournaments.Format]string{tournaments.RoundRobin: "Girone all’italiana", tournaments.DoubleRoundRobin: "Girone all’italiana doppio",
			tournaments.Swiss: "Sistema svizzero", tournaments.Knockout: "Eliminazione diretta"},
		SwissRounds: countForms{"%d turno", "%d turni"},
		Statuses: map[tournaments.TournamentStatus]string{tournaments.TournamentScheduled: "Non ancora iniziato",
			tournaments.TournamentRunning: "In corso", tournaments.TournamentFinished: "Concluso", tournaments.TournamentCancelled: "Annullato"},
		RoundStatuses: map[tournaments.RoundStatus]string{tournaments.RoundPending: "non iniziato", tournaments.RoundRunning: "in corso",
			tournaments.RoundClosed: "concluso"},
		GameLess: "Less", GameLes: "Les, tavoliere di lato %d", Players: countForms{"%d giocatore", "%d giocatori"}, Teams: countForms{"%d squadra di due", "%d squadre di due"},
		Standings: "Classifica", RankingNote: "Ordinata per punti (vittoria 1, patta ½, turno di riposo 1), poi per somma degli scarti, poi per %s.",
		Rank: "N.", Player: "Giocatore", Team: "Squadra", Points: "Punti", Played: "Giocate", PlayedTitle: "Partite giocate (esclusi i turni di riposo)",
		WDL: "V–P–S", WDLTitle: "Vinte, patte, perse", Margins: "Scarti", MarginsTitle: "La somma degli scarti delle partite del giocatore: di quanto ha vinto, meno di quanto ha perso",
		Buchholz: "Buchholz", BuchholzAbbr: "Bh", BuchholzTitle: "Buchholz: la somma dei punti degli avversari incontrati",
		SonnebornBerger: "Sonneborn-Berger", SonnebornBergerAbbr: "SB",
		SonnebornBergerTitle: "Sonneborn-Berger: i punti degli avversari battuti, più metà dei punti di quelli con cui ha pattato",
		Withdrawn:            "ritirato", NoStandings: "Nessuna partita è ancora decisa.",
		Crosstable: "Tabellone", CrosstableNote: "Ogni riga dà i risultati di un giocatore contro i giocatori delle colonne, numerati per posizione: 1 vittoria, ½ patta, 0 sconfitta, + e − a forfait.",
		Total:  "Totale",
		Rounds: "Turni", Round: "Turno %d", Schedule: "%s – %s", RoundEndNote: "Le partite non concluse alla fine di un turno vengono allora aggiudicate.",
		White: "Bianco", Black: "Nero", Setter: "Dispone", Chooser: "Sceglie",
		Bye: "riposo", ByePoint: "turno di riposo: 1 punto", Forfeit: "forfait", NoMove: "nessuna mossa entro la scadenza: doppio forfait", Draw: "patta", WinsBy: "%s vince di %d",
		ToMove: "Tocca a %s", InProgress: "in corso", GameOver: "partita conclusa", Watch: "Guarda", WatchLabel: "Guarda %s contro %s",
		NoGamesYet: "Abbinato all’inizio del turno.",
		Bracket:    "Tabellone", Final: "Finale", SemiFinals: "Semifinali", QuarterFinals: "Quarti di finale", MatchN: "Incontro %d",
		WinnerOf: "Vincitore dell’incontro %d", SeedN: "Testa di serie %d", SeedTitle: "Testa di serie", SeedsDrawnNote: "Le teste di serie vengono sorteggiate all’inizio del primo turno.",
		DecidingGame: "Spareggio", HigherSeedThrough: "Parità: passa la testa di serie più alta.", ByeThrough: "Riposo: passa al turno successivo.",
		GoesThrough:         "passa il turno",
		KnockoutRankingNote: "Ordinata per quanto è andato avanti ciascuno: il vincitore, il finalista, poi gli eliminati di ogni turno precedente a pari merito (i due semifinalisti sconfitti sono terzi). Un incontro va a chi vi ha più punti, poi alla somma degli scarti maggiore, poi al vincitore di uno spareggio, poi alla testa di serie più alta. Punti e scarti sono mostrati, non contano per la classifica.",
		Reached:             "Eliminato in", ReachedTitle: "Il turno in cui il giocatore è stato eliminato", Champion: "Vincitore", StillIn: "ancora in gara",
		Downloads: "Download", StandingsCSV: "Classifica (CSV)", TournamentJSON: "Torneo (JSON)", AllRecords: "Tutte le partite",
		RoundRecords: "Partite del turno %d", RecordsNote: "Le partite sono un solo file di testo, una dopo l’altra; le partite in corso hanno il risultato *.",
		Language: "Lingua",
	},
	"es": {
		Lang: "es", LangName: "Español", Tournament: "torneo",
		Formats: map[tournaments.Format]string{tournaments.RoundRobin: "Liga a una vuelta", tournaments.DoubleRoundRobin: "Liga a doble vuelta",
			tournaments.Swiss: "Sistema suizo", tournaments.Knockout: "Eliminación directa"},
		SwissRounds: countForms{"%d ronda", "%d rondas"},
		Statuses: map[tournaments.TournamentStatus]string{tournaments.TournamentScheduled: "Aún no ha empezado",
			tournaments.TournamentRunning: "En curso", tournaments.TournamentFinished: "Terminado", tournaments.TournamentCancelled: "Cancelado"},
		RoundStatuses: map[tournaments.RoundStatus]string{tournaments.RoundPending: "sin empezar", tournaments.RoundRunning: "en juego",
			tournaments.RoundClosed: "terminada"},
		GameLess: "Less", GameLes: "Les, tablero de lado %d", Players: countForms{"%d jugador", "%d jugadores"}, Teams: countForms{"%d equipo de dos", "%d equipos de dos"},
		Standings: "Clasificación", RankingNote: "Por puntos (victoria 1, tablas ½, descanso 1), luego por la suma de diferencias, luego por %s.",
		Rank: "N.º", Player: "Jugador", Team: "Equipo", Points: "Puntos", Played: "Jugadas", PlayedTitle: "Partidas jugadas (sin contar los descansos)",
		WDL: "G–T–P", WDLTitle: "Ganadas, tablas, perdidas", Margins: "Dif.", MarginsTitle: "La suma de las diferencias de las partidas del jugador: por cuánto ganó, menos por cuánto perdió",
		Buchholz: "Buchholz", BuchholzAbbr: "Bh", BuchholzTitle: "Buchholz: la suma de los puntos de los rivales",
		SonnebornBerger: "Sonneborn-Berger", SonnebornBergerAbbr: "SB",
		SonnebornBergerTitle: "Sonneborn-Berger: los puntos de los rivales vencidos, más la mitad de los puntos de aquellos con quienes hizo tablas",
		Withdrawn:            "retirado", NoStandings: "Todavía no se ha decidido ninguna partida.",
		Crosstable: "Tabla cruzada", CrosstableNote: "Cada fila da los resultados de un jugador contra los jugadores de las columnas, numerados por puesto: 1 victoria, ½ tablas, 0 derrota, + y − por incomparecencia.",
		Total:  "Total",
		Rounds: "Rondas", Round: "Ronda %d", Schedule: "%s – %s", RoundEndNote: "Las partidas sin terminar al final de una ronda se adjudican entonces.",
		White: "Blanco", Black: "Negro", Setter: "Prepara", Chooser: "Elige",
		Bye: "descanso", ByePoint: "descanso: 1 punto", Forfeit: "incomparecencia", NoMove: "ningún movimiento antes del plazo: doble incomparecencia", Draw: "tablas", WinsBy: "%s gana por %d",
		ToMove: "Turno de %s", InProgress: "en juego", GameOver: "partida terminada", Watch: "Ver", WatchLabel: "Ver %s contra %s",
		NoGamesYet: "Se empareja al empezar la ronda.",
		Bracket:    "Cuadro", Final: "Final", SemiFinals: "Semifinales", QuarterFinals: "Cuartos de final", MatchN: "Enfrentamiento %d",
		WinnerOf: "Ganador del enfrentamiento %d", SeedN: "Cabeza de serie %d", SeedTitle: "Cabeza de serie", SeedsDrawnNote: "Los cabezas de serie se sortean al empezar la primera ronda.",
		DecidingGame: "Partida de desempate", HigherSeedThrough: "Empate: pasa el mejor cabeza de serie.", ByeThrough: "Descanso: pasa a la siguiente ronda.",
		GoesThrough:         "pasa",
		KnockoutRankingNote: "Por hasta dónde llegó cada uno: el ganador, el finalista, luego los eliminados en cada ronda anterior, compartiendo puesto (los dos semifinalistas derrotados son terceros). Un enfrentamiento lo gana quien tiene más puntos en él, luego la mayor suma de diferencias, luego el ganador de una partida de desempate, luego el mejor cabeza de serie. Puntos y diferencias se muestran, no cuentan para el puesto.",
		Reached:             "Eliminado en", ReachedTitle: "La ronda en que el jugador quedó eliminado", Champion: "Ganador", StillIn: "sigue en juego",
		Downloads: "Descargas", StandingsCSV: "Clasificación (CSV)", TournamentJSON: "Torneo (JSON)", AllRecords: "Todas las partidas",
		RoundRecords: "Partidas de la ronda %d", RecordsNote: "Las partidas son un solo archivo de texto, una tras otra; las que siguen en juego tienen el resultado *.",
		Language: "Idioma",
	},
}

// pageLanguageMatcher picks among domain.Locales, English first (the
// fallback).
var pageLanguageMatcher = func() language.Matcher {
	tags := make([]language.Tag, len(domain.Locales))
	for i, l := range domain.Locales {
		tags[i] = language.Make(l)
	}
	return language.NewMatcher(tags)
}()

// pageLanguage chooses the page's language (see pageLocale).
func pageLanguage(r *http.Request) *pagePhrases {
	return pageLanguages[pageLocale(r)]
}

// pageLocale chooses a page's language: ?lang= if it names one of ours (a
// link from the page's language switcher, or from an email in the
// reader's language), else the best of the browser's Accept-Language, else
// English.
func pageLocale(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); slices.Contains(domain.Locales, l) {
		return l
	}
	tags, _, err := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if err != nil || len(tags) == 0 {
		return domain.DefaultLocale
	}
	_, i, conf := pageLanguageMatcher.Match(tags...)
	if conf == language.No {
		return domain.DefaultLocale
	}
	return domain.Locales[i]
}
