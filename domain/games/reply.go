package games

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/internal/text"
)

// Reply is a player's answer by email to a game's email: the edge has
// checked the token of the address it was sent to, which names the game,
// the seat and the ply the email was about, and taken the lines of the new
// text out of the message.
type Reply struct {
	GameID string
	Color  string
	Ply    int
	// From is the sender's address as the message gives it.
	From string
	// MessageID identifies the delivery: the same message delivered twice
	// is answered once. "" means the message had none.
	MessageID string
	Lines     []string
	// Unread is why the edge would not read the message, "" when it did:
	// ReplyAuthFailed, ReplyMalformed or ReplyTooLarge. Such a reply plays
	// nothing; the seat is told why (never From, which may be anyone's),
	// within the limit of replies from other addresses, since nothing says
	// the seat's owner sent it.
	Unread string
}

// ReplyStatus is what became of a reply.
type ReplyStatus string

const (
	ReplyPlayed  ReplyStatus = "played"  // the turn was played, or the game resigned
	ReplyRefused ReplyStatus = "refused" // nothing was played; the seat was told why
	ReplyIgnored ReplyStatus = "ignored" // nothing was played, and nobody told (Reason says why)
)

// The reasons a reply is refused or ignored (ReplyOutcome.Reason,
// ReplyDetail.Reason). A refused turn the rules forbid has CodeIllegalTurn,
// one out of turn CodeNotYourTurn, one after the end CodeGameOver.
const (
	ReplyNotSeatAddress = "not_seat_address" // refused: From is not the seat's address
	ReplyEarlierTurn    = "earlier_turn"     // refused: the email answered was about an earlier ply
	ReplyNoTurn         = "no_turn"          // refused: no line is a turn, nor "resign"
	// ReplyRateLimited: too many replies (see ReplyLimits). Refused, with
	// when to send again, the first time a seat's own address is over its
	// limit; ignored after that, and for replies from other addresses.
	ReplyRateLimited = "rate_limited"
	ReplyUnknownSeat = "unknown_seat" // ignored: no such game, seat or ply
	// Refused because the edge would not read the message (Reply.Unread).
	ReplyAuthFailed = "auth_failed" // the receiving server found it forged (DKIM, SPF or DMARC failed)
	ReplyMalformed  = "malformed"   // its MIME structure is broken
	ReplyTooLarge   = "too_large"   // it is over the size a reply may have
)

// ReplyOutcome is what PlayByReply did, for the edge to log: a reply that
// was refused was answered by email already.
type ReplyOutcome struct {
	Status ReplyStatus `json:"status"`
	// Reason is why it was refused or ignored; "" when played.
	Reason string `json:"reason,omitempty"`
	// Turn is the line read as the turn ("resign" for a resignation), as
	// the player wrote it; "" when none was read.
	Turn string `json:"turn,omitempty"`
	// Replayed says the message was handled before (a duplicate delivery):
	// this is what was done then, and nothing was done again.
	Replayed bool `json:"-"`
}

// ReplyLimits bound the replies PlayByReply reads, so that a mail loop (an
// autoresponder answering the answers) dies out, and so that nobody can
// have a seat's owner mailed without end.
type ReplyLimits struct {
	// Seat bounds the replies from a seat's own address, per seat. Over it
	// a reply plays nothing; the first one is answered with when to send
	// again, the others are not until Seat.Per has passed since that
	// answer: a loop gets one answer a period, not one a message.
	Seat ReplyRate
	// Others bounds the replies to a seat from any other address (whose
	// senders are never answered, but whose seat's owner is told), per
	// owner's address over all his seats. Over it they are ignored.
	Others ReplyRate
}

// ReplyRate is a rate limit: N replies at once, then N per Per.
type ReplyRate struct {
	N   int
	Per time.Duration
}

// DefaultReplyLimits are the limits of a Service unless told otherwise. A
// player who plays a 40-turn game by reply in an hour, answering every
// email, with a typo and a word of thanks now and then, sends some 30
// replies in it; 60 an hour, then one a minute, leaves room twice over.
// Strangers' replies are rare and never the owner's doing: 10 a day tell
// him of them.
var DefaultReplyLimits = ReplyLimits{Seat: ReplyRate{N: 60, Per: time.Hour}, Others: ReplyRate{N: 10, Per: 24 * time.Hour}}

