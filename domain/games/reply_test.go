package games_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// queuedSince is what the notices queued after the first n say: kind, to,
// colour, ply, whether it counts against the recipient's budget, and detail.
func queuedSince(f *fixture, n int) []string {
	var out []string
	for _, q := range f.store.Queued()[n:] {
		s := fmt.Sprintf("%s %s %s@%d budgeted %v", q.Kind, q.Email, q.Color, q.Ply, q.Budgeted)
		if q.Reply != nil {
			s += fmt.Sprintf(" %+v", *q.Reply)
		}
		out = append(out, s)
	}
	return out
}

func TestPlayByReply(t *testing.T) {
	tests := []struct {
		name string
		// before is what happens first; confirm is ann's account setting.
		before  func(t *testing.T, f *fixture)
		confirm bool
		reply   games.Reply
		want    games.ReplyOutcome
		wantPly int
		queued  []string
	}{
		{
			name:  "a turn among other lines",
			reply: games.Reply{Color: white, From: "Ann@Example.org", Lines: []string{"Hi Bob,", "", "  e5-e4 e4d4, d4c4 ", "resign"}},
			want:  games.ReplyOutcome{Status: games.ReplyPlayed, Turn: "e5-e4 e4d4, d4c4"}, wantPly: 1,
			queued: []string{`your_turn bob@example.org black@1 budgeted true`},
		},
		{
			name: "a turn, confirmed", confirm: true,
			reply: games.Reply{Color: white, From: "ann@example.org", Lines: []string{opening}},
			want:  games.ReplyOutcome{Status: games.ReplyPlayed, Turn: opening}, wantPly: 1,
			queued: []string{`your_turn bob@example.org black@1 budgeted true`,
				`reply_accepted ann@example.org white@1 budgeted false {Reason: Turn:` + opening + ` Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:0}`},
		},
		{
			name: "resign, in any case", confirm: true,
			reply: games.Reply{Color: white, From: "ann@example.org", Lines: []string{"Resign"}},
			want:  games.ReplyOutcome{Status: games.ReplyPlayed, Turn: "Resign"},
			queued: []string{`game_over ann@example.org white@0 budgeted false`,
				`game_over bob@example.org black@0 budgeted true`},
		},
		{
			name:   "from another address: the seat's owner is told",
			reply:  games.Reply{Color: white, From: "eve@example.org", Lines: []string{opening}},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNotSeatAddress},
			queued: []string{`reply_refused ann@example.org white@0 budgeted true {Reason:not_seat_address Turn: Rule: RuleRef: Part:0 Lines:[] From:eve@example.org WaitMinutes:0}`},
		},
		{
			name:   "from no address at all",
			reply:  games.Reply{Color: white, From: "not an address", Lines: []string{opening}},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNotSeatAddress},
			queued: []string{`reply_refused ann@example.org white@0 budgeted true {Reason:not_seat_address Turn: Rule: RuleRef: Part:0 Lines:[] From:not an address WaitMinutes:0}`},
		},
		{
			name:   "forged, as the receiving server says: the seat is told, whoever the sender claims to be",
			reply:  games.Reply{Color: white, From: "ann@example.org", Lines: []string{opening}, Unread: games.ReplyAuthFailed},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyAuthFailed},
			queued: []string{`reply_refused ann@example.org white@0 budgeted true {Reason:auth_failed Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:0}`},
		},
		{
			name:   "malformed, from a stranger: the seat is told, not the stranger",
			reply:  games.Reply{Color: white, From: "eve@example.org", Unread: games.ReplyMalformed},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyMalformed},
			queued: []string{`reply_refused ann@example.org white@0 budgeted true {Reason:malformed Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:0}`},
		},
		{
			name:   "too large, without a From",
			reply:  games.Reply{Color: white, Unread: games.ReplyTooLarge},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyTooLarge},
			queued: []string{`reply_refused ann@example.org white@0 budgeted true {Reason:too_large Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:0}`},
		},
		{
			name:  "unreadable, to a seat the game does not have",
			reply: games.Reply{Color: "green", From: "ann@example.org", Unread: games.ReplyAuthFailed},
			want:  games.ReplyOutcome{Status: games.ReplyIgnored, Reason: games.ReplyUnknownSeat},
		},
		{
			name: "an answer to an earlier email",
			before: func(t *testing.T, f *fixture) {
				f.play(t, white, opening)
				g, _ := f.store.Game(t.Context(), f.game.ID)
				turn, _ := g.Rules.Example()
				f.play(t, black, turn)
			},
			reply: games.Reply{Color: white, From: "ann@example.org", Lines: []string{"c4c3"}},
			want:  games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyEarlierTurn}, wantPly: 2,
			queued: []string{`reply_refused ann@example.org white@2 budgeted false {Reason:earlier_turn Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:0}`},
		},
		{
			name:   "no turn in it",
			reply:  games.Reply{Color: white, From: "ann@example.org", Lines: []string{"", "Hello Bob,", "I move e5 to e4.", "Cheers", "Ann"}},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn},
			queued: []string{`reply_refused ann@example.org white@0 budgeted false {Reason:no_turn Turn: Rule: RuleRef: Part:0 Lines:[Hello Bob, I move e5 to e4. Cheers] From: WaitMinutes:0}`},
		},
		{
			name:   "an illegal turn",
			reply:  games.Reply{Color: white, From: "ann@example.org", Lines: []string{"e5e4:a1a2"}},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: domain.CodeIllegalTurn, Turn: "e5e4:a1a2"},
			queued: []string{`reply_refused ann@example.org white@0 budgeted false {Reason:illegal_turn Turn:e5e4:a1a2 Rule:not_your_piece RuleRef:M6 Part:2 Lines:[] From: WaitMinutes:0}`},
		},
		{
			name: "after the end",
			before: func(t *testing.T, f *fixture) {
				if _, _, err := f.svc.Resign(t.Context(), games.GameRequest{GameID: f.game.ID, By: seat(f.game, black)}, present); err != nil {
					t.Fatal(err)
				}
			},
			reply:  games.Reply{Color: white, From: "ann@example.org", Lines: []string{opening}},
			want:   games.ReplyOutcome{Status: games.ReplyRefused, Reason: domain.CodeGameOver},
			queued: []string{`reply_refused ann@example.org white@0 budgeted false {Reason:game_over Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:0}`},
		},
		{
			name:  "a seat the game does not have",
			reply: games.Reply{Color: "green", From: "ann@example.org", Lines: []string{opening}},
			want:  games.ReplyOutcome{Status: games.ReplyIgnored, Reason: games.ReplyUnknownSeat},
		},
		{
			name:  "a later ply than the game's",
			reply: games.Reply{Color: white, Ply: 5, From: "ann@example.org", Lines: []string{opening}},
			want:  games.ReplyOutcome{Status: games.ReplyIgnored, Reason: games.ReplyUnknownSeat},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixtureWith(t, domain.User{ID: annID, Email: "ann@example.org", Locale: "de", ReplyConfirmations: tt.confirm})
			ctx := t.Context()
			if tt.before != nil {
				tt.before(t, f)
			}
			before, _ := f.store.Game(ctx, f.game.ID)
			n := len(f.store.Queued())
			r := tt.reply
			r.GameID, r.MessageID = f.game.ID, "<m1@example.org>"
			got, err := f.svc.PlayByReply(ctx, r)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("PlayByReply = %+v, %v; want %+v", got, err, tt.want)
			}
			g, _ := f.store.Game(ctx, f.game.ID)
			if tt.want.Status != games.ReplyPlayed && (g.Version != before.Version || g.Ply() != before.Ply()) {
				t.Errorf("a reply that played nothing changed the game: version %d → %d", before.Version, g.Version)
			}
			if tt.wantPly != 0 && g.Ply() != tt.wantPly {
				t.Errorf("ply %d, want %d", g.Ply(), tt.wantPly)
			}
			if q := queuedSince(f, n); !reflect.DeepEqual(q, tt.queued) {
				t.Errorf("queued\n%q\nwant\n%q", q, tt.queued)
			}
			// The same message delivered again does nothing more.
			n = len(f.store.Queued())
			again, err := f.svc.PlayByReply(ctx, r)
			wantAgain := tt.want
			wantAgain.Replayed = tt.want.Status != games.ReplyIgnored
			if err != nil || again != wantAgain {
				t.Errorf("delivered again: %+v, %v; want %+v", again, err, wantAgain)
			}
			if after, _ := f.store.Game(ctx, f.game.ID); after.Version != g.Version || len(f.store.Queued()) != n {
				t.Errorf("delivered again: version %d → %d, %d more notices", g.Version, after.Version, len(f.store.Queued())-n)
			}
		})
	}
}

