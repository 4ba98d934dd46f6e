package notify

import "github.com/lesspost/lesspost/domain/les"

// lesItalian speaks as italian does ("tu", lower case after the greeting,
// a colour alone with its article: "il Nero"; a side without). Game words:
// pietra, punto, buco (buchi), disporre (the setup), scegliere (the
// choice), turno, spareggio (a tie-break), scacchiera, pareggio.
var lesItalian = lesPhrases{
	Colors: [2]string{les.Black: "Nero", les.White: "Bianco"},
	Seats:  [2]string{les.Setter: "Dispone", les.Chooser: "Sceglie"},

	InviteSetter: "hai ricevuto un invito a una partita di Les per corrispondenza. Tocca a te disporre: metti le prime " +
		"quattro pietre, poi {{.Chooser}} sceglie un colore e tu giochi con l'altro.",
	InviteChooser: "hai ricevuto un invito a una partita di Les per corrispondenza. {{.Setter}} mette le prime quattro " +
		"pietre, poi tu scegli il tuo colore, il Nero o il Bianco; {{.Setter}} gioca con l'altro.",
	Board: "Scacchiera: un esagono con {{.Side}} punti per lato, {{.Points}} punti in {{.Rows}} file.",
	HowToPlay: "Come si gioca: a ogni turno metti una pietra del tuo colore su un punto che tocca sia una pietra nera sia " +
		"una bianca, poi, finché c'è un punto che non tocca nessuna pietra, una seconda pietra su un punto così. La partita " +
		"finisce quando chi ha il turno non ha più un punto che tocchi entrambi i colori, e vince chi possiede più buchi " +
		"(gruppi di punti vuoti circondati solo da pietre sue); a parità di buchi vincono i buchi più grandi, poi quelli con " +
		"più pietre intorno.",
	SetterFirst: "Inizia {{.Setter}} disponendo le pietre; ti scriveremo quando toccherà a te scegliere.",

	SetupHow: "Metti quattro pietre, in quest'ordine: una pietra nera dove vuoi, una pietra bianca che la tocchi, una " +
		"seconda pietra nera dove vuoi e una seconda pietra bianca in linea con la seconda nera, a due punti di distanza. " +
		"Non sai ancora con quale colore giocherai: rendi la posizione equilibrata.",
	ChooseHow: "Scegli il Nero o il Bianco: il Nero gioca il primo turno, e {{.Setter}} gioca con l'altro colore.",
	TurnHow: "Metti una pietra su un punto che tocca sia una pietra nera sia una bianca, poi, se c'è ancora un punto che " +
		"non tocca nessuna pietra, una seconda pietra su un punto così.",

	YourSetup:  "tocca a te disporre le pietre.",
	YourChoice: "tocca a te scegliere il colore.",
	YourTurn:   "tocca a te con il {{.Color}}.",

	SetUp:    "{{.Name}} ha disposto {{.Stones}}",
	Chose:    "{{.Name}} ha scelto il {{.Color}}",
	YouChose: "Hai scelto il {{.Color}}, quindi inizi tu",
	Played:   "Il {{.Color}} ha giocato {{.Ply}}",

	Side:      "{{.Color}} ({{.Name}})",
	Win:       "vittoria per {{.Side}} con {{.Margin}} {{plural `it` .Margin `buco` `buchi`}} di vantaggio",
	WinSizes:  "vittoria per {{.Side}} per la grandezza dei buchi",
	WinAround: "vittoria per {{.Side}} per le pietre intorno ai buchi",

	ByCount: "Il {{.Winner}} possiede più buchi del {{.Loser}}, {{.More}} contro {{.Fewer}}: conta prima di tutto il numero dei buchi.",
	BySizes: "Ognuno possiede {{.Count}} {{plural `it` .Count `buco` `buchi`}}, quindi ha deciso il primo spareggio, " +
		"la grandezza: scorrendo le due liste dal buco più grande, la prima coppia diversa è il buco del {{.Winner}}, di " +
		"{{.Win}} punti, contro quello del {{.Loser}}, di {{.Lose}}.",
	ByAround: "Ognuno possiede {{.Count}} {{plural `it` .Count `buco` `buchi`}} delle stesse grandezze, quindi ha " +
		"deciso il secondo spareggio, le pietre intorno ai buchi: scorrendo le due liste, la prima coppia diversa è il buco " +
		"del {{.Winner}}, con {{.Win}} pietre intorno, contro quello del {{.Loser}}, con {{.Lose}}.",
	Equal: "Ognuno possiede {{.Count}} {{plural `it` .Count `buco` `buchi`}}, uguali per grandezza e pietre intorno: " +
		"la partita finisce in pareggio.",
	NoHoles:   "Nessuno possiede un buco: la partita finisce in pareggio.",
	NoColours: "La partita è finita prima della scelta dei colori: finisce in pareggio.",
	Conceded: "Dopo un abbandono o un tempo scaduto, l'altro giocatore vince con la differenza dei buchi posseduti sulla " +
		"scacchiera così com'è, e almeno con 1.",

	HolesHeading: "Buchi posseduti, dal più grande, ognuno con la sua grandezza in punti (e le pietre intorno):",
	Holes:        "{{.Side}}: {{if eq .Count 0}}nessuno{{else}}{{.Count}} {{plural `it` .Count `buco` `buchi`}}: {{.List}}{{end}}",

	RoundDeadline: "Il turno del torneo finisce il {{.Deadline}}: una partita non ancora finita a quel momento viene aggiudicata in base alla scacchiera così com'è.",
	Legend: "B W le pietre (Nero, Bianco), (B) una pietra dell'ultima giocata, . un punto vuoto, b w i punti vuoti di un " +
		"buco posseduto dal Nero o dal Bianco (alla fine). Ogni fila conta i suoi punti da 1 a partire dal suo estremo sinistro.",
}

func init() { lesCatalog["it"] = &lesItalian }
