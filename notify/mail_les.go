package notify

import (
	"fmt"
	"strings"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/les"
)

// lesMail is what the emails of a game of Les say: the game as of the
// notice's ply, the plies the recipient has not seen, what to do now (set
// up, choose, or place), and at the end the holes and what decided.
type lesMail struct {
	*gameView
	lp    *lesPhrases
	eng   *les.Engine // the game under its rules, as of the notice
	since []les.Played
	last  string // the last ply before the notice, marked on the board ("" for none)
	ascii string
}

func newLesMail(v *gameView, rec record) (gameMail, error) {
	stored, err := les.EngineOf(v.game.Rules)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", v.game.ID, err)
	}
	m := &lesMail{gameView: v, lp: lesPhrasesFor(v.seat.Locale), eng: stored}
	news := sinceLast(rec.turns, v.seat.Color)
	if rec.tail {
		for _, t := range news {
			p, err := stored.PlayedFrom(t.Ply-1, t.Played())
			if err != nil {
				return nil, fmt.Errorf("ply %d: %w: %w", t.Ply, domain.ErrStoredData, err)
			}
			m.since = append(m.since, p)
		}
	} else {
		g, err := les.NewEngine(stored.Position().Board().Side())
		if err != nil {
			return nil, err
		}
		played := make([]les.Played, len(rec.turns))
		for i, t := range rec.turns {
			if played[i], err = g.PlayPly(t.Notation); err != nil {
				return nil, fmt.Errorf("replay ply %d: %w: %w", t.Ply, domain.ErrStoredData, err)
			}
		}
		m.since = played[len(played)-len(news):] // as the replay played them
		// A resignation or a time-out ends the game without a ply: the
		// stored game, when the notice is about it as it is now, has the
		// result.
		if g.Ply() != stored.Ply() {
			m.eng = g
		}
	}
	if n := len(rec.turns); n > 0 {
		m.last = rec.turns[n-1].Notation
	}
	if m.ascii, err = m.eng.Diagram(m.last); err != nil {
		return nil, err
	}
	return m, nil
}

func (v *lesMail) name() string { return "Les" }

func (v *lesMail) boardPNG() ([]byte, error) {
	b, err := v.eng.Board(v.last)
	if err != nil {
		return nil, err
	}
	return BoardPNG(b)
}

func (v *lesMail) board(*phrases) block {
	return block{board: &boardBlock{ascii: v.ascii, legend: v.lp.Legend}}
}

func (v *lesMail) example() (string, bool) { return v.eng.Example() }

// playerName is the name of the player of a seat.
func (v *lesMail) playerName(s les.Seat) string {
	if seat, ok := v.game.Seat(s.String()); ok {
		return seat.Name
	}
	return s.String()
}

// color names a stone colour.
func (v *lesMail) color(c les.Color) string { return v.lp.Colors[c] }

// side names a player for a result: by colour and name once the colours
// are chosen ("Black (Ann)"), else by name.
func (v *lesMail) side(s les.Seat) string {
	if c, ok := v.eng.ColorOf(s); ok {
		return say(v.lp.Side, map[string]any{"Color": v.color(c), "Name": v.playerName(s)})
	}
	return v.playerName(s)
}

// shortSide names a player within a result's reason: his colour once
// chosen, else his name.
func (v *lesMail) shortSide(s les.Seat) string {
	if c, ok := v.eng.ColorOf(s); ok {
		return v.color(c)
	}
	return v.playerName(s)
}

// seatOf is the recipient's seat.
func (v *lesMail) seatOf() les.Seat {
	s, _ := les.ParseSeat(v.seat.Color)
	return s
}

// intro says what the recipient is to do now (set up, choose, or place),
// and how.
func (v *lesMail) intro() (intro, how string) {
	setter := map[string]any{"Setter": v.playerName(les.Setter)}
	switch v.eng.Stage() {
	case "setup":
		return v.lp.YourSetup, v.lp.SetupHow
	case "choice":
		return v.lp.YourChoice, say(v.lp.ChooseHow, setter)
	}
	c, _ := v.eng.ColorOf(v.seatOf())
	return say(v.lp.YourTurn, map[string]any{"Color": v.color(c)}), v.lp.TurnHow
}

