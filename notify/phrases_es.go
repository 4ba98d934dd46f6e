package notify

import "github.com/lesspost/lesspost/domain/less"

// spanish addresses the reader with "tú", as Spanish apps and games do (the
// printed rule sheet says "usted"), in wording that reads well in Spain and
// Latin America; sentences avoid participles that would agree with the
// reader ("invitado/a"). The greeting is "Hola, Anna:" and the text goes on
// with a capital, as Spanish letters do. Game words from the rule sheet:
// movimiento (one point of a turn), pieza, esquina, pared, pared doble,
// saltar por encima, turno, equipo, puntos (the score), empate, tablero; a
// board square is a "casilla" (the sheet's one "cuadrado" reads as a
// translation slip). A colour alone takes the article, as in the sheet
// ("el Negro"; all four colours take "el"); a side (.Side) is a colour or a
// team ("Amarillo y Blanco"), so phrases about a side use it without article
// and without a verb that would have to agree with it.
var spanish = phrases{
	Colors:  [4]string{less.White: "Blanco", less.Black: "Negro", less.Yellow: "Amarillo", less.Red: "Rojo"},
	Teams:   [2]string{"Amarillo y Blanco", "Negro y Rojo"},
	Presets: map[less.Preset]string{less.PresetClassic: "Reglas clásicas", less.PresetCodeCup: "Reglas de la CodeCup"},

	SubjectGame:  "{{.Game}}: {{.Players}} [{{.Short}}]",
	SubjectLogin: "Tu enlace para iniciar sesión en lesspost",

	LoginIntro:  "Inicia sesión en lesspost con este enlace. Solo funciona una vez y durante 15 minutos:",
	LoginButton: "Iniciar sesión",
	LoginCode:   "O escribe este código en la app: {{.Code}}",
	LoginIgnore: "Si no has pedido iniciar sesión, ignora este correo: sin el enlace no pasa nada.",

	Greeting: "Hola, {{.Name}}:",

	InviteIntro:     "Te invitan a una partida de Less por correspondencia. Juegas con el {{.Color}}.",
	PlayersHeading:  "Jugadores:",
	Rules:           "{{.Preset}}, como máximo {{.MaxTurns}} {{plural `es` .MaxTurns `turno` `turnos`}} por jugador{{if .EarlyStop}}, un turno puede terminar después de cualquier movimiento{{end}}.",
	YouMoveFirst:    "Empiezas tú.",
	OtherMovesFirst: "Empieza el {{.ToMove}}; te escribiremos cuando sea tu turno.",
	HowToPlay: "Cómo se juega: lleva tus 4 piezas a la esquina opuesta. En cada turno haces 3 movimientos: pasar a una " +
		"casilla vecina cuenta como uno, saltar por encima de una pieza también; saltar por encima de una pared cuenta " +
		"como dos y por encima de una pared doble, como tres. Gana quien necesite menos movimientos en total.",

	YourTurn: "Te toca jugar con el {{.Color}} (turnos jugados hasta ahora: {{.Ply}}).",
	Played:   "El {{.Color}} jugó {{.Turn}}",
	Counts:   "Movimientos contados: {{.Counts}}",
	Deadline: "Fecha límite para jugar: {{.Deadline}}.",
	Reminder: "Tu turno en esta partida vence el {{.Deadline}}. Después, {{.Timeout}}.",

	TimeoutLoses:  "tu lado pierde por tiempo",
	TimeoutPasses: "se pasa tu turno",
	TimedOutPass:  "El {{.Color}} se quedó sin tiempo: se pasó su turno",

	GameOver:        "Fin de la partida: {{.Result}}.",
	Win:             "victoria de {{.Side}} por {{.Margin}} {{plural `es` .Margin `punto` `puntos`}}",
	Draw:            "empate",
	ByResignation:   "abandono de {{.Side}}",
	ByTimeout:       "se agotó el tiempo de {{.Side}}",
	ByTurnLimit:     "se alcanzó el límite de turnos",
	ByBlockedCorner: "una pieza de {{.Side}} quedó en la esquina de salida",
	ByAdjudication:  "adjudicación al final de la ronda",
	ByWithdrawal:    "retirada de {{.Side}} del torneo",
	Total:           "{{.Side}}: {{.Total}} ({{.Count}} {{plural `es` .Count `movimiento contado` `movimientos contados`}} + {{.Needed}} para terminar)",
	NeededExplained: "No todas las piezas de {{.Side}} habían llegado: para terminar hacía falta un mínimo de {{.Needed}} " +
		"{{plural `es` .Needed `movimiento` `movimientos`}}, que también se suma al total.",

	NewLink: "Tu enlace para jugar esta partida se ha renovado. Los enlaces anteriores ya no funcionan.",

	ReplyHow:         "Responde a este correo con tu turno, por ejemplo {{.Example}}, o resign para abandonar.",
	ReplyAccepted:    "Tu turno {{.Turn}} se ha jugado. Te escribiremos cuando vuelva a ser tu turno.",
	ReplyStranger:    "Una respuesta a un correo de esta partida llegó desde {{.From}}, no desde tu dirección, así que no jugó nada. Para jugar por correo, responde desde la dirección a la que llegan nuestros correos.",
	ReplyEarlier:     "Tu respuesta era a un correo de un turno anterior; la partida ha avanzado desde entonces, así que no jugó nada. Así está el tablero ahora.",
	ReplyNoTurn:      "No encontramos ningún turno en tu respuesta, así que no jugó nada. Escribe tu turno en una línea aparte. Leímos:",
	ReplyIllegal:     "Tu turno {{.Turn}} no se puede jugar: incumple la regla {{.RuleRef}} ({{.Rule}}){{if .Part}} en su parte {{.Part}}{{end}}. No se jugó nada.",
	ReplyNotYourTurn: "Tu respuesta llegó cuando no era tu turno, así que no jugó nada.",
	ReplyGameOver:    "Esta partida ha terminado, así que tu respuesta no jugó nada.",
	ReplyOther:       "Tu respuesta no jugó nada ({{.Reason}}).",
	ReplyLimited:     "Llegaron demasiadas respuestas tuyas en poco tiempo, así que esta no jugó nada. Espera {{.Minutes}} {{plural `es` .Minutes `minuto` `minutos`}} y vuelve a enviar tu turno: las respuestas enviadas antes no juegan nada y no reciben respuesta.",
	ReplyForged:      "Una respuesta a un correo de esta partida no superó las comprobaciones de remitente de nuestro servidor de correo (puede ser falsificada), así que no jugó nada. Si la enviaste tú, vuelve a enviarla desde tu cuenta de correo habitual.",
	ReplyMalformed:   "Una respuesta a un correo de esta partida no se pudo leer (su formato está dañado), así que no jugó nada. Si la enviaste tú, vuelve a escribir tu turno como texto sin formato.",
	ReplyTooLarge:    "Una respuesta a un correo de esta partida era demasiado grande para leerla, así que no jugó nada. Si la enviaste tú, responde de nuevo sin adjuntos ni el correo citado.",
	ReplyAgain:       "Para responder de nuevo, responde a este correo.",

	TournamentRound:   "Esta partida es la ronda {{.Round}} del torneo {{.Name}}.",
	TournamentDecider: "Esta es la partida de desempate de tu enfrentamiento: las partidas de la ronda {{.Round}} lo dejaron igualado. Quien la gane pasa; si también acaba en tablas, pasa el mejor cabeza de serie.",
	RoundDeadline:     "La ronda termina el {{.Deadline}}: una partida aún sin terminar en ese momento se adjudica como si se hubiera alcanzado el límite de turnos.",
	SubjectTournament: "Less: {{.Name}}, ronda {{.Round}}",
	Bye:               "Descansas en la ronda {{.Round}} del torneo {{.Name}}: cuenta como una victoria. Tu próximo emparejamiento llegará por correo.",
	Walkover:          "{{.Opponent}} dejó el torneo {{.Name}}: tu partida de la ronda {{.Round}} cuenta como una victoria, sin jugar. Tu próximo emparejamiento llegará por correo.",
	WalkoverAnnulled:  "{{.Opponent}} dejó el torneo {{.Name}}: no tienes partida en la ronda {{.Round}} y ninguna de sus partidas cuenta, ni para él ni para sus rivales. Tu próximo emparejamiento llegará por correo.",

	FinishedLabel:  "Repasa la partida turno a turno, o juega otra vez:",
	FinishedButton: "Abrir la partida",
	TeamLine:       "Juegas en el equipo {{.Team}} con {{.Partner}}, contra {{.Others}}.",
	And:            "{{.A}} y {{.B}}",

	MoveLinkLabel: "Tu enlace personal para jugar (es solo tuyo: no lo reenvíes):",
	MoveButton:    "Abrir el tablero",
	WatchLabel:    "La partida para espectadores:",
	RulesLabel:    "Las reglas del juego:",
	WatchAnchor:   "Ver la partida",
	BoardAlt:      "El tablero",
	Legend: "{{.Pieces}} las piezas ({{.Names}}), {{.Targets}} las casillas libres de sus esquinas de destino, " +
		"| y --- las paredes, # y === las paredes dobles, * las casillas de las que salieron piezas en el último turno.",
	Footer:      "Recibes este correo porque juegas esta partida de {{.Game}} en lesspost.",
	Unsubscribe: "Desactivar recordatorios y avisos para espectadores",
	NeverEmail:  "No volver a escribirme nunca (detiene todos los correos de lesspost a esta dirección)",

	SubjectWebhookDisabled: "Tu webhook de lesspost ha sido desactivado",
	WebhookDisabled:        "lesspost ha dejado de enviar eventos a tu webhook {{.URL}}. Motivo (en inglés): {{.Reason}}.",
	WebhookEnable:          "Los eventos de tu cuenta ya no se envían allí. Cuando vuelva a funcionar, actívalo (PATCH /v1/me/webhooks/{{.ID}} con {\"enabled\": true}); su registro de entregas (GET /v1/me/webhooks/{{.ID}}/deliveries) muestra qué falló, y cada mensaje puede enviarse de nuevo.",
}

func init() { catalog["es"] = &spanish }
