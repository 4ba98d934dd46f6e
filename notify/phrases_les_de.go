package notify

import "github.com/lesspost/lesspost/domain/les"

// lesGerman speaks as german does ("du", lower case after the greeting).
// Game words: Stein, Punkt, Loch (Löcher), aufstellen (the setup), wählen
// (the choice), Runde (a turn), Wertung bei Gleichstand (a tie-break).
var lesGerman = lesPhrases{
	Colors: [2]string{les.Black: "Schwarz", les.White: "Weiß"},
	Seats:  [2]string{les.Setter: "Stellt auf", les.Chooser: "Wählt"},

	InviteSetter: "du bist zu einer Partie Les per E-Mail eingeladen. Du stellst auf: Du setzt die ersten vier Steine, " +
		"dann wählt {{.Chooser}} eine Farbe, und du spielst die andere.",
	InviteChooser: "du bist zu einer Partie Les per E-Mail eingeladen. {{.Setter}} stellt die ersten vier Steine auf, " +
		"dann wählst du deine Farbe, Schwarz oder Weiß; {{.Setter}} spielt die andere.",
	Board: "Spielbrett: ein Sechseck mit {{.Side}} Punkten an jeder Kante, {{.Points}} Punkte in {{.Rows}} Reihen.",
	HowToPlay: "So wird gespielt: In jeder Runde setzt du einen Stein deiner Farbe auf einen Punkt, der einen schwarzen und " +
		"einen weißen Stein berührt, und dann, solange ein Punkt keinen Stein berührt, einen zweiten Stein auf einen solchen " +
		"Punkt. Hat der Spieler am Zug keinen Punkt mehr, der beide Farben berührt, endet die Partie, und es gewinnt, wer mehr " +
		"Löcher besitzt (Gruppen leerer Punkte, die nur an eigene Steine grenzen); bei gleich vielen Löchern entscheiden die " +
		"größeren Löcher, dann die Löcher mit mehr Steinen ringsum.",
	SetterFirst: "{{.Setter}} stellt zuerst auf; wir schreiben dir, sobald du mit dem Wählen an der Reihe bist.",

	SetupHow: "Stelle vier Steine auf, in dieser Reihenfolge: einen schwarzen Stein auf einen beliebigen Punkt, einen weißen " +
		"Stein, der ihn berührt, einen zweiten schwarzen Stein auf einen beliebigen Punkt und einen zweiten weißen Stein in " +
		"einer Linie mit dem zweiten schwarzen, zwei Punkte entfernt. Du weißt noch nicht, welche Farbe du spielen wirst: " +
		"Sorge für eine ausgeglichene Stellung.",
	ChooseHow: "Wähle Schwarz oder Weiß: Schwarz spielt die erste Runde, und {{.Setter}} spielt die andere Farbe.",
	TurnHow: "Setze einen Stein auf einen Punkt, der einen schwarzen und einen weißen Stein berührt, und dann, falls noch ein " +
		"Punkt keinen Stein berührt, einen zweiten Stein auf einen solchen Punkt.",

	YourSetup:  "du bist mit dem Aufstellen an der Reihe.",
	YourChoice: "du bist mit der Wahl deiner Farbe an der Reihe.",
	YourTurn:   "du bist mit {{.Color}} an der Reihe.",

	SetUp:    "{{.Name}} hat aufgestellt: {{.Stones}}",
	Chose:    "{{.Name}} hat {{.Color}} gewählt",
	YouChose: "Du hast {{.Color}} gewählt und fängst an",
	Played:   "{{.Color}} hat {{.Ply}} gespielt",

	Side:      "{{.Color}} ({{.Name}})",
	Win:       "Sieg für {{.Side}} mit {{.Margin}} {{plural `de` .Margin `Loch` `Löchern`}} Vorsprung",
	WinSizes:  "Sieg für {{.Side}} nach der Größe der Löcher",
	WinAround: "Sieg für {{.Side}} nach den Steinen rings um die Löcher",

	ByCount: "{{.Winner}} besitzt mehr Löcher als {{.Loser}}, {{.More}} zu {{.Fewer}}: Die Zahl der Löcher entscheidet zuerst.",
	BySizes: "Beide besitzen {{.Count}} {{plural `de` .Count `Loch` `Löcher`}}, also entschied die erste Wertung bei " +
		"Gleichstand, die Größe: Geht man beide Listen vom größten Loch an durch, ist das erste Paar, das sich unterscheidet, " +
		"das Loch von {{.Winner}} mit {{.Win}} Punkten gegen das von {{.Loser}} mit {{.Lose}}.",
	ByAround: "Beide besitzen {{.Count}} {{plural `de` .Count `Loch` `Löcher`}} derselben Größen, also entschied die " +
		"zweite Wertung bei Gleichstand, die Steine rings um die Löcher: Geht man beide Listen durch, ist das erste Paar, das " +
		"sich unterscheidet, das Loch von {{.Winner}} mit {{.Win}} Steinen ringsum gegen das von {{.Loser}} mit {{.Lose}}.",
	Equal: "Beide besitzen {{.Count}} {{plural `de` .Count `Loch` `Löcher`}}, gleich in Größe und Steinen ringsum: " +
		"Die Partie endet unentschieden.",
	NoHoles:   "Niemand besitzt ein Loch: Die Partie endet unentschieden.",
	NoColours: "Die Partie endete, bevor die Farben gewählt waren, und endet daher unentschieden.",
	Conceded: "Nach einer Aufgabe oder Zeitüberschreitung gewinnt der andere Spieler mit dem Unterschied der Löcher, die " +
		"jeder auf dem Brett besitzt, wie es gerade steht, mindestens aber mit 1.",

	HolesHeading: "Besessene Löcher, die größten zuerst, jeweils mit ihrer Größe in Punkten (und den Steinen ringsum):",
	Holes:        "{{.Side}}: {{if eq .Count 0}}keine{{else}}{{.Count}} {{plural `de` .Count `Loch` `Löcher`}}: {{.List}}{{end}}",

	RoundDeadline: "Die Turnierrunde endet am {{.Deadline}}. Ist die Partie dann nicht beendet, wird sie nach dem Brett gewertet, wie es steht.",
	Legend: "B W die Steine (Schwarz, Weiß), (B) ein zuletzt gesetzter Stein, . ein freier Punkt, b w die freien Punkte " +
		"eines Lochs, das Schwarz oder Weiß besitzt (am Ende). Jede Reihe zählt ihre Punkte ab 1 von ihrem linken Ende an.",
}

func init() { lesCatalog["de"] = &lesGerman }
