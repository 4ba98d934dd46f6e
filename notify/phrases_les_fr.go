package notify

import "github.com/lesspost/lesspost/domain/les"

// lesFrench speaks as french does ("vous", a capital after the greeting, a
// non-breaking space before ":" and ";", colours as names without an
// article). Game words: pierre, point, trou, mise en place (the setup),
// choisir (the choice), tour, départage (a tie-break), égalité.
var lesFrench = lesPhrases{
	Colors: [2]string{les.Black: "Noir", les.White: "Blanc"},
	Seats:  [2]string{les.Setter: "Met en place", les.Chooser: "Choisit"},

	InviteSetter: "On vous invite à une partie de Les par correspondance. Vous faites la mise en place\u00a0: vous posez les " +
		"quatre premières pierres, puis {{.Chooser}} choisit une couleur, et vous jouez l'autre.",
	InviteChooser: "On vous invite à une partie de Les par correspondance. {{.Setter}} pose les quatre premières pierres, " +
		"puis vous choisissez votre couleur, Noir ou Blanc\u00a0; {{.Setter}} joue l'autre.",
	Board: "Plateau\u00a0: un hexagone de {{.Side}} points par côté, {{.Points}} points en {{.Rows}} rangées.",
	HowToPlay: "Comment jouer\u00a0: à chaque tour, vous posez une pierre de votre couleur sur un point qui touche à la fois " +
		"une pierre noire et une pierre blanche, puis, tant qu'un point ne touche aucune pierre, une seconde pierre sur un tel " +
		"point. La partie s'arrête quand le joueur au trait n'a plus de point qui touche les deux couleurs, et le gagnant est " +
		"celui qui possède le plus de trous (groupes de points vides bordés par ses seules pierres)\u00a0; à nombre égal, les " +
		"trous les plus grands l'emportent, puis ceux qu'entourent le plus de pierres.",
	SetterFirst: "{{.Setter}} fait d'abord la mise en place\u00a0; nous vous écrirons quand ce sera à vous de choisir.",

	SetupHow: "Posez quatre pierres, dans cet ordre\u00a0: une pierre noire n'importe où, une pierre blanche qui la touche, " +
		"une seconde pierre noire n'importe où, et une seconde pierre blanche alignée avec cette seconde noire, deux points " +
		"plus loin. Vous ne savez pas encore quelle couleur vous jouerez\u00a0: équilibrez la position.",
	ChooseHow: "Choisissez Noir ou Blanc\u00a0: Noir joue le premier tour, et {{.Setter}} joue l'autre couleur.",
	TurnHow: "Posez une pierre sur un point qui touche à la fois une pierre noire et une pierre blanche, puis, si un point " +
		"ne touche encore aucune pierre, une seconde pierre sur un tel point.",

	YourSetup:  "C'est à vous de faire la mise en place.",
	YourChoice: "C'est à vous de choisir votre couleur.",
	YourTurn:   "C'est à vous de jouer ({{.Color}}).",

	SetUp:    "{{.Name}} a posé {{.Stones}}",
	Chose:    "{{.Name}} a choisi {{.Color}}",
	YouChose: "Vous avez choisi {{.Color}}, vous jouez donc en premier",
	Played:   "{{.Color}} a joué {{.Ply}}",

	Side:      "{{.Color}} ({{.Name}})",
	Win:       "victoire de {{.Side}} avec {{.Margin}} {{plural `fr` .Margin `trou` `trous`}} d'avance",
	WinSizes:  "victoire de {{.Side}} à la taille des trous",
	WinAround: "victoire de {{.Side}} aux pierres qui entourent les trous",

	ByCount: "{{.Winner}} possède plus de trous que {{.Loser}}, {{.More}} contre {{.Fewer}}\u00a0: le nombre de trous " +
		"départage en premier.",
	BySizes: "Chacun possède {{.Count}} {{plural `fr` .Count `trou` `trous`}}, c'est donc le premier départage qui a " +
		"décidé, la taille\u00a0: en parcourant les deux listes depuis le plus grand trou, la première paire qui diffère " +
		"oppose le trou de {{.Winner}}, de {{.Win}} points, à celui de {{.Loser}}, de {{.Lose}}.",
	ByAround: "Chacun possède {{.Count}} {{plural `fr` .Count `trou` `trous`}} de mêmes tailles, c'est donc le second " +
		"départage qui a décidé, les pierres autour des trous\u00a0: en parcourant les deux listes, la première paire qui " +
		"diffère oppose le trou de {{.Winner}}, entouré de {{.Win}} pierres, à celui de {{.Loser}}, entouré de {{.Lose}}.",
	Equal: "Chacun possède {{.Count}} {{plural `fr` .Count `trou` `trous`}}, de mêmes tailles et entourés d'autant " +
		"de pierres\u00a0: la partie se termine sur une égalité.",
	NoHoles:   "Personne ne possède de trou\u00a0: la partie se termine sur une égalité.",
	NoColours: "La partie s'est arrêtée avant le choix des couleurs\u00a0: elle se termine sur une égalité.",
	Conceded: "Après un abandon ou un temps écoulé, l'autre joueur gagne avec la différence des trous possédés sur le " +
		"plateau tel qu'il est, et au moins 1.",

	HolesHeading: "Trous possédés, du plus grand au plus petit, chacun avec sa taille en points (et les pierres qui l'entourent)\u00a0:",
	Holes:        "{{.Side}}\u00a0: {{if eq .Count 0}}aucun{{else}}{{.Count}} {{plural `fr` .Count `trou` `trous`}}\u00a0: {{.List}}{{end}}",

	RoundDeadline: "La ronde se termine le {{.Deadline}}\u00a0: une partie encore inachevée à ce moment est arbitrée d'après le plateau tel qu'il est.",
	Legend: "B W les pierres (Noir, Blanc), (B) une pierre du dernier coup, . un point vide, b w les points vides d'un trou " +
		"que possède Noir ou Blanc (à la fin). Chaque rangée compte ses points à partir de 1 depuis son extrémité gauche.",
}

func init() { lesCatalog["fr"] = &lesFrench }
