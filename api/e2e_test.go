package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/internal/vectors"
)

func twoPlayers(walls string) map[string]any {
	return map[string]any{
		"players": []map[string]any{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}},
		"board":   map[string]any{"walls": walls},
	}
}

// A whole two-player game as its players meet it: an organiser creates it,
// each player gets an invitation with a personal link, and every turn is
// played with the link from the latest email, which the turn before caused.
func TestTwoPlayerGameByEmail(t *testing.T) {
	h := newHarness(t)
	vector := vectors.Load(t).GameCases[0]
	organiser := h.login("org@example.org")

	res := h.do("POST", "/v1/games", organiser, twoPlayers(vector.Walls)).want(t, http.StatusCreated)
	var g gameJSON
	res.decode(t, &g)
	if res.header.Get("Location") != "/v1/games/"+g.ID || g.Status != "active" || g.Ply != 0 || *g.ToMove != "white" {
		t.Fatalf("created game %+v, Location %q", g, res.header.Get("Location"))
	}

	mail := h.deliver()
	if len(mail) != 2 {
		t.Fatalf("%d emails after creation, want 2 invitations: %v", len(mail), subjects(mail))
	}
	links := map[string]string{} // colour → token from the latest email
	for email, color := range map[string]string{"ann@example.org": "White", "bob@example.org": "Black"} {
		m := only(t, mail, email)
		id, token := moveLink(t, m)
		if id != g.ID || !strings.Contains(m.Text, "You play "+color) || m.Subject != "Less: Ann – Bob ["+g.ID[2:8]+"]" {
			t.Fatalf("invitation to %s: %q, link to %s", email, m.Subject, id)
		}
		if strings.Contains(string(res.body), token) {
			t.Fatal("the creator received a seat token")
		}
		links[strings.ToLower(color)] = token
	}

	for i, turn := range vector.Turns {
		mover := *g.ToMove
		res := h.do("POST", "/v1/games/"+g.ID+"/turns", links[mover], map[string]any{"turn": turn, "ply": g.Ply},
			"Idempotency-Key", fmt.Sprintf("turn-%d", i)).want(t, http.StatusCreated)
		var played struct {
			Game   gameJSON `json:"game"`
			Played []struct {
				Ply   int    `json:"ply"`
				Color string `json:"color"`
				Turn  string `json:"turn"`
			} `json:"played"`
		}
		res.decode(t, &played)
		g = played.Game
		if len(played.Played) != 1 || played.Played[0].Color != mover || played.Played[0].Ply != i+1 {
			t.Fatalf("turn %d played %+v", i+1, played.Played)
		}
		mail := h.deliver()
		if g.Status == "finished" {
			for _, email := range []string{"ann@example.org", "bob@example.org"} {
				if m := only(t, mail, email); !strings.Contains(m.Text, "the game is over: "+g.Result.Text) {
					t.Errorf("game over email to %s: %q\n%s", email, m.Subject, m.Text)
				}
			}
			break
		}
		next := map[string]string{"white": "ann@example.org", "black": "bob@example.org"}[*g.ToMove]
		m := only(t, mail, next)
		if len(mail) != 1 || !strings.Contains(m.Text, "it is your turn") || !strings.Contains(m.Text, played.Played[0].Turn) {
			t.Fatalf("after turn %d: %v\n%s", i+1, subjects(mail), m.Text)
		}
		_, links[*g.ToMove] = moveLink(t, m)
	}

	want := vector.Result
	if g.Status != "finished" || g.Result == nil {
		t.Fatalf("game not finished after every turn: %+v", g)
	}
	if (g.Result.Winner == nil) != (want.Winner == nil) || want.Winner != nil && *g.Result.Winner != *want.Winner ||
		g.Result.Margin != want.Margin || !equalCounts(g.Result.Totals, want.Totals) || !equalCounts(g.Result.Counts, want.Counts) {
		t.Errorf("result %+v, want %+v", *g.Result, want)
	}

	// Anyone who can read the game can export it; the record replays.
	rec := h.do("GET", "/v1/games/"+g.ID+"/record", organiser, nil).want(t, http.StatusOK)
	parsed, err := less.ParseRecord(string(rec.body))
	if err != nil {
		t.Fatalf("exported record does not import: %v\n%s", err, rec.body)
	}
	if r, _ := parsed.Game.Result(); r.Margin != want.Margin || len(parsed.History) != len(vector.Turns) {
		t.Errorf("record replays to %+v with %d turns", r, len(parsed.History))
	}
	if parsed.Players[less.White] != "Ann" || parsed.Players[less.Black] != "Bob" {
		t.Errorf("record players %v", parsed.Players)
	}
	h.do("GET", "/v1/games/"+g.ID+"/record?format=json", links["white"], nil).want(t, http.StatusOK)
	h.do("POST", "/v1/games/"+g.ID+"/turns", links["white"], map[string]any{"turn": "Nil", "ply": g.Ply}).
		want(t, http.StatusConflict, "game_over")
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A whole four-player game: turns chosen by the rules engine, played by the
// link of the player to move, who alone is emailed; the result is the one
// the engine computes for the same turns.
func TestFourPlayerGame(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	emails := map[string]string{"yellow": "y@example.org", "black": "b@example.org", "white": "w@example.org", "red": "r@example.org"}
	var players []map[string]any
	for _, c := range []string{"yellow", "black", "white", "red"} {
		players = append(players, map[string]any{"name": strings.ToUpper(c[:1]) + c[1:], "email": emails[c]})
	}
	var g gameJSON
	h.do("POST", "/v1/games", organiser, map[string]any{"players": players, "board": map[string]any{"seed": "11"},
		"options": map[string]any{"max_turns": 12}}).want(t, http.StatusCreated).decode(t, &g)
	if g.Board.Size != 8 || g.Board.Seed == nil || *g.Board.Seed != "11" || *g.ToMove != "yellow" {
		t.Fatalf("created %+v", g)
	}
	links := map[string]string{}
	mail := h.deliver()
	// Each player's goal, as the board is drawn (S2), with the partner's
	// pieces after his own (M6): on the page (the game's JSON) and in the
	// invitation alike.
	goals := map[string]string{"yellow": "a7–b8 (top right)", "black": "g7–h8 (bottom right)",
		"white": "a1–b2 (top left)", "red": "g1–h2 (bottom left)"}
	for c, email := range emails {
		m := only(t, mail, email)
		_, links[c] = moveLink(t, m)
		want := "Bring your 4 pieces to " + goals[c] + "; once they are all there, you move your partner’s pieces until they are home too."
		if got := h.game(g.ID, links[c]).Goal; got != want {
			t.Errorf("%s's goal %q, want %q", c, got, want)
		}
		if !regexp.MustCompile(regexp.QuoteMeta(want+"\nThe rules of the game:\n") + `https?://[^/\s]+/rules\?lang=en\n`).MatchString(m.Text) {
			t.Errorf("%s's invitation lacks the goal and the rules link:\n%s", c, m.Text)
		}
	}
	if got := h.game(g.ID, organiser).Goal; got != "" {
		t.Errorf("the organiser, who does not play, has a goal: %q", got)
	}

	board, err := less.GenerateBoard(8, 11)
	if err != nil {
		t.Fatal(err)
	}
	engine, _, err := less.NewGame(less.StartPosition(board, false), less.Options{MaxTurns: 12})
	if err != nil {
		t.Fatal(err)
	}
	for g.Status == "active" {
		turn := closerTurn(engine.Position())
		if _, err := engine.Play(turn); err != nil {
			t.Fatal(err)
		}
		mover := *g.ToMove
		var played struct {
			Game gameJSON `json:"game"`
		}
		h.do("POST", "/v1/games/"+g.ID+"/turns", links[mover], map[string]any{"turn": turn.String(), "ply": g.Ply}).
			want(t, http.StatusCreated).decode(t, &played)
		g = played.Game
		if g.Ply != engine.Ply() {
			t.Fatalf("server at ply %d, engine at %d", g.Ply, engine.Ply())
		}
		mail := h.deliver()
		if g.Status == "active" {
			if len(mail) != 1 || mail[0].To != emails[*g.ToMove] {
				t.Fatalf("after ply %d emails %v, want one to %s", g.Ply, subjects(mail), *g.ToMove)
			}
			_, links[*g.ToMove] = moveLink(t, mail[0])
		} else if len(mail) != 4 {
			t.Fatalf("game over emails %v, want 4", subjects(mail))
		}
	}
	want, _ := engine.Result()
	got := g.Result
	if got.Margin != want.Margin || got.Totals["yellow-white"] != want.Totals[less.SideWhite] || got.Totals["black-red"] != want.Totals[less.SideBlack] {
		t.Errorf("result %+v, engine says %+v", *got, want)
	}
	if want.Draw != (got.Winner == nil) || !want.Draw && *got.Winner != less.SideName(want.Winner, 8) {
		t.Errorf("winner %v, engine says %+v", got.Winner, want)
	}
	t.Logf("4-player game over at ply %d: %s", g.Ply, got.Text)
}

// closerTurn is a legal turn that brings the mover's side nearest home by
// Manhattan distance: a cheap, deterministic player.
func closerTurn(p less.Position) less.Turn {
	side := less.SideOf(p.ToMove())
	var best less.Turn
	bestScore := 1 << 30
	p.EachTurn(func(t less.Turn, next less.Position) bool {
		score := 0
		for _, c := range less.SideColors(side, p.Size()) {
			score += distanceHome(next, c)
		}
		if score < bestScore {
			best, bestScore = append(less.Turn(nil), t...), score
		}
		return true
	})
	return best
}

func distanceHome(p less.Position, c less.Color) int {
	target := less.TargetCorner(c, p.Size()).Squares()
	sum := 0
	for _, s := range p.Pieces(c).Squares() {
		d := 1 << 30
		for _, t := range target {
			d = min(d, abs(int(s.Row-t.Row))+abs(int(s.Col-t.Col)))
		}
		sum += d
	}
	return sum
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// The same turn submitted many times at once is played exactly once; the
// others learn that the game moved on.
func TestConcurrentSubmissions(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var g gameJSON
	h.do("POST", "/v1/games", organiser, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated).decode(t, &g)
	_, white := moveLink(t, only(t, h.deliver(), "ann@example.org"))

	const n = 8
	statuses := make([]int, n)
	codes := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res := h.do("POST", "/v1/games/"+g.ID+"/turns", white, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0})
			statuses[i] = res.status
			if res.status >= 400 {
				codes[i] = res.problem(t).Code
			}
		})
	}
	wg.Wait()
	won := 0
	for i := range n {
		switch {
		case statuses[i] == http.StatusCreated:
			won++
		case statuses[i] != http.StatusConflict || codes[i] != "stale_ply":
			t.Errorf("submission %d: %d %s", i, statuses[i], codes[i])
		}
	}
	if won != 1 {
		t.Fatalf("%d submissions won, want exactly 1", won)
	}
	var after gameJSON
	h.do("GET", "/v1/games/"+g.ID, white, nil).want(t, http.StatusOK).decode(t, &after)
	if after.Ply != 1 || after.Counts["white"] != 3 {
		t.Errorf("after the race: ply %d, counts %v", after.Ply, after.Counts)
	}
	var turns struct {
		Turns []json.RawMessage `json:"turns"`
	}
	h.do("GET", "/v1/games/"+g.ID+"/turns", white, nil).want(t, http.StatusOK).decode(t, &turns)
	if len(turns.Turns) != 1 {
		t.Errorf("%d turns stored, want 1", len(turns.Turns))
	}
}