// news says what the opponent played since the recipient's last ply.
func (v *lesMail) news() []string {
	var out []string
	for _, p := range v.since {
		name := v.playerName(p.Seat)
		switch p.Ply {
		case 0:
			stones := make([]string, len(p.Points))
			for k, pt := range p.Points {
				stones[k] = v.color(les.ColorOfSetupStone(k)) + " " + pt.String()
			}
			out = append(out, say(v.lp.SetUp, map[string]any{"Name": name, "Stones": strings.Join(stones, ", ")}))
		case 1:
			out = append(out, say(v.lp.Chose, map[string]any{"Name": name, "Color": v.color(p.Color)}))
		default:
			out = append(out, say(v.lp.Played, map[string]any{"Color": v.color(p.Color), "Ply": p.Text()}))
		}
	}
	// The chooser who took Black moves at once: his own choice is the news.
	if len(out) == 0 && v.eng.Ply() == 2 && v.seatOf() == les.Chooser {
		c, _ := v.eng.ColorOf(les.Chooser)
		out = append(out, say(v.lp.YouChose, map[string]any{"Color": v.color(c)}))
	}
	return out
}

func (v *lesMail) invitation(p *phrases) doc {
	lp := v.lp
	names := map[string]any{"Setter": v.playerName(les.Setter), "Chooser": v.playerName(les.Chooser)}
	intro := say(lp.InviteSetter, names)
	if v.seatOf() == les.Chooser {
		intro = say(lp.InviteChooser, names)
	}
	var players []string
	for _, s := range []les.Seat{les.Setter, les.Chooser} {
		players = append(players, lp.Seats[s]+": "+v.playerName(s))
	}
	b := v.eng.Position().Board()
	d := doc{preheader: intro, blocks: []block{v.greeting(p), {text: intro}, v.goalBlock(p)}}
	d.blocks = append(d.blocks, v.tournamentBlocks(p, lp.RoundDeadline)...)
	d.blocks = append(d.blocks,
		block{text: p.PlayersHeading, list: players},
		block{text: say(lp.Board, map[string]any{"Side": b.Side(), "Points": b.Points(), "Rows": b.Rows()})},
		block{text: lp.HowToPlay},
	)
	toMove := v.eng.ToMove() == v.seat.Color
	if toMove {
		_, how := v.intro()
		d.blocks = append(d.blocks, block{text: p.YouMoveFirst + " " + how})
	} else {
		d.blocks = append(d.blocks, block{text: say(lp.SetterFirst, names)})
	}
	d.blocks = append(d.blocks, v.board(p))
	if toMove {
		d.blocks = append(d.blocks, v.deadlineBlock(p)...)
	}
	d.blocks = append(d.blocks, v.moveLink(p), v.watchLink(p))
	return d
}

func (v *lesMail) yourTurn(p *phrases) doc {
	intro, how := v.intro()
	news := v.news()
	pre := intro
	if len(news) > 0 {
		pre = news[len(news)-1] + " · " + intro
	}
	blocks := []block{v.greeting(p), {text: intro, list: news}, {text: how}, v.board(p)}
	blocks = append(blocks, v.deadlineBlock(p)...)
	return doc{preheader: pre, blocks: append(blocks, v.moveLink(p))}
}

func (v *lesMail) reminder(p *phrases) doc {
	text := v.reminderText(p)
	_, how := v.intro()
	return doc{preheader: text, blocks: []block{v.greeting(p), {text: text}, {text: how}, v.board(p), v.moveLink(p)}}
}

