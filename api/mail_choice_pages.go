package api

import (
	"html/template"
	"net/url"
	"strings"
)

// The pages an email's footer links open: unsubscribe (reminders and
// spectator notices off, and back on) and never email me again. They look
// like the play page (its stylesheet), speak the reader's language (his
// browser's, or the one he picks on the page) and work without scripts:
// each asks for confirmation with a button, so link scanners change
// nothing.

// choicePhrases are one language's words of those pages.
type choicePhrases struct {
	Lang, LangName, Brand string
	BrandLes              string // the brand on Les's pages (its rules)

	UnsubTitle, UnsubAsk, UnsubAskBody, UnsubButton  string
	UnsubDone, UnsubDoneBody, ResubHint, ResubButton string
	ResubDone, ResubDoneBody                         string

	NeverTitle, NeverAsk, NeverAskBody, NeverButton string
	NeverDone, NeverDoneBody                        string
	Language                                        string
}

var choiceLanguages = map[string]*choicePhrases{
	"en": {
		Lang: "en", LangName: "English", Brand: "Less by email", BrandLes: "Les by email",
		UnsubTitle:    "Unsubscribe",
		UnsubAsk:      "Turn off reminders for {{.Email}}?",
		UnsubAskBody:  "Reminders of deadlines and notices for spectators stop. Invitations, your-turn emails and results still arrive: they are your games.",
		UnsubButton:   "Turn off reminders",
		UnsubDone:     "Reminders are off",
		UnsubDoneBody: "{{.Email}} gets no more reminders or spectator notices. Invitations, your-turn emails and results still arrive.",
		ResubHint:     "Changed your mind?",
		ResubButton:   "Turn reminders back on",
		ResubDone:     "Reminders are on again",
		ResubDoneBody: "{{.Email}} gets reminders of deadlines and spectator notices again.",
		NeverTitle:    "Never email me again",
		NeverAsk:      "Never email {{.Email}} again?",
		NeverAskBody:  "This stops all email to this address: invitations, moves, results and reminders. Nobody will be able to invite it to a game. Signing in with it still works.",
		NeverButton:   "Never email me again",
		NeverDone:     "No more email",
		NeverDoneBody: "We will not email {{.Email}} again, and nobody can invite this address to a game. Only if you ask to sign in yourself will a sign-in link be sent.",
		Language:      "Language",
	},
	"de": {
		Lang: "de", LangName: "Deutsch", Brand: "Less per E-Mail", BrandLes: "Les per E-Mail",
		UnsubTitle:    "Abbestellen",
		UnsubAsk:      "Erinnerungen für {{.Email}} abbestellen?",
		UnsubAskBody:  "Erinnerungen an Fristen und Benachrichtigungen für Zuschauer hören auf. Einladungen, „Du bist dran“-E-Mails und Ergebnisse kommen weiter: Es sind deine Partien.",
		UnsubButton:   "Erinnerungen abbestellen",
		UnsubDone:     "Erinnerungen sind abbestellt",
		UnsubDoneBody: "{{.Email}} bekommt keine Erinnerungen und keine Zuschauer-Benachrichtigungen mehr. Einladungen, „Du bist dran“-E-Mails und Ergebnisse kommen weiter.",
		ResubHint:     "Doch anders entschieden?",
		ResubButton:   "Erinnerungen wieder einschalten",
		ResubDone:     "Erinnerungen sind wieder an",
		ResubDoneBody: "{{.Email}} bekommt wieder Erinnerungen an Fristen und Zuschauer-Benachrichtigungen.",
		NeverTitle:    "Nie wieder E-Mails",
		NeverAsk:      "Nie wieder E-Mails an {{.Email}}?",
		NeverAskBody:  "Damit hört jede E-Mail an diese Adresse auf: Einladungen, Züge, Ergebnisse und Erinnerungen. Niemand kann sie mehr zu einer Partie einladen. Anmelden kannst du dich mit ihr weiterhin.",
		NeverButton:   "Nie wieder E-Mails",
		NeverDone:     "Keine E-Mails mehr",
		NeverDoneBody: "Wir schreiben {{.Email}} nicht mehr, und niemand kann diese Adresse zu einer Partie einladen. Nur wenn du selbst eine Anmeldung anforderst, schicken wir einen Anmeldelink.",
		Language:      "Sprache",
	},
	"fr": {
		Lang: "fr", LangName: "Français", Brand: "Less par e-mail", BrandLes: "Les par e-mail",
		UnsubTitle:    "Se désabonner",
		UnsubAsk:      "Désactiver les rappels pour {{.Email}}\u00a0?",
		UnsubAskBody:  "Les rappels d’échéance et les notifications pour spectateurs s’arrêtent. Les invitations, les e-mails «\u00a0à vous de jouer\u00a0» et les résultats arrivent toujours\u00a0: ce sont vos parties.",
		UnsubButton:   "Désactiver les rappels",
		UnsubDone:     "Rappels désactivés",
		UnsubDoneBody: "{{.Email}} ne reçoit plus de rappels ni de notifications pour spectateurs. Les invitations, les e-mails «\u00a0à vous de jouer\u00a0» et les résultats arrivent toujours.",
		ResubHint:     "Vous avez changé d’avis\u00a0?",
		ResubButton:   "Réactiver les rappels",
		ResubDone:     "Rappels réactivés",
		ResubDoneBody: "{{.Email}} reçoit de nouveau les rappels d’échéance et les notifications pour spectateurs.",
		NeverTitle:    "Ne plus jamais m’écrire",
		NeverAsk:      "Ne plus jamais écrire à {{.Email}}\u00a0?",
		NeverAskBody:  "Plus aucun e-mail ne sera envoyé à cette adresse\u00a0: invitations, coups, résultats et rappels. Personne ne pourra plus l’inviter à une partie. La connexion avec cette adresse fonctionne toujours.",
		NeverButton:   "Ne plus jamais m’écrire",
		NeverDone:     "Plus d’e-mails",
		NeverDoneBody: "Nous n’écrirons plus à {{.Email}}, et personne ne peut plus inviter cette adresse à une partie. Un lien de connexion ne sera envoyé que si vous le demandez vous-même.",
		Language:      "Langue",
	},
	"it": {
		Lang: "it", LangName: "Italiano", Brand: "Less via e-mail", BrandLes: "Les via e-mail",
		UnsubTitle:    "Annulla l’iscrizione",
		UnsubAsk:      "Disattivare i promemoria per {{.Email}}?",
		UnsubAskBody:  "I promemoria delle scadenze e le notifiche per spettatori si fermano. Inviti, e-mail «tocca a te» e risultati arrivano comunque: sono le tue partite.",
		UnsubButton:   "Disattiva i promemoria",
		UnsubDone:     "Promemoria disattivati",
		UnsubDoneBody: "{{.Email}} non riceve più promemoria né notifiche per spettatori. Inviti, e-mail «tocca a te» e risultati arrivano comunque.",
		ResubHint:     "Hai cambiato idea?",
		ResubButton:   "Riattiva i promemoria",
		ResubDone:     "Promemoria riattivati",
		ResubDoneBody: "{{.Email}} riceve di nuovo i promemoria delle scadenze e le notifiche per spettatori.",
		NeverTitle:    "Non scrivermi mai più",
		NeverAsk:      "Non scrivere mai più a {{.Email}}?",
		NeverAskBody:  "Si ferma ogni e-mail a questo indirizzo: inviti, mosse, risultati e promemoria. Nessuno potrà più invitarlo a una partita. L’accesso con questo indirizzo funziona comunque.",
		NeverButton:   "Non scrivermi mai più",
		NeverDone:     "Niente più e-mail",
		NeverDoneBody: "Non scriveremo più a {{.Email}} e nessuno può più invitare questo indirizzo a una partita. Un link di accesso arriva solo se lo chiedi tu.",
		Language:      "Lingua",
	},
	"es": {
		Lang: "es", LangName: "Español", Brand: "Less por correo", BrandLes: "Les por correo",
		UnsubTitle:    "Darse de baja",
		UnsubAsk:      "¿Desactivar los recordatorios para {{.Email}}?",
		UnsubAskBody:  "Se acaban los recordatorios de plazos y los avisos para espectadores. Las invitaciones, los correos de «te toca» y los resultados siguen llegando: son tus partidas.",
		UnsubButton:   "Desactivar los recordatorios",
		UnsubDone:     "Recordatorios desactivados",
		UnsubDoneBody: "{{.Email}} ya no recibe recordatorios ni avisos para espectadores. Las invitaciones, los correos de «te toca» y los resultados siguen llegando.",
		ResubHint:     "¿Has cambiado de idea?",
		ResubButton:   "Volver a activar los recordatorios",
		ResubDone:     "Recordatorios activados de nuevo",
		ResubDoneBody: "{{.Email}} vuelve a recibir los recordatorios de plazos y los avisos para espectadores.",
		NeverTitle:    "No volver a escribirme",
		NeverAsk:      "¿No volver a escribir nunca a {{.Email}}?",
		NeverAskBody:  "Se acaba todo correo a esta dirección: invitaciones, jugadas, resultados y recordatorios. Nadie podrá invitarla a una partida. Iniciar sesión con ella sigue funcionando.",
		NeverButton:   "No volver a escribirme",
		NeverDone:     "No más correos",
		NeverDoneBody: "No volveremos a escribir a {{.Email}} y nadie puede invitar esta dirección a una partida. Solo si pides iniciar sesión tú mismo te enviaremos un enlace.",
		Language:      "Idioma",
	},
}