// replyLinesShown bounds the lines a "no turn found" answer quotes, and
// replyLineWidth their length in characters.
const (
	replyLinesShown = 3
	replyLineWidth  = 60
)

// resignWord is the line that resigns, in any case.
const resignWord = "resign"

// replyFingerprint binds a reply's Message-ID to nothing more: a duplicate
// delivery is the same message however relays changed it on the way, and is
// never answered twice.
var replyFingerprint = []byte("reply")

// errReplyUnknown aborts the unit of work of a reply that names a seat
// the game does not have.
var errReplyUnknown = errors.New("reply to an unknown seat")

// PlayByReply plays a turn sent by replying to a game's email: the first
// line that is "resign" or is written as a ply of the game (its syntax
// only) is the turn, played like SubmitTurn or Resign. Every outcome but
// ignored is one unit of work with the answer it causes (the usual emails
// of a turn, and the mover's confirmation if he wants one; or a refusal to
// the seat) and the record of the message, so that a duplicate delivery
// changes and answers nothing, and counts against no limit.
//
// An error is a failure to be tried again (the store); every answer to the
// reply itself is an outcome.
func (s *Service) PlayByReply(ctx context.Context, r Reply) (ReplyOutcome, error) {
	if s.limiter == nil {
		return ReplyOutcome{}, errors.New("play by reply: no rate limiter")
	}
	now := s.now()
	scope := "reply:" + r.GameID + "/" + r.Color
	idem := &domain.Idempotency{Scope: scope, Key: replyKey(r), Fingerprint: replyFingerprint}
	if resp, done, err := s.store.StoredResponse(ctx, *idem); err != nil {
		return ReplyOutcome{}, fmt.Errorf("play by reply to %s: %w", r.GameID, err)
	} else if done {
		return storedReplyOutcome(r, resp, true)
	}
	g, err := s.store.Game(ctx, r.GameID)
	if de, ok := domain.ErrorOf(err); ok && de.Kind == domain.KindNotFound {
		return ReplyOutcome{Status: ReplyIgnored, Reason: ReplyUnknownSeat}, nil
	}
	if err != nil {
		return ReplyOutcome{}, fmt.Errorf("play by reply to %s: %w", r.GameID, err)
	}
	seat, ok := g.Seat(r.Color)
	if !ok || r.Ply > g.Ply() {
		return ReplyOutcome{Status: ReplyIgnored, Reason: ReplyUnknownSeat}, nil
	}
	from, fromErr := domain.NormalizeEmail(r.From)
	if fromErr != nil {
		from = domain.Clip(r.From)
	}
	own := r.Unread == "" && fromErr == nil && from == seat.Email
	wait, ignore, giveBack, err := s.countReply(ctx, r, seat.Email, own, now)
	if err != nil {
		return ReplyOutcome{}, fmt.Errorf("play by reply to %s: %w", r.GameID, err)
	}
	if ignore {
		return ReplyOutcome{Status: ReplyIgnored, Reason: ReplyRateLimited}, nil
	}
	confirm := false
	if fromErr == nil {
		if confirm, err = s.store.ReplyConfirmations(ctx, from); err != nil {
			giveBack()
			return ReplyOutcome{}, fmt.Errorf("play by reply to %s: %w", r.GameID, err)
		}
	}
	resp, replayed, err := s.updateGame(ctx, GameUpdate{GameID: r.GameID, Idem: idem, Now: now,
		Compute: func(g Game) (GameChange, error) {
			c, out, err := judgeReply(g, r, from, confirm, wait, now)
			if err != nil {
				return GameChange{}, err
			}
			if c.Response.Body, err = json.Marshal(out); err != nil {
				return GameChange{}, fmt.Errorf("encode reply outcome: %w", err)
			}
			return c, nil
		}})
	if de, ok := domain.ErrorOf(err); errors.Is(err, errReplyUnknown) || ok && de.Kind == domain.KindNotFound {
		return ReplyOutcome{Status: ReplyIgnored, Reason: ReplyUnknownSeat}, nil
	}
	if err != nil {
		giveBack()
		return ReplyOutcome{}, fmt.Errorf("play by reply to %s: %w", r.GameID, err)
	}
	return storedReplyOutcome(r, resp, replayed)
}

