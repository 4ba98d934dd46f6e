package api_test

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/ruleset"
	"github.com/lesspost/lesspost/domain/ruleset/rulesettest"
	"github.com/lesspost/lesspost/notify"
)

// A third game, registered here and nowhere else: api, notify and repo
// serve it through the ruleset interface, without a line that knows it.
func init() { domain.Rulesets.Register(rulesettest.Toy{}) }

// toyGame is the API's view of a game of a ruleset openapi.yaml does not
// describe: what every game has.
type toyGame struct {
	ID         string   `json:"id"`
	Game       string   `json:"game"`
	Status     string   `json:"status"`
	Ply        int      `json:"ply"`
	ToMove     *string  `json:"to_move"`
	YourColors []string `json:"your_colors"`
	Diagram    string   `json:"diagram"`
	Seats      []struct {
		Color, Name string
	} `json:"seats"`
	Result *struct {
		Reason  string   `json:"reason"`
		Winners []string `json:"winners"`
		Text    string   `json:"text"`
	} `json:"result"`
}

// newToyHarness is a harness whose client does not check responses against
// openapi.yaml, which describes the games of Less and Les only.
func newToyHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.client = &http.Client{}
	return h
}

// newToyGame creates a game of the toy for Ann (White) and Bob (Black) and
// returns it with the seat tokens from the invitations, checked.
func newToyGame(t *testing.T, h *harness) (g toyGame, tokens map[string]string) {
	t.Helper()
	req := map[string]any{"game": rulesettest.Name,
		"players": []map[string]any{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}}
	h.do("POST", "/v1/games", h.login("org@example.org"), req).want(t, http.StatusCreated).decode(t, &g)
	if g.Game != rulesettest.Name || g.Status != "active" || g.Ply != 0 || g.ToMove == nil || *g.ToMove != "white" {
		t.Fatalf("created %+v", g)
	}
	mail := h.deliver()
	tokens = map[string]string{}
	for email, color := range map[string]string{"ann@example.org": "white", "bob@example.org": "black"} {
		m := only(t, mail, email)
		if !strings.HasPrefix(m.Subject, "Toy: Ann – Bob") || !strings.Contains(m.Text, "a game of Toy by correspondence. You play "+strings.ToUpper(color[:1])+color[1:]) {
			t.Errorf("invitation to %s: %q\n%s", email, m.Subject, m.Text)
		}
		// Nothing of another game's rules: the invitation says only what
		// the toy's rules say through the interface.
		for _, other := range []string{"Less", "Les ", "pieces", "stone"} {
			if strings.Contains(m.Text, other) || strings.Contains(m.HTML, other) {
				t.Errorf("invitation to %s speaks of %q:\n%s", email, other, m.Text)
			}
		}
		checkPicture(t, m, nil)
		_, tokens[color] = moveLink(t, m)
	}
	return g, tokens
}

func TestToyGameThroughTheAPIAndEmails(t *testing.T) {
	h := newToyHarness(t)
	g, tokens := newToyGame(t, h)

	// Legal moves are placements on empty squares; a taken square is refused.
	var moves struct {
		Moves []struct{ From, To, Kind string } `json:"moves"`
	}
	h.do("GET", "/v1/games/"+g.ID+"/moves", tokens["white"], nil).want(t, http.StatusOK).decode(t, &moves)
	if len(moves.Moves) != 9 || moves.Moves[0].From != "" || moves.Moves[0].Kind != "place" {
		t.Fatalf("moves at the start: %+v", moves.Moves)
	}

	// White wins along the top row, a1, b1, c1, against a2, b2.
	plies := []string{"a1", "a2", "b1", "b2", "c1"}
	var placed []string
	for i, ply := range plies {
		mover := *g.ToMove
		if i == 3 {
			h.do("POST", "/v1/games/"+g.ID+"/turns", tokens[mover], map[string]any{"turn": "a1", "ply": g.Ply},
				"Idempotency-Key", fmt.Sprintf("toy-taken-%d", i)).want(t, http.StatusUnprocessableEntity)
		}
		var preview struct {
			Turn    string `json:"turn"`
			Diagram string `json:"diagram"`
		}
		h.do("POST", "/v1/games/"+g.ID+"/preview", tokens[mover], map[string]any{"turn": strings.ToUpper(ply)}).
			want(t, http.StatusOK).decode(t, &preview)
		if preview.Turn != ply || !strings.Contains(preview.Diagram, "\n") {
			t.Errorf("preview of %s: %+v", ply, preview)
		}
		var played struct {
			Game toyGame `json:"game"`
		}
		h.do("POST", "/v1/games/"+g.ID+"/turns", tokens[mover], map[string]any{"turn": ply, "ply": g.Ply},
			"Idempotency-Key", fmt.Sprintf("toy-%d", i)).want(t, http.StatusCreated).decode(t, &played)
		g = played.Game
		placed = append(placed, ply)
		mail := h.deliver()
		if g.Status == "finished" {
			for _, email := range []string{"ann@example.org", "bob@example.org"} {
				m := only(t, mail, email)
				if !strings.Contains(m.Text, "White won (three in a row)") {
					t.Errorf("game over email to %s: %q\n%s", email, m.Subject, m.Text)
				}
				checkPicture(t, m, placed)
			}
			break
		}
		next := map[string]string{"white": "ann@example.org", "black": "bob@example.org"}[*g.ToMove]
		m := only(t, mail, next)
		if !strings.Contains(m.Text, "it is your turn") || !strings.Contains(m.Text, ply) {
			t.Fatalf("after %s: %v\n%s", ply, subjects(mail), m.Text)
		}
		checkPicture(t, m, placed)
		_, tokens[*g.ToMove] = moveLink(t, m)
	}
	if g.Status != "finished" || g.Result == nil || g.Result.Reason != "complete" || len(g.Result.Winners) != 1 ||
		g.Result.Winners[0] != "white" || g.Result.Text != "White won (three in a row)" {
		t.Fatalf("after the top row: %+v, result %+v", g, g.Result)
	}

	// The board to draw, the record, and the history step back.
	var board struct {
		Layout string                         `json:"layout"`
		Pieces []struct{ Cell, Color string } `json:"pieces"`
		Path   []struct{ From, To string }    `json:"path"`
	}
	h.do("GET", "/v1/games/"+g.ID+"/view", tokens["white"], nil).want(t, http.StatusOK).decode(t, &board)
	if board.Layout != "squares" || len(board.Pieces) != 5 || len(board.Path) != 1 || board.Path[0].To != "c1" || board.Path[0].From != "" {
		t.Errorf("board %+v", board)
	}
	h.do("GET", "/v1/games/"+g.ID+"/view?ply=2", tokens["white"], nil).want(t, http.StatusOK).decode(t, &board)
	if len(board.Pieces) != 2 || board.Path[0].To != "a2" {
		t.Errorf("board after 2 plies %+v", board)
	}
	rec := h.do("GET", "/v1/games/"+g.ID+"/record", tokens["black"], nil).want(t, http.StatusOK)
	if text := string(rec.body); !strings.Contains(text, "a1\na2\nb1\nb2\nc1\n# white+1") || !strings.Contains(text, `[White "Ann"]`) ||
		!strings.Contains(text, `[GameId "`+g.ID+`"]`) {
		t.Errorf("record:\n%s", text)
	}
}

