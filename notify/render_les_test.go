package notify

import (
	"bytes"
	"context"
	"html"
	"image/png"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/internal/vectors"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// lesGameID is the id of the mailbook's game: fixed, so that links and
// subjects are the same in every run.
const lesGameID = "g_abcdefghij"

// newLesGame creates a game of Les on the board of the conformance game
// gc, Ann setting up and Bob choosing, 3 days a turn.
func newLesGame(t *testing.T, locale string, gc vectors.LesGameCase) *mailGame {
	t.Helper()
	return newMailGame(t, games.NewGameSpec{Ruleset: les.RulesetName,
		Params: map[string]string{les.ParamSize: strconv.Itoa(gc.Size)},
		Players: []games.Player{{Name: "Ann", Email: "ann@example.org", Locale: locale},
			{Name: "Bob", Email: "bob@example.org", Locale: locale}},
		Time: games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour}}, lesGameID)
}

// lesMailItem is a rendered email with the notice it is about.
type lesMailItem struct {
	notice domain.Notice
	msg    Message
}

// renderNew renders the mail queued since the last call that keep wants,
// as the worker would now.
func renderNew(t *testing.T, db *sqlite.DB, now time.Time, seen map[int64]bool, keep func(domain.Notice) bool) []lesMailItem {
	t.Helper()
	due, err := db.DueMail(t.Context(), now, 1000)
	if err != nil {
		t.Fatal(err)
	}
	r := &Renderer{Store: db, Links: fakeLinks{}, Host: "less.example"}
	var out []lesMailItem
	for _, m := range due {
		if seen[m.ID] {
			continue
		}
		seen[m.ID] = true
		if !keep(m.Notice) {
			continue
		}
		msg, err := r.Render(context.Background(), m)
		if err != nil {
			t.Fatalf("render %s to %s at ply %d: %v", m.Notice.Kind, m.Notice.Color, m.Notice.Ply, err)
		}
		out = append(out, lesMailItem{m.Notice, msg})
	}
	return out
}

// lesMailbook plays game side5 ( the chooser takes White and
// wins on the stones around the holes, LE3's second tie-break) with
// players of one locale, as the emails go out: the invitations, the
// chooser's your-turn at the choice and its reminder, the setter's first
// turn, the turns, the game over, and a renewed link. It returns the
// emails by golden name. Each locale's is played once per test process.
func lesMailbook(t *testing.T, locale string) map[string]Message {
	t.Helper()
	if m, ok := lesMailbooks[locale]; ok {
		return m
	}
	gc := lesGame(t, "side5")
	lg := newLesGame(t, locale, gc)
	seen := map[int64]bool{}
	var all []lesMailItem
	// The your-turns after the third ply are like the third.
	keep := func(n domain.Notice) bool { return n.Kind != domain.NoticeYourTurn || n.Ply <= 3 }
	deliver := func() { all = append(all, renderNew(t, lg.db, lg.now, seen, keep)...) }
	deliver()
	lg.play(gc.Setup)
	deliver()
	lg.now = lg.now.Add(2*24*time.Hour + time.Minute) // 24 h before the chooser's deadline
	if acted, err := lg.svc.TickGame(t.Context(), lg.g.ID); err != nil || !acted {
		t.Fatalf("tick: %v %v", acted, err)
	}
	deliver()
	lg.play(gc.Choice)
	deliver()
	for _, turn := range gc.Turns {
		lg.play(turn)
		deliver()
	}
	setter := "setter"
	if err := lg.svc.RotateSeat(t.Context(), lg.g.ID, games.Credentials{GameID: lg.g.ID, Seat: &setter, LinkVersion: 1}, setter); err != nil {
		t.Fatal(err)
	}
	deliver()

	out := map[string]Message{}
	for _, m := range all {
		var name string
		n := m.notice
		switch {
		case n.Kind == domain.NoticeInvitation:
			name = "invitation_" + n.Color
		case n.Kind == domain.NoticeYourTurn && n.Ply == 1:
			name = "your_turn_choice"
		case n.Kind == domain.NoticeYourTurn && n.Ply == 2:
			name = "your_turn_first"
		case n.Kind == domain.NoticeYourTurn && n.Ply == 3:
			name = "your_turn"
		case n.Kind == domain.NoticeReminder:
			name = "reminder"
		case n.Kind == domain.NoticeGameOver && n.Color == "setter":
			name = "game_over"
		case n.Kind == domain.NoticeNewLink:
			name = "new_link"
		default:
			continue
		}
		if _, dup := out[name]; dup {
			t.Fatalf("two emails named %s", name)
		}
		out[name] = m.msg
	}
	lesMailbooks[locale] = out
	return out
}

