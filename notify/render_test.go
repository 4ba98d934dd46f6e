package notify

import (
	"bytes"
	"flag"
	"fmt"
	"html"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenText is what a golden file holds of an email: recipient, subject
// and text.
func goldenText(m Message) string {
	return "To: " + m.To + "\nSubject: " + m.Subject + "\n\n" + m.Text
}

// golden compares got with the golden file at path, or writes it with
// -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update and read the diff):\n%s", path, got)
	}
}

// fakeLinks makes stable links so that golden files do not change.
type fakeLinks struct{}

func (fakeLinks) MoveURL(gameID, c string, version int) (string, error) {
	return fmt.Sprintf("https://less.example/play/%s#t=seat-%s-%d", gameID, c, version), nil
}
func (fakeLinks) WatchURL(gameID string, _ int) (string, error) {
	return "https://less.example/play/" + gameID + "#t=watch", nil
}
func (fakeLinks) LoginURL(token string) string { return "https://less.example/login#t=" + token }
func (fakeLinks) NeverEmailURL(email string) (string, error) {
	return "https://less.example/never-email?t=stop-" + email, nil
}
func (fakeLinks) TournamentURL(id string) string { return "https://less.example/tournaments/" + id }
func (fakeLinks) RulesURL(game, locale string) string {
	if game == "les" {
		return "https://less.example/rules/les?lang=" + locale
	}
	return "https://less.example/rules?lang=" + locale
}
func (fakeLinks) UnsubscribeURL(email string) (string, error) {
	return "https://less.example/unsubscribe?t=unsub-" + email, nil
}

// ReplyAddress is off: the golden files show the emails without it.
func (fakeLinks) ReplyAddress(gameID, color string, ply int) (string, error) { return "", nil }

