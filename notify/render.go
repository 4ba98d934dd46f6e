package notify

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/internal/catalog"
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
	// ReplyTo is where a reply goes instead of From: the seat's signed
	// reply address, to move by replying; "" for none.
	ReplyTo string
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
	// TournamentURL is a tournament's public page.
	TournamentURL(id string) string
	// RulesURL is the rules page of a game (a ruleset name) in a language.
	RulesURL(game, locale string) string
	// ReplyAddress is the address a seat moves at by replying to the email
	// of a ply; "" when playing by reply is off.
	ReplyAddress(gameID, color string, ply int) (string, error)
}

// Records reads what an email shows: a game, its turns and its tournament.
type Records interface {
	games.GameRecords
	Tournament(ctx context.Context, id string) (tournaments.Tournament, error)
}

// Renderer turns an outbox row into a message. Game emails show the game as
// it was at the ply the notice is about, even if it has moved on since.
type Renderer struct {
	Store Records
	Links MailLinks
	// Host is the domain part of Message-IDs, e.g. less.example.
	Host string
	// replayAll builds every game email as a late one is built: from its
	// game's whole record, replayed. The tests compare both ways.
	replayAll bool
}

// ThreadID is the Message-ID of the first email (the invitation) to a seat
// of a game; later emails to that seat answer it.
func ThreadID(gameID, color string) string { return gameID + "." + color }

// Render builds the message for an outbox row.
func (r *Renderer) Render(ctx context.Context, m domain.OutboxMail) (Message, error) {
	msg := Message{To: m.Email, MessageID: m.MessageID + "@" + r.Host}
	switch m.Notice.Kind {
	case domain.NoticeBye:
		return r.bye(ctx, m, msg)
	case domain.NoticeRoundResults, domain.NoticeFinalStandings, domain.NoticeTournamentUpdate, domain.NoticeRoundDeadline:
		return r.tournamentMail(ctx, m, msg)
	}
	if m.Notice.Kind == domain.NoticeWebhookDisabled {
		return r.webhookDisabled(m, msg)
	}
	if m.Notice.Kind == domain.NoticeLogin {
		p := phrasesFor(m.Locale)
		msg.Subject = p.SubjectLogin
		d := doc{blocks: []block{
			{text: p.LoginIntro},
			{link: &link{url: r.Links.LoginURL(m.Secret), button: p.LoginButton}},
			{text: say(p.LoginCode, map[string]any{"Code": accounts.FormatLoginCode(accounts.LoginCode(m.Secret))})},
			{text: p.LoginIgnore},
		}}
		if err := r.neverEmail(&d, p, m.Email); err != nil {
			return Message{}, err
		}
		msg.Text, msg.HTML = d.text(), d.html(p.SubjectLogin, "")
		return msg, nil
	}
	v, mail, err := r.gameView(ctx, m)
	if err != nil {
		return Message{}, err
	}
	if _, current := v.deadline(); m.Notice.Kind == domain.NoticeReminder && !current {
		return Message{}, fmt.Errorf("render mail %d: reminder for ply %d: %w", m.ID, m.Notice.Ply, ErrObsolete)
	}
	p := phrasesFor(v.seat.Locale)
	msg.ToName = v.seat.Name
	msg.Subject = say(p.SubjectGame, map[string]any{"Game": mail.name(), "Players": v.playerNames(), "Short": shortID(v.game.ID)})
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
		d = mail.invitation(p)
	case domain.NoticeYourTurn:
		d = mail.yourTurn(p)
	case domain.NoticeGameOver:
		d = mail.gameOver(p)
	case domain.NoticeNewLink:
		d = v.newLink(p)
	case domain.NoticeReminder:
		d = mail.reminder(p)
	case domain.NoticeReplyAccepted, domain.NoticeReplyRefused:
		d = v.replyAnswer(p, mail)
	default:
		return Message{}, fmt.Errorf("render mail %d: unknown kind %q", m.ID, m.Notice.Kind)
	}
	if err := r.replyTo(&msg, &d, v, mail, p); err != nil {
		return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	if d.hasBoard() {
		data, err := mail.boardPNG()
		if err != nil {
			return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
		}
		size, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return Message{}, fmt.Errorf("render mail %d: board picture: %w", m.ID, err)
		}
		// Drawn at dpr times the size it is shown at: sharp on dense screens.
		d.boardSize = image.Pt(size.Width/dpr, size.Height/dpr)
		msg.Images = []Image{{ContentID: boardCID, Name: "board.png", PNG: data}}
	}
	footer := say(p.Footer, map[string]any{"Game": mail.name()})
	unsubscribe := block{footer: true, text: footer, link: &link{label: p.Unsubscribe, url: msg.Unsubscribe}}
	d.blocks = append(d.blocks, unsubscribe)
	if err := r.neverEmail(&d, p, m.Email); err != nil {
		return Message{}, err
	}
	msg.Text, msg.HTML = d.text(), d.html(msg.Subject, p.BoardAlt)
	return msg, nil
}

