package api

import (
	"github.com/lesspost/lesspost/domain/tournaments"
)

// logWords are the log's lines in one language: tournaments.LogEnglish's
// wordings translated, by the same keys and with the same placeholders
// (see tournaments.LogArgs), and the words of a duration. English is the
// domain's own. An entry stored before its facts were kept, or one whose
// wording a language lacks, is shown in English, marked so.
type logWords struct {
	Lines map[string]string
	Units tournaments.LogUnits
}

var logLanguages = map[string]logWords{
	"en": {Lines: tournaments.LogEnglish, Units: tournaments.EnglishUnits},
	"de": {Units: tournaments.LogUnits{Day: "%d Tag", Days: "%d Tage", Hour: "%d Stunde", Hours: "%d Stunden"}, Lines: map[string]string{
		tournaments.ActionRegistrationOpened:                                               "die Anmeldung ist offen",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimit:      "die Anmeldung ist offen für bis zu {count} Spieler",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationUntil:      "die Anmeldung ist offen bis {at}",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimitUntil: "die Anmeldung ist offen für bis zu {count} Spieler bis {at}",
		tournaments.ActionRegistrationClosed:                                               "die Anmeldung ist geschlossen",
		tournaments.ActionRegistrationClosed + "/" + tournaments.LogClosedWith:             "die Anmeldung schloss mit {count} Spielern",
		tournaments.ActionJoined:                                                           "{p1} ist dabei",
		tournaments.ActionLeft:                                                             "{p1} trat vor dem Beginn zurück",
		tournaments.ActionEntrantAdded:                                                     "{p1} wurde hinzugefügt",
		tournaments.ActionEntrantAdded + "/" + tournaments.LogLate:                         "{p1} wurde nachträglich hinzugefügt",
		tournaments.ActionEntrantReplaced:                                                  "{p1} ersetzt {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogRenamed:                     "{p1} heißt jetzt {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogAddress:                     "die Adresse von {p1} wurde berichtigt",
		tournaments.ActionDeadlineExtended:                                                 "die Partie {p1} – {p2} der Runde {round} wurde um {for} verlängert, bis {at}",
		tournaments.ActionRoundPostponed:                                                   "Runde {round} wurde um {for} verschoben: sie beginnt {at}",
		tournaments.ActionRoundPostponed + "/" + tournaments.LogEnds:                       "Runde {round} wurde um {for} verschoben: sie endet {at}",
		tournaments.ActionPaused:                                                           "das Turnier ist unterbrochen: keine Frist läuft",
		tournaments.ActionResumed:                                                          "das Turnier geht nach {for} weiter; die Fristen verschieben sich um ebenso viel",
		tournaments.ActionResultOverridden:                                                 "das Ergebnis von {p1} – {p2} (Runde {round}) wurde auf {score} gesetzt (Differenz {margin})",
		tournaments.ActionResultAnnulled:                                                   "das Ergebnis von {p1} – {p2} (Runde {round}) wurde annulliert",
		tournaments.ActionResultAnnulled + "/" + tournaments.LogBye:                        "das spielfreie Ergebnis von {p1} (Runde {round}) wurde annulliert",
		tournaments.ActionWithdrawn:                                                        "{p1} hat sich zurückgezogen; seine übrigen Partien gehen kampflos verloren",
		tournaments.ActionWithdrawn + "/" + tournaments.LogAnnulled:                        "{p1} hat sich nach {count} von {of} Runden zurückgezogen; alle seine Partien werden annulliert",
		tournaments.ActionWithdrawn + "/" + tournaments.LogHalf:                            "{p1} hat sich nach {count} von {of} Runden (der Hälfte oder mehr) zurückgezogen: seine übrigen Partien gehen kampflos verloren",
		tournaments.ActionCancelled:                                                        "das Turnier wurde abgesagt",
		tournaments.ActionCancelled + "/" + tournaments.LogTooFew:                          "abgesagt: weniger als zwei Spieler haben sich angemeldet",
		tournaments.ActionDecider:                                                          "das Match {p2} – {p1} der Runde {round} steht unentschieden: eine Entscheidungspartie, {p1} mit Weiß, wird am {at} gewertet",
		tournaments.ActionDecider + "/" + tournaments.LogMoved:                             "das Match {p2} – {p1} der Runde {round} steht unentschieden: eine Entscheidungspartie, {p1} mit Weiß, wird am {at} gewertet; die späteren Runden verschieben sich um {for}",
		tournaments.ActionSeedsSet:                                                         "die Setzliste wurde festgelegt: {players}",
		tournaments.ActionSeedsSet + "/" + tournaments.LogRandom:                           "die Setzliste wurde ausgelost: {players}",
		tournaments.ActionUnplayed:                                                         "in der Partie {p1} – {p2} der Runde {round} wurde bis zur Frist nicht gezogen: für beide kampflos verloren",
	}},
	"fr": {Units: tournaments.LogUnits{Day: "%d jour", Days: "%d jours", Hour: "%d heure", Hours: "%d heures"}, Lines: map[string]string{
		tournaments.ActionRegistrationOpened:                                               "les inscriptions sont ouvertes",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimit:      "les inscriptions sont ouvertes pour {count} joueurs au plus",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationUntil:      "les inscriptions sont ouvertes jusqu’au {at}",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimitUntil: "les inscriptions sont ouvertes pour {count} joueurs au plus jusqu’au {at}",
		tournaments.ActionRegistrationClosed:                                               "les inscriptions sont closes",
		tournaments.ActionRegistrationClosed + "/" + tournaments.LogClosedWith:             "les inscriptions ont été closes avec {count} joueurs",
		tournaments.ActionJoined:                                                           "{p1} s’est inscrit",
		tournaments.ActionLeft:                                                             "{p1} s’est retiré avant le début",
		tournaments.ActionEntrantAdded:                                                     "{p1} a été ajouté",
		tournaments.ActionEntrantAdded + "/" + tournaments.LogLate:                         "{p1} a été ajouté en cours de tournoi",
		tournaments.ActionEntrantReplaced:                                                  "{p1} remplace {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogRenamed:                     "{p1} s’appelle désormais {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogAddress:                     "l’adresse de {p1} a été corrigée",
		tournaments.ActionDeadlineExtended:                                                 "la partie {p1} – {p2} de la ronde {round} a été prolongée de {for}, jusqu’au {at}",
		tournaments.ActionRoundPostponed:                                                   "la ronde {round} a été reportée de {for}\u00a0: elle commence le {at}",
		tournaments.ActionRoundPostponed + "/" + tournaments.LogEnds:                       "la ronde {round} a été reportée de {for}\u00a0: elle se termine le {at}",
		tournaments.ActionPaused:                                                           "le tournoi est en pause\u00a0: aucun délai ne court",
		tournaments.ActionResumed:                                                          "le tournoi a repris après {for}\u00a0; les délais sont décalés d’autant",
		tournaments.ActionResultOverridden:                                                 "le résultat de {p1} – {p2} (ronde {round}) a été fixé à {score} (écart {margin})",
		tournaments.ActionResultAnnulled:                                                   "le résultat de {p1} – {p2} (ronde {round}) a été annulé",
		tournaments.ActionResultAnnulled + "/" + tournaments.LogBye:                        "l’exemption de {p1} (ronde {round}) a été annulée",
		tournaments.ActionWithdrawn:                                                        "{p1} s’est retiré\u00a0; ses parties restantes sont perdues par forfait",
		tournaments.ActionWithdrawn + "/" + tournaments.LogAnnulled:                        "{p1} s’est retiré après {count} rondes sur {of}\u00a0; toutes ses parties sont annulées",
		tournaments.ActionWithdrawn + "/" + tournaments.LogHalf:                            "{p1} s’est retiré après {count} rondes sur {of} (la moitié ou plus)\u00a0: ses parties restantes sont perdues par forfait",
		tournaments.ActionCancelled:                                                        "le tournoi a été annulé",
		tournaments.ActionCancelled + "/" + tournaments.LogTooFew:                          "annulé\u00a0: moins de deux joueurs inscrits",
		tournaments.ActionDecider:                                                          "le match {p2} – {p1} de la ronde {round} est à égalité\u00a0: une partie décisive, {p1} avec les Blancs, est arbitrée le {at}",
		tournaments.ActionDecider + "/" + tournaments.LogMoved:                             "le match {p2} – {p1} de la ronde {round} est à égalité\u00a0: une partie décisive, {p1} avec les Blancs, est arbitrée le {at}\u00a0; les rondes suivantes sont décalées de {for}",
		tournaments.ActionSeedsSet:                                                         "les têtes de série ont été fixées\u00a0: {players}",
		tournaments.ActionSeedsSet + "/" + tournaments.LogRandom:                           "les têtes de série ont été tirées au sort\u00a0: {players}",
		tournaments.ActionUnplayed:                                                         "la partie {p1} – {p2} de la ronde {round} n'a eu aucun coup avant son échéance\u00a0: double forfait, perdue par les deux",
	}},
	"es": {Units: tournaments.LogUnits{Day: "%d día", Days: "%d días", Hour: "%d hora", Hours: "%d horas"}, Lines: map[string]string{
		tournaments.ActionRegistrationOpened:                                               "la inscripción está abierta",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimit:      "la inscripción está abierta para hasta {count} jugadores",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationUntil:      "la inscripción está abierta hasta el {at}",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimitUntil: "la inscripción está abierta para hasta {count} jugadores hasta el {at}",
		tournaments.ActionRegistrationClosed:                                               "la inscripción está cerrada",
		tournaments.ActionRegistrationClosed + "/" + tournaments.LogClosedWith:             "la inscripción se cerró con {count} jugadores",
		tournaments.ActionJoined:                                                           "{p1} se inscribió",
		tournaments.ActionLeft:                                                             "{p1} se retiró antes del comienzo",
		tournaments.ActionEntrantAdded:                                                     "{p1} fue añadido",
		tournaments.ActionEntrantAdded + "/" + tournaments.LogLate:                         "{p1} fue añadido con el torneo en curso",
		tournaments.ActionEntrantReplaced:                                                  "{p1} sustituye a {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogRenamed:                     "{p1} ahora se llama {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogAddress:                     "se corrigió la dirección de {p1}",
		tournaments.ActionDeadlineExtended:                                                 "la partida {p1} – {p2} de la ronda {round} se prorrogó {for}, hasta el {at}",
		tournaments.ActionRoundPostponed:                                                   "la ronda {round} se aplazó {for}: empieza el {at}",
		tournaments.ActionRoundPostponed + "/" + tournaments.LogEnds:                       "la ronda {round} se aplazó {for}: termina el {at}",
		tournaments.ActionPaused:                                                           "el torneo está en pausa: no corre ningún plazo",
		tournaments.ActionResumed:                                                          "el torneo se reanudó tras {for}; los plazos se movieron otro tanto",
		tournaments.ActionResultOverridden:                                                 "el resultado de {p1} – {p2} (ronda {round}) se fijó en {score} (diferencia {margin})",
		tournaments.ActionResultAnnulled:                                                   "el resultado de {p1} – {p2} (ronda {round}) se anuló",
		tournaments.ActionResultAnnulled + "/" + tournaments.LogBye:                        "el descanso de {p1} (ronda {round}) se anuló",
		tournaments.ActionWithdrawn:                                                        "{p1} se retiró; sus partidas restantes se pierden por incomparecencia",
		tournaments.ActionWithdrawn + "/" + tournaments.LogAnnulled:                        "{p1} se retiró tras {count} de {of} rondas; todas sus partidas se anulan",
		tournaments.ActionWithdrawn + "/" + tournaments.LogHalf:                            "{p1} se retiró tras {count} de {of} rondas (la mitad o más): sus partidas restantes se pierden por incomparecencia",
		tournaments.ActionCancelled:                                                        "el torneo se canceló",
		tournaments.ActionCancelled + "/" + tournaments.LogTooFew:                          "cancelado: se inscribieron menos de dos jugadores",
		tournaments.ActionDecider:                                                          "el enfrentamiento {p2} – {p1} de la ronda {round} está igualado: una partida de desempate, {p1} con blancas, se adjudica el {at}",
		tournaments.ActionDecider + "/" + tournaments.LogMoved:                             "el enfrentamiento {p2} – {p1} de la ronda {round} está igualado: una partida de desempate, {p1} con blancas, se adjudica el {at}; las rondas siguientes se mueven {for}",
		tournaments.ActionSeedsSet:                                                         "se fijaron los cabezas de serie: {players}",
		tournaments.ActionSeedsSet + "/" + tournaments.LogRandom:                           "se sortearon los cabezas de serie: {players}",
		tournaments.ActionUnplayed:                                                         "la partida {p1} – {p2} de la ronda {round} no tuvo ningún movimiento antes de su plazo: doble incomparecencia, perdida por ambos",
	}},
	"it": {Units: tournaments.LogUnits{Day: "%d giorno", Days: "%d giorni", Hour: "%d ora", Hours: "%d ore"}, Lines: map[string]string{
		tournaments.ActionRegistrationOpened:                                               "le iscrizioni sono aperte",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimit:      "le iscrizioni sono aperte per al massimo {count} giocatori",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationUntil:      "le iscrizioni sono aperte fino al {at}",
		tournaments.ActionRegistrationOpened + "/" + tournaments.LogRegistrationLimitUntil: "le iscrizioni sono aperte per al massimo {count} giocatori fino al {at}",
		tournaments.ActionRegistrationClosed:                                               "le iscrizioni sono chiuse",
		tournaments.ActionRegistrationClosed + "/" + tournaments.LogClosedWith:             "le iscrizioni si sono chiuse con {count} giocatori",
		tournaments.ActionJoined:                                                           "{p1} si è iscritto",
		tournaments.ActionLeft:                                                             "{p1} si è ritirato prima dell’inizio",
		tournaments.ActionEntrantAdded:                                                     "{p1} è stato aggiunto",
		tournaments.ActionEntrantAdded + "/" + tournaments.LogLate:                         "{p1} è stato aggiunto a torneo in corso",
		tournaments.ActionEntrantReplaced:                                                  "{p1} sostituisce {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogRenamed:                     "{p1} ora si chiama {p2}",
		tournaments.ActionEntrantEdited + "/" + tournaments.LogAddress:                     "l’indirizzo di {p1} è stato corretto",
		tournaments.ActionDeadlineExtended:                                                 "la partita {p1} – {p2} del turno {round} è stata prorogata di {for}, fino al {at}",
		tournaments.ActionRoundPostponed:                                                   "il turno {round} è stato rinviato di {for}: inizia il {at}",
		tournaments.ActionRoundPostponed + "/" + tournaments.LogEnds:                       "il turno {round} è stato rinviato di {for}: finisce il {at}",
		tournaments.ActionPaused:                                                           "il torneo è in pausa: nessuna scadenza corre",
		tournaments.ActionResumed:                                                          "il torneo è ripreso dopo {for}; le scadenze sono spostate di altrettanto",
		tournaments.ActionResultOverridden:                                                 "il risultato di {p1} – {p2} (turno {round}) è stato fissato a {score} (scarto {margin})",
		tournaments.ActionResultAnnulled:                                                   "il risultato di {p1} – {p2} (turno {round}) è stato annullato",
		tournaments.ActionResultAnnulled + "/" + tournaments.LogBye:                        "il turno di riposo di {p1} (turno {round}) è stato annullato",
		tournaments.ActionWithdrawn:                                                        "{p1} si è ritirato; le sue partite restanti sono perse a forfait",
		tournaments.ActionWithdrawn + "/" + tournaments.LogAnnulled:                        "{p1} si è ritirato dopo {count} turni su {of}; tutte le sue partite sono annullate",
		tournaments.ActionWithdrawn + "/" + tournaments.LogHalf:                            "{p1} si è ritirato dopo {count} turni su {of} (metà o più): le sue partite restanti sono perse a forfait",
		tournaments.ActionCancelled:                                                        "il torneo è stato annullato",
		tournaments.ActionCancelled + "/" + tournaments.LogTooFew:                          "annullato: meno di due giocatori iscritti",
		tournaments.ActionDecider:                                                          "l’incontro {p2} – {p1} del turno {round} è in parità: uno spareggio, {p1} con il Bianco, viene aggiudicato il {at}",
		tournaments.ActionDecider + "/" + tournaments.LogMoved:                             "l’incontro {p2} – {p1} del turno {round} è in parità: uno spareggio, {p1} con il Bianco, viene aggiudicato il {at}; i turni successivi sono spostati di {for}",
		tournaments.ActionSeedsSet:                                                         "le teste di serie sono state fissate: {players}",
		tournaments.ActionSeedsSet + "/" + tournaments.LogRandom:                           "le teste di serie sono state sorteggiate: {players}",
		tournaments.ActionUnplayed:                                                         "la partita {p1} – {p2} del turno {round} non ha avuto nessuna mossa entro la scadenza: doppio forfait, persa da entrambi",
	}},
}

// logLine is a log entry's line in lang, and whether it is in English
// where lang is not (an entry whose facts were not kept).
func logLine(e tournaments.LogEntry, lang string) (line string, english bool) {
	words, ok := logLanguages[lang]
	if e.Args == nil || !ok {
		return e.Detail, lang != "en"
	}
	wording, ok := words.Lines[tournaments.LogKey(e.Action, *e.Args)]
	if !ok {
		return e.Detail, lang != "en"
	}
	return e.Args.Render(wording, words.Units), false
}
