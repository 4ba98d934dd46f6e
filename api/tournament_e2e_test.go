package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify"
)

type tournamentJSON struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	Simultaneous bool   `json:"simultaneous"`
	Tiebreak     string `json:"tiebreak"`
	Players      []struct {
		Name      string `json:"name"`
		Withdrawn bool   `json:"withdrawn"`
	} `json:"players"`
	Rounds []struct {
		Number    int       `json:"number"`
		Start     time.Time `json:"start"`
		Deadline  time.Time `json:"deadline"`
		Status    string    `json:"status"`
		BoardSeed string    `json:"board_seed"`
		Games     []struct {
			Board  int     `json:"board"`
			White  int     `json:"white"`
			Black  *int    `json:"black"`
			GameID *string `json:"game_id"`
			Result *struct {
				WhiteScore float64 `json:"white_score"`
				Margin     int     `json:"margin"`
				Forfeit    bool    `json:"forfeit"`
			} `json:"result"`
			Deadline time.Time `json:"deadline"`
			Decider  bool      `json:"decider"`
		} `json:"games"`
	} `json:"rounds"`
	Bracket          []bracketRoundJSON `json:"bracket"`
	KnockoutTiebreak *string            `json:"knockout_tiebreak"`
	Log              []struct {
		Action string `json:"action"`
		Detail string `json:"detail"`
		Args   *struct {
			Kind    string   `json:"kind"`
			Players []string `json:"players"`
		} `json:"args"`
	} `json:"log"`
	Standings []struct {
		Rank     int     `json:"rank"`
		Player   int     `json:"player"`
		Points   float64 `json:"points"`
		Margins  int     `json:"margins"`
		Tiebreak float64 `json:"tiebreak"`
		Played   int     `json:"played"`
		Byes     int     `json:"byes"`
	} `json:"standings"`
}

// bracketRoundJSON is a round of a knockout's bracket.
type bracketRoundJSON struct {
	Round   int         `json:"round"`
	Matches []matchJSON `json:"matches"`
}

type matchJSON struct {
	Top    *int `json:"top"`
	Bottom *int `json:"bottom"`
	Winner *int `json:"winner"`
}

// tickAll runs the whole scheduler (games and tournaments) at the harness
// clock, twice over: what is done once must not be done again.
func (h *harness) tickAll() {
	h.t.Helper()
	ctx, now := h.t.Context(), h.clock.Now()
	for range 2 {
		h.tick()
		ids, err := h.db.DueTournaments(ctx, now, 100)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, id := range ids {
			if _, err := h.tournaments(now).TickTournament(ctx, id); err != nil {
				h.t.Fatal(err)
			}
		}
	}
}

func entrants(n int) []map[string]any {
	var out []map[string]any
	for i := range n {
		out = append(out, map[string]any{"name": fmt.Sprintf("P%d", i), "email": fmt.Sprintf("p%d@example.org", i)})
	}
	return out
}

// playRound resigns every game of the round by Black, through the move
// link of Black's invitation: the round then closes before its deadline.
func (h *harness) playRound(round []notify.Message) {
	h.t.Helper()
	for _, m := range round {
		if !strings.Contains(m.Text, "You play Black") {
			continue
		}
		id, token := moveLink(h.t, m)
		h.do("POST", "/v1/games/"+id+"/resign", token, nil).want(h.t, http.StatusOK)
	}
}

