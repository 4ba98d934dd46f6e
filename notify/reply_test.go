package notify

import (
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	ruleset2 "github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// replyingLinks are fakeLinks with reply addresses on.
type replyingLinks struct{ fakeLinks }

func (replyingLinks) ReplyAddress(gameID, color string, ply int) (string, error) {
	return fmt.Sprintf("play+%s.%s.%d.mac@less.example", gameID, color, ply), nil
}

// replyMail is a game of ruleset between ann and bob in one locale, after
// the replies given were played (as White or the setter), rendered: every
// email the outbox holds, by kind and recipient ("your_turn bob").
func replyMail(t *testing.T, ruleset, locale string, replies ...[]string) (games.Game, map[string]Message) {
	t.Helper()
	rs := make([]games.Reply, len(replies))
	for i, lines := range replies {
		rs[i].Lines = lines
	}
	return replyMailWith(t, games.ReplyLimits{}, ruleset, locale, rs)
}

// replyMailWith is replyMail with limits, and replies from ann to the first
// seat with anything else they say.
func replyMailWith(t *testing.T, limits games.ReplyLimits, ruleset, locale string, replies []games.Reply) (games.Game, map[string]Message) {
	t.Helper()
	ctx := t.Context()
	db, err := sqlite.Open(ctx, repotest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	svc := games.NewService(games.Config{Store: db, Now: func() time.Time { return now }, Replies: limits})
	org, err := accountsAt(db, now).ExchangeLogin(ctx, requestLogin(t, db, "org@example.org", now), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	spec := games.NewGameSpec{Ruleset: ruleset, Players: []games.Player{
		{Name: "Ann", Email: "ann@example.org", Locale: locale}, {Name: "Bob", Email: "bob@example.org", Locale: locale}}}
	if ruleset == less.RulesetName {
		spec.Params = less.Params{Walls: strings.Repeat("0", 60)}.Map()
	}
	g, err := svc.CreateGame(ctx, spec, org.Session.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Each email is rendered when it is queued, as the outbox worker sends
	// it: before the game moves on.
	r := &Renderer{Store: db, Links: replyingLinks{}, Host: "less.example"}
	out := map[string]Message{}
	var seen int64
	render := func() {
		due, err := db.DueMail(ctx, now, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range due {
			if m.Notice.Kind == domain.NoticeLogin || m.ID <= seen {
				continue
			}
			seen = m.ID
			msg, err := r.Render(ctx, m)
			if err != nil {
				t.Fatalf("render %s: %v", m.Notice.Kind, err)
			}
			key := string(m.Notice.Kind) + " " + strings.TrimSuffix(m.Email, "@example.org")
			if m.Notice.Reply != nil && m.Notice.Reply.Reason != "" {
				key += " " + m.Notice.Reply.Reason
			}
			out[key] = msg
		}
	}
	render()
	first := g.Seats[0].Color
	for i, reply := range replies {
		now = now.Add(time.Minute)
		reply.GameID, reply.Color, reply.From, reply.MessageID = g.ID, first, "ann@example.org", fmt.Sprint("m", i)
		res, err := svc.PlayByReply(ctx, reply)
		if err != nil || res.Status == games.ReplyIgnored {
			t.Fatalf("reply %+v: %+v, %v", reply, res, err)
		}
		render()
	}
	if g, err = db.Game(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	return g, out
}

// requestLogin asks for a login link and returns its token.
func requestLogin(t *testing.T, db *sqlite.DB, email string, now time.Time) string {
	t.Helper()
	if err := accountsAt(db, now).RequestLogin(t.Context(), email, "en"); err != nil {
		t.Fatal(err)
	}
	due, err := db.DueMail(t.Context(), now, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range due {
		if m.Email == email && m.Notice.Kind == domain.NoticeLogin {
			return m.Secret
		}
	}
	t.Fatal("no login mail")
	return ""
}

// The emails of a game played by replying, in every language: the seat to
// move is given its reply address and an example turn that is legal; the
// answers to replies say what happened, with the board.
func TestReplyMailLess(t *testing.T) {
	for _, locale := range languages {
		t.Run(locale, func(t *testing.T) {
			p := phrasesFor(locale)
			opening := "e5e4:e4d4:d4c4"
			g, mail := replyMail(t, less.RulesetName, locale,
				[]string{"hello"}, []string{"e5e4:a1a2"}, []string{opening})
			inviteAnn, inviteBob := mail["invitation ann"], mail["invitation bob"]
			if want := "play+" + g.ID + ".white.0.mac@less.example"; inviteAnn.ReplyTo != want || inviteBob.ReplyTo != "" {
				t.Errorf("Reply-To of the invitations: ann %q (want %q), bob %q (want none)", inviteAnn.ReplyTo, want, inviteBob.ReplyTo)
			}
			checkExample(t, inviteAnn, p, startOf(t, less.RulesetName))
			if strings.Contains(inviteBob.Text, "resign") {
				t.Errorf("the invitation of the seat not to move says how to reply:\n%s", inviteBob.Text)
			}
			turn := mail["your_turn bob"]
			if want := "play+" + g.ID + ".black.1.mac@less.example"; turn.ReplyTo != want {
				t.Errorf("Reply-To of the your-turn email: %q, want %q", turn.ReplyTo, want)
			}
			checkExample(t, turn, p, g.Rules)
			noTurn := mail["reply_refused ann no_turn"]
			illegal := mail["reply_refused ann illegal_turn"]
			accepted := mail["reply_accepted ann"]
			for name, c := range map[string]struct {
				m    Message
				want []string
			}{
				"no turn": {noTurn, []string{p.ReplyNoTurn, "  - hello\n", p.ReplyAgain, legend(p, 6)}},
				"illegal": {illegal, []string{say(p.ReplyIllegal, map[string]any{"Turn": "e5e4:a1a2", "Rule": "not_your_piece",
					"RuleRef": "M6", "Part": 2}), p.ReplyAgain, legend(p, 6)}},
				"accepted": {accepted, []string{say(p.ReplyAccepted, map[string]any{"Turn": opening}), legend(p, 6)}},
			} {
				for _, w := range c.want {
					if !strings.Contains(c.m.Text, w) {
						t.Errorf("%s: the text has no %q:\n%s", name, w, c.m.Text)
					}
				}
				if c.m.HTML == "" || len(c.m.Images) != 1 {
					t.Errorf("%s: no HTML part with the board", name)
				}
				if c.m.ThreadID == "" {
					t.Errorf("%s: not in the seat's thread", name)
				}
			}
			if want := "play+" + g.ID + ".white.0.mac@less.example"; noTurn.ReplyTo != want || illegal.ReplyTo != want {
				t.Errorf("refusals: Reply-To %q, %q; want %q to answer again", noTurn.ReplyTo, illegal.ReplyTo, want)
			}
			if accepted.ReplyTo != "" {
				t.Errorf("the confirmation has Reply-To %q: it is not the reader's turn", accepted.ReplyTo)
			}
		})
	}
}

func TestReplyMailLes(t *testing.T) {
	for _, locale := range languages {
		t.Run(locale, func(t *testing.T) {
			p := phrasesFor(locale)
			g, mail := replyMail(t, "les", locale, []string{"e5"})
			invite := mail["invitation ann"]
			if want := "play+" + g.ID + ".setter.0.mac@less.example"; invite.ReplyTo != want {
				t.Errorf("Reply-To of the setter's invitation: %q, want %q", invite.ReplyTo, want)
			}
			checkExample(t, invite, p, startOf(t, "les"))
			refused := mail["reply_refused ann no_turn"]
			if !strings.Contains(refused.Text, p.ReplyNoTurn) || !strings.Contains(refused.Text, "  - e5\n") {
				t.Errorf("a one-point reply at the setup is no turn:\n%s", refused.Text)
			}
		})
	}
}

// The refusals that are no judgement of the turn say why in every
// language, with the board and the way to answer again: too many replies,
// and replies that were not read (forged, broken, too large).
func TestReplyMailRefusals(t *testing.T) {
	for _, locale := range languages {
		t.Run(locale, func(t *testing.T) {
			p := phrasesFor(locale)
			limits := games.ReplyLimits{Seat: games.ReplyRate{N: 1, Per: time.Hour}}
			g, mail := replyMailWith(t, limits, less.RulesetName, locale, []games.Reply{
				{Lines: []string{"hello"}}, {Lines: []string{"hello again"}}, {Unread: games.ReplyAuthFailed},
				{Unread: games.ReplyMalformed}, {Unread: games.ReplyTooLarge}})
			for reason, want := range map[string]string{
				games.ReplyRateLimited: say(p.ReplyLimited, map[string]any{"Minutes": 59}),
				games.ReplyAuthFailed:  p.ReplyForged,
				games.ReplyMalformed:   p.ReplyMalformed,
				games.ReplyTooLarge:    p.ReplyTooLarge,
			} {
				m, ok := mail["reply_refused ann "+reason]
				if !ok {
					t.Errorf("%s: no email", reason)
					continue
				}
				for _, w := range []string{want, p.ReplyAgain, legend(p, 6)} {
					if !strings.Contains(m.Text, w) {
						t.Errorf("%s: the text has no %q:\n%s", reason, w, m.Text)
					}
				}
				if want := "play+" + g.ID + ".white.0.mac@less.example"; m.ReplyTo != want {
					t.Errorf("%s: Reply-To %q, want %q", reason, m.ReplyTo, want)
				}
				if m.HTML == "" || len(m.Images) != 1 {
					t.Errorf("%s: no HTML part with the board", reason)
				}
			}
		})
	}
}

// checkExample checks that an email says how to reply, with an example
// that is a legal ply of rules (the game as the email shows it).
func checkExample(t *testing.T, m Message, p *phrases, rules games.Rules) {
	t.Helper()
	before, after, ok := strings.Cut(p.ReplyHow, "{{.Example}}")
	if !ok {
		t.Fatalf("ReplyHow has no example: %q", p.ReplyHow)
	}
	_, rest, ok := strings.Cut(m.Text, before)
	example, _, ok2 := strings.Cut(rest, after)
	if !ok || !ok2 || example == "" {
		t.Fatalf("the text does not say how to reply:\n%s", m.Text)
	}
	if !strings.Contains(m.HTML, html.EscapeString(before)) {
		t.Errorf("the HTML part does not say how to reply")
	}
	if err := rules.Check(example); err != nil {
		t.Errorf("the example %q is not legal: %v", example, err)
	}
}

// startOf is a game of ruleset as replyMail starts it.
func startOf(t *testing.T, ruleset string) games.Rules {
	t.Helper()
	o := ruleset2.Options{Players: 2}
	if ruleset == less.RulesetName {
		o.Params = less.Params{Walls: strings.Repeat("0", 60)}.Map()
	}
	rs, _ := domain.Rulesets.Get(ruleset)
	g, _, err := rs.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
