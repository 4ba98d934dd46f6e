package tournaments_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// pairKey names an unordered pair of entrants.
func pairKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

func TestRoundRobinRounds(t *testing.T) {
	for n := 2; n <= 9; n++ {
		for _, double := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d double=%v", n, double), func(t *testing.T) {
				rounds := tournaments.RoundRobinRounds(n, double)
				wantCount := n - 1
				if n%2 == 1 {
					wantCount = n
				}
				if double {
					wantCount *= 2
				}
				if len(rounds) != wantCount || tournaments.RoundRobinRoundCount(n, double) != wantCount {
					t.Fatalf("%d rounds, RoundRobinRoundCount %d, want %d", len(rounds), tournaments.RoundRobinRoundCount(n, double), wantCount)
				}
				cycle := wantCount
				if double {
					cycle /= 2
				}
				// Each game in colours (white, black), counted.
				games := map[[2]int]int{}
				for c := 0; c*cycle < len(rounds); c++ {
					whites, blacks, byes := make([]int, n), make([]int, n), make([]int, n)
					for r, round := range rounds[c*cycle : (c+1)*cycle] {
						seen := make([]bool, n)
						roundByes := 0
						for _, p := range round {
							if p.White < 0 || p.White >= n || p.Black != tournaments.Bye && (p.Black < 0 || p.Black >= n || p.Black == p.White) {
								t.Fatalf("round %d: bad pairing %+v", r+1, p)
							}
							for _, e := range []int{p.White, p.Black} {
								if e == tournaments.Bye {
									continue
								}
								if seen[e] {
									t.Fatalf("round %d: %d plays twice: %v", r+1, e, round)
								}
								seen[e] = true
							}
							if p.Black == tournaments.Bye {
								roundByes++
								byes[p.White]++
								continue
							}
							whites[p.White]++
							blacks[p.Black]++
							games[[2]int{p.White, p.Black}]++
						}
						if slices.Contains(seen, false) {
							t.Errorf("round %d: somebody is missing: %v", r+1, round)
						}
						if want := n % 2; roundByes != want {
							t.Errorf("round %d: %d byes, want %d", r+1, roundByes, want)
						}
					}
					for e := range n {
						if d := whites[e] - blacks[e]; d < -1 || d > 1 {
							t.Errorf("cycle %d: %d has %d Whites and %d Blacks", c+1, e, whites[e], blacks[e])
						}
						if want := n % 2; byes[e] != want {
							t.Errorf("cycle %d: %d has %d byes, want %d", c+1, e, byes[e], want)
						}
					}
				}
				for a := range n {
					for b := a + 1; b < n; b++ {
						ab, ba := games[[2]int{a, b}], games[[2]int{b, a}]
						if !double && ab+ba != 1 || double && (ab != 1 || ba != 1) {
							t.Errorf("%d-%d: %d with %d White, %d with %d White", a, b, ab, a, ba, b)
						}
					}
				}
			})
		}
	}
}

func TestRoundRobinRoundsTooFew(t *testing.T) {
	for n := -1; n < 2; n++ {
		if r, c := tournaments.RoundRobinRounds(n, false), tournaments.RoundRobinRoundCount(n, true); r != nil || c != 0 {
			t.Errorf("n=%d: %v rounds, count %d", n, r, c)
		}
	}
}

func TestRoundRobinRoundsBerger(t *testing.T) {
	want := [][]tournaments.Pairing{
		{{0, 3}, {1, 2}},
		{{3, 1}, {2, 0}},
		{{2, 3}, {0, 1}},
	}
	if got := tournaments.RoundRobinRounds(4, false); !reflect.DeepEqual(got, want) {
		t.Errorf("n=4: %v, want %v", got, want)
	}
	want = [][]tournaments.Pairing{
		{{1, 2}, {0, tournaments.Bye}},
		{{2, 0}, {1, tournaments.Bye}},
		{{0, 1}, {2, tournaments.Bye}},
		{{2, 1}, {0, tournaments.Bye}},
		{{0, 2}, {1, tournaments.Bye}},
		{{1, 0}, {2, tournaments.Bye}},
	}
	if got := tournaments.RoundRobinRounds(3, true); !reflect.DeepEqual(got, want) {
		t.Errorf("n=3 double: %v, want %v", got, want)
	}
}