// runTournament creates a tournament and plays it from its schedule to the
// end, checking that every player gets exactly one email at each round's
// start (an invitation with his move link, or a bye), and restarting the
// server halfway. It returns the finished tournament.
func runTournament(t *testing.T, h *harness, body map[string]any, players int) (tournamentJSON, string) {
	organiser := h.login("org@example.org")
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, body).want(t, http.StatusCreated).decode(t, &tour)
	h.tickAll()
	if mail := h.deliver(); len(mail) != 0 {
		t.Fatalf("mail before the first round: %v", subjects(mail))
	}
	for r := range tour.Rounds {
		h.clock.Advance(tour.Rounds[r].Start.Sub(h.clock.Now()))
		h.tickAll()
		mail := h.deliver()
		if len(mail) != players {
			t.Fatalf("round %d: %d emails at its start, want one per player: %v", r+1, len(mail), subjects(mail))
		}
		for i := range players {
			m := only(t, mail, fmt.Sprintf("p%d@example.org", i))
			if !strings.Contains(m.Text, fmt.Sprintf("round %d", r+1)) {
				t.Errorf("round %d email to p%d does not name the round:\n%s", r+1, i, m.Text)
			}
		}
		h.tickAll()
		if again := h.deliver(); len(again) != 0 {
			t.Fatalf("round %d started twice: %v", r+1, subjects(again))
		}
		if r == len(tour.Rounds)/2 {
			h.restart()
		}
		h.playRound(mail)
		h.tickAll()
		h.deliver() // the results
		h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
		if tour.Rounds[r].Status != "closed" {
			t.Fatalf("round %d is %s after all its games ended", r+1, tour.Rounds[r].Status)
		}
	}
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if tour.Status != "finished" {
		t.Fatalf("tournament %s after its last round", tour.Status)
	}
	return tour, organiser
}

