package notify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// Message is one email, ready for a Sender.
type Message struct {
	To        string
	ToName    string
	Subject   string
	Text      string  // the plain-text part, with an ASCII board
	HTML      string  // the HTML part; "" for text only
	Images    []Image // inline images the HTML refers to as cid:
	MessageID string  // without angle brackets, unique per outbox row
	// ThreadID is the Message-ID (without brackets) of the first email of
	// the conversation, which this one answers: every email about one game
	// to one seat is one thread. "" for none.
	ThreadID string
	// Unsubscribe is the one-click unsubscribe URL (RFC 8058), "" for none.
	Unsubscribe string
}

// Image is an inline image of the HTML part.
type Image struct {
	ContentID string
	Name      string
	PNG       []byte
}

// MailLinks builds the links an email carries; api implements it, because the
// tokens in the links are the API's.
type MailLinks interface {
	MoveURL(gameID, color string, version int) (string, error)
	WatchURL(gameID string, version int) (string, error)
	LoginURL(token string) string
	UnsubscribeURL(email string) (string, error)
	NeverEmailURL(email string) (string, error)
}

// Renderer turns an outbox row into a message. Game emails show the game as
// it was at the ply the notice is about, even if it has moved on since.
type Renderer struct {
	Store domain.GameRecords
	Links MailLinks
	// Host is the domain part of Message-IDs, e.g. less.example.
	Host string
}

// ThreadID is the Message-ID of the first email (the invitation) to a seat
// of a game; later emails to that seat answer it.
func ThreadID(gameID, color string) string { return gameID + "." + color }

// Render builds the message for an outbox row.
func (r *Renderer) Render(ctx context.Context, m domain.OutboxMail) (Message, error) {
	msg := Message{To: m.Email, MessageID: m.MessageID + "@" + r.Host}
	if m.Notice.Kind == domain.NoticeBye {
		return r.bye(ctx, m, msg)
	}
	if m.Notice.Kind == domain.NoticeLogin {
		p := phrasesFor(m.Locale)
		msg.Subject = p.SubjectLogin
		d := doc{blocks: []block{
			{text: p.LoginIntro},
			{link: &link{url: r.Links.LoginURL(m.Secret), button: p.LoginButton}},
			{text: say(p.LoginCode, map[string]any{"Code": m.Secret})},
			{text: p.LoginIgnore},
		}}
		if err := r.neverEmail(&d, p, m.Email); err != nil {
			return Message{}, err
		}
		msg.Text, msg.HTML = d.text(), d.html(p.SubjectLogin, "")
		return msg, nil
	}
	v, err := r.gameView(ctx, m)
	if err != nil {
		return Message{}, err
	}
	if _, current := v.deadline(); m.Notice.Kind == domain.NoticeReminder && !current {
		return Message{}, fmt.Errorf("render mail %d: reminder for ply %d: %w", m.ID, m.Notice.Ply, ErrObsolete)
	}
	p := phrasesFor(v.seat.Locale)
	msg.ToName = v.seat.Name
	msg.Subject = say(p.SubjectGame, map[string]any{"Players": v.playerNames(), "Short": shortID(v.game.ID)})
	msg.ThreadID = ThreadID(v.game.ID, v.seat.Color) + "@" + r.Host
	if m.Notice.Kind == domain.NoticeInvitation {
		msg.ThreadID = "" // the invitation starts the thread
	}
	if msg.Unsubscribe, err = r.Links.UnsubscribeURL(m.Email); err != nil {
		return Message{}, err
	}
	var d doc
	switch m.Notice.Kind {
	case domain.NoticeInvitation:
		d = v.invitation(p)
	case domain.NoticeYourTurn:
		d = v.yourTurn(p)
	case domain.NoticeGameOver:
		d = v.gameOver(p)
	case domain.NoticeNewLink:
		d = v.newLink(p)
	case domain.NoticeReminder:
		d = v.reminder(p)
	default:
		return Message{}, fmt.Errorf("render mail %d: unknown kind %q", m.ID, m.Notice.Kind)
	}
	if d.hasBoard() {
		png, err := BoardPNG(less.View(v.pos, v.lastTurn()))
		if err != nil {
			return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
		}
		msg.Images = []Image{{ContentID: boardCID, Name: "board.png", PNG: png}}
	}
	unsubscribe := block{footer: true, text: p.Footer, link: &link{label: p.Unsubscribe, url: msg.Unsubscribe}}
	d.blocks = append(d.blocks, unsubscribe)
	if err := r.neverEmail(&d, p, m.Email); err != nil {
		return Message{}, err
	}
	msg.Text, msg.HTML = d.text(), d.html(msg.Subject, p.BoardAlt)
	return msg, nil
}