// countReply counts a reply to the seat of owner against its limit
// (ReplyLimits): the seat's when the reply is from the owner's address
// (own), else the others'. ignore says the reply is over it and goes
// unanswered; wait > 0 that the owner is over his and is told to wait that
// long. giveBack returns what was counted, for a reply that could not be
// stored: its retry counts once, and the answer it was to give is given
// then.
func (s *Service) countReply(ctx context.Context, r Reply, owner string, own bool, now time.Time) (
	wait time.Duration, ignore bool, giveBack func(), err error) {
	type token struct {
		key      string
		interval time.Duration
	}
	var taken []token
	giveBack = func() {
		for _, t := range taken {
			_ = s.limiter.ReturnRequest(context.WithoutCancel(ctx), t.key, t.interval)
		}
	}
	take := func(key string, rate ReplyRate) (bool, time.Duration, error) {
		interval := rate.Per / time.Duration(rate.N)
		ok, wait, err := s.limiter.TakeRequest(ctx, key, interval, rate.Per-interval, now)
		if ok && err == nil {
			taken = append(taken, token{key, interval})
		}
		return ok, wait, err
	}
	lim := s.replyLimits
	if !own {
		ok, _, err := take("reply-others:"+owner, lim.Others)
		return 0, !ok, giveBack, err
	}
	ok, wait, err := take("reply:"+r.GameID+"/"+r.Color, lim.Seat)
	if err != nil || ok {
		return 0, false, giveBack, err
	}
	// One answer a period: a bucket of one, full again after Per.
	told, _, err := take("reply-limited:"+r.GameID+"/"+r.Color, ReplyRate{N: 1, Per: lim.Seat.Per})
	return wait, !told, giveBack, err
}

// storedReplyOutcome is the outcome PlayByReply stored as its response.
func storedReplyOutcome(r Reply, resp domain.Response, replayed bool) (ReplyOutcome, error) {
	var out ReplyOutcome
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		return ReplyOutcome{}, fmt.Errorf("play by reply to %s: stored outcome: %w: %w", r.GameID, domain.ErrStoredData, err)
	}
	out.Replayed = replayed
	return out, nil
}