func (v *lesMail) gameOver(p *phrases) doc {
	r, _ := v.eng.Outcome()
	line, why := v.result(p, r)
	over := say(p.GameOver, map[string]any{"Result": line})
	blocks := []block{v.greeting(p), {text: over}, {text: why}}
	if v.eng.Ply() >= 2 { // the holes have owners once the colours are chosen
		var list []string
		for _, c := range []les.Color{les.Black, les.White} {
			holes := make([]string, len(r.Holes[c]))
			for k, h := range r.Holes[c] {
				holes[k] = fmt.Sprintf("%d (%d)", h.Size, h.Around)
			}
			list = append(list, say(v.lp.Holes, map[string]any{"Side": v.side(v.seatPlaying(c)), "Count": len(holes),
				"List": strings.Join(holes, ", ")}))
		}
		blocks = append(blocks, block{text: v.lp.HolesHeading, list: list})
	}
	blocks = append(blocks, v.board(p), v.finishedLink(p), v.watchLink(p))
	return doc{preheader: over, blocks: blocks}
}

// seatPlaying is the seat that plays colour c (the colours are chosen).
func (v *lesMail) seatPlaying(c les.Color) les.Seat {
	if got, _ := v.eng.ColorOf(les.Chooser); got == c {
		return les.Chooser
	}
	return les.Setter
}

// result says a result in the recipient's language: the line ("Black (Ann)
// won by 2 holes (White resigned)") and what decided it.
func (v *lesMail) result(p *phrases, r les.Result) (line, why string) {
	lp := v.lp
	winner, loser := r.Winner, r.Winner.Other()
	switch {
	case r.Draw:
		line = p.Draw
	case r.Decided == les.DecidedBySize:
		line = say(lp.WinSizes, map[string]any{"Side": v.side(winner)})
	case r.Decided == les.DecidedByAround:
		line = say(lp.WinAround, map[string]any{"Side": v.side(winner)})
	default:
		line = say(lp.Win, map[string]any{"Side": v.side(winner), "Margin": r.Margin})
	}
	var reason string
	switch r.Reason {
	case les.ReasonResignation:
		reason = say(p.ByResignation, map[string]any{"Side": v.shortSide(loser)})
		if v.withdrawn(loser.String()) {
			reason = say(p.ByWithdrawal, map[string]any{"Side": v.shortSide(loser)})
		}
	case les.ReasonTimeout:
		reason = say(p.ByTimeout, map[string]any{"Side": v.shortSide(loser)})
	case les.ReasonAdjudicated:
		reason = p.ByAdjudication
	}
	if reason != "" {
		line += " (" + reason + ")"
	}
	return line, v.decided(r)
}

// decided explains the result: which step of the count decided and on
// which holes (LE3), or the margin of a game conceded (LE4).
func (v *lesMail) decided(r les.Result) string {
	lp := v.lp
	if r.Reason == les.ReasonResignation || r.Reason == les.ReasonTimeout {
		return lp.Conceded
	}
	if v.eng.Ply() < 2 {
		return lp.NoColours
	}
	winC, _ := v.eng.ColorOf(r.Winner)
	win, lose := r.Holes[winC], r.Holes[winC.Other()]
	data := map[string]any{"Winner": v.color(winC), "Loser": v.color(winC.Other()), "Count": len(win)}
	// first is the first pair of holes, down both lists, whose sizes (or
	// stones around) differ.
	first := func(differ func(a, b les.Hole) bool) int {
		for i := range min(len(win), len(lose)) {
			if differ(win[i], lose[i]) {
				return i
			}
		}
		return 0
	}
	switch r.Decided {
	case les.DecidedByCount:
		data["More"], data["Fewer"] = len(win), len(lose)
		return say(lp.ByCount, data)
	case les.DecidedBySize:
		i := first(func(a, b les.Hole) bool { return a.Size != b.Size })
		data["Win"], data["Lose"] = win[i].Size, lose[i].Size
		return say(lp.BySizes, data)
	case les.DecidedByAround:
		i := first(func(a, b les.Hole) bool { return a.Around != b.Around })
		data["Win"], data["Lose"] = win[i].Around, lose[i].Around
		return say(lp.ByAround, data)
	}
	if n := len(r.Holes[les.Black]); n > 0 {
		return say(lp.Equal, map[string]any{"Count": n})
	}
	return lp.NoHoles
}