// neverEmail ends an email with the link that stops all mail to the
// address: every email carries it, so that whoever gets mail he did not
// want can stop it at once.
func (r *Renderer) neverEmail(d *doc, p *phrases, email string) error {
	url, err := r.Links.NeverEmailURL(email)
	if err != nil {
		return err
	}
	d.blocks = append(d.blocks, block{footer: true, link: &link{label: p.NeverEmail, url: url}})
	return nil
}

// ErrObsolete is returned for a notice that no longer makes sense when its
// turn comes to be sent, such as a reminder for a turn already played. The
// worker drops it.
var ErrObsolete = errors.New("obsolete notice")

// boardCID is the Content-ID of the board picture (an addr-spec, RFC 2392).
const boardCID = "board@lesspost"

// shortID is the part of a game id that tells a player's games apart in a subject.
func shortID(id string) string {
	id = strings.TrimPrefix(id, "g_")
	if len(id) > 6 {
		id = id[:6]
	}
	return id
}

// gameView is a game as an email shows it.
type gameView struct {
	game    domain.Game
	less    *less.RulesGame // the game's rules: emails are written for Less
	seat    domain.Seat
	pos     less.Position
	counts  [4]int
	since   []less.Played // the turns since the recipient last moved
	moveURL string
	watch   string
	notice  domain.Notice
	// tournament is the game's tournament, for a tournament game.
	tournament *domain.Tournament
}