// lesMailbooks are the mailbooks played so far, by locale.
var lesMailbooks = map[string]map[string]Message{}

// lesMailKinds are the golden emails of a game of Les.
var lesMailKinds = []string{"invitation_setter", "invitation_chooser", "your_turn_choice", "reminder",
	"your_turn_first", "your_turn", "game_over", "new_link"}

// One golden file per Les email and language: subject and text. Run
// `go test ./notify -run GoldenLes -update` after a wording change and
// read the diff.
func TestGoldenLes(t *testing.T) {
	for _, locale := range languages {
		t.Run(locale, func(t *testing.T) {
			msgs := lesMailbook(t, locale)
			for _, kind := range lesMailKinds {
				m, ok := msgs[kind]
				if !ok {
					t.Errorf("no %s email", kind)
					continue
				}
				golden(t, filepath.Join("testdata", "golden", "les_"+kind+"."+locale+".txt"), goldenText(m))
			}
		})
	}
}

// Every Les email has both parts, names the game in its subject, answers
// the seat's thread, shows the board picture when the text shows the
// board, and carries the never-email link.
func TestLesEmailParts(t *testing.T) {
	for _, locale := range languages {
		p := phrasesFor(locale)
		for kind, m := range lesMailbook(t, locale) {
			name := locale + " " + kind
			if !strings.HasPrefix(m.Subject, "Les") || !strings.Contains(m.Subject, "Ann – Bob [abcdef]") {
				t.Errorf("%s: subject %q", name, m.Subject)
			}
			wantThread := ""
			if !strings.HasPrefix(kind, "invitation") {
				color := "setter"
				if m.To == "bob@example.org" {
					color = "chooser"
				}
				wantThread = ThreadID(lesGameID, color) + "@less.example"
			}
			if m.ThreadID != wantThread {
				t.Errorf("%s: thread %q, want %q", name, m.ThreadID, wantThread)
			}
			if !strings.Contains(m.Text, " Les ") && !strings.Contains(m.Text, " Les.") {
				t.Errorf("%s: the text never names Les:\n%s", name, m.Text)
			}
			url, _ := fakeLinks{}.NeverEmailURL(m.To)
			if !strings.Contains(m.HTML, `<a href="`+html.EscapeString(url)+`"`) || !strings.Contains(m.Text, p.NeverEmail+"\n"+url+"\n") {
				t.Errorf("%s: no never-email link", name)
			}
			shows := strings.Contains(m.HTML, `src="cid:`+boardCID+`"`)
			if shows != (kind != "new_link") || shows != (len(m.Images) == 1) {
				t.Errorf("%s: board shown %v, %d images", name, shows, len(m.Images))
				continue
			}
			if shows {
				img, err := png.Decode(bytes.NewReader(m.Images[0].PNG))
				if err != nil || img.Bounds().Dx() < 200 {
					t.Errorf("%s: board PNG: %v", name, err)
				}
			}
		}
	}
}

// The game-over email shows the holes on the board: shaded in the picture
// (its pixels differ from the same position drawn during the game) and as
// b and w in the text.
func TestLesGameOverShowsTheHoles(t *testing.T) {
	m := lesMailbook(t, "en")["game_over"]
	if !strings.Contains(m.Text, "b") || !strings.Contains(m.Text, "w ") {
		t.Fatalf("no holes in the diagram:\n%s", m.Text)
	}
	for _, want := range []string{
		"the game is over: White (Bob) won on the stones around the holes.",
		"so the second tie-break decided",
		"  - Black (Ann): 2 holes: 1 (4), 1 (3)",
		"  - White (Bob): 2 holes: 1 (6), 1 (4)",
	} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the game-over email lacks %q:\n%s", want, m.Text)
		}
	}
}
