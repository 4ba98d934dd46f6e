package notify

import "github.com/lesspost/lesspost/domain/less"

// french addresses the reader with "vous", as the rule sheet and most French
// apps and games do; sentences avoid past participles that would agree with
// the reader ("invité·e"). After the greeting "Bonjour Anna," the text goes
// on with a capital, as French letters do. A non-breaking space (\u00a0)
// precedes ":" and ";". Game words from the rule sheet: coup (one point of a
// turn), pion, case, coin, camp (the start corner), mur, double mur, tour,
// équipe, points (the score), égalité. The colours are names ("Blanc",
// "Noir"), used without an article; a side (.Side) is a colour or a team
// ("Jaune et Blanc"), so phrases about a side avoid a verb that would have
// to agree with it.
var french = phrases{
	Colors:  [4]string{less.White: "Blanc", less.Black: "Noir", less.Yellow: "Jaune", less.Red: "Rouge"},
	Teams:   [2]string{"Jaune et Blanc", "Noir et Rouge"},
	Presets: map[less.Preset]string{less.PresetClassic: "Règles classiques", less.PresetCodeCup: "Règles CodeCup"},

	SubjectGame:  "{{.Game}}\u00a0: {{.Players}} [{{.Short}}]",
	SubjectLogin: "Votre lien de connexion à lesspost",

	LoginIntro:  "Connectez-vous à lesspost avec ce lien. Il n'est valable qu'une fois, pendant 15 minutes\u00a0:",
	LoginButton: "Se connecter",
	LoginCode:   "Ou saisissez ce code dans l'application\u00a0: {{.Code}}",
	LoginIgnore: "Si vous n'avez pas demandé à vous connecter, ignorez cet e-mail\u00a0: rien ne se passe sans le lien.",

	Greeting: "Bonjour {{.Name}},",

	InviteIntro:     "On vous invite à une partie de Less par correspondance. Votre couleur\u00a0: {{.Color}}.",
	PlayersHeading:  "Joueurs\u00a0:",
	Rules:           "{{.Preset}}, {{.MaxTurns}} {{plural `fr` .MaxTurns `tour` `tours`}} au maximum par joueur{{if .EarlyStop}}, un tour peut s'arrêter après n'importe quel coup{{end}}.",
	YouMoveFirst:    "Vous commencez.",
	OtherMovesFirst: "{{.ToMove}} commence\u00a0; nous vous écrirons quand ce sera votre tour.",
	HowToPlay: "Comment jouer\u00a0: amenez vos 4 pions dans le coin opposé. À chaque tour, vous jouez 3 coups\u00a0: " +
		"avancer sur une case voisine compte pour 1 coup, sauter par-dessus un pion aussi, sauter par-dessus un mur " +
		"compte pour 2 coups et par-dessus un double mur pour 3. Le gagnant est celui qui a besoin du moins de coups au total.",

	YourTurn: "C'est à vous de jouer ({{.Color}}). Tours déjà joués\u00a0: {{.Ply}}.",
	Played:   "{{.Color}} a joué {{.Turn}}",
	Counts:   "Coups comptés\u00a0: {{.Counts}}",
	Deadline: "Date limite pour jouer\u00a0: {{.Deadline}}.",
	Reminder: "Votre tour dans cette partie doit être joué avant le {{.Deadline}}. Passé ce délai, {{.Timeout}}.",

	TimeoutLoses:  "votre camp perd au temps",
	TimeoutPasses: "votre tour est passé",
	TimedOutPass:  "{{.Color}} a dépassé son temps\u00a0: son tour a été passé",

	GameOver:        "La partie est terminée\u00a0: {{.Result}}.",
	Win:             "victoire de {{.Side}} avec {{.Margin}} {{plural `fr` .Margin `point` `points`}} d'avance",
	Draw:            "égalité",
	ByResignation:   "abandon de {{.Side}}",
	ByTimeout:       "temps écoulé pour {{.Side}}",
	ByTurnLimit:     "nombre maximal de tours atteint",
	ByBlockedCorner: "un pion de {{.Side}} est resté dans son camp de départ",
	ByAdjudication:  "arbitrage à la fin de la ronde",
	ByWithdrawal:    "retrait de {{.Side}} du tournoi",
	Total:           "{{.Side}}\u00a0: {{.Total}} ({{.Count}} {{plural `fr` .Count `coup compté` `coups comptés`}} + {{.Needed}} pour finir)",
	NeededExplained: "Les pions de {{.Side}} n'étaient pas tous arrivés\u00a0: il aurait fallu encore au moins {{.Needed}} " +
		"{{plural `fr` .Needed `coup` `coups`}}, et ce minimum compte aussi.",

	NewLink: "Votre lien pour jouer cette partie a été renouvelé. Les anciens liens ne fonctionnent plus.",

	ReplyHow:         "Répondez à cet e-mail avec votre tour, par exemple {{.Example}}, ou resign pour abandonner.",
	ReplyAccepted:    "Votre tour {{.Turn}} a été joué. Nous vous écrirons quand ce sera de nouveau à vous de jouer.",
	ReplyStranger:    "Une réponse à un e-mail de cette partie est venue de {{.From}}, et non de votre adresse\u00a0: elle n'a rien joué. Pour jouer par e-mail, répondez depuis l'adresse où arrivent nos e-mails.",
	ReplyEarlier:     "Votre réponse portait sur un e-mail d'un tour précédent\u00a0; la partie a avancé depuis, elle n'a donc rien joué. Voici le plateau maintenant.",
	ReplyNoTurn:      "Nous n'avons trouvé aucun tour dans votre réponse\u00a0: elle n'a rien joué. Écrivez votre tour sur une ligne à part. Nous avons lu\u00a0:",
	ReplyIllegal:     "Votre tour {{.Turn}} ne peut pas être joué\u00a0: il enfreint la règle {{.RuleRef}} ({{.Rule}}){{if .Part}}, à sa partie {{.Part}}{{end}}. Rien n'a été joué.",
	ReplyNotYourTurn: "Votre réponse est arrivée alors que ce n'était pas à vous de jouer\u00a0: elle n'a rien joué.",
	ReplyGameOver:    "Cette partie est terminée\u00a0: votre réponse n'a rien joué.",
	ReplyOther:       "Votre réponse n'a rien joué ({{.Reason}}).",
	ReplyLimited:     "Trop de vos réponses sont arrivées en peu de temps, celle-ci n'a donc rien joué. Attendez {{.Minutes}} {{plural `fr` .Minutes `minute` `minutes`}}, puis renvoyez votre tour\u00a0: les réponses envoyées d'ici là ne jouent rien et restent sans réponse.",
	ReplyForged:      "Une réponse à un e-mail de cette partie n'a pas passé les contrôles d'expéditeur de notre serveur de messagerie (elle est peut-être falsifiée), elle n'a donc rien joué. Si vous l'avez envoyée, renvoyez-la depuis votre compte de messagerie habituel.",
	ReplyMalformed:   "Une réponse à un e-mail de cette partie était illisible (son format est endommagé), elle n'a donc rien joué. Si vous l'avez envoyée, écrivez de nouveau votre tour en texte simple.",
	ReplyTooLarge:    "Une réponse à un e-mail de cette partie était trop volumineuse pour être lue, elle n'a donc rien joué. Si vous l'avez envoyée, répondez de nouveau sans pièces jointes ni l'e-mail cité.",
	ReplyAgain:       "Pour répondre de nouveau, répondez à cet e-mail.",

	TournamentRound:   "Cette partie est la ronde {{.Round}} du tournoi {{.Name}}.",
	TournamentDecider: "Ceci est la partie décisive de votre match\u00a0: les parties de la ronde {{.Round}} l’ont laissé à égalité. Son vainqueur se qualifie\u00a0; si elle est nulle aussi, la meilleure tête de série se qualifie.",
	RoundDeadline:     "La ronde se termine le {{.Deadline}}\u00a0: une partie encore inachevée à ce moment est arbitrée comme si le nombre maximal de tours était atteint.",
	SubjectTournament: "Less\u00a0: {{.Name}}, ronde {{.Round}}",
	Bye:               "Vous êtes exempt à la ronde {{.Round}} du tournoi {{.Name}}\u00a0: cela compte comme une victoire. Votre prochain appariement arrivera par e-mail.",
	Walkover:          "{{.Opponent}} a quitté le tournoi {{.Name}}\u00a0: votre partie de la ronde {{.Round}} compte comme une victoire pour vous, sans jouer. Votre prochain appariement arrivera par e-mail.",
	WalkoverAnnulled:  "{{.Opponent}} a quitté le tournoi {{.Name}}\u00a0: vous n’avez pas de partie à la ronde {{.Round}}, et aucune de ses parties ne compte, ni pour lui ni pour ses adversaires. Votre prochain appariement arrivera par e-mail.",

	FinishedLabel:  "Revoyez la partie, tour par tour, ou rejouez\u00a0:",
	FinishedButton: "Ouvrir la partie",
	TeamLine:       "Vous jouez dans l'équipe {{.Team}} avec {{.Partner}}, contre {{.Others}}.",
	And:            "{{.A}} et {{.B}}",

	MoveLinkLabel: "Votre lien personnel pour jouer (ne le transférez à personne)\u00a0:",
	MoveButton:    "Ouvrir le plateau",
	WatchLabel:    "La partie pour les spectateurs\u00a0:",
	RulesLabel:    "Les règles du jeu\u00a0:",
	WatchAnchor:   "Regarder la partie",
	BoardAlt:      "Le plateau",
	Legend: "{{.Pieces}} les pions ({{.Names}}), {{.Targets}} les cases libres de leurs coins d'arrivée, " +
		"| et --- les murs, # et === les doubles murs, * les cases quittées lors du dernier tour.",
	Footer:      "Vous recevez cet e-mail parce que vous participez à cette partie de {{.Game}} sur lesspost.",
	Unsubscribe: "Désactiver les rappels et les notifications pour spectateurs",
	NeverEmail:  "Ne plus jamais m’écrire (arrête tous les e-mails de lesspost à cette adresse)",

	SubjectWebhookDisabled: "Votre webhook lesspost a été désactivé",
	WebhookDisabled:        "lesspost n’envoie plus d’événements à votre webhook {{.URL}}. Raison (en anglais)\u00a0: {{.Reason}}.",
	WebhookEnable:          "Les événements de votre compte n’y sont plus envoyés. Quand il fonctionne de nouveau, réactivez-le (PATCH /v1/me/webhooks/{{.ID}} avec {\"enabled\": true})\u00a0; son journal de livraison (GET /v1/me/webhooks/{{.ID}}/deliveries) montre ce qui a échoué, et chaque message peut être renvoyé.",
}

func init() { catalog["fr"] = &french }
