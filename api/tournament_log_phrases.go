package api

import (
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/catalog"
)

// logWords are the log's lines in one language: tournaments.LogEnglish's
// wordings translated, by the same keys and with the same placeholders
// (see tournaments.LogArgs), and the words of a duration. English is the
// domain's own, which the catalogue repeats as the translators' source (a
// test keeps the two the same). An entry stored before its facts were
// kept is shown in English, marked so.
type logWords struct {
	Lines map[string]string
	Units tournaments.LogUnits
}

// logLanguages are the log's words in each language: the catalogue's log.*
// messages (log.lines.<key>, log.units.*).
var logLanguages = catalog.Tables[logWords](catalog.Shipped(), languages, "log.")

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
