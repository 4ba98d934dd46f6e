package api_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/internal/vectors"
)

// lesGameJSON is what a client reads of a LesGame.
type lesGameJSON struct {
	ID     string  `json:"id"`
	Game   string  `json:"game"`
	Status string  `json:"status"`
	Stage  string  `json:"stage"`
	Ply    int     `json:"ply"`
	ToMove *string `json:"to_move"`
	Board  struct {
		Side   int `json:"side"`
		Points int `json:"points"`
	} `json:"board"`
	Seats []struct {
		Color  string  `json:"color"`
		Name   string  `json:"name"`
		ToMove bool    `json:"to_move"`
		Stone  *string `json:"stone"`
	} `json:"seats"`
	Stones map[string][]string `json:"stones"`
	Result *struct {
		Reason      string              `json:"reason"`
		Winner      *string             `json:"winner"`
		WinnerStone *string             `json:"winner_stone"`
		Margin      int                 `json:"margin"`
		DecidedBy   string              `json:"decided_by"`
		Holes       map[string][][2]int `json:"holes"`
		Text        string              `json:"text"`
	} `json:"result"`
}

// seatToken mints the move link's token of a seat at its first version.
func (h *harness) seatToken(gameID, seat string) string {
	h.t.Helper()
	url, err := h.links.MoveURL(gameID, seat, 1)
	if err != nil {
		h.t.Fatal(err)
	}
	_, token, _ := strings.Cut(url, "#t=")
	return token
}

