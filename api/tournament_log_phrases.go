package api

import "github.com/lesspost/lesspost/domain"

// logWords are the log's lines in one language: domain.LogEnglish's
// wordings translated, by the same keys and with the same placeholders
// (see domain.LogArgs), and the words of a duration. English is the
// domain's own. An entry stored before its facts were kept, or one whose
// wording a language lacks, is shown in English, marked so.
type logWords struct {
	Lines map[string]string
	Units domain.LogUnits
}

var logLanguages = map[string]logWords{
	"en": {Lines: domain.LogEnglish, Units: domain.EnglishUnits},
	"de": {Units: domain.LogUnits{Day: "%d Tag", Days: "%d Tage", Hour: "%d Stunde", Hours: "%d Stunden"}, Lines: map[string]string{
		domain.ActionRegistrationOpened:                                          "die Anmeldung ist offen",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimit:      "die Anmeldung ist offen für bis zu {count} Spieler",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationUntil:      "die Anmeldung ist offen bis {at}",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimitUntil: "die Anmeldung ist offen für bis zu {count} Spieler bis {at}",
		domain.ActionRegistrationClosed:                                          "die Anmeldung ist geschlossen",
		domain.ActionRegistrationClosed + "/" + domain.LogClosedWith:             "die Anmeldung schloss mit {count} Spielern",
		domain.ActionJoined:                                  "{p1} ist dabei",
		domain.ActionLeft:                                    "{p1} trat vor dem Beginn zurück",
		domain.ActionEntrantAdded:                            "{p1} wurde hinzugefügt",
		domain.ActionEntrantAdded + "/" + domain.LogLate:     "{p1} wurde nachträglich hinzugefügt",
		domain.ActionEntrantReplaced:                         "{p1} ersetzt {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogRenamed: "{p1} heißt jetzt {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogAddress: "die Adresse von {p1} wurde berichtigt",
		domain.ActionDeadlineExtended:                        "die Partie {p1} – {p2} der Runde {round} wurde um {for} verlängert, bis {at}",
		domain.ActionRoundPostponed:                          "Runde {round} wurde um {for} verschoben: sie beginnt {at}",
		domain.ActionRoundPostponed + "/" + domain.LogEnds:   "Runde {round} wurde um {for} verschoben: sie endet {at}",
		domain.ActionPaused:                                  "das Turnier ist unterbrochen: keine Frist läuft",
		domain.ActionResumed:                                 "das Turnier geht nach {for} weiter; die Fristen verschieben sich um ebenso viel",
		domain.ActionResultOverridden:                        "das Ergebnis von {p1} – {p2} (Runde {round}) wurde auf {score} gesetzt (Differenz {margin})",
		domain.ActionResultAnnulled:                          "das Ergebnis von {p1} – {p2} (Runde {round}) wurde annulliert",
		domain.ActionResultAnnulled + "/" + domain.LogBye:    "das spielfreie Ergebnis von {p1} (Runde {round}) wurde annulliert",
		domain.ActionWithdrawn:                               "{p1} hat sich zurückgezogen; seine übrigen Partien gehen kampflos verloren",
		domain.ActionWithdrawn + "/" + domain.LogAnnulled:    "{p1} hat sich nach {count} von {of} Runden zurückgezogen; alle seine Partien werden annulliert",
		domain.ActionWithdrawn + "/" + domain.LogHalf:        "{p1} hat sich nach {count} von {of} Runden (der Hälfte oder mehr) zurückgezogen: seine übrigen Partien gehen kampflos verloren",
		domain.ActionCancelled:                               "das Turnier wurde abgesagt",
		domain.ActionCancelled + "/" + domain.LogTooFew:      "abgesagt: weniger als zwei Spieler haben sich angemeldet",
		domain.ActionDecider:                                 "das Match {p2} – {p1} der Runde {round} steht unentschieden: eine Entscheidungspartie, {p1} mit Weiß, wird am {at} gewertet",
		domain.ActionDecider + "/" + domain.LogMoved:         "das Match {p2} – {p1} der Runde {round} steht unentschieden: eine Entscheidungspartie, {p1} mit Weiß, wird am {at} gewertet; die späteren Runden verschieben sich um {for}",
		domain.ActionSeedsSet:                                "die Setzliste wurde festgelegt: {players}",
		domain.ActionSeedsSet + "/" + domain.LogRandom:       "die Setzliste wurde ausgelost: {players}",
		domain.ActionUnplayed:                                "in der Partie {p1} – {p2} der Runde {round} wurde bis zur Frist nicht gezogen: für beide kampflos verloren",
	}},
	"fr": {Units: domain.LogUnits{Day: "%d jour", Days: "%d jours", Hour: "%d heure", Hours: "%d heures"}, Lines: map[string]string{
		domain.ActionRegistrationOpened:                                          "les inscriptions sont ouvertes",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimit:      "les inscriptions sont ouvertes pour {count} joueurs au plus",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationUntil:      "les inscriptions sont ouvertes jusqu’au {at}",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimitUntil: "les inscriptions sont ouvertes pour {count} joueurs au plus jusqu’au {at}",
		domain.ActionRegistrationClosed:                                          "les inscriptions sont closes",
		domain.ActionRegistrationClosed + "/" + domain.LogClosedWith:             "les inscriptions ont été closes avec {count} joueurs",
		domain.ActionJoined:                                  "{p1} s’est inscrit",
		domain.ActionLeft:                                    "{p1} s’est retiré avant le début",
		domain.ActionEntrantAdded:                            "{p1} a été ajouté",
		domain.ActionEntrantAdded + "/" + domain.LogLate:     "{p1} a été ajouté en cours de tournoi",
		domain.ActionEntrantReplaced:                         "{p1} remplace {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogRenamed: "{p1} s’appelle désormais {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogAddress: "l’adresse de {p1} a été corrigée",
		domain.ActionDeadlineExtended:                        "la partie {p1} – {p2} de la ronde {round} a été prolongée de {for}, jusqu’au {at}",
		domain.ActionRoundPostponed:                          "la ronde {round} a été reportée de {for}\u00a0: elle commence le {at}",
		domain.ActionRoundPostponed + "/" + domain.LogEnds:   "la ronde {round} a été reportée de {for}\u00a0: elle se termine le {at}",
		domain.ActionPaused:                                  "le tournoi est en pause\u00a0: aucun délai ne court",
		domain.ActionResumed:                                 "le tournoi a repris après {for}\u00a0; les délais sont décalés d’autant",
		domain.ActionResultOverridden:                        "le résultat de {p1} – {p2} (ronde {round}) a été fixé à {score} (écart {margin})",
		domain.ActionResultAnnulled:                          "le résultat de {p1} – {p2} (ronde {round}) a été annulé",
		domain.ActionResultAnnulled + "/" + domain.LogBye:    "l’exemption de {p1} (ronde {round}) a été annulée",
		domain.ActionWithdrawn:                               "{p1} s’est retiré\u00a0; ses parties restantes sont perdues par forfait",
		domain.ActionWithdrawn + "/" + domain.LogAnnulled:    "{p1} s’est retiré après {count} rondes sur {of}\u00a0; toutes ses parties sont annulées",
		domain.ActionWithdrawn + "/" + domain.LogHalf:        "{p1} s’est retiré après {count} rondes sur {of} (la moitié ou plus)\u00a0: ses parties restantes sont perdues par forfait",
		domain.ActionCancelled:                               "le tournoi a été annulé",
		domain.ActionCancelled + "/" + domain.LogTooFew:      "annulé\u00a0: moins de deux joueurs inscrits",
		domain.ActionDecider:                                 "le match {p2} – {p1} de la ronde {round} est à égalité\u00a0: une partie décisive, {p1} avec les Blancs, est arbitrée le {at}",
		domain.ActionDecider + "/" + domain.LogMoved:         "le match {p2} – {p1} de la ronde {round} est à égalité\u00a0: une partie décisive, {p1} avec les Blancs, est arbitrée le {at}\u00a0; les rondes suivantes sont décalées de {for}",
		domain.ActionSeedsSet:                                "les têtes de série ont été fixées\u00a0: {players}",
		domain.ActionSeedsSet + "/" + domain.LogRandom:       "les têtes de série ont été tirées au sort\u00a0: {players}",
		domain.ActionUnplayed:                                "la partie {p1} – {p2} de la ronde {round} n'a eu aucun coup avant son échéance\u00a0: double forfait, perdue par les deux",
	}},
	"es": {Units: domain.LogUnits{Day: "%d día", Days: "%d días", Hour: "%d hora", Hours: "%d horas"}, Lines: map[string]string{
		domain.ActionRegistrationOpened:                                          "la inscripción está abierta",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimit:      "la inscripción está abierta para hasta {count} jugadores",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationUntil:      "la inscripción está abierta hasta el {at}",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimitUntil: "la inscripción está abierta para hasta {count} jugadores hasta el {at}",
		domain.ActionRegistrationClosed:                                          "la inscripción está cerrada",
		domain.ActionRegistrationClosed + "/" + domain.LogClosedWith:             "la inscripción se cerró con {count} jugadores",
		domain.ActionJoined:                                  "{p1} se inscribió",
		domain.ActionLeft:                                    "{p1} se retiró antes del comienzo",
		domain.ActionEntrantAdded:                            "{p1} fue añadido",
		domain.ActionEntrantAdded + "/" + domain.LogLate:     "{p1} fue añadido con el torneo en curso",
		domain.ActionEntrantReplaced:                         "{p1} sustituye a {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogRenamed: "{p1} ahora se llama {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogAddress: "se corrigió la dirección de {p1}",
		domain.ActionDeadlineExtended:                        "la partida {p1} – {p2} de la ronda {round} se prorrogó {for}, hasta el {at}",
		domain.ActionRoundPostponed:                          "la ronda {round} se aplazó {for}: empieza el {at}",
		domain.ActionRoundPostponed + "/" + domain.LogEnds:   "la ronda {round} se aplazó {for}: termina el {at}",
		domain.ActionPaused:                                  "el torneo está en pausa: no corre ningún plazo",
		domain.ActionResumed:                                 "el torneo se reanudó tras {for}; los plazos se movieron otro tanto",
		domain.ActionResultOverridden:                        "el resultado de {p1} – {p2} (ronda {round}) se fijó en {score} (diferencia {margin})",
		domain.ActionResultAnnulled:                          "el resultado de {p1} – {p2} (ronda {round}) se anuló",
		domain.ActionResultAnnulled + "/" + domain.LogBye:    "el descanso de {p1} (ronda {round}) se anuló",
		domain.ActionWithdrawn:                               "{p1} se retiró; sus partidas restantes se pierden por incomparecencia",
		domain.ActionWithdrawn + "/" + domain.LogAnnulled:    "{p1} se retiró tras {count} de {of} rondas; todas sus partidas se anulan",
		domain.ActionWithdrawn + "/" + domain.LogHalf:        "{p1} se retiró tras {count} de {of} rondas (la mitad o más): sus partidas restantes se pierden por incomparecencia",
		domain.ActionCancelled:                               "el torneo se canceló",
		domain.ActionCancelled + "/" + domain.LogTooFew:      "cancelado: se inscribieron menos de dos jugadores",
		domain.ActionDecider:                                 "el enfrentamiento {p2} – {p1} de la ronda {round} está igualado: una partida de desempate, {p1} con blancas, se adjudica el {at}",
		domain.ActionDecider + "/" + domain.LogMoved:         "el enfrentamiento {p2} – {p1} de la ronda {round} está igualado: una partida de desempate, {p1} con blancas, se adjudica el {at}; las rondas siguientes se mueven {for}",
		domain.ActionSeedsSet:                                "se fijaron los cabezas de serie: {players}",
		domain.ActionSeedsSet + "/" + domain.LogRandom:       "se sortearon los cabezas de serie: {players}",
		domain.ActionUnplayed:                                "la partida {p1} – {p2} de la ronda {round} no tuvo ningún movimiento antes de su plazo: doble incomparecencia, perdida por ambos",
	}},
	"it": {Units: domain.LogUnits{Day: "%d giorno", Days: "%d giorni", Hour: "%d ora", Hours: "%d ore"}, Lines: map[string]string{
		domain.ActionRegistrationOpened:                                          "le iscrizioni sono aperte",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimit:      "le iscrizioni sono aperte per al massimo {count} giocatori",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationUntil:      "le iscrizioni sono aperte fino al {at}",
		domain.ActionRegistrationOpened + "/" + domain.LogRegistrationLimitUntil: "le iscrizioni sono aperte per al massimo {count} giocatori fino al {at}",
		domain.ActionRegistrationClosed:                                          "le iscrizioni sono chiuse",
		domain.ActionRegistrationClosed + "/" + domain.LogClosedWith:             "le iscrizioni si sono chiuse con {count} giocatori",
		domain.ActionJoined:                                  "{p1} si è iscritto",
		domain.ActionLeft:                                    "{p1} si è ritirato prima dell’inizio",
		domain.ActionEntrantAdded:                            "{p1} è stato aggiunto",
		domain.ActionEntrantAdded + "/" + domain.LogLate:     "{p1} è stato aggiunto a torneo in corso",
		domain.ActionEntrantReplaced:                         "{p1} sostituisce {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogRenamed: "{p1} ora si chiama {p2}",
		domain.ActionEntrantEdited + "/" + domain.LogAddress: "l’indirizzo di {p1} è stato corretto",
		domain.ActionDeadlineExtended:                        "la partita {p1} – {p2} del turno {round} è stata prorogata di {for}, fino al {at}",
		domain.ActionRoundPostponed:                          "il turno {round} è stato rinviato di {for}: inizia il {at}",
		domain.ActionRoundPostponed + "/" + domain.LogEnds:   "il turno {round} è stato rinviato di {for}: finisce il {at}",
		domain.ActionPaused:                                  "il torneo è in pausa: nessuna scadenza corre",
		domain.ActionResumed:                                 "il torneo è ripreso dopo {for}; le scadenze sono spostate di altrettanto",
		domain.ActionResultOverridden:                        "il risultato di {p1} – {p2} (turno {round}) è stato fissato a {score} (scarto {margin})",
		domain.ActionResultAnnulled:                          "il risultato di {p1} – {p2} (turno {round}) è stato annullato",
		domain.ActionResultAnnulled + "/" + domain.LogBye:    "il turno di riposo di {p1} (turno {round}) è stato annullato",
		domain.ActionWithdrawn:                               "{p1} si è ritirato; le sue partite restanti sono perse a forfait",
		domain.ActionWithdrawn + "/" + domain.LogAnnulled:    "{p1} si è ritirato dopo {count} turni su {of}; tutte le sue partite sono annullate",
		domain.ActionWithdrawn + "/" + domain.LogHalf:        "{p1} si è ritirato dopo {count} turni su {of} (metà o più): le sue partite restanti sono perse a forfait",
		domain.ActionCancelled:                               "il torneo è stato annullato",
		domain.ActionCancelled + "/" + domain.LogTooFew:      "annullato: meno di due giocatori iscritti",
		domain.ActionDecider:                                 "l’incontro {p2} – {p1} del turno {round} è in parità: uno spareggio, {p1} con il Bianco, viene aggiudicato il {at}",
		domain.ActionDecider + "/" + domain.LogMoved:         "l’incontro {p2} – {p1} del turno {round} è in parità: uno spareggio, {p1} con il Bianco, viene aggiudicato il {at}; i turni successivi sono spostati di {for}",
		domain.ActionSeedsSet:                                "le teste di serie sono state fissate: {players}",
		domain.ActionSeedsSet + "/" + domain.LogRandom:       "le teste di serie sono state sorteggiate: {players}",
		domain.ActionUnplayed:                                "la partita {p1} – {p2} del turno {round} non ha avuto nessuna mossa entro la scadenza: doppio forfait, persa da entrambi",
	}},
}

// logLine is a log entry's line in lang, and whether it is in English
// where lang is not (an entry whose facts were not kept).
func logLine(e domain.LogEntry, lang string) (line string, english bool) {
	words, ok := logLanguages[lang]
	if e.Args == nil || !ok {
		return e.Detail, lang != "en"
	}
	wording, ok := words.Lines[domain.LogKey(e.Action, *e.Args)]
	if !ok {
		return e.Detail, lang != "en"
	}
	return e.Args.Render(wording, words.Units), false
}
