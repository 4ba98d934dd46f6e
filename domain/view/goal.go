package view

import (
	"strconv"
	"strings"
)

// Goal is what a colour plays for, said the way a player sees the board as
// drawn (a1 at the top left, whatever his colour): the play page and the
// invitation both say it with Sentence, so that they say the same.
type Goal struct {
	// Kind is GoalCorner for a race to a corner (Less), GoalHoles for
	// owning holes (Les).
	Kind string
	// From and To are the target corner's first and last cells in reading
	// order ("a1", "b2"), Pieces how many pieces go there, Corner where it
	// lies on the board as drawn (CornerTopLeft, …). Only for GoalCorner.
	From, To string
	Pieces   int
	Corner   string
	// Partner says the colour has a partner whose pieces it moves once its
	// own are home (Less with four players, rule M6).
	Partner bool
}

// Goal kinds.
const (
	GoalCorner = "corner"
	GoalHoles  = "holes"
)

// Corners of a board as drawn.
const (
	CornerTopLeft     = "top-left"
	CornerTopRight    = "top-right"
	CornerBottomLeft  = "bottom-left"
	CornerBottomRight = "bottom-right"
)

// GoalOf is the goal of color on board b: reaching its target cells on a
// board of squares, owning holes on a board of points. partner says color
// has a partner (see Goal.Partner). ok is false when a board of squares
// marks no target for color.
func GoalOf(b Board, color string, partner bool) (g Goal, ok bool) {
	if b.Layout == Points {
		return Goal{Kind: GoalHoles}, true
	}
	var cells []Cell
	for _, h := range b.Highlights {
		if h.Kind != Target || h.Color != color {
			continue
		}
		for _, name := range h.Cells {
			if c, found := b.CellAt(name); found {
				cells = append(cells, c)
			}
		}
	}
	if len(cells) == 0 {
		return Goal{}, false
	}
	first, last := cells[0], cells[0]
	for _, c := range cells[1:] {
		if c.Row < first.Row || c.Row == first.Row && c.Col < first.Col {
			first = c
		}
		if c.Row > last.Row || c.Row == last.Row && c.Col > last.Col {
			last = c
		}
	}
	// The corner is where the target's middle lies: the cells' coordinates
	// twice over, against the board's extent, so no division rounds.
	vert, horiz := "top", "left"
	if first.Row+last.Row >= b.Rows {
		vert = "bottom"
	}
	if first.Col+last.Col >= b.Cols {
		horiz = "right"
	}
	return Goal{Kind: GoalCorner, From: first.Name, To: last.Name, Pieces: len(cells),
		Corner: vert + "-" + horiz, Partner: partner}, true
}

// goalWords are one language's words of a goal. The German says du, as the
// emails and pages do; the French puts a no-break space before a colon.
type goalWords struct {
	corner  string // {n} pieces, {from}, {to}, {where}
	partner string // added to corner for a team game
	holes   string
	corners map[string]string
}

var goalLanguages = map[string]goalWords{
	"en": {
		corner:  "Bring your {n} pieces to {from}–{to} ({where})",
		partner: "; once they are all there, you move your partner’s pieces until they are home too",
		holes:   "Own more holes than your opponent: empty points walled in by your stones alone",
		corners: map[string]string{CornerTopLeft: "top left", CornerTopRight: "top right",
			CornerBottomLeft: "bottom left", CornerBottomRight: "bottom right"},
	},
	"de": {
		corner:  "Bring deine {n} Spielsteine nach {from}–{to} ({where})",
		partner: "; stehen sie alle dort, ziehst du die Spielsteine deines Partners, bis auch sie am Ziel sind",
		holes:   "Besitze mehr Löcher als dein Gegner: leere Punkte, die nur deine Steine umschließen",
		corners: map[string]string{CornerTopLeft: "oben links", CornerTopRight: "oben rechts",
			CornerBottomLeft: "unten links", CornerBottomRight: "unten rechts"},
	},
	"fr": {
		corner:  "Amenez vos {n} pions en {from}–{to} ({where})",
		partner: "\u00a0; une fois qu’ils y sont tous, vous déplacez les pions de votre partenaire jusqu’à ce qu’ils arrivent aussi",
		holes:   "Possédez plus de trous que votre adversaire\u00a0: des points vides entourés par vos seules pierres",
		corners: map[string]string{CornerTopLeft: "en haut à gauche", CornerTopRight: "en haut à droite",
			CornerBottomLeft: "en bas à gauche", CornerBottomRight: "en bas à droite"},
	},
	"it": {
		corner:  "Porta le tue {n} pedine in {from}–{to} ({where})",
		partner: "; quando ci sono tutte, muovi le pedine del tuo compagno finché arrivano anche loro",
		holes:   "Possiedi più buchi del tuo avversario: punti vuoti circondati solo dalle tue pietre",
		corners: map[string]string{CornerTopLeft: "in alto a sinistra", CornerTopRight: "in alto a destra",
			CornerBottomLeft: "in basso a sinistra", CornerBottomRight: "in basso a destra"},
	},
	"es": {
		corner:  "Lleva tus {n} piezas hasta {from}–{to} ({where})",
		partner: "; cuando estén todas allí, mueves las piezas de tu compañero hasta que también lleguen",
		holes:   "Ten más agujeros que tu rival: puntos vacíos rodeados solo por tus piedras",
		corners: map[string]string{CornerTopLeft: "arriba a la izquierda", CornerTopRight: "arriba a la derecha",
			CornerBottomLeft: "abajo a la izquierda", CornerBottomRight: "abajo a la derecha"},
	},
}

// Sentence says the goal in a language (English for one lesspost does not
// speak), as one sentence ending in a full stop; "" for the zero Goal (a
// game whose board shows no goal).
func (g Goal) Sentence(locale string) string {
	if g.Kind == "" {
		return ""
	}
	w, ok := goalLanguages[locale]
	if !ok {
		w = goalLanguages["en"]
	}
	if g.Kind == GoalHoles {
		return w.holes + "."
	}
	s := w.corner
	if g.Partner {
		s += w.partner
	}
	return strings.NewReplacer("{n}", strconv.Itoa(g.Pieces), "{from}", g.From, "{to}", g.To,
		"{where}", w.corners[g.Corner]).Replace(s) + "."
}