// A 5-player round robin: 5 rounds, a bye each round, everyone meets
// everyone once, all games of a round on one board.
func TestRoundRobinTournament(t *testing.T) {
	h := newHarness(t)
	first := h.clock.Now().Add(time.Hour)
	tour, organiser := runTournament(t, h, map[string]any{"name": "Winter Cup", "format": "round_robin", "players": entrants(5),
		"schedule": map[string]any{"first_start": first, "interval_hours": 72}}, 5)
	if len(tour.Rounds) != 5 {
		t.Fatalf("%d rounds, want 5", len(tour.Rounds))
	}
	met := map[[2]int]int{}
	byes := map[int]int{}
	for _, r := range tour.Rounds {
		var seed string
		for _, g := range r.Games {
			if g.Black == nil {
				byes[g.White]++
				continue
			}
			a, b := min(g.White, *g.Black), max(g.White, *g.Black)
			met[[2]int{a, b}]++
			var game struct {
				Board struct {
					Seed string `json:"seed"`
				} `json:"board"`
			}
			// The organiser created the games: he may read them.
			h.do("GET", "/v1/games/"+*g.GameID, organiser, nil).want(t, http.StatusOK).decode(t, &game)
			if seed != "" && game.Board.Seed != seed || game.Board.Seed != r.BoardSeed {
				t.Errorf("round %d: games on different boards", r.Number)
			}
			seed = game.Board.Seed
		}
	}
	if len(met) != 10 {
		t.Errorf("%d pairs met, want all 10", len(met))
	}
	for pair, n := range met {
		if n != 1 {
			t.Errorf("pair %v met %d times", pair, n)
		}
	}
	for p := range 5 {
		if byes[p] != 1 {
			t.Errorf("player %d had %d byes", p, byes[p])
		}
	}
	// Every game was won by White (Black resigned): points add up to games + byes.
	total := 0.0
	for _, s := range tour.Standings {
		total += s.Points
	}
	if total != 10+5 {
		t.Errorf("points %v, want 15 (10 games + 5 byes)", total)
	}
	csv := h.do("GET", "/v1/tournaments/"+tour.ID+"/standings?format=csv", "", nil).want(t, http.StatusOK)
	if lines := strings.Count(string(csv.body), "\n"); lines != 6 {
		t.Errorf("CSV has %d lines:\n%s", lines, csv.body)
	}
	page := h.do("GET", "/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK)
	if !strings.Contains(string(page.body), "Winter Cup") || strings.Contains(string(page.body), "@example.org") {
		t.Errorf("standings page:\n%s", page.body)
	}
}

// A 6-player Swiss of 3 rounds: no rematches, no byes.
func TestSwissTournament(t *testing.T) {
	h := newHarness(t)
	start := h.clock.Now().Add(time.Hour)
	tour, _ := runTournament(t, h, map[string]any{"name": "Swiss Open", "format": "swiss", "rounds": 3, "players": entrants(6),
		"schedule": map[string]any{"starts": []time.Time{start, start.Add(72 * time.Hour), start.Add(144 * time.Hour)}, "round_hours": 48}}, 6)
	met := map[[2]int]bool{}
	for _, r := range tour.Rounds {
		if len(r.Games) != 3 {
			t.Errorf("round %d has %d games", r.Number, len(r.Games))
		}
		for _, g := range r.Games {
			pair := [2]int{min(g.White, *g.Black), max(g.White, *g.Black)}
			if met[pair] {
				t.Errorf("rematch %v in round %d", pair, r.Number)
			}
			met[pair] = true
		}
	}
	total := 0.0
	for i, s := range tour.Standings {
		total += s.Points
		if i > 0 && s.Points > tour.Standings[i-1].Points {
			t.Errorf("standings out of order: %+v", tour.Standings)
		}
	}
	if total != 9 || tour.Standings[0].Rank != 1 {
		t.Errorf("standings %+v: want 9 points in all (3 rounds of 3 games)", tour.Standings)
	}
}

// At a round's deadline unfinished games are adjudicated as if the turn
// limit were reached (E3–E7), and the round closes.
func TestRoundDeadlineAdjudicates(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Quick", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []time.Time{start}, "round_hours": 24}}).want(t, http.StatusCreated).decode(t, &tour)
	h.clock.Advance(time.Hour)
	h.tickAll()
	mail := h.deliver()
	var white string
	for _, m := range mail {
		if strings.Contains(m.Text, "You play White") {
			_, white = moveLink(t, m)
		}
	}
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	gameID := *tour.Rounds[0].Games[0].GameID
	h.do("POST", "/v1/games/"+gameID+"/turns", white, map[string]any{"turn": bestOpening(t, h, gameID, white), "ply": 0}).want(t, http.StatusCreated)

	h.clock.Advance(24 * time.Hour)
	h.tickAll()
	var g gameJSON
	h.do("GET", "/v1/games/"+gameID, organiser, nil).want(t, http.StatusOK).decode(t, &g)
	if g.Status != "finished" || g.Result.Reason != "adjudicated" {
		t.Fatalf("game after the deadline: %+v", g.Result)
	}
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	res := tour.Rounds[0].Games[0].Result
	if tour.Status != "finished" || res == nil {
		t.Fatalf("tournament %s, result %+v", tour.Status, res)
	}
	wantScore := 0.5
	switch {
	case g.Result.Winner == nil:
	case *g.Result.Winner == "white":
		wantScore = 1
	default:
		wantScore = 0
	}
	if res.WhiteScore != wantScore || abs(res.Margin) != g.Result.Margin && g.Result.Winner != nil {
		t.Errorf("tournament result %+v, game result %+v", res, g.Result)
	}
	if !strings.Contains(strings.Join(subjects(h.deliver()), " "), "p0@example.org") {
		t.Error("the players were not told the adjudicated result")
	}
}

// bestOpening is any legal first turn: the first the server offers, three times.
func bestOpening(t *testing.T, h *harness, gameID, token string) string {
	t.Helper()
	turn := ""
	for range 3 {
		var moves struct {
			Left  int `json:"left"`
			Moves []struct {
				From string `json:"from"`
				To   string `json:"to"`
				Cost int    `json:"cost"`
			} `json:"moves"`
		}
		h.do("GET", "/v1/games/"+gameID+"/moves?turn="+turn, token, nil).want(t, http.StatusOK).decode(t, &moves)
		if moves.Left == 0 || len(moves.Moves) == 0 {
			break
		}
		m := moves.Moves[0]
		for _, o := range moves.Moves {
			if o.Cost < m.Cost {
				m = o
			}
		}
		if turn != "" {
			turn += ":"
		}
		turn += m.From + m.To
	}
	return turn
}

// startSpring creates a round robin of four players (p1..p4), a round every
// 48 hours from an hour on, and starts its first round; the round's mail
// waits to be delivered. It returns the organiser's token too.
func startSpring(t *testing.T, h *harness) (tournamentJSON, string) {
	t.Helper()
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Spring", "format": "round_robin", "players": entrants(4),
		"schedule": map[string]any{"first_start": start, "interval_hours": 48}}).want(t, http.StatusCreated).decode(t, &tour)
	h.clock.Advance(time.Hour)
	h.tickAll()
	return tour, organiser
}

