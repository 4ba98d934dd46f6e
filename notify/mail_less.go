package notify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
)

// lessMail is what the emails of a game of Less say: the position at the
// notice's ply, the moves counted, the turns the recipient has not seen.
type lessMail struct {
	*gameView
	less   *less.RulesGame
	pos    less.Position
	counts [4]int
	since  []less.Played // the turns since the recipient last moved
}

func newLessMail(v *gameView, rec record) (gameMail, error) {
	lg, err := less.GameOf(v.game.Rules)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", v.game.ID, err)
	}
	m := &lessMail{gameView: v, less: lg}
	if rec.tail {
		m.pos, m.counts = lg.Game.Position(), lg.Game.State().Counts
	} else if m.pos, m.counts, err = replay(lg.Game.Start(), rec.turns); err != nil {
		return nil, err
	}
	for _, t := range sinceLast(rec.turns, v.seat.Color) {
		p, err := playedFrom(t)
		if err != nil {
			return nil, err
		}
		// A pass on time is news, another automatic pass is not.
		if !p.Auto || p.TimedOut {
			m.since = append(m.since, p)
		}
	}
	return m, nil
}

func (v *lessMail) name() string { return "Less" }

func (v *lessMail) boardPNG() ([]byte, error) { return BoardPNG(less.View(v.pos, v.lastTurn())) }

// lastTurn is the last turn played before the notice, drawn on the board.
func (v *lessMail) lastTurn() less.Turn {
	if len(v.since) == 0 {
		return nil
	}
	return v.since[len(v.since)-1].Turn
}

func (v *lessMail) board(p *phrases) block {
	ascii := less.Diagram(v.pos, v.lastTurn())
	return block{board: &boardBlock{ascii: ascii, legend: legend(p, v.pos.Size())}}
}

// legend explains the diagram of a board of the given size, naming only
// the colours in play: a two-player game has no yellow or red to explain.
func legend(p *phrases, size int) string {
	colors := slices.Clone(less.Colors(size))
	slices.Sort(colors) // White, Black, Yellow, Red: the order players know them in
	var pieces, targets, names []string
	for _, c := range colors {
		piece, target := less.DiagramLetters(c)
		pieces, targets, names = append(pieces, piece), append(targets, target), append(names, p.Colors[c])
	}
	return say(p.Legend, map[string]any{"Pieces": strings.Join(pieces, " "), "Targets": strings.Join(targets, " "),
		"Names": strings.Join(names, ", ")})
}

func (v *lessMail) example() (string, bool) {
	t, ok := v.pos.ExampleTurn()
	return t.String(), ok
}

func (v *lessMail) counted(p *phrases) string {
	parts := make([]string, 0, 4)
	for _, c := range less.Colors(v.pos.Size()) {
		parts = append(parts, fmt.Sprintf("%s %d", p.color(c.String()), v.counts[c]))
	}
	return say(p.Counts, map[string]any{"Counts": strings.Join(parts, ", ")})
}

func (v *lessMail) invitation(p *phrases) doc {
	opts := v.less.Game.Options()
	var players []string
	for _, s := range v.game.Seats {
		players = append(players, p.color(s.Color)+": "+s.Name)
	}
	first := p.YouMoveFirst
	if toMove := v.pos.ToMove().String(); toMove != v.seat.Color {
		first = say(p.OtherMovesFirst, map[string]any{"ToMove": p.color(toMove)})
	}
	d := doc{preheader: say(p.InviteIntro, map[string]any{"Color": p.color(v.seat.Color)}), blocks: []block{
		v.greeting(p),
		{text: say(p.InviteIntro, map[string]any{"Color": p.color(v.seat.Color)})},
	}}
	d.blocks = append(d.blocks, v.teamLine(p)...)
	d.blocks = append(d.blocks, v.goalBlock(p))
	d.blocks = append(d.blocks, v.tournamentBlocks(p, p.RoundDeadline)...)
	d.blocks = append(d.blocks, []block{
		{text: p.PlayersHeading, list: players},
		{text: say(p.Rules, map[string]any{"Preset": p.preset(v.less.Preset), "MaxTurns": opts.MaxTurns, "EarlyStop": opts.EarlyStop})},
		{text: first},
		v.board(p),
	}...)
	if v.pos.ToMove().String() == v.seat.Color {
		d.blocks = append(d.blocks, v.deadlineBlock(p)...)
	}
	d.blocks = append(d.blocks,
		v.moveLink(p),
		block{text: p.HowToPlay},
		v.watchLink(p),
	)
	return d
}

// withdrew reports whether the side that resigned did so by withdrawing
// from the tournament: the game is resigned for him then (E8).
func (v *lessMail) withdrew(res less.Result) bool {
	if res.Reason != less.ReasonResignation {
		return false
	}
	for _, s := range v.game.Seats {
		if c, err := less.ParseColor(s.Color); err == nil && less.SideOf(c) == res.Loser && v.withdrawn(s.Color) {
			return true
		}
	}
	return false
}

func (v *lessMail) reminder(p *phrases) doc {
	text := v.reminderText(p)
	return doc{preheader: text, blocks: []block{
		v.greeting(p),
		{text: text},
		v.board(p),
		{text: v.counted(p)},
		v.moveLink(p),
	}}
}

// playedLines say the turns played since the reader's last.
func (v *lessMail) playedLines(p *phrases) []string {
	var played []string
	for _, t := range v.since {
		if t.TimedOut {
			played = append(played, say(p.TimedOutPass, map[string]any{"Color": p.color(t.Color.String())}))
			continue
		}
		played = append(played, say(p.Played, map[string]any{"Color": p.color(t.Color.String()), "Turn": t.Turn.String()}))
	}
	return played
}