// choicePage is what the page template shows.
type choicePage struct {
	P       *choicePhrases
	Title   string
	Heading string
	Body    string
	// Action and Button: the form that does what the page asks, "" for none.
	Action, Button string
	// Hint, SecondAction, SecondButton: the form that undoes it.
	Hint, SecondAction, SecondButton string
	Languages                        []languageLink
}

// choiceURL is one of these pages' addresses for a token in a language.
func choiceURL(path, token, lang string) string {
	return path + "?" + url.Values{"t": {token}, "lang": {lang}}.Encode()
}

// sayEmail puts the address into a phrase; the page escapes the result.
func sayEmail(phrase, email string) string {
	return strings.ReplaceAll(phrase, "{{.Email}}", email)
}

var choicePageTemplate = template.Must(template.New("choice").Parse(`<!doctype html>
<html lang="{{.P.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/play.css">
</head>
<body>
<header class="top narrow">
  <p class="brand"><img src="/assets/icon.svg" alt="" width="24" height="24"> <span>{{.P.Brand}}</span></p>
  <h1>{{.Heading}}</h1>
</header>
<main class="narrow stack">
  <section class="panel stack">
    <p>{{.Body}}</p>
    {{- if .Action}}
    <form method="post" action="{{.Action}}"><button type="submit" class="primary">{{.Button}}</button></form>
    {{- end}}
    {{- if .SecondAction}}
    {{- if .Hint}}
    <p class="help">{{.Hint}}</p>
    {{- end}}
    <form method="post" action="{{.SecondAction}}"><button type="submit">{{.SecondButton}}</button></form>
    {{- end}}
  </section>
  {{- if .Languages}}
  <nav class="languages" aria-label="{{.P.Language}}">
    {{- range .Languages}}
    {{if .Current}}<strong lang="{{.Lang}}">{{.Name}}</strong>{{else}}<a href="{{.URL}}" lang="{{.Lang}}" hreflang="{{.Lang}}">{{.Name}}</a>{{end}}
    {{- end}}
  </nav>
  {{- end}}
</main>
</body>
</html>
`))