// play plays a turn for a seat through the API's use case.
func (f *fixture) play(t *testing.T, color, turn string) {
	t.Helper()
	g, err := f.store.Game(t.Context(), f.game.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.SubmitTurn(t.Context(), games.GameRequest{GameID: g.ID, By: seat(g, color)}, g.Ply(), turn, present); err != nil {
		t.Fatalf("%s plays %s: %v", color, turn, err)
	}
}

func TestPlayByReplyWithoutMessageIDIsAnsweredOnce(t *testing.T) {
	f := newFixture(t)
	r := games.Reply{GameID: f.game.ID, Color: white, From: "ann@example.org", Lines: []string{"hello"}}
	first, err := f.svc.PlayByReply(t.Context(), r)
	if err != nil || first.Status != games.ReplyRefused {
		t.Fatalf("first: %+v, %v", first, err)
	}
	n := len(f.store.Queued())
	if again, err := f.svc.PlayByReply(t.Context(), r); err != nil || !again.Replayed || len(f.store.Queued()) != n {
		t.Errorf("the same message again: %+v, %v, %d more notices", again, err, len(f.store.Queued())-n)
	}
	r.Lines = []string{"hello again"}
	if other, err := f.svc.PlayByReply(t.Context(), r); err != nil || other.Replayed || len(f.store.Queued()) != n+1 {
		t.Errorf("another message: %+v, %v, %d more notices", other, err, len(f.store.Queued())-n)
	}
}

// reply sends a reply with the lines from an address to a seat of the
// fixture's game, under a new Message-ID, and returns the outcome.
func (f *fixture) reply(t *testing.T, svc *games.Service, color, from string, lines ...string) games.ReplyOutcome {
	t.Helper()
	f.replies++
	g, err := f.store.Game(t.Context(), f.game.ID)
	if err != nil {
		t.Fatal(err)
	}
	out, err := svc.PlayByReply(t.Context(), games.Reply{GameID: g.ID, Color: color, Ply: g.Ply(), From: from,
		MessageID: fmt.Sprintf("m%d@example.org", f.replies), Lines: lines, Unread: f.unread})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A player who plays a whole game by reply, as fast as he likes, with a
// word of thanks and a typo now and then, never meets the limit: a 40-turn
// game in an afternoon is normal. Nor do strangers' replies to his seat,
// however many, count against it.
func TestPlayByReplyLimitLetsAWholeGameBePlayed(t *testing.T) {
	f := newFixture(t)
	ann, bob := "ann@example.org", "bob@example.org"
	for i := range 30 {
		if out := f.reply(t, f.svc, white, "eve@example.org", "resign"); out.Status == games.ReplyPlayed {
			t.Fatalf("stranger's reply %d: %+v", i, out)
		}
	}
	const turns = 40
	for i := range turns {
		g, _ := f.store.Game(t.Context(), f.game.ID)
		if g.Over() {
			t.Fatalf("the game ended after %d turns; the test wants %d", i, turns)
		}
		color, from := white, ann
		if g.ToMove() == black {
			color, from = black, bob
		}
		turn, ok := g.Rules.Example()
		if !ok {
			t.Fatalf("turn %d: no example turn", i)
		}
		if i%5 == 0 { // a typo first, which is refused
			if out := f.reply(t, f.svc, color, from, "e9e9:"+turn); out.Status != games.ReplyRefused || out.Reason == games.ReplyRateLimited {
				t.Fatalf("turn %d, a typo: %+v", i, out)
			}
		}
		if out := f.reply(t, f.svc, color, from, turn); out.Status != games.ReplyPlayed {
			t.Fatalf("turn %d (%s): %+v", i, turn, out)
		}
		if i%3 == 0 { // thanks, to the confirmation
			if out := f.reply(t, f.svc, color, from, "thanks!"); out.Reason == games.ReplyRateLimited {
				t.Fatalf("turn %d, thanks: %+v", i, out)
			}
		}
		f.now = f.now.Add(90 * time.Second) // the whole game in an hour
	}
}

// Over the seat's limit, a reply from the seat's own address plays nothing
// and is answered once with when to send again; the next ones are not
// answered until the limit's period has passed, so that a mail loop (an
// autoresponder answering the answers) dies out. Replies from other
// addresses do not count against the seat's limit, and have their own,
// counted per owner's address over all his seats: past it, their owner is
// not told any more.
func TestPlayByReplyLimits(t *testing.T) {
	f := newFixture(t)
	limits := games.ReplyLimits{Seat: games.ReplyRate{N: 3, Per: time.Hour}, Others: games.ReplyRate{N: 2, Per: 24 * time.Hour}}
	svc := games.NewService(games.Config{Store: f.store, Now: func() time.Time { return f.now }, Replies: limits})
	ann := "ann@example.org"
	refused := games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn}
	limited := games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyRateLimited}
	ignored := games.ReplyOutcome{Status: games.ReplyIgnored, Reason: games.ReplyRateLimited}
	stranger := games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNotSeatAddress}
	step := func(name string, color, from string, want games.ReplyOutcome, wantQueued ...string) {
		t.Helper()
		n := len(f.store.Queued())
		if out := f.reply(t, svc, color, from, "hello"); out != want {
			t.Errorf("%s: %+v, want %+v", name, out, want)
		}
		if q := queuedSince(f, n); !reflect.DeepEqual(q, wantQueued) && !(len(q) == 0 && len(wantQueued) == 0) {
			t.Errorf("%s: queued %q, want %q", name, q, wantQueued)
		}
	}
	noTurn := `reply_refused ann@example.org white@0 budgeted false {Reason:no_turn Turn: Rule: RuleRef: Part:0 Lines:[hello] From: WaitMinutes:0}`
	strangerTold := `reply_refused ann@example.org white@0 budgeted true {Reason:not_seat_address Turn: Rule: RuleRef: Part:0 Lines:[] From:eve@example.org WaitMinutes:0}`
	step("a stranger", white, "eve@example.org", stranger, strangerTold)
	f.unread = games.ReplyAuthFailed // forged, in ann's name: not hers
	step("a forgery", white, ann, games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyAuthFailed},
		`reply_refused ann@example.org white@0 budgeted true {Reason:auth_failed Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:0}`)
	step("a forgery past the others' limit", white, ann, ignored)
	f.unread = ""
	step("a stranger past the others' limit", white, "eve@example.org", ignored)
	for i := range limits.Seat.N {
		step(fmt.Sprintf("ann's reply %d", i+1), white, ann, refused, noTurn)
	}
	step("ann over the limit", white, ann, limited,
		`reply_refused ann@example.org white@0 budgeted false {Reason:rate_limited Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:20}`)
	step("ann over the limit again", white, ann, ignored)
	step("the other seat has its own limit", black, "bob@example.org", refused,
		`reply_refused bob@example.org black@0 budgeted false {Reason:no_turn Turn: Rule: RuleRef: Part:0 Lines:[hello] From: WaitMinutes:0}`)
	f.now = f.now.Add(20 * time.Minute)
	step("ann, when she was told to", white, ann, refused, noTurn)
	step("ann over the limit once more, within the hour", white, ann, ignored)
	f.now = f.now.Add(40 * time.Minute)
	step("ann, an hour after she was told", white, ann, refused, noTurn)
	step("ann", white, ann, refused, noTurn)
	step("ann over the limit, an hour after she was told", white, ann, limited,
		`reply_refused ann@example.org white@0 budgeted false {Reason:rate_limited Turn: Rule: RuleRef: Part:0 Lines:[] From: WaitMinutes:20}`)
}

