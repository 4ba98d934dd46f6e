package notify

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"text/template"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/repo"
)

// Message is one email, ready for a Sender.
type Message struct {
	To        string
	Subject   string
	Text      string
	MessageID string // without angle brackets
}

// Links builds the links an email carries; api implements it, because the
// tokens in move links are the API's.
type Links interface {
	MoveURL(gameID string, c less.Color, version int) (string, error)
	WatchURL(gameID string) (string, error)
	LoginURL(token string) string
}

// Renderer turns an outbox row into a message. Game emails show the game as
// it was at the ply the notice is about, even if it has moved on since.
type Renderer struct {
	Store Store
	Links Links
	// Host is the domain part of Message-IDs, e.g. less.example.
	Host string
}

// Render builds the message for an outbox row.
func (r *Renderer) Render(ctx context.Context, m repo.Mail) (Message, error) {
	msg := Message{To: m.Email, MessageID: m.MessageID + "@" + r.Host}
	if m.Notice.Kind == domain.NoticeLogin {
		msg.Subject = "Your lesspost sign-in link"
		msg.Text = execute(loginText, map[string]any{"URL": r.Links.LoginURL(m.Secret), "Code": m.Secret})
		return msg, nil
	}
	v, err := r.gameView(ctx, m)
	if err != nil {
		return Message{}, err
	}
	switch m.Notice.Kind {
	case domain.NoticeInvitation:
		msg.Subject = fmt.Sprintf("Less: you are invited to play %s (game %s)", v.Color, v.GameID)
		msg.Text = execute(invitationText, v)
	case domain.NoticeYourTurn:
		msg.Subject = fmt.Sprintf("Less: your turn as %s (game %s, turn %d)", v.Color, v.GameID, v.Ply+1)
		msg.Text = execute(yourTurnText, v)
	case domain.NoticeGameOver:
		msg.Subject = fmt.Sprintf("Less: game over, %s (game %s)", v.ResultLine, v.GameID)
		msg.Text = execute(gameOverText, v)
	case domain.NoticeNewLink:
		msg.Subject = fmt.Sprintf("Less: your new move link (game %s)", v.GameID)
		msg.Text = execute(newLinkText, v)
	default:
		return Message{}, fmt.Errorf("render mail %d: unknown kind %q", m.ID, m.Notice.Kind)
	}
	return msg, nil
}

// view is what the game templates show.
type view struct {
	GameID     string
	Name       string
	Color      less.Color
	Players    []playerLine
	Ply        int
	ToMove     less.Color
	LastTurns  []string // the turns since the recipient last moved, e.g. "black: a2c2:b1c1:c1c3"
	Board      string
	Counts     string
	MoveURL    string
	WatchURL   string
	ResultLine string
	Totals     string
	Needed     string
	Options    string
}

type playerLine struct {
	Color less.Color
	Name  string
}

