package notify

import "github.com/lesspost/lesspost/domain/less"

// italian addresses the reader with "tu", as Italian apps and games do (the
// rule sheet mostly uses impersonal forms); sentences avoid past participles
// that would agree with the reader ("invitato/a"). After the greeting
// "Ciao Anna," the text goes on in lower case, as Italian letters do. Game
// words from the rule sheet: mossa (one point of a turn), pedina, casella,
// angolo, muro, doppio muro, scavalcare, turno, squadra, punti (the score),
// scacchiera, pareggio. A colour alone takes the article, as in the sheet
// ("il Bianco"; all four colours take "il"); a side (.Side) is a colour or a
// team ("Giallo e Bianco"), so phrases about a side use it without article
// and without a verb that would have to agree with it.
var italian = phrases{
	Colors:  [4]string{less.White: "Bianco", less.Black: "Nero", less.Yellow: "Giallo", less.Red: "Rosso"},
	Teams:   [2]string{"Giallo e Bianco", "Nero e Rosso"},
	Presets: map[less.Preset]string{less.PresetClassic: "Regole classiche", less.PresetCodeCup: "Regole CodeCup"},

	SubjectGame:  "{{.Game}}: {{.Players}} [{{.Short}}]",
	SubjectLogin: "Il tuo link di accesso a lesspost",

	LoginIntro:  "Accedi a lesspost con questo link. Funziona una sola volta, entro 15 minuti:",
	LoginButton: "Accedi",
	LoginCode:   "Oppure inserisci questo codice nell'app: {{.Code}}",
	LoginIgnore: "Se non hai chiesto di accedere, ignora questa email: senza il link non succede nulla.",

	Greeting: "Ciao {{.Name}},",

	InviteIntro:     "hai ricevuto un invito a una partita di Less per corrispondenza. Giochi con il {{.Color}}.",
	PlayersHeading:  "Giocatori:",
	Rules:           "{{.Preset}}, al massimo {{.MaxTurns}} {{plural `it` .MaxTurns `turno` `turni`}} a testa{{if .EarlyStop}}, un turno può finire dopo qualsiasi mossa{{end}}.",
	YouMoveFirst:    "Inizi tu.",
	OtherMovesFirst: "Inizia il {{.ToMove}}; ti scriveremo quando sarà il tuo turno.",
	HowToPlay: "Come si gioca: porta le tue 4 pedine nell'angolo opposto. In ogni turno hai 3 mosse: spostarsi in una " +
		"casella adiacente conta come una mossa, scavalcare una pedina anche; scavalcare un muro conta come due mosse, " +
		"un doppio muro come tre. Vince chi usa meno mosse in totale.",

	YourTurn: "tocca a te con il {{.Color}} (turni giocati finora: {{.Ply}}).",
	Played:   "Il {{.Color}} ha giocato {{.Turn}}",
	Counts:   "Mosse contate: {{.Counts}}",
	Deadline: "Termine per giocare: {{.Deadline}}.",
	Reminder: "il tuo turno in questa partita va giocato entro {{.Deadline}}. Dopo, {{.Timeout}}.",

	TimeoutLoses:  "la tua parte perde per tempo",
	TimeoutPasses: "il tuo turno viene saltato",
	TimedOutPass:  "Il {{.Color}} ha esaurito il tempo: il turno è stato saltato",

	GameOver:        "la partita è finita: {{.Result}}.",
	Win:             "vittoria per {{.Side}} con {{.Margin}} {{plural `it` .Margin `punto` `punti`}} di vantaggio",
	Draw:            "pareggio",
	ByResignation:   "abbandono di {{.Side}}",
	ByTimeout:       "tempo scaduto per {{.Side}}",
	ByTurnLimit:     "raggiunto il numero massimo di turni",
	ByBlockedCorner: "una pedina di {{.Side}} è rimasta nell'angolo di partenza",
	ByAdjudication:  "aggiudicazione alla fine del turno del torneo",
	ByWithdrawal:    "ritiro di {{.Side}} dal torneo",
	Total:           "{{.Side}}: {{.Total}} ({{.Count}} {{plural `it` .Count `mossa contata` `mosse contate`}} + {{.Needed}} per finire)",
	NeededExplained: "Le pedine di {{.Side}} non erano tutte arrivate: per finire serviva ancora un minimo di {{.Needed}} " +
		"{{plural `it` .Needed `mossa` `mosse`}}, che si aggiunge al totale.",

	NewLink: "il tuo link per giocare questa partita è stato rinnovato. I link precedenti non funzionano più.",

	ReplyHow:         "Rispondi a questa e-mail con il tuo turno, per esempio {{.Example}}, oppure resign per abbandonare.",
	ReplyAccepted:    "il tuo turno {{.Turn}} è stato giocato. Ti scriveremo quando toccherà di nuovo a te.",
	ReplyStranger:    "una risposta a un'e-mail di questa partita è arrivata da {{.From}}, non dal tuo indirizzo, quindi non ha giocato nulla. Per giocare via e-mail, rispondi dall'indirizzo a cui arrivano le nostre e-mail.",
	ReplyEarlier:     "la tua risposta riguardava un'e-mail di un turno precedente; la partita è andata avanti, quindi non ha giocato nulla. Ecco la scacchiera ora.",
	ReplyNoTurn:      "non abbiamo trovato nessun turno nella tua risposta, quindi non ha giocato nulla. Scrivi il tuo turno su una riga a sé. Abbiamo letto:",
	ReplyIllegal:     "il tuo turno {{.Turn}} non si può giocare: viola la regola {{.RuleRef}} ({{.Rule}}){{if .Part}} nella sua parte {{.Part}}{{end}}. Non è stato giocato nulla.",
	ReplyNotYourTurn: "la tua risposta è arrivata quando non toccava a te, quindi non ha giocato nulla.",
	ReplyGameOver:    "questa partita è finita, quindi la tua risposta non ha giocato nulla.",
	ReplyOther:       "la tua risposta non ha giocato nulla ({{.Reason}}).",
	ReplyLimited:     "troppe tue risposte sono arrivate in poco tempo, quindi questa non ha giocato nulla. Aspetta {{.Minutes}} {{plural `it` .Minutes `minuto` `minuti`}}, poi invia di nuovo il tuo turno: le risposte inviate prima non giocano nulla e restano senza risposta.",
	ReplyForged:      "una risposta a un'e-mail di questa partita non ha superato i controlli sul mittente del nostro server di posta (potrebbe essere falsificata), quindi non ha giocato nulla. Se l'hai inviata tu, inviala di nuovo dal tuo solito account di posta.",
	ReplyMalformed:   "una risposta a un'e-mail di questa partita era illeggibile (il suo formato è danneggiato), quindi non ha giocato nulla. Se l'hai inviata tu, scrivi di nuovo il tuo turno come testo semplice.",
	ReplyTooLarge:    "una risposta a un'e-mail di questa partita era troppo grande per essere letta, quindi non ha giocato nulla. Se l'hai inviata tu, rispondi di nuovo senza allegati e senza l'e-mail citata.",
	ReplyAgain:       "Per rispondere di nuovo, rispondi a questa e-mail.",

	TournamentRound:   "Questa partita è il turno {{.Round}} del torneo {{.Name}}.",
	TournamentDecider: "Questa è la partita di spareggio del tuo incontro: le partite del turno {{.Round}} lo hanno lasciato in parità. Chi la vince passa il turno; se finisce anche questa patta, passa la testa di serie più alta.",
	RoundDeadline:     "Il turno del torneo finisce il {{.Deadline}}: una partita non ancora finita a quel momento viene aggiudicata come se fosse stato raggiunto il numero massimo di turni.",
	SubjectTournament: "Less: {{.Name}}, turno {{.Round}}",
	Bye:               "nel turno {{.Round}} del torneo {{.Name}} riposi: vale come una vittoria. Il prossimo abbinamento ti arriverà per e-mail.",
	Walkover:          "{{.Opponent}} ha lasciato il torneo {{.Name}}: la tua partita del turno {{.Round}} vale come una vittoria, senza giocare. Il prossimo abbinamento ti arriverà per e-mail.",
	WalkoverAnnulled:  "{{.Opponent}} ha lasciato il torneo {{.Name}}: non hai una partita nel turno {{.Round}} e nessuna delle sue partite conta, né per lui né per i suoi avversari. Il prossimo abbinamento ti arriverà per e-mail.",

	FinishedLabel:  "Rivedi la partita turno per turno, o gioca ancora:",
	FinishedButton: "Apri la partita",
	TeamLine:       "Giochi nella squadra {{.Team}} con {{.Partner}}, contro {{.Others}}.",
	And:            "{{.A}} e {{.B}}",

	MoveLinkLabel: "Il tuo link personale per giocare (è solo tuo: non inoltrarlo):",
	MoveButton:    "Apri la scacchiera",
	WatchLabel:    "La partita per gli spettatori:",
	RulesLabel:    "Le regole del gioco:",
	WatchAnchor:   "Guarda la partita",
	BoardAlt:      "La scacchiera",
	Legend: "{{.Pieces}} le pedine ({{.Names}}), {{.Targets}} le caselle libere dei loro angoli di arrivo, " +
		"| e --- i muri, # e === i doppi muri, * le caselle lasciate nell'ultimo turno.",
	Footer:      "Ricevi questa email perché giochi in questa partita di {{.Game}} su lesspost.",
	Unsubscribe: "Disattiva promemoria e notifiche per spettatori",
	NeverEmail:  "Non scrivermi mai più (interrompe tutte le email di lesspost a questo indirizzo)",

	SubjectWebhookDisabled: "Il tuo webhook lesspost è stato disattivato",
	WebhookDisabled:        "lesspost ha smesso di inviare eventi al tuo webhook {{.URL}}. Motivo (in inglese): {{.Reason}}.",
	WebhookEnable:          "Gli eventi del tuo account non vi vengono più inviati. Quando funziona di nuovo, riattivalo (PATCH /v1/me/webhooks/{{.ID}} con {\"enabled\": true}); il suo registro delle consegne (GET /v1/me/webhooks/{{.ID}}/deliveries) mostra cosa non ha funzionato, e ogni messaggio può essere inviato di nuovo.",
}

func init() { catalog["it"] = &italian }
