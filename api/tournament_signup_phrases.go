package api

import "github.com/lesspost/lesspost/domain"

// signupPhrases are the words of the public page's sign-up and log, in one
// language, apart from pagePhrases because they belong to running an
// event rather than to its results. The words the page's script shows
// (tournament.js) are rendered into the page with the rest, so that the
// script holds no words of its own. Strings with % take fmt verbs; {email}
// is filled in by the script.
type signupPhrases struct {
	Registration   string
	OpenUntil      string // %s: when sign-up closes
	OpenUntilStart string // %s: the first round's start, when sign-up closes then
	PlacesLeft     countForms
	Public         string
	InviteOnly     string
	Closed         string

	EmailLabel, SendCode string
	CodeSent             string // {email}
	CodeLabel, SignIn    string
	SignedInAs           string // {email}
	NameLabel, Join      string
	// A team event's join form: the partner, who is told by email, and
	// the team's name (optional).
	PartnerName, PartnerEmail, TeamName string
	Joined                              string
	Withdraw                            string
	WithdrawNote                        string
	Withdrawn                           string

	// Errors the script shows, by the API's problem code.
	ErrClosed, ErrFull, ErrAlready, ErrInvite, ErrLogin, ErrTooMany, ErrNetwork, ErrGeneric string

	Log                  string
	LogDropped           countForms // %d: the log's oldest entries no longer kept
	Organiser, Scheduler string
	Reason               string // %s
	Actions              map[string]string
}