// swissResult scripts a board's result: White's score and margin.
type swissResult struct {
	score  float64
	margin int
}

// played turns a round's pairings and results into outcomes (byes score 1).
func played(t *testing.T, round int, pairings []tournaments.Pairing, results []swissResult) []tournaments.PairingResult {
	t.Helper()
	var out []tournaments.PairingResult
	for i, p := range pairings {
		if p.Black == tournaments.Bye {
			out = append(out, tournaments.PairingResult{Round: round, White: p.White, Black: tournaments.Bye, Score: 1})
			continue
		}
		if i >= len(results) {
			t.Fatalf("round %d: no result for board %d", round, i+1)
		}
		out = append(out, tournaments.PairingResult{Round: round, White: p.White, Black: p.Black, Score: results[i].score, Margin: results[i].margin})
	}
	return out
}

// checkSwissRound checks what holds for any round: every active player
// paired exactly once, nobody withdrawn, one bye iff the number is odd and
// to somebody with the fewest byes; it returns the rematches.
func checkSwissRound(t *testing.T, n int, outcomes []tournaments.PairingResult, withdrawn []bool, got []tournaments.Pairing) int {
	t.Helper()
	met := map[[2]int]bool{}
	byes := make([]int, n)
	for _, o := range outcomes {
		if o.Black == tournaments.Bye {
			byes[o.White]++
		} else {
			met[pairKey(o.White, o.Black)] = true
		}
	}
	seen := make([]bool, n)
	rematches, nByes := 0, 0
	fewest := n
	for e := range n {
		if e >= len(withdrawn) || !withdrawn[e] {
			fewest = min(fewest, byes[e])
		}
	}
	for _, p := range got {
		for _, e := range []int{p.White, p.Black} {
			switch {
			case e == tournaments.Bye:
				nByes++
				if byes[p.White] != fewest {
					t.Errorf("bye to %d, who had %d byes, not the fewest %d", p.White, byes[p.White], fewest)
				}
			case e < 0 || e >= n:
				t.Fatalf("pairing %+v out of range", p)
			case seen[e]:
				t.Fatalf("%d paired twice: %v", e, got)
			case e < len(withdrawn) && withdrawn[e]:
				t.Errorf("withdrawn %d paired: %v", e, got)
			}
			if e != tournaments.Bye {
				seen[e] = true
			}
		}
		if p.Black != tournaments.Bye && met[pairKey(p.White, p.Black)] {
			rematches++
		}
	}
	active := 0
	for e := range n {
		if e >= len(withdrawn) || !withdrawn[e] {
			active++
			if !seen[e] {
				t.Errorf("%d not paired: %v", e, got)
			}
		}
	}
	if nByes != active%2 {
		t.Errorf("%d byes for %d active players: %v", nByes, active, got)
	}
	return rematches
}

// colourDiffs is each player's Whites minus Blacks so far.
func colourDiffs(n int, outcomes []tournaments.PairingResult) []int {
	d := make([]int, n)
	for _, o := range outcomes {
		if o.Black != tournaments.Bye && !o.Forfeit {
			d[o.White]++
			d[o.Black]--
		}
	}
	return d
}