// A game of Les over the API: created with "game": "les", set up, chosen
// and played to its end by the seats, with every answer checked against
// openapi.yaml; illegal plies are refused with their rule and index and
// change nothing; the legal placements, the preview, the board view and
// the record follow the game.
func TestLesGameOverTheAPI(t *testing.T) {
	h := newHarness(t)
	vector := vectors.LoadLes(t).GameCases[0]
	organiser := h.login("org@example.org")
	players := []map[string]any{{"name": "Sue", "email": "sue@example.org"}, {"name": "Cho", "email": "cho@example.org"}}

	for _, bad := range []map[string]any{
		{"game": "les", "players": players, "preset": "classic"},
		{"game": "les", "players": players, "board": map[string]any{"seed": "7"}},
		{"game": "les", "players": players, "setup": map[string]any{"pieces": map[string]any{}, "to_move": "white"}},
		{"game": "les", "players": append(slices.Clone(players), map[string]any{"name": "X", "email": "x@example.org"})},
		{"game": "les", "players": players, "board": map[string]any{"side": 2}},
		{"players": players, "board": map[string]any{"side": 9}},
	} {
		res := h.do("POST", "/v1/games", organiser, bad)
		if res.status != http.StatusUnprocessableEntity && res.status != http.StatusBadRequest {
			t.Errorf("create %v: %d %s, want 422 or 400", bad, res.status, res.body)
		}
	}

	var g lesGameJSON
	h.do("POST", "/v1/games", organiser, map[string]any{"game": "les", "players": players,
		"board": map[string]any{"side": vector.Size}}).want(t, http.StatusCreated).decode(t, &g)
	if g.Game != "les" || g.Stage != "setup" || g.Ply != 0 || *g.ToMove != "setter" || g.Board.Side != vector.Size ||
		len(g.Seats) != 2 || g.Seats[0].Color != "setter" || !g.Seats[0].ToMove || g.Seats[0].Stone != nil ||
		len(g.Stones["black"])+len(g.Stones["white"]) != 0 {
		t.Fatalf("created %+v", g)
	}
	links := map[string]string{"setter": h.seatToken(g.ID, "setter"), "chooser": h.seatToken(g.ID, "chooser")}

	// The setup, point by point: where the next stone may go.
	var moves struct {
		CanEnd bool `json:"can_end"`
		Moves  []struct {
			From, To, Kind string
		} `json:"moves"`
	}
	h.do("GET", "/v1/games/"+g.ID+"/moves", links["setter"], nil).want(t, http.StatusOK).decode(t, &moves)
	if moves.CanEnd || len(moves.Moves) != g.Board.Points || moves.Moves[0].Kind != "place" || moves.Moves[0].From != "" {
		t.Errorf("setup's first placements: can end %v, %d moves, first %+v", moves.CanEnd, len(moves.Moves), moves.Moves[0])
	}
	// An illegal setup names its rule and point, and changes nothing.
	first, _, _ := strings.Cut(vector.Setup, ":")
	p := h.do("POST", "/v1/games/"+g.ID+"/turns", links["setter"],
		map[string]any{"turn": first + ":" + first + ":a1:a3", "ply": 0}).want(t, http.StatusUnprocessableEntity, "illegal_turn").problem(t)
	if p.Rule != "occupied" || p.Index == nil || *p.Index != 1 || p.Ref == nil || *p.Ref != "LS2, LT1, LT2" {
		t.Errorf("illegal setup: %+v", p)
	}
	h.do("POST", "/v1/games/"+g.ID+"/turns", links["chooser"],
		map[string]any{"turn": vector.Setup, "ply": 0}).want(t, http.StatusForbidden, "not_your_turn")

	plies := append([]string{vector.Setup, vector.Choice}, vector.Turns...)
	for ply, text := range plies {
		mover := *g.ToMove
		var preview struct {
			Game     string `json:"game"`
			Turn     string `json:"turn"`
			GameOver bool   `json:"game_over"`
		}
		h.do("POST", "/v1/games/"+g.ID+"/preview", links[mover], map[string]any{"turn": text}).
			want(t, http.StatusOK).decode(t, &preview)
		if preview.Game != "les" || preview.Turn != text || preview.GameOver != (ply == len(plies)-1) {
			t.Fatalf("ply %d preview %+v", ply, preview)
		}
		var played struct {
			Game   lesGameJSON `json:"game"`
			Played []struct {
				Ply   int    `json:"ply"`
				Color string `json:"color"`
				Turn  string `json:"turn"`
			} `json:"played"`
		}
		h.do("POST", "/v1/games/"+g.ID+"/turns", links[mover], map[string]any{"turn": text, "ply": ply},
			"Idempotency-Key", fmt.Sprintf("ply-%d", ply)).want(t, http.StatusCreated).decode(t, &played)
		g = played.Game
		if len(played.Played) != 1 || played.Played[0].Color != mover || played.Played[0].Turn != text || g.Ply != ply+1 {
			t.Fatalf("ply %d played %+v, game at %d", ply, played.Played, g.Ply)
		}
		if ply == 1 {
			if g.Stage != "turns" || *g.Seats[1].Stone != vector.Choice || *g.ToMove != map[bool]string{true: "chooser", false: "setter"}[vector.Choice == "black"] {
				t.Fatalf("after the choice %q: %+v", vector.Choice, g)
			}
		}
	}

	if g.Status != "finished" || g.Result == nil || g.Result.Reason != "no_move" || g.ToMove != nil {
		t.Fatalf("after the last turn: %+v", g)
	}
	want := vector.Result
	if (want.Winner == nil) != (g.Result.WinnerStone == nil) || want.Winner != nil && *g.Result.WinnerStone != *want.Winner ||
		g.Result.Margin != want.Margin || len(g.Result.Holes["black"]) != len(want.Holes["black"]) ||
		len(g.Result.Holes["white"]) != len(want.Holes["white"]) {
		t.Errorf("result %+v, want %+v", *g.Result, want)
	}

	var board struct {
		Layout     string `json:"layout"`
		Highlights []struct {
			Kind string `json:"kind"`
		} `json:"highlights"`
	}
	h.do("GET", "/v1/games/"+g.ID+"/view", organiser, nil).want(t, http.StatusOK).decode(t, &board)
	if board.Layout != "points" {
		t.Errorf("board view layout %q, want points", board.Layout)
	}

	rec := h.do("GET", "/v1/games/"+g.ID+"/record", organiser, nil).want(t, http.StatusOK)
	back, history, err := les.Rules{}.ImportRecord(string(rec.body))
	if err != nil || len(history) != len(plies) {
		t.Fatalf("the record does not replay (%d plies): %v\n%s", len(history), err, rec.body)
	}
	if r, _ := back.Result(); r.Margin != want.Margin {
		t.Errorf("the record replays to %+v", r)
	}
	var recJSON struct {
		Game  string `json:"game"`
		Turns []any  `json:"turns"`
	}
	h.do("GET", "/v1/games/"+g.ID+"/record?format=json", links["setter"], nil).want(t, http.StatusOK).decode(t, &recJSON)
	if recJSON.Game != "les" || len(recJSON.Turns) != len(plies) {
		t.Errorf("JSON record: %+v", recJSON)
	}
	h.do("POST", "/v1/games/"+g.ID+"/turns", links["setter"], map[string]any{"turn": "a1", "ply": g.Ply}).
		want(t, http.StatusConflict, "game_over")
}