// mailbook plays one whole game (conformance game 0) with players of one
// locale, renews a link and asks for a login, and returns every email the
// outbox holds, rendered, with the game id replaced by a fixed one.
func mailbook(t *testing.T, locale string) []Message {
	t.Helper()
	ctx := t.Context()
	db, err := sqlite.Open(ctx, repotest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	vector := lessGame(t, "game0")
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	// The organiser signs in (the first email: a login link), then creates the game.
	if err := accountsAt(db, now).RequestLogin(ctx, "org@example.org", locale); err != nil {
		t.Fatal(err)
	}
	login, err := db.DueMail(ctx, now, 1)
	if err != nil || len(login) != 1 {
		t.Fatalf("login mail: %v %v", login, err)
	}
	grant, err := accountsAt(db, now).ExchangeLogin(ctx, login[0].Secret, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	g, err := serviceAt(db, now).CreateGame(ctx, games.NewGameSpec{
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org", Locale: locale}, {Name: "Bob", Email: "bob@example.org", Locale: locale}}, Params: less.Params{Walls: vector.Walls}.Map(),
	}, grant.Session.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range vector.Turns {
		_, _, err := games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: now,
			Compute: func(g games.Game) (sqlite.Change, error) {
				c := g.ToMove()
				sub, err := games.SubmitTurn(g, games.Actor{SeatColor: &c}, g.Ply(), text, now)
				return sqlite.Change{Game: sub.Game, Played: sub.Played, Notices: sub.Notices}, err
			}})
		if err != nil {
			t.Fatalf("turn %q: %v", text, err)
		}
	}
	_, _, err = games.UpdateGame(ctx, db, nil, games.GameUpdate{GameID: g.ID, Now: now,
		Compute: func(g games.Game) (sqlite.Change, error) {
			ng, n, err := games.RotateSeat(g, games.Actor{UserID: grant.Session.User.ID}, "black", now)
			return sqlite.Change{Game: ng, Notices: []domain.Notice{n}}, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	due, err := db.DueMail(ctx, now, 1000)
	if err != nil {
		t.Fatal(err)
	}
	r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
	var out []Message
	for _, m := range due {
		if m.Notice.Kind == domain.NoticeLogin {
			m.Secret = "LOGINCODE"
		}
		msg, err := r.Render(ctx, m)
		if err != nil {
			t.Fatalf("render %s: %v", m.Notice.Kind, err)
		}
		fixed := strings.NewReplacer(g.ID, "g_abcdefghij", shortID(g.ID), "abcdef")
		msg.Subject, msg.Text, msg.HTML = fixed.Replace(msg.Subject), fixed.Replace(msg.Text), fixed.Replace(msg.HTML)
		msg.MessageID, msg.ThreadID = fixed.Replace(msg.MessageID), fixed.Replace(msg.ThreadID)
		out = append(out, msg)
	}
	return out
}

// One golden file per kind of email and language: subject and text.
// Run `go test ./notify -run Golden -update` after a wording change and
// read the diff.
func TestGolden(t *testing.T) {
	kinds := map[domain.NoticeKind]bool{}
	for _, locale := range languages {
		t.Run(locale, func(t *testing.T) {
			msgs := mailbook(t, locale)
			seen := map[string]bool{}
			for _, m := range msgs {
				kind := classify(m)
				name := fmt.Sprintf("%s.%s", kind, locale)
				if seen[name] {
					continue // the first email of each kind stands for the rest
				}
				seen[name] = true
				kinds[domain.NoticeKind(kind)] = true
				golden(t, filepath.Join("testdata", "golden", name+".txt"), goldenText(m))
			}
			for _, kind := range []string{"login", "invitation", "your_turn", "game_over", "new_link"} {
				if !seen[kind+"."+locale] {
					t.Errorf("no %s email in %s", kind, locale)
				}
			}
		})
	}
}

// classify names the kind of a rendered email from its Message-ID and text;
// Render does not return the kind, and the mailbook knows the order.
// finished says whether an email has the link to a finished game.
func finished(text string) bool {
	for _, p := range mailPhrases {
		if strings.Contains(text, p.FinishedLabel) {
			return true
		}
	}
	return false
}

func classify(m Message) string {
	switch {
	case m.Unsubscribe == "":
		return "login"
	case m.ThreadID == "":
		return "invitation"
	case finished(m.Text):
		return "game_over" // its link opens the finished game
	case strings.Contains(m.Text, "seat-black-2"):
		return "new_link"
	case strings.Contains(m.Text, "#t=seat-"):
		return "your_turn"
	default:
		return "game_over"
	}
}

// Every email of every language has both parts, the board picture, and
// nothing remote; names are escaped in HTML.
func TestRenderedParts(t *testing.T) {
	for _, locale := range languages {
		for _, m := range mailbook(t, locale) {
			if m.Subject == "" || m.Text == "" || m.HTML == "" {
				t.Fatalf("%s: empty part in %+v", locale, m)
			}
			if strings.Contains(m.HTML, "<script") || strings.Contains(m.HTML, "src=\"http") {
				t.Errorf("%s: HTML loads something remote:\n%s", locale, m.HTML)
			}
			shows := strings.Contains(m.HTML, `src="cid:`)
			if !shows {
				if len(m.Images) != 0 {
					t.Errorf("%s: an image is attached but not shown", locale)
				}
				continue // login and new-link emails show no board
			}
			if len(m.Images) != 1 || !strings.Contains(m.HTML, `src="cid:`+m.Images[0].ContentID+`"`) {
				t.Errorf("%s: board picture missing", locale)
				continue
			}
			img, err := png.Decode(bytes.NewReader(m.Images[0].PNG))
			if err != nil || img.Bounds().Dx() < 200 {
				t.Errorf("%s: board PNG: %v", locale, err)
			}
		}
	}
}

func TestNamesCannotBecomeMarkup(t *testing.T) {
	d := doc{blocks: []block{{text: `Hello <b onclick="x()">Eve</b> & "friends"`}}}
	html := d.html(`<title>`, "alt")
	if strings.Contains(html, "<b onclick") || !strings.Contains(html, "&lt;b onclick=") {
		t.Errorf("unescaped:\n%s", html)
	}
}

func TestResultText(t *testing.T) {
	tests := []struct {
		r    less.Result
		size int
		want string
	}{
		{less.Result{Reason: less.ReasonComplete, Winner: less.SideWhite, Margin: 2}, 6, "White won by 2"},
		{less.Result{Reason: less.ReasonComplete, Draw: true}, 6, "a draw"},
		{less.Result{Reason: less.ReasonResignation, Winner: less.SideWhite, Loser: less.SideBlack, Margin: 10}, 6, "White won by 10 (Black resigned)"},
		{less.Result{Reason: less.ReasonTimeout, Winner: less.SideBlack, Loser: less.SideWhite, Margin: 12}, 8, "Black and Red won by 12 (Yellow and White ran out of time)"},
		{less.Result{Reason: less.ReasonTurnLimit, Winner: less.SideBlack, Loser: less.SideWhite, Margin: 10, BlockedCorner: true}, 6, "Black won by 10 (a piece of White stayed on its start corner)"},
		{less.Result{Reason: less.ReasonTurnLimit, Winner: less.SideBlack, Loser: less.SideWhite, Margin: 3}, 6, "Black won by 3 (the turn limit was reached)"},
		{less.Result{Reason: less.ReasonAdjudicated, Winner: less.SideWhite, Margin: 4}, 6, "White won by 4 (adjudicated at the end of the round)"},
		{less.Result{Reason: less.ReasonAdjudicated, Winner: less.SideBlack, Loser: less.SideWhite, Margin: 10, BlockedCorner: true}, 6,
			"Black won by 10 (adjudicated at the end of the round; a piece of White stayed on its start corner)"},
	}
	for _, tt := range tests {
		if got := ResultText(phrasesFor("en"), tt.r, tt.size); got != tt.want {
			t.Errorf("ResultText(english, %+v) = %q, want %q", tt.r, got, tt.want)
		}
		// The API says the result with the rules' own English line: the
		// emails' English must say the same.
		if got := tt.r.Line(tt.size); got != tt.want {
			t.Errorf("%+v.Line = %q, want %q", tt.r, got, tt.want)
		}
	}
}

// Every email, of every kind and in every language, carries the link that
// stops all mail to its address, in the text part and in the HTML part.
func TestEveryEmailCarriesNeverEmailLink(t *testing.T) {
	for _, locale := range languages {
		msgs := mailbook(t, locale)
		if len(msgs) == 0 {
			t.Fatalf("%s: no mail", locale)
		}
		p := phrasesFor(locale)
		for _, m := range msgs {
			url, _ := fakeLinks{}.NeverEmailURL(m.To)
			if !strings.Contains(m.Text, p.NeverEmail+"\n"+url+"\n") {
				t.Errorf("%s %s: the text part has no never-email link:\n%s", locale, classify(m), m.Text)
			}
			if !strings.Contains(m.HTML, `<a href="`+html.EscapeString(url)+`" style="color:#666">`+html.EscapeString(p.NeverEmail)+`</a>`) {
				t.Errorf("%s %s: the HTML part has no never-email link:\n%s", locale, classify(m), m.HTML)
			}
		}
	}
}

// The game-over email tells each player what was played since his own last
// turn (the final turn, for the one who did not make it) and links his
// finished game, to step through it or play again.
func TestGameOverSaysTheFinalTurn(t *testing.T) {
	last := lessGame(t, "game0").Turns
	final := last[len(last)-1]
	var over []Message
	for _, m := range mailbook(t, "en") {
		if finished(m.Text) {
			over = append(over, m)
		}
	}
	if len(over) != 2 {
		t.Fatalf("%d game-over emails, want one per player", len(over))
	}
	told := 0
	for _, m := range over {
		if strings.Contains(m.Text, " played "+final) {
			told++
		}
		if !strings.Contains(m.Text, phrasesFor("en").FinishedLabel+"\nhttps://less.example/play/g_abcdefghij#t=seat-") {
			t.Errorf("%s's game-over email does not link the finished game:\n%s", m.To, m.Text)
		}
	}
	if told != 1 {
		t.Errorf("%d game-over emails say the final turn %s, want the one to the player who did not make it", told, final)
	}
}

// In the four-player game the invitation and the your-turn email name the
// reader's team, his partner and the other two.
func TestFourPlayerMailsNameTheTeams(t *testing.T) {
	ctx := t.Context()
	db, err := sqlite.Open(ctx, repotest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if err := accountsAt(db, now).RequestLogin(ctx, "org@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	login, err := db.DueMail(ctx, now, 1)
	if err != nil || len(login) != 1 {
		t.Fatalf("login mail: %v %v", login, err)
	}
	grant, err := accountsAt(db, now).ExchangeLogin(ctx, login[0].Secret, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var players []games.Player
	for _, name := range []string{"Yan", "Bea", "Wim", "Rae"} {
		players = append(players, games.Player{Name: name, Email: strings.ToLower(name) + "@example.org", Locale: "en"})
	}
	if _, err := serviceAt(db, now).CreateGame(ctx, games.NewGameSpec{Players: players}, grant.Session.User.ID); err != nil {
		t.Fatal(err)
	}
	due, err := db.DueMail(ctx, now, 100)
	if err != nil {
		t.Fatal(err)
	}
	r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
	want := map[string]string{
		"wim@example.org": "You play in the team Yellow and White with Yan (Yellow), against Bea (Black) and Rae (Red).",
		"bea@example.org": "You play in the team Black and Red with Rae (Red), against Yan (Yellow) and Wim (White).",
	}
	for _, m := range due {
		line, ok := want[m.Email]
		if !ok || m.Notice.Kind != domain.NoticeInvitation {
			continue
		}
		msg, err := r.Render(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg.Text, line) {
			t.Errorf("%s's invitation lacks %q:\n%s", m.Email, line, msg.Text)
		}
		delete(want, m.Email)
	}
	if len(want) != 0 {
		t.Errorf("no invitation to %v", want)
	}
}