// webhookDisabled tells an account's owner that lesspost disabled one of
// its webhook endpoints, and how to enable it again.
func (r *Renderer) webhookDisabled(m domain.OutboxMail, msg Message) (Message, error) {
	w := m.Notice.Webhook
	if w == nil {
		return Message{}, fmt.Errorf("render mail %d: a %s notice without its endpoint", m.ID, m.Notice.Kind)
	}
	p := phrasesFor(m.Locale)
	msg.Subject = p.SubjectWebhookDisabled
	d := doc{blocks: []block{
		{text: say(p.WebhookDisabled, map[string]any{"URL": w.URL, "Reason": w.Reason})},
		{text: say(p.WebhookEnable, map[string]any{"ID": w.EndpointID})},
	}}
	if err := r.neverEmail(&d, p, m.Email); err != nil {
		return Message{}, err
	}
	msg.Text, msg.HTML = d.text(), d.html(msg.Subject, "")
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

// gameView is a game as an email shows it: what every game's emails say
// alike. What depends on the rules is its gameMail.
type gameView struct {
	game    games.Game
	seat    games.Seat
	moveURL string
	watch   string
	// rules is the game's rules page in the reader's language, and goal
	// what he plays for, in words: the play page says the same.
	rules, goal string
	notice      domain.Notice
	// tournament is the game's tournament, for a tournament game.
	tournament *tournaments.Tournament
	when       readerTime // the reader's clock
}

// gameMail is what a game's emails say that depends on its rules: one
// implementation per ruleset (lessMail, lesMail), chosen by mailBuilders.
// Subjects, threads, links and footers stay the Renderer's, alike for every
// game.
type gameMail interface {
	// name is the game's name in subjects and footers ("Less", "Les"):
	// a name, the same in every language.
	name() string
	invitation(p *phrases) doc
	yourTurn(p *phrases) doc
	reminder(p *phrases) doc
	gameOver(p *phrases) doc
	// board is the board the emails' text draws in ASCII, with its legend.
	board(p *phrases) block
	// boardPNG is the picture of the board the emails' text draws in ASCII.
	boardPNG() ([]byte, error)
	// example is a legal ply of the position, to show how one is written.
	example() (string, bool)
}

// mailBuilders build a game's gameMail by the name of its ruleset, from
// the game's view and its stored turns, as of the notice's ply; a game of
// any other ruleset has the emails of newOtherMail.
var mailBuilders = map[string]func(v *gameView, rec record) (gameMail, error){
	less.RulesetName: newLessMail,
	les.RulesetName:  newLesMail,
}

// record is the stored turns a game email is built from, up to the
// notice's ply.
type record struct {
	turns []games.StoredTurn
	// tail says that turns are only the end of the record, from the
	// recipient's last turn on at least, and that the stored game is as
	// of the notice: its state is the position the email shows. Else
	// turns are the whole record, to replay.
	tail bool
}

// readRecord reads the turns an email is built from. An email about the game
// as it is (the usual case: sent right after its turn) shows the stored
// game and needs only the turns since the recipient's last, at the end of
// the record; a late one replays the record to the notice's ply.
func (r *Renderer) readRecord(ctx context.Context, g *games.Game, n domain.Notice) (record, error) {
	if n.Ply == g.Ply() && !r.replayAll {
		// Every seat plays once a round, but in Les the chooser who takes
		// Black plays twice running: a round and one turn hold the
		// recipient's last.
		from := max(n.Ply-len(g.Seats), 1)
		turns, err := r.Store.TurnsFrom(ctx, g.ID, from)
		if err != nil {
			return record{}, err
		}
		turns = upTo(turns, n.Ply) // a turn played since the game was read is not the notice's
		complete := len(turns) == n.Ply-from+1 && (len(turns) == 0 || turns[0].Ply == from)
		if complete && (from == 1 || len(sinceLast(turns, n.Color)) < len(turns)) {
			return record{turns: turns, tail: true}, nil
		}
	}
	turns, err := r.Store.Turns(ctx, g.ID)
	if err != nil {
		return record{}, err
	}
	return record{turns: upTo(turns, n.Ply)}, nil
}

// upTo is the turns up to ply, of turns in ply order.
func upTo(turns []games.StoredTurn, ply int) []games.StoredTurn {
	i, _ := slices.BinarySearchFunc(turns, ply+1, func(t games.StoredTurn, ply int) int { return cmp.Compare(t.Ply, ply) })
	return turns[:i]
}

// sinceLast is the turns played after the last of a seat's: the news for
// its player. All of them if he has not played.
func sinceLast(turns []games.StoredTurn, color string) []games.StoredTurn {
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].Color == color {
			return turns[i+1:]
		}
	}
	return turns
}