// A tournament of Les names its game and board side; a side is refused for
// a tournament of Less, and a side Les does not have for one of Les.
func TestLesTournamentOverTheAPI(t *testing.T) {
	h := newHarness(t)
	org := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	body := func(extra map[string]any) map[string]any {
		b := map[string]any{"name": "Hex Cup", "format": "round_robin", "players": entrants(2),
			"schedule": map[string]any{"starts": []time.Time{start}, "round_hours": 24}}
		maps.Copy(b, extra)
		return b
	}
	h.do("POST", "/v1/tournaments", org, body(map[string]any{"side": 5})).want(t, http.StatusUnprocessableEntity, "invalid_input")
	h.do("POST", "/v1/tournaments", org, body(map[string]any{"game": "les", "side": 2})).want(t, http.StatusBadRequest, "invalid_request")
	var tour struct {
		ID   string `json:"id"`
		Game string `json:"game"`
		Side *int   `json:"side"`
	}
	h.do("POST", "/v1/tournaments", org, body(map[string]any{"game": "les", "side": 5})).want(t, http.StatusCreated).decode(t, &tour)
	if tour.Game != "les" || tour.Side == nil || *tour.Side != 5 {
		t.Errorf("Les tournament: %+v", tour)
	}
	var less struct {
		Game string `json:"game"`
		Side *int   `json:"side"`
	}
	h.do("POST", "/v1/tournaments", org, body(map[string]any{"name": "Square Cup"})).want(t, http.StatusCreated).decode(t, &less)
	if less.Game != "less" || less.Side != nil {
		t.Errorf("Less tournament: %+v", less)
	}
}

// A whole game of Les played the way its players meet it: invitations by
// email, each ply through the move link of the latest email, the next
// player emailed at once, both told the result.
func TestLesGameByEmail(t *testing.T) {
	h := newHarness(t)
	vector := vectors.LoadLes(t).GameCases[0]
	organiser := h.login("org@example.org")
	var g lesGameJSON
	h.do("POST", "/v1/games", organiser, map[string]any{"game": "les", "board": map[string]any{"side": vector.Size},
		"players": []map[string]any{{"name": "Sue", "email": "sue@example.org"}, {"name": "Cho", "email": "cho@example.org"}}}).
		want(t, http.StatusCreated).decode(t, &g)

	mail := h.deliver()
	if len(mail) != 2 {
		t.Fatalf("%d emails after creation, want 2 invitations: %v", len(mail), subjects(mail))
	}
	email := map[string]string{"setter": "sue@example.org", "chooser": "cho@example.org"}
	links := map[string]string{}
	for seat, addr := range email {
		m := only(t, mail, addr)
		id, token := moveLink(t, m)
		if id != g.ID || !strings.HasPrefix(m.Subject, "Les: Sue – Cho") {
			t.Fatalf("invitation to %s: %q, link to %s", addr, m.Subject, id)
		}
		links[seat] = token
	}
	if !strings.Contains(only(t, mail, "sue@example.org").Text, "You set up") {
		t.Errorf("the setter's invitation does not say he sets up:\n%s", only(t, mail, "sue@example.org").Text)
	}

	plies := append([]string{vector.Setup, vector.Choice}, vector.Turns...)
	for ply, text := range plies {
		mover := *g.ToMove
		var played struct {
			Game lesGameJSON `json:"game"`
		}
		h.do("POST", "/v1/games/"+g.ID+"/turns", links[mover], map[string]any{"turn": text, "ply": ply},
			"Idempotency-Key", fmt.Sprintf("ply-%d", ply)).want(t, http.StatusCreated).decode(t, &played)
		g = played.Game
		mail := h.deliver()
		if g.Status == "finished" {
			for _, addr := range email {
				if m := only(t, mail, addr); !strings.Contains(m.Text, "the game is over") || len(m.Images) != 1 {
					t.Errorf("game over email to %s: %q\n%s", addr, m.Subject, m.Text)
				}
			}
			break
		}
		m := only(t, mail, email[*g.ToMove])
		if len(mail) != 1 || !strings.Contains(m.Text, "it is your turn") || len(m.Images) != 1 {
			t.Fatalf("after ply %d: %v\n%s", ply, subjects(mail), m.Text)
		}
		if ply >= 2 && !strings.Contains(m.Text, text) {
			t.Errorf("the email after ply %d does not say what was played (%s):\n%s", ply, text, m.Text)
		}
		_, links[*g.ToMove] = moveLink(t, m)
	}
	if g.Status != "finished" || g.Result == nil || g.Result.Margin != vector.Result.Margin {
		t.Fatalf("after every ply: %+v", g)
	}
}