func TestPlayByReplyLesSetup(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	g, err := f.svc.CreateGame(ctx, games.NewGameSpec{Ruleset: "les", Players: []games.Player{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	setup, ok := exampleOf(g.Rules)
	if !ok {
		t.Fatal("no example setup")
	}
	out, err := f.svc.PlayByReply(ctx, games.Reply{GameID: g.ID, Color: "setter", From: "ann@example.org",
		MessageID: "s1", Lines: []string{"black", setup}})
	if err != nil || out.Status != games.ReplyPlayed || out.Turn != setup {
		t.Fatalf("the setup by reply: %+v, %v", out, err)
	}
	// "black" is the chooser's ply, not the setter's: it was no turn at ply 0.
	if g, _ = f.store.Game(ctx, g.ID); g.Ply() != 1 {
		t.Errorf("ply %d, want 1", g.Ply())
	}
}

// exampleOf is a ruleset's example ply, for rules that give one.
func exampleOf(r games.Rules) (string, bool) {
	e, ok := r.(interface{ Example() (string, bool) })
	if !ok {
		return "", false
	}
	return e.Example()
}

// A turn line is read through what mail clients and phones add to it (a
// byte order mark, zero-width characters, the full stop or exclamation mark
// that ends a sentence), and Les's colour choice also inside a sentence ("I
// take black") when the sentence names one colour only; the rest is refused
// as before: a Less pass ("nil") or a point inside a sentence, two colours.
func TestPlayByReplyReadsTheTurnLineLeniently(t *testing.T) {
	lessTests := []struct {
		line string
		want games.ReplyOutcome
	}{
		{opening + ".", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: opening}},
		{opening + "!", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: opening}},
		{"\ufeff" + opening, games.ReplyOutcome{Status: games.ReplyPlayed, Turn: opening}},
		{"e5e4:\u200be4d4:d4c4\u200d", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: opening}},
		{"Resign!", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: "Resign"}},
		{"I pass: nil", games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn}},
		{"I play " + opening + " now", games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn}},
		{opening + "?", games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn}},
	}
	for i, tt := range lessTests {
		t.Run("less "+tt.line, func(t *testing.T) {
			f := newFixture(t)
			got, err := f.svc.PlayByReply(t.Context(), games.Reply{GameID: f.game.ID, Color: white, From: "ann@example.org",
				MessageID: fmt.Sprintf("l%d", i), Lines: []string{"Hi,", tt.line}})
			if err != nil || got != tt.want {
				t.Errorf("PlayByReply = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}

	lesTests := []struct {
		line string
		want games.ReplyOutcome
	}{
		{"I take black", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: "black"}},
		{"White, please!", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: "White"}},
		{"Black. Black it is.", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: "Black"}},
		{"\u200bwhite.", games.ReplyOutcome{Status: games.ReplyPlayed, Turn: "white"}},
		{"black or white?", games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn}},
		{"I take black, not white", games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn}},
		{"blackish", games.ReplyOutcome{Status: games.ReplyRefused, Reason: games.ReplyNoTurn}},
	}
	for i, tt := range lesTests {
		t.Run("les "+tt.line, func(t *testing.T) {
			f := newFixture(t)
			ctx := t.Context()
			g, err := f.svc.CreateGame(ctx, games.NewGameSpec{Ruleset: "les", Players: []games.Player{
				{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}}, creatorID)
			if err != nil {
				t.Fatal(err)
			}
			// At the setup, a colour is no ply, in a sentence or not.
			out, err := f.svc.PlayByReply(ctx, games.Reply{GameID: g.ID, Color: "setter", From: "ann@example.org",
				MessageID: fmt.Sprintf("s%d", i), Lines: []string{tt.line}})
			if err != nil || out.Status != games.ReplyRefused || out.Reason != games.ReplyNoTurn {
				t.Fatalf("%q at the setup: %+v, %v; want no turn", tt.line, out, err)
			}
			setup, _ := exampleOf(g.Rules)
			if _, err := f.svc.PlayByReply(ctx, games.Reply{GameID: g.ID, Color: "setter", From: "ann@example.org",
				MessageID: fmt.Sprintf("t%d", i), Lines: []string{setup}}); err != nil {
				t.Fatal(err)
			}
			got, err := f.svc.PlayByReply(ctx, games.Reply{GameID: g.ID, Color: "chooser", Ply: 1, From: "bob@example.org",
				MessageID: fmt.Sprintf("c%d", i), Lines: []string{"Thanks Ann.", tt.line}})
			if err != nil || got != tt.want {
				t.Errorf("PlayByReply = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}