// replyKey is the Idempotency key of a reply: its Message-ID, or for a
// message without one, what it says.
func replyKey(r Reply) string {
	if r.MessageID != "" {
		return r.MessageID
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", r.From, r.Ply)
	for _, l := range r.Lines {
		fmt.Fprintf(h, "%s\x00", l)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// judgeReply decides what a reply from the address from (normalised, or
// clipped when it is no address) does to g: a turn, a resignation, or a
// refusal that changes nothing but queues its answer. confirm says the
// sender wants a confirmation of a turn played; wait > 0 that the seat is
// over its limit and is told to wait that long.
func judgeReply(g Game, r Reply, from string, confirm bool, wait time.Duration, now time.Time) (GameChange, ReplyOutcome, error) {
	seat, ok := g.Seat(r.Color)
	if !ok || r.Ply > g.Ply() {
		return GameChange{}, ReplyOutcome{}, errReplyUnknown
	}
	refuse := func(d domain.ReplyDetail, cause domain.Cause) (GameChange, ReplyOutcome, error) {
		n := domain.Notice{Kind: domain.NoticeReplyRefused, GameID: g.ID, Color: seat.Color, Ply: g.Ply(), Reply: &d}
		return GameChange{Game: g, Notices: []domain.Notice{n}, Cause: cause},
			ReplyOutcome{Status: ReplyRefused, Reason: d.Reason, Turn: d.Turn}, nil
	}
	// The seat's owner hears of a reply from another address (he may have
	// sent it from another of his own), and of one that could not be read
	// (he may have sent it, through a server or a client that mangled it);
	// its sender, who may be anyone, is never answered. The mail counts
	// against the owner's budget of mail others cause.
	switch {
	case r.Unread != "":
		return refuse(domain.ReplyDetail{Reason: r.Unread}, domain.Cause{})
	case from != seat.Email:
		return refuse(domain.ReplyDetail{Reason: ReplyNotSeatAddress, From: from}, domain.Cause{})
	}
	mine := domain.Cause{By: seat.Email}
	switch {
	case wait > 0:
		return refuse(domain.ReplyDetail{Reason: ReplyRateLimited, WaitMinutes: int((wait + time.Minute - 1) / time.Minute)}, mine)
	case g.Over():
		return refuse(domain.ReplyDetail{Reason: domain.CodeGameOver}, mine)
	case r.Ply < g.Ply():
		return refuse(domain.ReplyDetail{Reason: ReplyEarlierTurn}, mine)
	}
	turn, found := findTurn(g.Rules, r.Lines)
	if !found {
		return refuse(domain.ReplyDetail{Reason: ReplyNoTurn, Lines: firstLines(r.Lines)}, mine)
	}
	color := seat.Color
	a := Actor{SeatColor: &color}
	var sub Submitted
	var err error
	if strings.EqualFold(turn, resignWord) {
		sub, err = Resign(g, a, now)
	} else {
		sub, err = SubmitTurn(g, a, r.Ply, turn, now)
	}
	if de, ok := domain.ErrorOf(err); ok {
		d := domain.ReplyDetail{Reason: de.Code, Turn: turn}
		if de.Turn != nil {
			d.Rule, d.RuleRef = de.Turn.Code, de.Turn.Rule
			d.Part = de.Turn.Index + 1 // ruleset.NoIndex (-1) is 0, the whole turn
		}
		return refuse(d, mine)
	}
	if err != nil {
		return GameChange{}, ReplyOutcome{}, err
	}
	notices := sub.Notices
	// A game that ended tells everyone so; the result is the confirmation.
	if confirm && !sub.Game.Over() && len(sub.Played) > 0 {
		notices = append(notices, domain.Notice{Kind: domain.NoticeReplyAccepted, GameID: g.ID, Color: seat.Color,
			Ply: sub.Game.Ply(), Reply: &domain.ReplyDetail{Turn: sub.Played[0].Ply}})
	}
	return GameChange{Game: sub.Game, Played: sub.Played, Notices: notices, Cause: mine},
		ReplyOutcome{Status: ReplyPlayed, Turn: turn}, nil
}

// findTurn is the first line that resigns or is written as a ply of the
// game, trimmed, read through what mail clients and phones add to a line
// that nobody reads (byte order marks, zero-width characters) and the full
// stop or exclamation mark that ends a sentence; or else the ply a line
// names by one word among others (namedPly). What is a ply is the rules'
// business (Syntax); only the words around it are this function's.
func findTurn(rules Rules, lines []string) (string, bool) {
	isTurn := func(l string) bool { return strings.EqualFold(l, resignWord) || rules.Syntax(l) == nil }
	for _, l := range lines {
		l = strings.TrimSpace(strings.Map(dropInvisible, l))
		if l == "" {
			continue
		}
		if isTurn(l) {
			return l, true
		}
		if end := strings.TrimSpace(strings.TrimRight(l, ".!")); end != l && end != "" && isTurn(end) {
			return end, true
		}
		if ply, ok := namedPly(rules, l); ok {
			return ply, true
		}
	}
	return "", false
}

// dropInvisible drops the characters that show as nothing: the byte order
// mark some clients put at the start of a text, and the zero-width spaces
// and joiners phones and rich-text editors put between words.
func dropInvisible(r rune) rune {
	switch r {
	case '\ufeff', '\u200b', '\u200c', '\u200d', '\u2060':
		return -1
	}
	return r
}

// namedPly is the ply a sentence names by a word, as Les's chooser writes
// "I take black": a word of letters alone that the rules read as a ply and
// that the mover's legal choices name whole (Les's colours; not Less's
// "nil", which a sentence may say without meaning to pass, nor a point,
// which is no word). A sentence naming two ("black or white?") names none.
func namedPly(rules Rules, line string) (string, bool) {
	var named string
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) {
		if strings.EqualFold(w, named) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 ||
			rules.Syntax(w) != nil || !isChoice(rules, w) {
			continue
		}
		if named != "" {
			return "", false
		}
		named = w
	}
	return named, named != ""
}

// isChoice says whether the mover's legal choices name the word itself
// (Les's colours), not a place on the board.
func isChoice(rules Rules, word string) bool {
	legal, err := rules.Legal("")
	if err != nil {
		return false
	}
	for _, c := range legal.Choices {
		if c.From == "" && strings.EqualFold(c.To, word) {
			return true
		}
	}
	return false
}

// firstLines are the first non-empty lines of a reply, clipped, for the
// answer that found no turn in them.
func firstLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && len(out) < replyLinesShown {
			out = append(out, text.Clip(l, replyLineWidth))
		}
	}
	return out
}