// teamLine says a four-player game's teams to the reader: his side, his
// partner, the other two; nothing in a two-player game.
func (v *lessMail) teamLine(p *phrases) []block {
	if len(v.game.Seats) != 4 {
		return nil
	}
	mine, err := less.ParseColor(v.seat.Color)
	if err != nil {
		return nil
	}
	named := func(s games.Seat) string { return s.Name + " (" + p.color(s.Color) + ")" }
	var partner string
	var others []string
	for _, s := range v.game.Seats {
		c, err := less.ParseColor(s.Color)
		switch {
		case err != nil || s.Color == v.seat.Color:
		case less.SideOf(c) == less.SideOf(mine):
			partner = named(s)
		default:
			others = append(others, named(s))
		}
	}
	if partner == "" || len(others) != 2 {
		return nil
	}
	return []block{{text: say(p.TeamLine, map[string]any{"Team": p.Teams[less.SideOf(mine)], "Partner": partner,
		"Others": say(p.And, map[string]any{"A": others[0], "B": others[1]})})}}
}

func (v *lessMail) yourTurn(p *phrases) doc {
	played := v.playedLines(p)
	intro := say(p.YourTurn, map[string]any{"Color": p.color(v.seat.Color), "Ply": v.notice.Ply})
	pre := intro
	if len(played) > 0 {
		pre = played[len(played)-1] + " · " + intro
	}
	blocks := []block{v.greeting(p), {text: intro, list: played}}
	blocks = append(blocks, v.teamLine(p)...)
	blocks = append(blocks, v.board(p), block{text: v.counted(p)})
	blocks = append(blocks, v.deadlineBlock(p)...)
	return doc{preheader: pre, blocks: append(blocks, v.moveLink(p))}
}

func (v *lessMail) gameOver(p *phrases) doc {
	res, _ := v.less.Game.Result()
	size := v.pos.Size()
	line := resultText(p, res, size, v.withdrew(res))
	blocks := []block{v.greeting(p), {text: say(p.GameOver, map[string]any{"Result": line})}}
	var totals []string
	for _, s := range []less.Side{less.SideWhite, less.SideBlack} {
		totals = append(totals, say(p.Total, map[string]any{"Side": p.side(s, size), "Total": res.Totals[s],
			"Count": res.Counts[s], "Needed": res.Needed[s]}))
	}
	blocks = append(blocks, block{list: totals})
	for _, s := range []less.Side{less.SideWhite, less.SideBlack} {
		if res.Needed[s] > 0 {
			blocks = append(blocks, block{text: say(p.NeededExplained, map[string]any{"Side": p.side(s, size), "Needed": res.Needed[s]})})
		}
	}
	// The turns since the reader's last, the final one among them (none
	// for the player who made it).
	if played := v.playedLines(p); len(played) > 0 {
		blocks = append(blocks, block{list: played})
	}
	blocks = append(blocks, v.board(p), block{text: v.counted(p)}, v.finishedLink(p), v.watchLink(p))
	return doc{preheader: say(p.GameOver, map[string]any{"Result": line}), blocks: blocks}
}

// ResultText says a result in words in the phrases' language, e.g.
// "White wins by 2 (Black resigned)".
func ResultText(p *phrases, r less.Result, size int) string { return resultText(p, r, size, false) }

// resultText is ResultText, saying "withdrew" for a resignation that was a
// withdrawal from the tournament.
func resultText(p *phrases, r less.Result, size int, withdrew bool) string {
	s := p.Draw
	if !r.Draw {
		s = say(p.Win, map[string]any{"Side": p.side(r.Winner, size), "Margin": r.Margin})
	}
	var why string
	switch {
	case r.Reason == less.ReasonResignation && withdrew:
		why = say(p.ByWithdrawal, map[string]any{"Side": p.side(r.Loser, size)})
	case r.Reason == less.ReasonResignation:
		why = say(p.ByResignation, map[string]any{"Side": p.side(r.Loser, size)})
	case r.Reason == less.ReasonTimeout:
		why = say(p.ByTimeout, map[string]any{"Side": p.side(r.Loser, size)})
	case r.BlockedCorner:
		why = say(p.ByBlockedCorner, map[string]any{"Side": p.side(r.Loser, size)})
	case r.Reason == less.ReasonTurnLimit:
		why = p.ByTurnLimit
	}
	if r.Reason == less.ReasonAdjudicated {
		if why != "" {
			why = p.ByAdjudication + "; " + why // and the blocked corner that decided it
		} else {
			why = p.ByAdjudication
		}
	}
	if why != "" {
		s += " (" + why + ")"
	}
	return s
}

// replay plays turns from start: the position after them, and the counts.
func replay(start less.Position, turns []games.StoredTurn) (less.Position, [4]int, error) {
	pos := start
	var counts [4]int
	for _, t := range turns {
		p, err := playedFrom(t)
		if err != nil {
			return less.Position{}, counts, err
		}
		if p.TimedOut {
			pos, _ = pos.PassOnTime()
		} else {
			next, _, err := pos.Play(p.Turn)
			if err != nil {
				return less.Position{}, counts, fmt.Errorf("replay turn %d: %w", t.Ply, err)
			}
			pos = next
		}
		counts[p.Color] += p.Counted
	}
	return pos, counts, nil
}

// playedFrom reads a stored turn of Less.
func playedFrom(t games.StoredTurn) (less.Played, error) {
	p, err := less.PlayedFrom(t.Played())
	if err != nil {
		return less.Played{}, fmt.Errorf("turn %d: %w: %w", t.Ply, domain.ErrStoredData, err)
	}
	return p, nil
}