func TestSwissPairingsSixPlayers(t *testing.T) {
	// Worked by hand. Round 1: top half against bottom half, the top
	// player of a board White on boards 1 and 3. After it 0 and 1 have 1,
	// 2 and 5 (who drew) ½, 4 and 3 nothing: 0-1 pair in their group, 2-5
	// would be a rematch so both float down, each to the one of 3 and 4 of
	// the other colour, which leaves everyone even in colours. After round
	// 2 the standing is 0 1½, 1 1½, 4 1, 3 1, 2 ½, 5 ½: 0-1 and 0-3 are
	// rematches, so 0 takes 4; 1 would take 3, but that leaves 2-5 again,
	// so the search backtracks and 1 takes 2, leaving 3-5.
	rounds := []struct {
		want    []tournaments.Pairing
		results []swissResult
	}{
		{[]tournaments.Pairing{{0, 3}, {4, 1}, {2, 5}}, []swissResult{{1, 5}, {0, -3}, {0.5, 0}}},
		{[]tournaments.Pairing{{1, 0}, {3, 2}, {5, 4}}, []swissResult{{0.5, 0}, {1, 2}, {0, -4}}},
		{[]tournaments.Pairing{{0, 4}, {2, 1}, {3, 5}}, []swissResult{{1, 1}, {0.5, 0}, {0, -1}}},
	}
	var outcomes []tournaments.PairingResult
	for i, r := range rounds {
		round := i + 1
		got, err := tournaments.SwissPairings(6, round, outcomes, nil)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !reflect.DeepEqual(got, r.want) {
			t.Errorf("round %d: %v, want %v", round, got, r.want)
		}
		if n := checkSwissRound(t, 6, outcomes, nil, got); n != 0 {
			t.Errorf("round %d: %d rematches", round, n)
		}
		outcomes = append(outcomes, played(t, round, got, r.results)...)
		for e, d := range colourDiffs(6, outcomes) {
			if d < -1 || d > 1 {
				t.Errorf("after round %d: %d has Whites minus Blacks %d", round, e, d)
			}
		}
	}
}

func TestSwissPairingsFivePlayersByes(t *testing.T) {
	const n = 5
	var outcomes []tournaments.PairingResult
	hadBye := make([]bool, n)
	for round := 1; round <= n; round++ {
		got, err := tournaments.SwissPairings(n, round, outcomes, nil)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		checkSwissRound(t, n, outcomes, nil, got)
		last := got[len(got)-1]
		if last.Black != tournaments.Bye {
			t.Fatalf("round %d: no bye last: %v", round, got)
		}
		// The lowest-ranked player (points, margins, index) without a bye.
		lines := tournaments.Standings(n, tournaments.Swiss, outcomes, nil)
		slices.SortFunc(lines, func(a, b tournaments.Standing) int {
			switch {
			case a.Points != b.Points:
				return map[bool]int{true: -1, false: 1}[a.Points > b.Points]
			case a.Margins != b.Margins:
				return b.Margins - a.Margins
			}
			return a.Player - b.Player
		})
		want := -1
		for _, l := range slices.Backward(lines) {
			if !hadBye[l.Player] {
				want = l.Player
				break
			}
		}
		if last.White != want {
			t.Errorf("round %d: bye to %d, want %d (standing %+v)", round, last.White, want, lines)
		}
		hadBye[last.White] = true
		// The lower entrant index wins, by the difference.
		var results []swissResult
		for _, p := range got[:len(got)-1] {
			if p.White < p.Black {
				results = append(results, swissResult{1, p.Black - p.White})
			} else {
				results = append(results, swissResult{0, p.Black - p.White})
			}
		}
		outcomes = append(outcomes, played(t, round, got, results)...)
	}
	if slices.Contains(hadBye, false) {
		t.Errorf("byes %v: not one each", hadBye)
	}
}

func TestSwissPairingsWithdrawn(t *testing.T) {
	tests := []struct {
		name      string
		n, round  int
		outcomes  []tournaments.PairingResult
		withdrawn []bool
		want      []tournaments.Pairing
	}{
		{"before round 1", 5, 1, nil, []bool{false, true, false, false}, []tournaments.Pairing{{0, 3}, {4, 2}}},
		{"odd left: a bye", 4, 1, nil, []bool{false, false, false, true}, []tournaments.Pairing{{0, 1}, {2, tournaments.Bye}}},
		// 0 1 +2, 2 1 +1, 5 0 -1, 3 0 -2, 4 0 -2: 4 has the bye.
		{"after round 1", 6, 2, []tournaments.PairingResult{
			{Round: 1, White: 0, Black: 3, Score: 1, Margin: 2},
			{Round: 1, White: 4, Black: 1, Score: 0, Margin: -2},
			{Round: 1, White: 2, Black: 5, Score: 1, Margin: 1},
		}, []bool{false, true, false, false, false, false}, []tournaments.Pairing{{0, 2}, {3, 5}, {4, tournaments.Bye}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tournaments.SwissPairings(tt.n, tt.round, tt.outcomes, tt.withdrawn)
			if err != nil {
				t.Fatal(err)
			}
			checkSwissRound(t, tt.n, tt.outcomes, tt.withdrawn, got)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%v, want %v", got, tt.want)
			}
		})
	}
}