func (r *Renderer) gameView(ctx context.Context, m domain.OutboxMail) (*gameView, error) {
	g, err := r.Store.Game(ctx, m.Notice.GameID)
	if err != nil {
		return nil, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	turns, err := r.Store.Turns(ctx, g.ID)
	if err != nil {
		return nil, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	seat, ok := g.Seat(m.Notice.Color)
	if !ok {
		return nil, fmt.Errorf("render mail %d: game %s has no %s seat", m.ID, g.ID, m.Notice.Color)
	}
	lg, ok := g.Rules.(*less.RulesGame)
	if !ok {
		return nil, fmt.Errorf("render mail %d: game %s: no emails for %s games", m.ID, g.ID, g.Rules.Ruleset())
	}
	v := &gameView{game: g, less: lg, seat: *seat, notice: m.Notice}
	if v.pos, v.counts, v.since, err = replay(lg.Game.Start(), turns, m.Notice.Ply, seat.Color); err != nil {
		return nil, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	if v.moveURL, err = r.Links.MoveURL(g.ID, seat.Color, seat.TokenVersion); err != nil {
		return nil, err
	}
	if v.watch, err = r.Links.WatchURL(g.ID, g.WatchVersion); err != nil {
		return nil, err
	}
	if g.Tournament != nil {
		t, err := r.Store.Tournament(ctx, g.Tournament.ID)
		if err != nil {
			return nil, fmt.Errorf("render mail %d: %w", m.ID, err)
		}
		v.tournament = &t
	}
	return v, nil
}

func (v *gameView) playerNames() string {
	names := make([]string, len(v.game.Seats))
	for i, s := range v.game.Seats {
		names[i] = s.Name
	}
	if len(names) == 2 {
		return names[0] + " – " + names[1]
	}
	return strings.Join(names, ", ")
}

// lastTurn is the last turn played before the notice, drawn on the board.
func (v *gameView) lastTurn() less.Turn {
	if len(v.since) == 0 {
		return nil
	}
	return v.since[len(v.since)-1].Turn
}

func (v *gameView) board(p *phrases) block {
	ascii := less.Diagram(v.pos, v.lastTurn())
	return block{board: &boardBlock{ascii: ascii, legend: p.Legend}}
}

func (v *gameView) counted(p *phrases) string {
	parts := make([]string, 0, 4)
	for _, c := range less.Colors(v.pos.Size()) {
		parts = append(parts, fmt.Sprintf("%s %d", p.color(c.String()), v.counts[c]))
	}
	return say(p.Counts, map[string]any{"Counts": strings.Join(parts, ", ")})
}

func (v *gameView) greeting(p *phrases) block {
	return block{text: say(p.Greeting, map[string]any{"Name": v.seat.Name})}
}

func (v *gameView) moveLink(p *phrases) block {
	return block{link: &link{label: p.MoveLinkLabel, url: v.moveURL, button: p.MoveButton}}
}

func (v *gameView) invitation(p *phrases) doc {
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
	if ref := v.game.Tournament; ref != nil {
		d.blocks = append(d.blocks, block{text: say(p.TournamentRound, map[string]any{"Name": ref.Name, "Round": ref.Round})})
		if r := v.round(); r != nil {
			d.blocks = append(d.blocks, block{text: say(p.RoundDeadline, map[string]any{"Deadline": formatDeadline(r.Deadline)})})
		}
	}
	d.blocks = append(d.blocks, []block{
		{text: p.PlayersHeading, list: players},
		{text: say(p.Rules, map[string]any{"Preset": string(v.less.Preset), "MaxTurns": opts.MaxTurns, "EarlyStop": opts.EarlyStop})},
		{text: first},
		v.board(p),
	}...)
	if v.pos.ToMove().String() == v.seat.Color {
		d.blocks = append(d.blocks, v.deadlineBlock(p)...)
	}
	d.blocks = append(d.blocks,
		v.moveLink(p),
		block{text: p.HowToPlay},
		block{link: &link{label: p.WatchLabel, url: v.watch}},
	)
	return d
}

// round is the tournament round of a tournament game, or nil.
func (v *gameView) round() *domain.Round {
	if v.tournament == nil {
		return nil
	}
	for i, r := range v.tournament.Rounds {
		if r.Number == v.game.Tournament.Round {
			return &v.tournament.Rounds[i]
		}
	}
	return nil
}

// withdrew reports whether the side that resigned did so by withdrawing
// from the tournament: the game is resigned for him then (E8).
func (v *gameView) withdrew(res less.Result) bool {
	if v.tournament == nil || res.Reason != less.ReasonResignation {
		return false
	}
	for _, s := range v.game.Seats {
		if c, err := less.ParseColor(s.Color); err != nil || less.SideOf(c) != res.Loser {
			continue
		}
		if i, ok := v.tournament.EntrantOf(s.Email); ok && v.tournament.Entrants[i].Withdrawn {
			return true
		}
	}
	return false
}

// deadline is the deadline of the turn the notice is about, if the game
// keeps time and has not moved on since.
func (v *gameView) deadline() (time.Time, bool) {
	c := v.game.Clock
	if c.Deadline.IsZero() || v.game.Ply() != v.notice.Ply {
		return time.Time{}, false
	}
	return c.Deadline, true
}

// formatDeadline writes a deadline the same way in every language.
func formatDeadline(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// deadlineBlock says by when to move, when there is a deadline.
func (v *gameView) deadlineBlock(p *phrases) []block {
	if d, ok := v.deadline(); ok {
		return []block{{text: say(p.Deadline, map[string]any{"Deadline": formatDeadline(d)})}}
	}
	return nil
}

func (v *gameView) reminder(p *phrases) doc {
	d, _ := v.deadline()
	timeout := p.TimeoutLoses
	if v.game.Clock.Control.Timeout == domain.TimeoutPass {
		timeout = p.TimeoutPasses
	}
	text := say(p.Reminder, map[string]any{"Deadline": formatDeadline(d), "Timeout": timeout})
	return doc{preheader: text, blocks: []block{
		v.greeting(p),
		{text: text},
		v.board(p),
		{text: v.counted(p)},
		v.moveLink(p),
	}}
}

func (v *gameView) yourTurn(p *phrases) doc {
	var played []string
	for _, t := range v.since {
		if t.TimedOut {
			played = append(played, say(p.TimedOutPass, map[string]any{"Color": p.color(t.Color.String())}))
			continue
		}
		played = append(played, say(p.Played, map[string]any{"Color": p.color(t.Color.String()), "Turn": t.Turn.String()}))
	}
	intro := say(p.YourTurn, map[string]any{"Color": p.color(v.seat.Color), "Ply": v.notice.Ply})
	pre := intro
	if len(played) > 0 {
		pre = played[len(played)-1] + " · " + intro
	}
	blocks := []block{v.greeting(p), {text: intro, list: played}, v.board(p), {text: v.counted(p)}}
	blocks = append(blocks, v.deadlineBlock(p)...)
	return doc{preheader: pre, blocks: append(blocks, v.moveLink(p))}
}

func (v *gameView) gameOver(p *phrases) doc {
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
	blocks = append(blocks, v.board(p), block{text: v.counted(p)}, block{link: &link{label: p.WatchLabel, url: v.watch}})
	return doc{preheader: say(p.GameOver, map[string]any{"Result": line}), blocks: blocks}
}

func (v *gameView) newLink(p *phrases) doc {
	return doc{preheader: p.NewLink, blocks: []block{v.greeting(p), {text: p.NewLink}, v.moveLink(p)}}
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

// replay rebuilds the position after ply turns, the counts, and the turns
// played since recipient's last turn (the news for him).
func replay(start less.Position, turns []domain.StoredTurn, ply int, recipient string) (less.Position, [4]int, []less.Played, error) {
	pos := start
	var counts [4]int
	var since []less.Played
	for _, t := range turns {
		if t.Ply > ply {
			break
		}
		p, err := less.PlayedFrom(t.Played())
		if err != nil {
			return less.Position{}, counts, nil, fmt.Errorf("replay turn %d: %w: %w", t.Ply, domain.ErrStoredData, err)
		}
		if p.TimedOut {
			pos, _ = pos.PassOnTime()
		} else {
			next, _, err := pos.Play(p.Turn)
			if err != nil {
				return less.Position{}, counts, nil, fmt.Errorf("replay turn %d: %w", t.Ply, err)
			}
			pos = next
		}
		counts[p.Color] += p.Counted
		if p.Color.String() == recipient {
			since = since[:0]
		} else if !p.Auto || p.TimedOut {
			since = append(since, p)
		}
	}
	return pos, counts, since, nil
}

// withdrawnOpponent is the opponent entrant was paired with in a round,
// if that opponent had withdrawn (so the pairing was forfeited to entrant).
func withdrawnOpponent(t *domain.Tournament, round, entrant int) (int, bool) {
	for _, r := range t.Rounds {
		if r.Number != round {
			continue
		}
		for _, g := range r.Games {
			opponent := -1
			switch {
			case g.White == entrant:
				opponent = g.Black
			case g.Black == entrant:
				opponent = g.White
			}
			if opponent >= 0 && opponent < len(t.Entrants) && t.Entrants[opponent].Withdrawn {
				return opponent, true
			}
		}
	}
	return 0, false
}

// bye renders the email of a tournament player who plays no game this
// round: he has a bye, or his opponent withdrew.
func (r *Renderer) bye(ctx context.Context, m domain.OutboxMail, msg Message) (Message, error) {
	t, err := r.Store.Tournament(ctx, m.Notice.Tournament)
	if err != nil {
		return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	p := phrasesFor(m.Locale)
	name := ""
	data := map[string]any{"Name": t.Name, "Round": m.Notice.Ply}
	text := p.Bye
	if i, ok := t.EntrantOf(m.Email); ok {
		name = t.Entrants[i].Name
		if opponent, ok := withdrawnOpponent(&t, m.Notice.Ply, i); ok {
			data["Opponent"], text = t.Entrants[opponent].Name, p.Walkover
		}
	}
	msg.ToName = name
	msg.Subject = say(p.SubjectTournament, data)
	d := doc{preheader: say(text, data), blocks: []block{
		{text: say(p.Greeting, map[string]any{"Name": name})},
		{text: say(text, data)},
	}}
	if err := r.neverEmail(&d, p, m.Email); err != nil {
		return Message{}, err
	}
	msg.Text, msg.HTML = d.text(), d.html(msg.Subject, "")
	return msg, nil
}