// Withdrawing forfeits the player's game; cancelling stops further rounds.
func TestWithdrawAndCancel(t *testing.T) {
	h := newHarness(t)
	tour, organiser := startSpring(t, h)
	h.deliver()

	p1 := h.login("p1@example.org")
	h.do("POST", "/v1/tournaments/"+tour.ID+"/withdraw", p1, map[string]any{"player": 2}).want(t, http.StatusForbidden, "forbidden")
	h.do("POST", "/v1/tournaments/"+tour.ID+"/withdraw", p1, map[string]any{}).want(t, http.StatusOK).decode(t, &tour)
	if !tour.Players[1].Withdrawn {
		t.Fatal("p1 did not withdraw")
	}
	h.do("POST", "/v1/tournaments/"+tour.ID+"/withdraw", p1, map[string]any{}).want(t, http.StatusConflict, "already_withdrawn")
	for _, g := range tour.Rounds[0].Games {
		if g.White != 1 && (g.Black == nil || *g.Black != 1) {
			continue
		}
		var game gameJSON
		h.do("GET", "/v1/games/"+*g.GameID, organiser, nil).want(t, http.StatusOK).decode(t, &game)
		if game.Status != "finished" || game.Result.Reason != "resignation" {
			t.Errorf("p1's game after his withdrawal: %+v", game.Result)
		}
	}
	// His pairings of later rounds are forfeited to his opponents.
	h.clock.Advance(48 * time.Hour)
	h.tickAll()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	for _, g := range tour.Rounds[1].Games {
		if g.White == 1 || (g.Black != nil && *g.Black == 1) {
			if g.Result == nil || !g.Result.Forfeit || g.GameID != nil {
				t.Errorf("p1's round 2 pairing %+v, want a forfeit without a game", g)
			}
		}
	}
	h.do("POST", "/v1/tournaments/"+tour.ID+"/cancel", p1, nil).want(t, http.StatusForbidden, "forbidden")
	h.do("POST", "/v1/tournaments/"+tour.ID+"/cancel", organiser, nil).want(t, http.StatusOK).decode(t, &tour)
	h.clock.Advance(7 * 24 * time.Hour)
	h.tickAll()
	h.do("GET", "/v1/tournaments/"+tour.ID, "", nil).want(t, http.StatusOK).decode(t, &tour)
	if tour.Status != "cancelled" || tour.Rounds[2].Status != "pending" {
		t.Errorf("after cancelling: %s, round 3 %s", tour.Status, tour.Rounds[2].Status)
	}
}

// A schedule whose rounds end before one turn's time is refused (422
// invalid_input, naming the round): its games would be adjudicated before
// a player could move. Rounds as long as a turn are fine.
func TestRoundShorterThanATurnIsRefused(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	start := h.clock.Now().Add(time.Hour)
	body := func(turn map[string]any, roundHours int) map[string]any {
		return map[string]any{"name": "Rush", "format": "round_robin", "players": entrants(2), "time": turn,
			"schedule": map[string]any{"starts": []time.Time{start}, "round_hours": roundHours}}
	}
	for _, bad := range []struct {
		turn  map[string]any
		hours int
	}{
		{map[string]any{"kind": "per_turn", "days": 3}, 24},
		{map[string]any{"kind": "bank", "initial_hours": 240, "increment_hours": 36}, 7 * 24},
	} {
		p := h.do("POST", "/v1/tournaments", organiser, body(bad.turn, bad.hours)).want(t, http.StatusUnprocessableEntity, "invalid_input").problem(t)
		if !strings.Contains(p.Detail, "round 1 lasts") || !strings.Contains(p.Detail, "less than one turn's time") {
			t.Errorf("the refusal of %v in rounds of %d hours says %q", bad.turn, bad.hours, p.Detail)
		}
	}
	var list struct {
		Tournaments []any `json:"tournaments"`
	}
	h.do("GET", "/v1/tournaments", organiser, nil).want(t, http.StatusOK).decode(t, &list)
	if len(list.Tournaments) != 0 {
		t.Errorf("refused tournaments were stored: %v", list.Tournaments)
	}
	h.do("POST", "/v1/tournaments", organiser, body(map[string]any{"kind": "per_turn", "days": 3}, 72)).want(t, http.StatusCreated)
}