// A retry with the same Idempotency-Key gets the stored answer and plays
// nothing twice, even when sent concurrently.
func TestIdempotentRetry(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var g gameJSON
	h.do("POST", "/v1/games", organiser, twoPlayers(strings.Repeat("0", 60))).want(t, http.StatusCreated).decode(t, &g)
	_, white := moveLink(t, only(t, h.deliver(), "ann@example.org"))
	body := map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}

	first := h.do("POST", "/v1/games/"+g.ID+"/turns", white, body, "Idempotency-Key", "k1").want(t, http.StatusCreated)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			again := h.do("POST", "/v1/games/"+g.ID+"/turns", white, body, "Idempotency-Key", "k1")
			if again.status != http.StatusCreated || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("retry: %d %q replayed=%q", again.status, again.body, again.header.Get("Idempotent-Replayed"))
			}
		})
	}
	wg.Wait()
	if n := len(h.deliver()); n != 1 {
		t.Errorf("%d emails after one turn and its retries, want 1", n)
	}
	other := map[string]any{"turn": "f5f4:f4f3:e6e5", "ply": 0}
	h.do("POST", "/v1/games/"+g.ID+"/turns", white, other, "Idempotency-Key", "k1").want(t, http.StatusConflict, "idempotency_key_reused")
	var after gameJSON
	h.do("GET", "/v1/games/"+g.ID, white, nil).want(t, http.StatusOK).decode(t, &after)
	if after.Ply != 1 {
		t.Errorf("ply %d after retries, want 1", after.Ply)
	}
}