func TestSwissPairingsBacktracks(t *testing.T) {
	// Four players left of five (4 withdrew after round 2). After two
	// rounds 0, 2 and 3 have 2 points (by margins in that order), 1 none;
	// 0-1 and 1-3 have met. Top-down, 0 would take 2 (the Dutch partner in
	// his group), which leaves 3-1, a rematch: the search must give 0 the
	// 3 instead, and 2 the 1.
	outcomes := []tournaments.PairingResult{
		{Round: 1, White: 0, Black: 1, Score: 1, Margin: 3},
		{Round: 1, White: 2, Black: 4, Score: 1, Margin: 4},
		{Round: 1, White: 3, Black: tournaments.Bye, Score: 1},
		{Round: 2, White: 3, Black: 1, Score: 1, Margin: 2},
		{Round: 2, White: 4, Black: 0, Score: 0, Margin: -3},
		{Round: 2, White: 2, Black: tournaments.Bye, Score: 1},
	}
	withdrawn := []bool{4: true}
	got, err := tournaments.SwissPairings(5, 3, outcomes, withdrawn)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkSwissRound(t, 5, outcomes, withdrawn, got); n != 0 {
		t.Errorf("%d rematches: %v", n, got)
	}
	if want := []tournaments.Pairing{{0, 3}, {1, 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

func TestSwissPairingsRematchesUnavoidable(t *testing.T) {
	// After a full round robin of four, round 4 can only repeat games.
	var outcomes []tournaments.PairingResult
	for r, round := range tournaments.RoundRobinRounds(4, false) {
		outcomes = append(outcomes, played(t, r+1, round, []swissResult{{1, 1}, {0.5, 0}})...)
	}
	got, err := tournaments.SwissPairings(4, 4, outcomes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkSwissRound(t, 4, outcomes, nil, got); n != 2 {
		t.Errorf("%d rematches, want 2: %v", n, got)
	}
	// Three players left of four: one rematch is enough, the other one
	// sits out with the bye.
	withdrawn := []bool{3: true}
	got, err = tournaments.SwissPairings(4, 4, outcomes, withdrawn)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkSwissRound(t, 4, outcomes, withdrawn, got); n != 1 {
		t.Errorf("%d rematches, want 1: %v", n, got)
	}
}

func TestSwissPairingsErrors(t *testing.T) {
	tests := []struct {
		name      string
		n, round  int
		outcomes  []tournaments.PairingResult
		withdrawn []bool
	}{
		{"no players", 0, 1, nil, nil},
		{"one player", 1, 1, nil, nil},
		{"one active", 3, 2, nil, []bool{true, false, true}},
		{"round 0", 4, 0, nil, nil},
		{"outcome out of range", 4, 2, []tournaments.PairingResult{{Round: 1, White: 0, Black: 4, Score: 1}}, nil},
		{"against himself", 4, 2, []tournaments.PairingResult{{Round: 1, White: 2, Black: 2, Score: 1}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tournaments.SwissPairings(tt.n, tt.round, tt.outcomes, tt.withdrawn)
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.KindInvalid {
				t.Errorf("SwissPairings = %v, %v; want a KindInvalid *domain.Error", got, err)
			}
		})
	}
}

// minRematches is, by brute force, the fewest rematches of any pairing of
// the active players with the bye to one of those with the fewest byes.
func minRematches(n int, outcomes []tournaments.PairingResult, withdrawn []bool) int {
	met := map[[2]int]bool{}
	byes := make([]int, n)
	var active []int
	for _, o := range outcomes {
		if o.Black == tournaments.Bye {
			byes[o.White]++
		} else {
			met[pairKey(o.White, o.Black)] = true
		}
	}
	for e := range n {
		if !withdrawn[e] {
			active = append(active, e)
		}
	}
	var best func(left []int) int
	best = func(left []int) int {
		if len(left) == 0 {
			return 0
		}
		m := len(left)
		for i := 1; i < len(left); i++ {
			rest := slices.Concat(left[1:i], left[i+1:])
			r := best(rest)
			if met[pairKey(left[0], left[i])] {
				r++
			}
			m = min(m, r)
		}
		return m
	}
	if len(active)%2 == 0 {
		return best(active)
	}
	fewest := n
	for _, e := range active {
		fewest = min(fewest, byes[e])
	}
	m := n
	for _, b := range active {
		if byes[b] == fewest {
			m = min(m, best(slices.DeleteFunc(slices.Clone(active), func(e int) bool { return e == b })))
		}
	}
	return m
}

func TestSwissPairingsRandomTournaments(t *testing.T) {
	// Random results and withdrawals, past the point where rematches are
	// needed: every round pairs everyone active once, the bye goes to one
	// of the fewest byes, rematches are as few as possible, and the player
	// with White had no more Whites minus Blacks than his opponent.
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 9; n++ {
		for trial := range 20 {
			withdrawn := make([]bool, n)
			active := n
			var outcomes []tournaments.PairingResult
			for round := 1; round <= n+2; round++ {
				if active > 2 && rng.IntN(8) == 0 {
					e := rng.IntN(n)
					if !withdrawn[e] {
						withdrawn[e] = true
						active--
					}
				}
				name := fmt.Sprintf("n=%d trial %d round %d", n, trial, round)
				got, err := tournaments.SwissPairings(n, round, outcomes, withdrawn)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				rematches := checkSwissRound(t, n, outcomes, withdrawn, got)
				if want := minRematches(n, outcomes, withdrawn); rematches != want {
					t.Errorf("%s: %d rematches, the fewest is %d: %v", name, rematches, want, got)
				}
				diffs := colourDiffs(n, outcomes)
				var results []swissResult
				for _, p := range got {
					if p.Black != tournaments.Bye && diffs[p.White] > diffs[p.Black] {
						t.Errorf("%s: %v: White has Whites-Blacks %d, Black %d", name, p, diffs[p.White], diffs[p.Black])
					}
					s := float64(rng.IntN(3)) / 2
					m := map[float64]int{0: -1 - rng.IntN(9), 0.5: 0, 1: 1 + rng.IntN(9)}[s]
					results = append(results, swissResult{s, m})
				}
				outcomes = append(outcomes, played(t, round, got, results)...)
			}
		}
	}
}

func TestSwissPairingsIgnoresLaterRounds(t *testing.T) {
	later := []tournaments.PairingResult{{Round: 1, White: 0, Black: 2, Score: 1, Margin: 1}}
	got, err := tournaments.SwissPairings(4, 1, later, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []tournaments.Pairing{{0, 2}, {3, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

func TestStandingsRoundRobin(t *testing.T) {
	// Points 0 2½, 1 1½, 2 1½, 3 ½; margins 0 +6, 1 0, 2 +1, 3 -7.
	// Sonneborn-Berger: 0 beat 3 (½) and 2 (1½), drew 1 (1½/2): 2.75;
	// 1 drew everyone: (1½+½+2½)/2 = 2.25; 2 drew 1 and beat 3: 0.75+0.5;
	// 3 drew 1: 0.75.
	outcomes := []tournaments.PairingResult{
		{Round: 1, White: 0, Black: 3, Score: 1, Margin: 4},
		{Round: 1, White: 1, Black: 2, Score: 0.5},
		{Round: 2, White: 2, Black: 0, Score: 0, Margin: -2},
		{Round: 2, White: 3, Black: 1, Score: 0.5},
		{Round: 3, White: 0, Black: 1, Score: 0.5},
		{Round: 3, White: 2, Black: 3, Score: 1, Margin: 3},
	}
	want := []tournaments.Standing{
		{Player: 0, Rank: 1, Points: 2.5, Margins: 6, Tiebreak: 2.75, Played: 3, Won: 2, Drawn: 1},
		{Player: 2, Rank: 2, Points: 1.5, Margins: 1, Tiebreak: 1.25, Played: 3, Won: 1, Drawn: 1, Lost: 1},
		{Player: 1, Rank: 3, Points: 1.5, Margins: 0, Tiebreak: 2.25, Played: 3, Drawn: 3},
		{Player: 3, Rank: 4, Points: 0.5, Margins: -7, Tiebreak: 0.75, Played: 3, Drawn: 1, Lost: 2},
	}
	for _, f := range []tournaments.Format{tournaments.RoundRobin, tournaments.DoubleRoundRobin} {
		if got := tournaments.Standings(4, f, outcomes, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", f, got, want)
		}
	}
}

func TestStandingsSwiss(t *testing.T) {
	// 1 withdrew after round 2 and forfeited round 3 to 0.
	// Points: 0 1+½+1 = 2½; 1 0; 2 0+1(bye)+½ = 1½; 3 1+½+1(bye) = 2½;
	// 4 1(bye)+1+½ = 2½. Margins: 0 +3, 1 -1-2 = -3, 2 -3, 3 +1, 4 +2.
	// Buchholz: 0 met 2, 3, 1: 1½+2½+0 = 4; 1 met 3, 4, 0: 7½; 2 met 0, 4:
	// 5; 3 met 1, 0: 2½; 4 met 1, 2: 1½.
	outcomes := []tournaments.PairingResult{
		{Round: 1, White: 0, Black: 2, Score: 1, Margin: 3},
		{Round: 1, White: 1, Black: 3, Score: 0, Margin: -1},
		{Round: 1, White: 4, Black: tournaments.Bye, Score: 1},
		{Round: 2, White: 3, Black: 0, Score: 0.5},
		{Round: 2, White: 4, Black: 1, Score: 1, Margin: 2},
		{Round: 2, White: 2, Black: tournaments.Bye, Score: 1},
		{Round: 3, White: 2, Black: 4, Score: 0.5},
		{Round: 3, White: 0, Black: 1, Score: 1, Forfeit: true},
		{Round: 3, White: 3, Black: tournaments.Bye, Score: 1},
	}
	want := []tournaments.Standing{
		{Player: 0, Rank: 1, Points: 2.5, Margins: 3, Tiebreak: 4, Played: 3, Won: 2, Drawn: 1},
		{Player: 4, Rank: 2, Points: 2.5, Margins: 2, Tiebreak: 1.5, Played: 2, Won: 2, Drawn: 1, Byes: 1},
		{Player: 3, Rank: 3, Points: 2.5, Margins: 1, Tiebreak: 2.5, Played: 2, Won: 2, Drawn: 1, Byes: 1},
		{Player: 2, Rank: 4, Points: 1.5, Margins: -3, Tiebreak: 5, Played: 2, Won: 1, Drawn: 1, Lost: 1, Byes: 1},
		{Player: 1, Rank: 5, Points: 0, Margins: -3, Tiebreak: 7.5, Played: 3, Lost: 3, Withdrawn: true},
	}
	if got := tournaments.Standings(5, tournaments.Swiss, outcomes, []bool{1: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}

func TestStandingsSharedRanks(t *testing.T) {
	tests := []struct {
		name     string
		format   tournaments.Format
		outcomes []tournaments.PairingResult
		ranks    [][2]int // player, rank, in order
	}{
		{"all equal", tournaments.RoundRobin, nil, [][2]int{{0, 1}, {1, 1}, {2, 1}}},
		{"two pairs", tournaments.RoundRobin, []tournaments.PairingResult{
			{Round: 1, White: 2, Black: 3, Score: 1, Margin: 2},
			{Round: 1, White: 0, Black: 1, Score: 1, Margin: 2},
		}, [][2]int{{0, 1}, {2, 1}, {1, 3}, {3, 3}}},
		{"equal Buchholz", tournaments.Swiss, []tournaments.PairingResult{
			// 0 and 2: 1½, +2, Buchholz 0+1; 3 1; 1 0.
			{Round: 1, White: 0, Black: 1, Score: 1, Margin: 2},
			{Round: 1, White: 2, Black: 3, Score: 0.5},
			{Round: 2, White: 3, Black: 0, Score: 0.5},
			{Round: 2, White: 1, Black: 2, Score: 0, Margin: -2},
		}, [][2]int{{0, 1}, {2, 1}, {3, 3}, {1, 4}}},
		{"split by Buchholz", tournaments.Swiss, []tournaments.PairingResult{
			// 0 and 2: 1½, +2; Buchholz 0: 1+1½, 2: 0+1½.
			{Round: 1, White: 0, Black: 1, Score: 1, Margin: 2},
			{Round: 1, White: 2, Black: 3, Score: 1, Margin: 2},
			{Round: 2, White: 0, Black: 2, Score: 0.5},
			{Round: 2, White: 1, Black: 3, Score: 1, Margin: 1},
		}, [][2]int{{0, 1}, {2, 2}, {1, 3}, {3, 4}}},
		{"split by Sonneborn-Berger", tournaments.RoundRobin, []tournaments.PairingResult{
			// 0 and 2: 1½, +2; Sonneborn-Berger 0: 1+¾, 2: 0+¾.
			{Round: 1, White: 0, Black: 1, Score: 1, Margin: 2},
			{Round: 1, White: 2, Black: 3, Score: 1, Margin: 2},
			{Round: 2, White: 0, Black: 2, Score: 0.5},
			{Round: 2, White: 1, Black: 3, Score: 1, Margin: 1},
		}, [][2]int{{0, 1}, {2, 2}, {1, 3}, {3, 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(tt.ranks)
			got := tournaments.Standings(n, tt.format, tt.outcomes, nil)
			var ranks [][2]int
			for _, l := range got {
				ranks = append(ranks, [2]int{l.Player, l.Rank})
			}
			if !reflect.DeepEqual(ranks, tt.ranks) {
				t.Errorf("ranks %v, want %v", ranks, tt.ranks)
			}
		})
	}
}

func TestStandingsForfeits(t *testing.T) {
	// A withdrawn player's bye scores nothing; a double forfeit (both
	// withdrawn, White 0 by a margin of 0) gives nobody a point.
	outcomes := []tournaments.PairingResult{
		{Round: 1, White: 0, Black: 1, Score: 0, Forfeit: true},
		{Round: 1, White: 2, Black: tournaments.Bye, Score: 0, Forfeit: true},
		{Round: 2, White: 1, Black: 2, Score: 0, Margin: -10, Forfeit: true},
	}
	got := tournaments.Standings(3, tournaments.RoundRobin, outcomes, []bool{true, true, false})
	want := []tournaments.Standing{
		{Player: 2, Rank: 1, Points: 1, Margins: 10, Played: 1, Won: 1, Lost: 1, Byes: 1},
		{Player: 0, Rank: 2, Points: 0, Played: 1, Lost: 1, Withdrawn: true},
		{Player: 1, Rank: 3, Points: 0, Margins: -10, Played: 2, Lost: 2, Withdrawn: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}

func TestSwissPairingsLargeField(t *testing.T) {
	// 40 players over 12 rounds: always rematch-free (fewer rounds than
	// half the field), and quick.
	const n = 40
	rng := rand.New(rand.NewPCG(5, 6))
	var outcomes []tournaments.PairingResult
	withdrawn := make([]bool, n)
	for round := 1; round <= 12; round++ {
		if round%4 == 0 {
			withdrawn[rng.IntN(n)] = true
		}
		got, err := tournaments.SwissPairings(n, round, outcomes, withdrawn)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if r := checkSwissRound(t, n, outcomes, withdrawn, got); r != 0 {
			t.Errorf("round %d: %d rematches", round, r)
		}
		var results []swissResult
		for range got {
			s := float64(rng.IntN(3)) / 2
			results = append(results, swissResult{s, int(2*s) - 1})
		}
		outcomes = append(outcomes, played(t, round, got, results)...)
	}
}
