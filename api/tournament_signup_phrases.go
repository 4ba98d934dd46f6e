package api

import (
	"github.com/lesspost/lesspost/domain/tournaments"
)

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
			tournaments.ActionRegistrationOpened: "Registration opened", tournaments.ActionRegistrationClosed: "Registration closed",
			tournaments.ActionJoined: "Joined", tournaments.ActionLeft: "Left", tournaments.ActionEntrantAdded: "Player added",
			tournaments.ActionEntrantEdited: "Player corrected", tournaments.ActionEntrantReplaced: "Player replaced",
			tournaments.ActionDeadlineExtended: "Game extended", tournaments.ActionRoundPostponed: "Round postponed",
			tournaments.ActionPaused: "Paused", tournaments.ActionResumed: "Resumed", tournaments.ActionResultOverridden: "Result set",
			tournaments.ActionResultAnnulled: "Result annulled", tournaments.ActionWithdrawn: "Withdrawal", tournaments.ActionCancelled: "Cancelled",
			tournaments.ActionDecider: "Deciding game", tournaments.ActionSeedsSet: "Seeds set",
			tournaments.ActionUnplayed: "Not played",
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
			tournaments.ActionRegistrationOpened: "Anmeldung geöffnet", tournaments.ActionRegistrationClosed: "Anmeldung geschlossen",
			tournaments.ActionJoined: "Angemeldet", tournaments.ActionLeft: "Abgemeldet", tournaments.ActionEntrantAdded: "Spieler hinzugefügt",
			tournaments.ActionEntrantEdited: "Spieler korrigiert", tournaments.ActionEntrantReplaced: "Spieler ersetzt",
			tournaments.ActionDeadlineExtended: "Partie verlängert", tournaments.ActionRoundPostponed: "Runde verschoben",
			tournaments.ActionPaused: "Unterbrochen", tournaments.ActionResumed: "Fortgesetzt", tournaments.ActionResultOverridden: "Ergebnis festgesetzt",
			tournaments.ActionResultAnnulled: "Ergebnis annulliert", tournaments.ActionWithdrawn: "Rückzug", tournaments.ActionCancelled: "Abgesagt",
			tournaments.ActionDecider: "Entscheidungspartie", tournaments.ActionSeedsSet: "Setzliste festgelegt",
			tournaments.ActionUnplayed: "Nicht gespielt",
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
			tournaments.ActionRegistrationOpened: "Inscription ouverte", tournaments.ActionRegistrationClosed: "Inscription close",
			tournaments.ActionJoined: "Inscription", tournaments.ActionLeft: "Désinscription", tournaments.ActionEntrantAdded: "Joueur ajouté",
			tournaments.ActionEntrantEdited: "Joueur corrigé", tournaments.ActionEntrantReplaced: "Joueur remplacé",
			tournaments.ActionDeadlineExtended: "Partie prolongée", tournaments.ActionRoundPostponed: "Ronde reportée",
			tournaments.ActionPaused: "Suspendu", tournaments.ActionResumed: "Repris", tournaments.ActionResultOverridden: "Résultat fixé",
			tournaments.ActionResultAnnulled: "Résultat annulé", tournaments.ActionWithdrawn: "Retrait", tournaments.ActionCancelled: "Annulé",
			tournaments.ActionDecider: "Partie décisive", tournaments.ActionSeedsSet: "Têtes de série fixées",
			tournaments.ActionUnplayed: "Non jouée",
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
			tournaments.ActionRegistrationOpened: "Iscrizione aperta", tournaments.ActionRegistrationClosed: "Iscrizione chiusa",
			tournaments.ActionJoined: "Iscrizione", tournaments.ActionLeft: "Cancellazione", tournaments.ActionEntrantAdded: "Giocatore aggiunto",
			tournaments.ActionEntrantEdited: "Giocatore corretto", tournaments.ActionEntrantReplaced: "Giocatore sostituito",
			tournaments.ActionDeadlineExtended: "Partita prolungata", tournaments.ActionRoundPostponed: "Turno rinviato",
			tournaments.ActionPaused: "Sospeso", tournaments.ActionResumed: "Ripreso", tournaments.ActionResultOverridden: "Risultato fissato",
			tournaments.ActionResultAnnulled: "Risultato annullato", tournaments.ActionWithdrawn: "Ritiro", tournaments.ActionCancelled: "Annullato",
			tournaments.ActionDecider: "Spareggio", tournaments.ActionSeedsSet: "Teste di serie fissate",
			tournaments.ActionUnplayed: "Non giocata",
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
			tournaments.ActionRegistrationOpened: "Inscripción abierta", tournaments.ActionRegistrationClosed: "Inscripción cerrada",
			tournaments.ActionJoined: "Inscripción", tournaments.ActionLeft: "Baja", tournaments.ActionEntrantAdded: "Jugador añadido",
			tournaments.ActionEntrantEdited: "Jugador corregido", tournaments.ActionEntrantReplaced: "Jugador sustituido",
			tournaments.ActionDeadlineExtended: "Partida prorrogada", tournaments.ActionRoundPostponed: "Ronda aplazada",
			tournaments.ActionPaused: "Pausado", tournaments.ActionResumed: "Reanudado", tournaments.ActionResultOverridden: "Resultado fijado",
			tournaments.ActionResultAnnulled: "Resultado anulado", tournaments.ActionWithdrawn: "Retirada", tournaments.ActionCancelled: "Cancelado",
			tournaments.ActionDecider: "Partida de desempate", tournaments.ActionSeedsSet: "Cabezas de serie fijados",
			tournaments.ActionUnplayed: "No jugada",
		},
	},
}
