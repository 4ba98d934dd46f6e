package notify

import "github.com/lesspost/lesspost/domain/les"

// lesSpanish speaks as spanish does ("tú", "Hola, Anna:" and a capital
// after it, a colour alone with its article: "el Negro"; a side without).
// Game words: piedra, punto, hueco, preparar la partida (the setup),
// elegir (the choice), turno, desempate, tablero, empate.
var lesSpanish = lesPhrases{
	Colors: [2]string{les.Black: "Negro", les.White: "Blanco"},
	Seats:  [2]string{les.Setter: "Prepara", les.Chooser: "Elige"},

	InviteSetter: "Te invitan a una partida de Les por correspondencia. Tú preparas la partida: colocas las cuatro " +
		"primeras piedras, luego {{.Chooser}} elige un color y tú juegas con el otro.",
	InviteChooser: "Te invitan a una partida de Les por correspondencia. {{.Setter}} coloca las cuatro primeras piedras, " +
		"luego tú eliges tu color, el Negro o el Blanco; {{.Setter}} juega con el otro.",
	Board: "Tablero: un hexágono de {{.Side}} puntos por lado, {{.Points}} puntos en {{.Rows}} filas.",
	HowToPlay: "Cómo se juega: en cada turno colocas una piedra de tu color en un punto que toque a la vez una piedra negra " +
		"y una blanca y después, mientras haya algún punto que no toque ninguna piedra, una segunda piedra en un punto así. " +
		"La partida termina cuando quien tiene el turno no tiene ningún punto que toque ambos colores, y gana quien posea más " +
		"huecos (grupos de puntos vacíos rodeados solo por sus piedras); con los mismos huecos, ganan los huecos más grandes " +
		"y después los que tienen más piedras alrededor.",
	SetterFirst: "Primero {{.Setter}} prepara la partida; te escribiremos cuando te toque elegir.",

	SetupHow: "Coloca cuatro piedras, en este orden: una piedra negra donde quieras, una piedra blanca que la toque, una " +
		"segunda piedra negra donde quieras y una segunda piedra blanca en línea con la segunda negra, a dos puntos de " +
		"distancia. Aún no sabes con qué color jugarás: deja la posición equilibrada.",
	ChooseHow: "Elige el Negro o el Blanco: el Negro juega el primer turno, y {{.Setter}} juega con el otro color.",
	TurnHow: "Coloca una piedra en un punto que toque a la vez una piedra negra y una blanca y después, si aún queda algún " +
		"punto que no toque ninguna piedra, una segunda piedra en un punto así.",

	YourSetup:  "Te toca preparar la partida.",
	YourChoice: "Te toca elegir tu color.",
	YourTurn:   "Te toca jugar con el {{.Color}}.",

	SetUp:    "{{.Name}} colocó {{.Stones}}",
	Chose:    "{{.Name}} eligió el {{.Color}}",
	YouChose: "Elegiste el {{.Color}}, así que empiezas tú",
	Played:   "El {{.Color}} jugó {{.Ply}}",

	Side:      "{{.Color}} ({{.Name}})",
	Win:       "victoria de {{.Side}} por {{.Margin}} {{plural `es` .Margin `hueco` `huecos`}}",
	WinSizes:  "victoria de {{.Side}} por el tamaño de los huecos",
	WinAround: "victoria de {{.Side}} por las piedras alrededor de los huecos",

	ByCount: "El {{.Winner}} posee más huecos que el {{.Loser}}, {{.More}} contra {{.Fewer}}: primero decide el número de huecos.",
	BySizes: "Cada uno posee {{.Count}} {{plural `es` .Count `hueco` `huecos`}}, así que decidió el primer desempate, " +
		"el tamaño: recorriendo ambas listas desde el hueco más grande, el primer par distinto es el hueco del {{.Winner}}, " +
		"de {{.Win}} puntos, contra el del {{.Loser}}, de {{.Lose}}.",
	ByAround: "Cada uno posee {{.Count}} {{plural `es` .Count `hueco` `huecos`}} de los mismos tamaños, así que " +
		"decidió el segundo desempate, las piedras alrededor de los huecos: recorriendo ambas listas, el primer par distinto " +
		"es el hueco del {{.Winner}}, con {{.Win}} piedras alrededor, contra el del {{.Loser}}, con {{.Lose}}.",
	Equal: "Cada uno posee {{.Count}} {{plural `es` .Count `hueco` `huecos`}}, iguales en tamaño y en piedras " +
		"alrededor: la partida termina en empate.",
	NoHoles:   "Nadie posee un hueco: la partida termina en empate.",
	NoColours: "La partida terminó antes de elegir los colores: termina en empate.",
	Conceded: "Tras un abandono o una derrota por tiempo, el otro jugador gana por la diferencia de huecos poseídos en el " +
		"tablero tal como está, y al menos por 1.",

	HolesHeading: "Huecos poseídos, del más grande al más pequeño, cada uno con su tamaño en puntos (y las piedras alrededor):",
	Holes:        "{{.Side}}: {{if eq .Count 0}}ninguno{{else}}{{.Count}} {{plural `es` .Count `hueco` `huecos`}}: {{.List}}{{end}}",

	RoundDeadline: "La ronda termina el {{.Deadline}}: una partida aún sin terminar en ese momento se adjudica según el tablero tal como está.",
	Legend: "B W las piedras (Negro, Blanco), (B) una piedra de la última jugada, . un punto vacío, b w los puntos vacíos " +
		"de un hueco que posee el Negro o el Blanco (al final). Cada fila cuenta sus puntos desde 1 en su extremo izquierdo.",
}

func init() { lesCatalog["es"] = &lesSpanish }
