package domain_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/less"
)

// queuedSince is what the notices queued after the first n say: kind, to,
// colour, ply, cause and detail.
func queuedSince(f *fixture, n int) []string {
	var out []string
	for _, q := range f.store.Queued()[n:] {
		s := fmt.Sprintf("%s %s %s@%d by %q", q.Kind, q.Email, q.Color, q.Ply, q.Cause.By)
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
		reply   domain.Reply
		want    domain.ReplyOutcome
		wantPly int
		queued  []string
	}{
		{
			name:  "a turn among other lines",
			reply: domain.Reply{Color: white, From: "Ann@Example.org", Lines: []string{"Hi Bob,", "", "  e5-e4 e4d4, d4c4 ", "resign"}},
			want:  domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: "e5-e4 e4d4, d4c4"}, wantPly: 1,
			queued: []string{`your_turn bob@example.org black@1 by "ann@example.org"`},
		},
		{
			name: "a turn, confirmed", confirm: true,
			reply: domain.Reply{Color: white, From: "ann@example.org", Lines: []string{opening}},
			want:  domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: opening}, wantPly: 1,
			queued: []string{`your_turn bob@example.org black@1 by "ann@example.org"`,
				`reply_accepted ann@example.org white@1 by "ann@example.org" {Reason: Turn:` + opening + ` Rule: RuleRef: Part:0 Lines:[] From:}`},
		},
		{
			name: "resign, in any case", confirm: true,
			reply: domain.Reply{Color: white, From: "ann@example.org", Lines: []string{"Resign"}},
			want:  domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: "Resign"},
			queued: []string{`game_over ann@example.org white@0 by "ann@example.org"`,
				`game_over bob@example.org black@0 by "ann@example.org"`},
		},
		{
			name:   "from another address: the seat's owner is told",
			reply:  domain.Reply{Color: white, From: "eve@example.org", Lines: []string{opening}},
			want:   domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNotSeatAddress},
			queued: []string{`reply_refused ann@example.org white@0 by "" {Reason:not_seat_address Turn: Rule: RuleRef: Part:0 Lines:[] From:eve@example.org}`},
		},
		{
			name:   "from no address at all",
			reply:  domain.Reply{Color: white, From: "not an address", Lines: []string{opening}},
			want:   domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNotSeatAddress},
			queued: []string{`reply_refused ann@example.org white@0 by "" {Reason:not_seat_address Turn: Rule: RuleRef: Part:0 Lines:[] From:not an address}`},
		},
		{
			name: "an answer to an earlier email",
			before: func(t *testing.T, f *fixture) {
				f.play(t, white, opening)
				g, _ := f.store.Game(t.Context(), f.game.ID)
				turn, _ := g.Rules.(*less.RulesGame).Game.Position().ExampleTurn()
				f.play(t, black, turn.String())
			},
			reply: domain.Reply{Color: white, From: "ann@example.org", Lines: []string{"c4c3"}},
			want:  domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyEarlierTurn}, wantPly: 2,
			queued: []string{`reply_refused ann@example.org white@2 by "ann@example.org" {Reason:earlier_turn Turn: Rule: RuleRef: Part:0 Lines:[] From:}`},
		},
		{
			name:   "no turn in it",
			reply:  domain.Reply{Color: white, From: "ann@example.org", Lines: []string{"", "Hello Bob,", "I move e5 to e4.", "Cheers", "Ann"}},
			want:   domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNoTurn},
			queued: []string{`reply_refused ann@example.org white@0 by "ann@example.org" {Reason:no_turn Turn: Rule: RuleRef: Part:0 Lines:[Hello Bob, I move e5 to e4. Cheers] From:}`},
		},
		{
			name:   "an illegal turn",
			reply:  domain.Reply{Color: white, From: "ann@example.org", Lines: []string{"e5e4:a1a2"}},
			want:   domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.CodeIllegalTurn, Turn: "e5e4:a1a2"},
			queued: []string{`reply_refused ann@example.org white@0 by "ann@example.org" {Reason:illegal_turn Turn:e5e4:a1a2 Rule:not_your_piece RuleRef:M6 Part:2 Lines:[] From:}`},
		},
		{
			name: "after the end",
			before: func(t *testing.T, f *fixture) {
				if _, _, err := f.svc.Resign(t.Context(), domain.GameRequest{GameID: f.game.ID, By: seat(f.game, black)}, present); err != nil {
					t.Fatal(err)
				}
			},
			reply:  domain.Reply{Color: white, From: "ann@example.org", Lines: []string{opening}},
			want:   domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.CodeGameOver},
			queued: []string{`reply_refused ann@example.org white@0 by "ann@example.org" {Reason:game_over Turn: Rule: RuleRef: Part:0 Lines:[] From:}`},
		},
		{
			name:  "a seat the game does not have",
			reply: domain.Reply{Color: "green", From: "ann@example.org", Lines: []string{opening}},
			want:  domain.ReplyOutcome{Status: domain.ReplyIgnored, Reason: domain.ReplyUnknownSeat},
		},
		{
			name:  "a later ply than the game's",
			reply: domain.Reply{Color: white, Ply: 5, From: "ann@example.org", Lines: []string{opening}},
			want:  domain.ReplyOutcome{Status: domain.ReplyIgnored, Reason: domain.ReplyUnknownSeat},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			ctx := t.Context()
			if _, err := f.svc.UpdateUser(ctx, annID, domain.AccountSettings{Locale: "de", ReplyConfirmations: tt.confirm}); err != nil {
				t.Fatal(err)
			}
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
			if tt.want.Status != domain.ReplyPlayed && (g.Version != before.Version || g.Ply() != before.Ply()) {
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
			wantAgain.Replayed = tt.want.Status != domain.ReplyIgnored
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
	if _, _, err := f.svc.SubmitTurn(t.Context(), domain.GameRequest{GameID: g.ID, By: seat(g, color)}, g.Ply(), turn, present); err != nil {
		t.Fatalf("%s plays %s: %v", color, turn, err)
	}
}

func TestPlayByReplyWithoutMessageIDIsAnsweredOnce(t *testing.T) {
	f := newFixture(t)
	r := domain.Reply{GameID: f.game.ID, Color: white, From: "ann@example.org", Lines: []string{"hello"}}
	first, err := f.svc.PlayByReply(t.Context(), r)
	if err != nil || first.Status != domain.ReplyRefused {
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

func TestPlayByReplyRateLimitIgnores(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	reply := func(i int) domain.ReplyOutcome {
		t.Helper()
		out, err := f.svc.PlayByReply(ctx, domain.Reply{GameID: f.game.ID, Color: white, From: "ann@example.org",
			MessageID: fmt.Sprintf("m%d", i), Lines: []string{"thanks"}})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for i := range domain.ReplyLimit {
		if out := reply(i); out.Status != domain.ReplyRefused {
			t.Fatalf("reply %d: %+v, want refused (no turn)", i, out)
		}
	}
	n := len(f.store.Queued())
	if out := reply(domain.ReplyLimit); out != (domain.ReplyOutcome{Status: domain.ReplyIgnored, Reason: domain.ReplyRateLimited}) {
		t.Errorf("reply over the limit: %+v, want ignored", out)
	}
	if len(f.store.Queued()) != n {
		t.Error("a reply over the limit was answered")
	}
	// The limit is the seat's: the other seat still answers.
	out, err := f.svc.PlayByReply(ctx, domain.Reply{GameID: f.game.ID, Color: black, From: "bob@example.org",
		MessageID: "b1", Lines: []string{"hi"}})
	if err != nil || out.Status != domain.ReplyRefused {
		t.Errorf("the other seat: %+v, %v", out, err)
	}
	// Once the hour has passed, the seat answers again.
	f.now = f.now.Add(domain.ReplyPeriod)
	if out := reply(100); out.Status != domain.ReplyRefused {
		t.Errorf("an hour later: %+v", out)
	}
}

func TestPlayByReplyLesSetup(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	g, err := f.svc.CreateGame(ctx, domain.NewGameSpec{Ruleset: "les", Players: []domain.Player{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}}, creatorID)
	if err != nil {
		t.Fatal(err)
	}
	setup, ok := exampleOf(g.Rules)
	if !ok {
		t.Fatal("no example setup")
	}
	out, err := f.svc.PlayByReply(ctx, domain.Reply{GameID: g.ID, Color: "setter", From: "ann@example.org",
		MessageID: "s1", Lines: []string{"black", setup}})
	if err != nil || out.Status != domain.ReplyPlayed || out.Turn != setup {
		t.Fatalf("the setup by reply: %+v, %v", out, err)
	}
	// "black" is the chooser's ply, not the setter's: it was no turn at ply 0.
	if g, _ = f.store.Game(ctx, g.ID); g.Ply() != 1 {
		t.Errorf("ply %d, want 1", g.Ply())
	}
}

// exampleOf is a ruleset's example ply, for rules that give one.
func exampleOf(r domain.Rules) (string, bool) {
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
		want domain.ReplyOutcome
	}{
		{opening + ".", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: opening}},
		{opening + "!", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: opening}},
		{"\ufeff" + opening, domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: opening}},
		{"e5e4:\u200be4d4:d4c4\u200d", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: opening}},
		{"Resign!", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: "Resign"}},
		{"I pass: nil", domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNoTurn}},
		{"I play " + opening + " now", domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNoTurn}},
		{opening + "?", domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNoTurn}},
	}
	for i, tt := range lessTests {
		t.Run("less "+tt.line, func(t *testing.T) {
			f := newFixture(t)
			got, err := f.svc.PlayByReply(t.Context(), domain.Reply{GameID: f.game.ID, Color: white, From: "ann@example.org",
				MessageID: fmt.Sprintf("l%d", i), Lines: []string{"Hi,", tt.line}})
			if err != nil || got != tt.want {
				t.Errorf("PlayByReply = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}

	lesTests := []struct {
		line string
		want domain.ReplyOutcome
	}{
		{"I take black", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: "black"}},
		{"White, please!", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: "White"}},
		{"Black. Black it is.", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: "Black"}},
		{"\u200bwhite.", domain.ReplyOutcome{Status: domain.ReplyPlayed, Turn: "white"}},
		{"black or white?", domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNoTurn}},
		{"I take black, not white", domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNoTurn}},
		{"blackish", domain.ReplyOutcome{Status: domain.ReplyRefused, Reason: domain.ReplyNoTurn}},
	}
	for i, tt := range lesTests {
		t.Run("les "+tt.line, func(t *testing.T) {
			f := newFixture(t)
			ctx := t.Context()
			g, err := f.svc.CreateGame(ctx, domain.NewGameSpec{Ruleset: "les", Players: []domain.Player{
				{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}}, creatorID)
			if err != nil {
				t.Fatal(err)
			}
			// At the setup, a colour is no ply, in a sentence or not.
			out, err := f.svc.PlayByReply(ctx, domain.Reply{GameID: g.ID, Color: "setter", From: "ann@example.org",
				MessageID: fmt.Sprintf("s%d", i), Lines: []string{tt.line}})
			if err != nil || out.Status != domain.ReplyRefused || out.Reason != domain.ReplyNoTurn {
				t.Fatalf("%q at the setup: %+v, %v; want no turn", tt.line, out, err)
			}
			setup, _ := exampleOf(g.Rules)
			if _, err := f.svc.PlayByReply(ctx, domain.Reply{GameID: g.ID, Color: "setter", From: "ann@example.org",
				MessageID: fmt.Sprintf("t%d", i), Lines: []string{setup}}); err != nil {
				t.Fatal(err)
			}
			got, err := f.svc.PlayByReply(ctx, domain.Reply{GameID: g.ID, Color: "chooser", Ply: 1, From: "bob@example.org",
				MessageID: fmt.Sprintf("c%d", i), Lines: []string{"Thanks Ann.", tt.line}})
			if err != nil || got != tt.want {
				t.Errorf("PlayByReply = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}