// checkPicture checks the email's board picture: one PNG that decodes, the
// very picture of the board after the plies placed with the last one
// marked, and, once a stone is placed, not the picture of the empty board.
func checkPicture(t *testing.T, m notify.Message, placed []string) {
	t.Helper()
	if len(m.Images) != 1 {
		t.Fatalf("%q has %d pictures, want the board", m.Subject, len(m.Images))
	}
	pic := m.Images[0].PNG
	img, err := png.Decode(bytes.NewReader(pic))
	if err != nil || img.Bounds().Dx() < 100 || img.Bounds().Dy() < 100 {
		t.Fatalf("%q: the picture does not decode as a board: %v", m.Subject, err)
	}
	want, empty := toyPicture(t, placed), toyPicture(t, nil)
	if !bytes.Equal(pic, want) {
		t.Errorf("%q: the picture is not the board after %v", m.Subject, placed)
	}
	if len(placed) > 0 && bytes.Equal(pic, empty) {
		t.Errorf("%q: the picture shows no stone after %v", m.Subject, placed)
	}
}

// toyPicture is the picture of the toy's board after plies, the last marked.
func toyPicture(t *testing.T, plies []string) []byte {
	t.Helper()
	g, _, err := rulesettest.Toy{}.Start(ruleset.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	last := ""
	for _, p := range plies {
		if _, err := g.Play(p); err != nil {
			t.Fatal(err)
		}
		last = p
	}
	b, err := g.Board(last)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := notify.BoardPNG(b)
	if err != nil {
		t.Fatal(err)
	}
	return pic
}

// The play page plays the toy by tapping empty squares: it draws the board
// from GET /view, offers the placements GET /moves lists, and submits the
// ply, knowing no more of the game than of Less's moves.
func TestToyGameOnThePlayPage(t *testing.T) {
	h := newToyHarness(t)
	g, tokens := newToyGame(t, h)
	p := openBrowser(t, 1280, 900)
	p.open(h.url + "/play/" + g.ID + "#t=" + tokens["white"])
	p.waitFor("the turn panel", `!document.getElementById('turn').hidden`)
	if !strings.Contains(p.text("#status"), "Your turn") {
		t.Fatalf("status %q", p.text("#status"))
	}
	p.waitFor("the placements", `document.querySelectorAll('#board .dest').length === 9`)
	p.click(`#board .dest[data-sq="b2"]`)
	p.waitFor("the stone on b2", `document.querySelector('.piece-white[data-sq="b2"]')`)
	if got := eval[string](p, "document.getElementById('notation').value"); got != "b2" {
		t.Errorf("notation box %q, want b2", got)
	}
	p.waitFor("Submit to be enabled", `!document.getElementById('submit').disabled`)
	p.click("#submit")
	p.waitFor("the played notice", `!document.getElementById('notice').hidden`)
	if p.visible("#turn") || !strings.Contains(p.text("#status"), "Black (Bob) to move") {
		t.Errorf("after the ply: status %q, panel visible %v", p.text("#status"), p.visible("#turn"))
	}
	saveScreenshot(t, p, "toy-played.png")

	var after toyGame
	h.do("GET", "/v1/games/"+g.ID, tokens["white"], nil).want(t, http.StatusOK).decode(t, &after)
	if after.Ply != 1 || after.ToMove == nil || *after.ToMove != "black" || !strings.Contains(after.Diagram, "2 . W .") {
		t.Fatalf("stored game after the page's ply: %+v", after)
	}
	m := only(t, h.deliver(), "bob@example.org")
	checkPicture(t, m, []string{"b2"})
}