func (r *Renderer) gameView(ctx context.Context, m domain.OutboxMail) (*gameView, gameMail, error) {
	g, err := r.Store.Game(ctx, m.Notice.GameID)
	if err != nil {
		return nil, nil, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	rec, err := r.readRecord(ctx, &g, m.Notice)
	if err != nil {
		return nil, nil, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	seat, ok := g.Seat(m.Notice.Color)
	if !ok {
		return nil, nil, fmt.Errorf("render mail %d: game %s has no %s seat", m.ID, g.ID, m.Notice.Color)
	}
	build, ok := mailBuilders[g.Rules.Ruleset()]
	if !ok {
		build = newOtherMail // a game registered beside Less and Les
	}
	v := &gameView{game: g, seat: *seat, notice: m.Notice}
	if v.when, err = r.readerTimeOf(ctx, m.Email); err != nil {
		return nil, nil, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	mail, err := build(v, rec)
	if err != nil {
		return nil, nil, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	if v.moveURL, err = r.Links.MoveURL(g.ID, seat.Color, seat.TokenVersion); err != nil {
		return nil, nil, err
	}
	if v.watch, err = r.Links.WatchURL(g.ID, g.WatchVersion); err != nil {
		return nil, nil, err
	}
	goal, err := ruleset.GoalOf(g.Rules, seat.Color)
	if err != nil {
		return nil, nil, fmt.Errorf("render mail %d: game %s: %w", m.ID, g.ID, err)
	}
	v.goal, v.rules = catalog.Shipped().Say(seat.Locale, goal), r.Links.RulesURL(g.Rules.Ruleset(), seat.Locale)
	if g.Tournament != nil {
		t, err := r.tournamentOf(ctx, m, g.Tournament.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("render mail %d: %w", m.ID, err)
		}
		v.tournament = &t
	}
	return v, mail, nil
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

func (v *gameView) greeting(p *phrases) block {
	return block{text: say(p.Greeting, map[string]any{"Name": v.seat.Name})}
}

// goalBlock says what the reader plays for, with the link to the rules.
func (v *gameView) goalBlock(p *phrases) block {
	return block{text: v.goal, link: &link{label: p.RulesLabel, url: v.rules}}
}

func (v *gameView) moveLink(p *phrases) block {
	return block{link: &link{label: p.MoveLinkLabel, url: v.moveURL, button: p.MoveButton}}
}

// finishedLink is the player's link to the finished game: his move link
// still opens it, to step through its turns or play it again.
func (v *gameView) finishedLink(p *phrases) block {
	return block{link: &link{label: p.FinishedLabel, url: v.moveURL, button: p.FinishedButton}}
}

// watchLink is the game's spectator link, to pass on to whoever wants to
// follow the game.
func (v *gameView) watchLink(p *phrases) block {
	return block{link: &link{label: p.WatchLabel, url: v.watch, anchor: p.WatchAnchor}}
}

// round is the tournament round of a tournament game, or nil.
func (v *gameView) round() *tournaments.Round {
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

// tournamentBlocks are the lines an invitation to a tournament game adds:
// the round, and when it ends (roundDeadline says what happens then, in the
// game's words). None for a game outside a tournament.
func (v *gameView) tournamentBlocks(p *phrases, roundDeadline string) []block {
	ref := v.game.Tournament
	if ref == nil {
		return nil
	}
	out := []block{{text: say(p.TournamentRound, map[string]any{"Name": ref.Name, "Round": ref.Round})}}
	if r := v.round(); r != nil {
		deadline := r.Deadline
		for i, g := range r.Games {
			if g.GameID != v.game.ID {
				continue
			}
			// A deciding game has its own deadline, after the round's.
			deadline = r.GameDeadline(i)
			if g.Decider {
				out = append(out, block{text: say(p.TournamentDecider, map[string]any{"Round": ref.Round})})
			}
		}
		out = append(out, block{text: say(roundDeadline, map[string]any{"Deadline": v.when.format(deadline)})})
	}
	return out
}

// withdrawn reports whether the player of a seat withdrew from the game's
// tournament: a resignation of his is his withdrawal (E8).
func (v *gameView) withdrawn(seatColor string) bool {
	if v.tournament == nil {
		return false
	}
	s, ok := v.game.Seat(seatColor)
	if !ok {
		return false
	}
	i, ok := v.tournament.EntrantOf(s.Email)
	return ok && v.tournament.Entrants[i].Withdrawn
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

// readerTime writes the times of an email in its reader's time zone: his
// account's (User.TimeZone), else UTC. Numbers, the same in every language,
// and the zone named, so that nobody wonders whose clock it is.
type readerTime struct{ loc *time.Location }

func (w readerTime) format(t time.Time) string {
	if w.loc == nil || w.loc == time.UTC {
		return t.UTC().Format("2006-01-02 15:04 UTC")
	}
	return t.In(w.loc).Format("2006-01-02 15:04") + " (" + w.loc.String() + ")"
}

// readerTimeOf is the time of the account of an address. A zone this
// server does not know (stored by another) is UTC rather than no email.
func (r *Renderer) readerTimeOf(ctx context.Context, email string) (readerTime, error) {
	name, err := r.Store.TimeZoneOf(ctx, email)
	if err != nil || name == "" {
		return readerTime{}, err
	}
	if loc, ok := zones.Load(name); ok {
		return readerTime{loc.(*time.Location)}, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return readerTime{}, nil
	}
	zones.Store(name, loc)
	return readerTime{loc}, nil
}

// zones keeps each zone loaded once: loading reads and parses its rules,
// and every email to a reader with a zone needs it.
var zones sync.Map // IANA name -> *time.Location

// deadlineBlock says by when to move, when there is a deadline.
func (v *gameView) deadlineBlock(p *phrases) []block {
	if d, ok := v.deadline(); ok {
		return []block{{text: say(p.Deadline, map[string]any{"Deadline": v.when.format(d)})}}
	}
	return nil
}

// reminderText says by when the turn is due and what happens then.
func (v *gameView) reminderText(p *phrases) string {
	d, _ := v.deadline()
	timeout := p.TimeoutLoses
	if v.game.Clock.Control.Timeout == games.TimeoutPass {
		timeout = p.TimeoutPasses
	}
	return say(p.Reminder, map[string]any{"Deadline": v.when.format(d), "Timeout": timeout})
}

func (v *gameView) newLink(p *phrases) doc {
	return doc{preheader: p.NewLink, blocks: []block{v.greeting(p), {text: p.NewLink}, v.moveLink(p)}}
}

// withdrawnOpponent is the opponent entrant was paired with in a round,
// if that opponent had withdrawn (so the pairing was forfeited to entrant).
func withdrawnOpponent(t *tournaments.Tournament, round, entrant int) (int, bool) {
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
	t, err := r.tournamentOf(ctx, m, m.Notice.Tournament)
	if err != nil {
		return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	p := phrasesFor(m.Locale)
	name := ""
	data := map[string]any{"Name": t.Name, "Round": m.Notice.Ply}
	text := p.Bye
	if i, member, ok := recipient(&t, m.Email); ok {
		name = member
		if opponent, ok := withdrawnOpponent(&t, m.Notice.Ply, i); ok {
			data["Opponent"], text = t.Entrants[opponent].Title(), p.Walkover
			if t.Entrants[opponent].Annulled {
				text = p.WalkoverAnnulled // the pairing counts for nobody
			}
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