var signupLanguages = map[string]*signupPhrases{
	"en": {
		Registration: "Registration", OpenUntil: "Registration is open until %s.", OpenUntilStart: "Registration is open until the first round starts, %s.",
		PlacesLeft: countForms{"%d place left.", "%d places left."}, Public: "Anyone signed in may join.", InviteOnly: "Joining takes the invite link the organiser shares.",
		Closed:     "Registration is closed.",
		EmailLabel: "Your email address", SendCode: "Email me a sign-in code", CodeSent: "We emailed a sign-in code to {email}.",
		CodeLabel: "The code from the email", SignIn: "Sign in", SignedInAs: "Signed in as {email}.",
		NameLabel: "Your name in the tournament", PartnerName: "Your partner's name", PartnerEmail: "Your partner's email address (he is told by email)", TeamName: "Your team's name (optional)", Join: "Join the tournament", Joined: "You are entered in this tournament.",
		Withdraw: "Withdraw", WithdrawNote: "Until the first round starts you may withdraw; you leave the list.", Withdrawn: "You withdrew.",
		ErrClosed: "Registration is closed.", ErrFull: "The tournament is full.", ErrAlready: "You are entered already.",
		ErrInvite: "This invite link no longer works: ask the organiser for the new one.", ErrLogin: "This code is not valid, or it has expired.",
		ErrTooMany: "Too many sign-in emails: try again in a while.", ErrNetwork: "The server cannot be reached. Try again.",
		ErrGeneric: "Something went wrong. Try again.",
		Log:        "What happened", Organiser: "the organiser", Scheduler: "the schedule", Reason: "Reason: %s",
		LogDropped: countForms{"%d entry, the oldest, is no longer kept.", "The %d oldest entries are no longer kept."},
		Actions: map[string]string{
			domain.ActionRegistrationOpened: "Registration opened", domain.ActionRegistrationClosed: "Registration closed",
			domain.ActionJoined: "Joined", domain.ActionLeft: "Left", domain.ActionEntrantAdded: "Player added",
			domain.ActionEntrantEdited: "Player corrected", domain.ActionEntrantReplaced: "Player replaced",
			domain.ActionDeadlineExtended: "Game extended", domain.ActionRoundPostponed: "Round postponed",
			domain.ActionPaused: "Paused", domain.ActionResumed: "Resumed", domain.ActionResultOverridden: "Result set",
			domain.ActionResultAnnulled: "Result annulled", domain.ActionWithdrawn: "Withdrawal", domain.ActionCancelled: "Cancelled",
			domain.ActionDecider: "Deciding game", domain.ActionSeedsSet: "Seeds set",
			domain.ActionUnplayed: "Not played",
		},
	},
	"de": {
		Registration: "Anmeldung", OpenUntil: "Die Anmeldung ist offen bis %s.", OpenUntilStart: "Die Anmeldung ist offen bis zum Beginn der ersten Runde, %s.",
		PlacesLeft: countForms{"Noch %d Platz frei.", "Noch %d Plätze frei."}, Public: "Alle Angemeldeten können mitspielen.", InviteOnly: "Zum Mitspielen braucht es den Einladungslink der Turnierleitung.",
		Closed:     "Die Anmeldung ist geschlossen.",
		EmailLabel: "Deine E-Mail-Adresse", SendCode: "Anmeldecode per E-Mail schicken", CodeSent: "Wir haben einen Anmeldecode an {email} geschickt.",
		CodeLabel: "Der Code aus der E-Mail", SignIn: "Anmelden", SignedInAs: "Angemeldet als {email}.",
		NameLabel: "Dein Name im Turnier", PartnerName: "Name deines Teampartners", PartnerEmail: "E-Mail-Adresse deines Teampartners (er wird per E-Mail benachrichtigt)", TeamName: "Name eures Teams (optional)", Join: "Am Turnier teilnehmen", Joined: "Du bist für dieses Turnier gemeldet.",
		Withdraw: "Zurückziehen", WithdrawNote: "Bis zum Beginn der ersten Runde kannst du dich zurückziehen; du verlässt dann die Liste.", Withdrawn: "Du hast dich zurückgezogen.",
		ErrClosed: "Die Anmeldung ist geschlossen.", ErrFull: "Das Turnier ist voll.", ErrAlready: "Du bist schon gemeldet.",
		ErrInvite: "Dieser Einladungslink gilt nicht mehr: Frag die Turnierleitung nach dem neuen.", ErrLogin: "Dieser Code ist ungültig oder abgelaufen.",
		ErrTooMany: "Zu viele Anmelde-E-Mails: Versuch es später noch einmal.", ErrNetwork: "Der Server ist nicht erreichbar. Versuch es noch einmal.",
		ErrGeneric: "Etwas ist schiefgegangen. Versuch es noch einmal.",
		Log:        "Was geschah", Organiser: "die Turnierleitung", Scheduler: "der Zeitplan", Reason: "Begründung: %s",
		LogDropped: countForms{"%d Eintrag, der älteste, wird nicht mehr aufbewahrt.", "Die %d ältesten Einträge werden nicht mehr aufbewahrt."},
		Actions: map[string]string{
			domain.ActionRegistrationOpened: "Anmeldung geöffnet", domain.ActionRegistrationClosed: "Anmeldung geschlossen",
			domain.ActionJoined: "Angemeldet", domain.ActionLeft: "Abgemeldet", domain.ActionEntrantAdded: "Spieler hinzugefügt",
			domain.ActionEntrantEdited: "Spieler korrigiert", domain.ActionEntrantReplaced: "Spieler ersetzt",
			domain.ActionDeadlineExtended: "Partie verlängert", domain.ActionRoundPostponed: "Runde verschoben",
			domain.ActionPaused: "Unterbrochen", domain.ActionResumed: "Fortgesetzt", domain.ActionResultOverridden: "Ergebnis festgesetzt",
			domain.ActionResultAnnulled: "Ergebnis annulliert", domain.ActionWithdrawn: "Rückzug", domain.ActionCancelled: "Abgesagt",
			domain.ActionDecider: "Entscheidungspartie", domain.ActionSeedsSet: "Setzliste festgelegt",
			domain.ActionUnplayed: "Nicht gespielt",
		},
	},
	"fr": {
		Registration: "Inscription", OpenUntil: "L'inscription est ouverte jusqu'au %s.", OpenUntilStart: "L'inscription est ouverte jusqu'au début de la première ronde, le %s.",
		PlacesLeft: countForms{"%d place libre.", "%d places libres."}, Public: "Toute personne connectée peut s'inscrire.", InviteOnly: "L'inscription demande le lien d'invitation de l'organisateur.",
		Closed:     "L'inscription est close.",
		EmailLabel: "Votre adresse e-mail", SendCode: "M'envoyer un code de connexion", CodeSent: "Nous avons envoyé un code de connexion à {email}.",
		CodeLabel: "Le code reçu par e-mail", SignIn: "Se connecter", SignedInAs: "Connecté en tant que {email}.",
		NameLabel: "Votre nom dans le tournoi", PartnerName: "Le nom de votre coéquipier", PartnerEmail: "L'adresse e-mail de votre coéquipier (il sera prévenu par e-mail)", TeamName: "Le nom de votre équipe (facultatif)", Join: "S'inscrire au tournoi", Joined: "Vous êtes inscrit à ce tournoi.",
		Withdraw: "Se retirer", WithdrawNote: "Jusqu'au début de la première ronde, vous pouvez vous retirer\u00a0; vous quittez alors la liste.", Withdrawn: "Vous vous êtes retiré.",
		ErrClosed: "L'inscription est close.", ErrFull: "Le tournoi est complet.", ErrAlready: "Vous êtes déjà inscrit.",
		ErrInvite: "Ce lien d'invitation ne fonctionne plus\u00a0: demandez le nouveau à l'organisateur.", ErrLogin: "Ce code n'est pas valide, ou il a expiré.",
		ErrTooMany: "Trop d'e-mails de connexion\u00a0: réessayez plus tard.", ErrNetwork: "Le serveur est injoignable. Réessayez.",
		ErrGeneric: "Un problème est survenu. Réessayez.",
		Log:        "Historique", Organiser: "l'organisateur", Scheduler: "le calendrier", Reason: "Raison\u00a0: %s",
		LogDropped: countForms{"%d entrée, la plus ancienne, n'est plus conservée.", "Les %d entrées les plus anciennes ne sont plus conservées."},
		Actions: map[string]string{
			domain.ActionRegistrationOpened: "Inscription ouverte", domain.ActionRegistrationClosed: "Inscription close",
			domain.ActionJoined: "Inscription", domain.ActionLeft: "Désinscription", domain.ActionEntrantAdded: "Joueur ajouté",
			domain.ActionEntrantEdited: "Joueur corrigé", domain.ActionEntrantReplaced: "Joueur remplacé",
			domain.ActionDeadlineExtended: "Partie prolongée", domain.ActionRoundPostponed: "Ronde reportée",
			domain.ActionPaused: "Suspendu", domain.ActionResumed: "Repris", domain.ActionResultOverridden: "Résultat fixé",
			domain.ActionResultAnnulled: "Résultat annulé", domain.ActionWithdrawn: "Retrait", domain.ActionCancelled: "Annulé",
			domain.ActionDecider: "Partie décisive", domain.ActionSeedsSet: "Têtes de série fixées",
			domain.ActionUnplayed: "Non jouée",
		},
	},
	"it": {
		Registration: "Iscrizione", OpenUntil: "L'iscrizione è aperta fino al %s.", OpenUntilStart: "L'iscrizione è aperta fino all'inizio del primo turno, il %s.",
		PlacesLeft: countForms{"%d posto libero.", "%d posti liberi."}, Public: "Chiunque abbia effettuato l'accesso può iscriversi.", InviteOnly: "Per iscriversi serve il link d'invito dell'organizzatore.",
		Closed:     "L'iscrizione è chiusa.",
		EmailLabel: "Il tuo indirizzo e-mail", SendCode: "Inviami un codice di accesso", CodeSent: "Abbiamo inviato un codice di accesso a {email}.",
		CodeLabel: "Il codice dell'e-mail", SignIn: "Accedi", SignedInAs: "Accesso effettuato come {email}.",
		NameLabel: "Il tuo nome nel torneo", PartnerName: "Il nome del tuo compagno di squadra", PartnerEmail: "L'indirizzo email del tuo compagno (sarà avvisato per email)", TeamName: "Il nome della vostra squadra (facoltativo)", Join: "Iscriviti al torneo", Joined: "Sei iscritto a questo torneo.",
		Withdraw: "Ritirati", WithdrawNote: "Fino all'inizio del primo turno puoi ritirarti; lasci così la lista.", Withdrawn: "Ti sei ritirato.",
		ErrClosed: "L'iscrizione è chiusa.", ErrFull: "Il torneo è al completo.", ErrAlready: "Sei già iscritto.",
		ErrInvite: "Questo link d'invito non funziona più: chiedi il nuovo all'organizzatore.", ErrLogin: "Questo codice non è valido o è scaduto.",
		ErrTooMany: "Troppe e-mail di accesso: riprova più tardi.", ErrNetwork: "Il server non è raggiungibile. Riprova.",
		ErrGeneric: "Qualcosa è andato storto. Riprova.",
		Log:        "Cronologia", Organiser: "l'organizzatore", Scheduler: "il calendario", Reason: "Motivo: %s",
		LogDropped: countForms{"%d voce, la più vecchia, non è più conservata.", "Le %d voci più vecchie non sono più conservate."},
		Actions: map[string]string{
			domain.ActionRegistrationOpened: "Iscrizione aperta", domain.ActionRegistrationClosed: "Iscrizione chiusa",
			domain.ActionJoined: "Iscrizione", domain.ActionLeft: "Cancellazione", domain.ActionEntrantAdded: "Giocatore aggiunto",
			domain.ActionEntrantEdited: "Giocatore corretto", domain.ActionEntrantReplaced: "Giocatore sostituito",
			domain.ActionDeadlineExtended: "Partita prolungata", domain.ActionRoundPostponed: "Turno rinviato",
			domain.ActionPaused: "Sospeso", domain.ActionResumed: "Ripreso", domain.ActionResultOverridden: "Risultato fissato",
			domain.ActionResultAnnulled: "Risultato annullato", domain.ActionWithdrawn: "Ritiro", domain.ActionCancelled: "Annullato",
			domain.ActionDecider: "Spareggio", domain.ActionSeedsSet: "Teste di serie fissate",
			domain.ActionUnplayed: "Non giocata",
		},
	},
	"es": {
		Registration: "Inscripción", OpenUntil: "La inscripción está abierta hasta el %s.", OpenUntilStart: "La inscripción está abierta hasta que empiece la primera ronda, el %s.",
		PlacesLeft: countForms{"Queda %d plaza.", "Quedan %d plazas."}, Public: "Cualquiera que haya iniciado sesión puede inscribirse.", InviteOnly: "Para inscribirse hace falta el enlace de invitación del organizador.",
		Closed:     "La inscripción está cerrada.",
		EmailLabel: "Tu dirección de correo", SendCode: "Envíame un código de acceso", CodeSent: "Hemos enviado un código de acceso a {email}.",
		CodeLabel: "El código del correo", SignIn: "Iniciar sesión", SignedInAs: "Sesión iniciada como {email}.",
		NameLabel: "Tu nombre en el torneo", PartnerName: "El nombre de tu compañero de equipo", PartnerEmail: "La dirección de correo de tu compañero (se le avisa por correo)", TeamName: "El nombre de vuestro equipo (opcional)", Join: "Inscribirme en el torneo", Joined: "Estás inscrito en este torneo.",
		Withdraw: "Retirarme", WithdrawNote: "Hasta que empiece la primera ronda puedes retirarte; sales de la lista.", Withdrawn: "Te has retirado.",
		ErrClosed: "La inscripción está cerrada.", ErrFull: "El torneo está completo.", ErrAlready: "Ya estás inscrito.",
		ErrInvite: "Este enlace de invitación ya no funciona: pide el nuevo al organizador.", ErrLogin: "Este código no es válido o ha caducado.",
		ErrTooMany: "Demasiados correos de acceso: inténtalo más tarde.", ErrNetwork: "No se puede contactar con el servidor. Inténtalo de nuevo.",
		ErrGeneric: "Algo ha fallado. Inténtalo de nuevo.",
		Log:        "Historial", Organiser: "el organizador", Scheduler: "el calendario", Reason: "Motivo: %s",
		LogDropped: countForms{"%d entrada, la más antigua, ya no se conserva.", "Las %d entradas más antiguas ya no se conservan."},
		Actions: map[string]string{
			domain.ActionRegistrationOpened: "Inscripción abierta", domain.ActionRegistrationClosed: "Inscripción cerrada",
			domain.ActionJoined: "Inscripción", domain.ActionLeft: "Baja", domain.ActionEntrantAdded: "Jugador añadido",
			domain.ActionEntrantEdited: "Jugador corregido", domain.ActionEntrantReplaced: "Jugador sustituido",
			domain.ActionDeadlineExtended: "Partida prorrogada", domain.ActionRoundPostponed: "Ronda aplazada",
			domain.ActionPaused: "Pausado", domain.ActionResumed: "Reanudado", domain.ActionResultOverridden: "Resultado fijado",
			domain.ActionResultAnnulled: "Resultado anulado", domain.ActionWithdrawn: "Retirada", domain.ActionCancelled: "Cancelado",
			domain.ActionDecider: "Partida de desempate", domain.ActionSeedsSet: "Cabezas de serie fijados",
			domain.ActionUnplayed: "No jugada",
		},
	},
}
