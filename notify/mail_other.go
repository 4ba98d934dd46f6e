package notify

import (
	"fmt"
	"strings"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// otherMail is what the emails of a game say whose ruleset has no emails
// of its own here (one registered beside Less and Les): the board as the
// ruleset draws it, in text and as a picture, the plies since the
// recipient's last, and the result as the ruleset words it, all read
// through the ruleset interface alone.
type otherMail struct {
	*gameView
	rules ruleset.Game // the game as of the notice
	since []games.StoredTurn
	last  string // the ply the board marks
}

func newOtherMail(v *gameView, rec record) (gameMail, error) {
	history := make([]ruleset.Played, len(rec.turns))
	for i, t := range rec.turns {
		history[i] = t.Played()
	}
	m := &otherMail{gameView: v, rules: v.game.Rules}
	if !rec.tail {
		replayed, _, err := games.Replay(v.game.Rules, history, len(history))
		if err != nil {
			return nil, err
		}
		// A resignation or a time-out ends the game without a ply: the
		// stored game, when the notice is about it as it is now, has the
		// result.
		if replayed.Ply() != v.game.Rules.Ply() {
			m.rules = replayed
		}
	}
	for _, t := range sinceLast(rec.turns, v.seat.Color) {
		if !t.Auto || t.TimedOut { // a pass on time is news, another automatic ply is not
			m.since = append(m.since, t)
		}
	}
	m.last = m.rules.LastShown(history)
	return m, nil
}

// name is the ruleset's name as a title: "toy" is "Toy".
func (v *otherMail) name() string {
	n := v.rules.Ruleset()
	return strings.ToUpper(n[:1]) + n[1:]
}

func (v *otherMail) boardPNG() ([]byte, error) {
	b, err := v.rules.Board(v.last)
	if err != nil {
		return nil, err
	}
	return BoardPNG(b)
}

func (v *otherMail) board(*phrases) block {
	ascii, err := v.rules.Diagram(v.last)
	if err != nil {
		ascii = fmt.Sprintf("(%v)", err) // the text still says the game's news
	}
	return block{board: &boardBlock{ascii: ascii}}
}

func (v *otherMail) example() (string, bool) { return v.rules.Example() }

func (v *otherMail) invitation(p *phrases) doc {
	var players []string
	for _, s := range v.game.Seats {
		players = append(players, p.color(s.Color)+": "+s.Name)
	}
	first := p.YouMoveFirst
	if toMove := v.rules.ToMove(); toMove != v.seat.Color {
		first = say(p.OtherMovesFirst, map[string]any{"ToMove": p.color(toMove)})
	}
	intro := say(p.OtherInviteIntro, map[string]any{"Game": v.name(), "Color": p.color(v.seat.Color)})
	d := doc{preheader: intro, blocks: []block{v.greeting(p), {text: intro}, v.goalBlock(p)}}
	d.blocks = append(d.blocks, v.tournamentBlocks(p, p.RoundDeadline)...)
	d.blocks = append(d.blocks, block{text: p.PlayersHeading, list: players}, block{text: first}, v.board(p))
	if v.rules.ToMove() == v.seat.Color {
		d.blocks = append(d.blocks, v.deadlineBlock(p)...)
	}
	// No "how to play": the rules are the ruleset's, and the mails know
	// only Less's and Les's words for them.
	d.blocks = append(d.blocks, v.moveLink(p), v.watchLink(p))
	return d
}

// playedLines say the plies played since the reader's last.
func (v *otherMail) playedLines(p *phrases) []string {
	var played []string
	for _, t := range v.since {
		if t.TimedOut {
			played = append(played, say(p.TimedOutPass, map[string]any{"Color": p.color(t.Color)}))
			continue
		}
		played = append(played, say(p.Played, map[string]any{"Color": p.color(t.Color), "Turn": t.Notation}))
	}
	return played
}

func (v *otherMail) yourTurn(p *phrases) doc {
	played := v.playedLines(p)
	intro := say(p.YourTurn, map[string]any{"Color": p.color(v.seat.Color), "Ply": v.notice.Ply})
	pre := intro
	if len(played) > 0 {
		pre = played[len(played)-1] + " · " + intro
	}
	blocks := []block{v.greeting(p), {text: intro, list: played}, v.board(p)}
	blocks = append(blocks, v.deadlineBlock(p)...)
	return doc{preheader: pre, blocks: append(blocks, v.moveLink(p))}
}

func (v *otherMail) reminder(p *phrases) doc {
	text := v.reminderText(p)
	return doc{preheader: text, blocks: []block{v.greeting(p), {text: text}, v.board(p), v.moveLink(p)}}
}

// gameOver says the result in the ruleset's own words (Result.Line).
func (v *otherMail) gameOver(p *phrases) doc {
	res, _ := v.rules.Result()
	over := say(p.GameOver, map[string]any{"Result": res.Line})
	blocks := []block{v.greeting(p), {text: over}}
	if played := v.playedLines(p); len(played) > 0 {
		blocks = append(blocks, block{list: played})
	}
	blocks = append(blocks, v.board(p), v.finishedLink(p), v.watchLink(p))
	return doc{preheader: over, blocks: blocks}
}