func (r *Renderer) gameView(ctx context.Context, m repo.Mail) (view, error) {
	g, err := r.Store.Game(ctx, m.Notice.GameID)
	if err != nil {
		return view{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	turns, err := r.Store.Turns(ctx, g.ID)
	if err != nil {
		return view{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	seat, ok := g.Seat(m.Notice.Color)
	if !ok {
		return view{}, fmt.Errorf("render mail %d: game %s has no %s seat", m.ID, g.ID, m.Notice.Color)
	}
	pos, counts, last, err := replay(g.State.Start, turns, m.Notice.Ply, seat.Color)
	if err != nil {
		return view{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	v := view{GameID: g.ID, Name: seat.Name, Color: seat.Color, Ply: m.Notice.Ply, ToMove: pos.ToMove()}
	for _, s := range g.Seats {
		v.Players = append(v.Players, playerLine{s.Color, s.Name})
	}
	var lastTurn less.Turn
	for _, p := range last {
		v.LastTurns = append(v.LastTurns, p.Color.String()+": "+p.Turn.String())
		lastTurn = p.Turn
	}
	v.Board = less.Diagram(pos, lastTurn) + less.DiagramLegend
	var parts []string
	for _, c := range less.Colors(pos.Size()) {
		parts = append(parts, fmt.Sprintf("%s %d", c, counts[c]))
	}
	v.Counts = strings.Join(parts, ", ")
	v.Options = fmt.Sprintf("%s, max %d turns each", g.Preset, g.State.Options.MaxTurns)
	if g.State.Options.EarlyStop {
		v.Options += ", early stop allowed"
	}
	if v.MoveURL, err = r.Links.MoveURL(g.ID, seat.Color, seat.TokenVersion); err != nil {
		return view{}, err
	}
	if v.WatchURL, err = r.Links.WatchURL(g.ID); err != nil {
		return view{}, err
	}
	if res := g.State.Result; res != nil && m.Notice.Kind == domain.NoticeGameOver {
		size := g.State.Start.Size()
		v.ResultLine = ResultLine(*res, size)
		v.Totals = fmt.Sprintf("%s %d (%d moves + %d still needed), %s %d (%d moves + %d still needed)",
			less.SideName(less.SideWhite, size), res.Totals[0], res.Counts[0], res.Needed[0],
			less.SideName(less.SideBlack, size), res.Totals[1], res.Counts[1], res.Needed[1])
	}
	return v, nil
}

// ResultLine says a result in words, e.g. "white wins by 2".
func ResultLine(r less.Result, size int) string {
	var s string
	switch {
	case r.Draw:
		s = "a draw"
	default:
		s = fmt.Sprintf("%s wins by %d", less.SideName(r.Winner, size), r.Margin)
	}
	switch r.Reason {
	case less.ReasonResignation:
		s += fmt.Sprintf(" (%s resigned)", less.SideName(r.Loser, size))
	case less.ReasonTimeout:
		s += fmt.Sprintf(" (%s ran out of time)", less.SideName(r.Loser, size))
	case less.ReasonTurnLimit:
		s += " (turn limit reached)"
	}
	if r.BlockedCorner {
		s += " (a piece was left on its start corner)"
	}
	return s
}

// replay rebuilds the position after ply turns, the counts, and the turns
// played since recipient's last turn (the news for him).
func replay(start less.Position, turns []repo.TurnRow, ply int, recipient less.Color) (less.Position, [4]int, []less.Played, error) {
	pos := start
	var counts [4]int
	var since []less.Played
	for _, t := range turns {
		if t.Ply > ply {
			break
		}
		p, err := t.Played()
		if err != nil {
			return less.Position{}, counts, nil, err
		}
		next, _, err := pos.Play(p.Turn)
		if err != nil {
			return less.Position{}, counts, nil, fmt.Errorf("replay turn %d: %w", t.Ply, err)
		}
		pos = next
		counts[p.Color] += p.Counted
		if p.Color == recipient {
			since = since[:0]
		} else if !p.Auto {
			since = append(since, p)
		}
	}
	return pos, counts, since, nil
}

func execute(t *template.Template, data any) string {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		// The templates are fixed and tested; a failure is a bug.
		panic("notify: template " + t.Name() + ": " + err.Error())
	}
	return b.String()
}

var (
	loginText = template.Must(template.New("login").Parse(`Sign in to lesspost with this link. It works once, within 15 minutes:

{{.URL}}

Or enter this code in the app: {{.Code}}

If you did not ask to sign in, ignore this email: nothing happens without the link.
`))

	invitationText = template.Must(template.New("invitation").Parse(`Hello {{.Name}},

you are invited to a game of Less by correspondence. You play {{.Color}}.

Players:
{{range .Players}}  {{.Color}}: {{.Name}}
{{end}}
Rules: {{.Options}}.
{{if eq .ToMove .Color}}You move first.{{else}}{{.ToMove}} moves first; we will email you when it is your turn.{{end}}

{{.Board}}

Your personal move link (it is yours alone: do not forward it):
{{.MoveURL}}

How to play: bring your 4 pieces to the opposite corner. Each turn spends
3 points: a step costs 1, a jump over one piece 1, a step across a wall 2,
across a double wall 3. Fewer moves in all wins.

Spectators can watch here: {{.WatchURL}}
`))

	yourTurnText = template.Must(template.New("your_turn").Parse(`Hello {{.Name}},

it is your turn as {{.Color}} (turn {{.Ply}} played so far).
{{range .LastTurns}}
  {{.}}{{end}}

{{.Board}}

Moves counted: {{.Counts}}

Make your move here:
{{.MoveURL}}
`))

	gameOverText = template.Must(template.New("game_over").Parse(`Hello {{.Name}},

the game is over: {{.ResultLine}}.

Totals: {{.Totals}}.
Moves counted: {{.Counts}}

{{.Board}}

The game: {{.WatchURL}}
`))

	newLinkText = template.Must(template.New("new_link").Parse(`Hello {{.Name}},

your move link for this game of Less ({{.Color}}) was renewed. Earlier links no longer work.

{{.MoveURL}}
`))
)
