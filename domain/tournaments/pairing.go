package tournaments

import (
	"cmp"
	"math"
	"slices"

	"github.com/lesspost/lesspost/domain"
)

// Format is how a tournament pairs its players.
type Format string

const (
	RoundRobin       Format = "round_robin"        // everyone meets everyone once
	DoubleRoundRobin Format = "double_round_robin" // twice, each pairing with both colours
	Swiss            Format = "swiss"              // N rounds, paired by standing
	Knockout         Format = "knockout"           // a seeded bracket; winners go through (see knockout.go)
)

// Bye as Pairing.Black marks a bye: White rests this round and scores a win.
const Bye = -1

// Pairing is one game of a round: entrant indexes 0..n-1 (Black may be Bye).
type Pairing struct{ White, Black int }

// PairingResult is a played (or forfeited, or bye) pairing's result, from White's side.
type PairingResult struct {
	Round        int
	White, Black int     // Black == Bye for a bye
	Score        float64 // White's points: 1, 0.5 or 0 (a bye: 1)
	Margin       int     // White's margin: positive if White won, negative if lost, 0 for a draw or bye
	Forfeit      bool    // decided without play (a withdrawal, or nobody moved); still counts
}

// RoundRobinRounds is the whole schedule of a round-robin for n players
// (Berger tables / circle method): n-1 rounds for even n, n rounds for odd
// n with one bye per round; double repeats it with colours swapped.
// Colours are balanced: over a single cycle each player's White count
// differs from his Black count by at most 1.
//
// The circle method: with m = n rounded up to even, player m-1 stays put and
// players 0..m-2 turn around him; in round r (0-based) r meets m-1 and r+k
// meets r-k (mod m-1) for k = 1..m/2-1. For odd n, player m-1 = n is the
// phantom whose opponent has the bye, so each player has exactly one bye.
// Colours: r+k has White when k is odd, which gives a turning player White
// exactly when (p-r) mod (m-1) is odd: alternating colours from round to
// round and, over the m-2 games among turning players, as many Whites as
// Blacks; the fixed player has White in odd rounds. Each board of a round is
// listed with the game against the fixed player first, a bye last.
// n < 2 has no schedule (nil).
func RoundRobinRounds(n int, double bool) [][]Pairing {
	if n < 2 {
		return nil
	}
	m := n + n%2
	fixed, turning := m-1, m-1
	cycle := make([][]Pairing, 0, turning)
	for r := range turning {
		round := make([]Pairing, 0, m/2)
		var first Pairing
		switch {
		case fixed == n: // the phantom of an odd n: r rests
			first = Pairing{White: r, Black: Bye}
		case r%2 == 1:
			first = Pairing{White: fixed, Black: r}
		default:
			first = Pairing{White: r, Black: fixed}
		}
		if first.Black != Bye {
			round = append(round, first)
		}
		for k := 1; k < m/2; k++ {
			a, b := (r+k)%turning, (r-k+turning)%turning
			if k%2 == 0 {
				a, b = b, a
			}
			round = append(round, Pairing{White: a, Black: b})
		}
		if first.Black == Bye {
			round = append(round, first)
		}
		cycle = append(cycle, round)
	}
	if !double {
		return cycle
	}
	rounds := slices.Clone(cycle)
	for _, round := range cycle {
		swapped := make([]Pairing, len(round))
		for i, p := range round {
			if p.Black == Bye {
				swapped[i] = p
			} else {
				swapped[i] = Pairing{White: p.Black, Black: p.White}
			}
		}
		rounds = append(rounds, swapped)
	}
	return rounds
}

// RoundRobinRoundCount is len(RoundRobinRounds(n, double)).
func RoundRobinRoundCount(n int, double bool) int {
	if n < 2 {
		return 0
	}
	rounds := n + n%2 - 1
	if double {
		rounds *= 2
	}
	return rounds
}

// record is what the outcomes say of one player.
type record struct {
	points                   float64
	half                     int // points in half points, for exact comparisons
	margins                  int
	played, won, drawn, lost int
	byes                     int
	whites, blacks           int // games played over the board (not forfeits)
	lastColour, lastRound    int // colour (+1 White, -1 Black) of his latest game over the board
}

// colourDiff is Whites minus Blacks over the board.
func (r *record) colourDiff() int { return r.whites - r.blacks }

// records tallies the outcomes of rounds before `before` (all when before <= 0)
// for n players, skipping entries that name no player in range.
func records(n int, outcomes []PairingResult, before int) []record {
	recs := make([]record, n)
	for _, o := range outcomes {
		if before > 0 && o.Round >= before || !validOutcome(n, o) {
			continue
		}
		w := &recs[o.White]
		w.points += o.Score
		w.margins += o.Margin
		w.count(o.Score)
		if o.Black == Bye {
			w.byes++
			continue
		}
		w.played++
		b := &recs[o.Black]
		b.played++
		b.margins -= o.Margin
		if doubleForfeit(o) {
			b.lost++
		} else {
			b.points += 1 - o.Score
			b.count(1 - o.Score)
		}
		if !o.Forfeit {
			w.whites++
			b.blacks++
			if o.Round >= w.lastRound {
				w.lastColour, w.lastRound = +1, o.Round
			}
			if o.Round >= b.lastRound {
				b.lastColour, b.lastRound = -1, o.Round
			}
		}
	}
	for i := range recs {
		recs[i].half = int(math.Round(2 * recs[i].points))
	}
	return recs
}

// count counts a game (or bye) scoring score as won, drawn or lost.
func (r *record) count(score float64) {
	switch {
	case score > 0.5:
		r.won++
	case score < 0.5:
		r.lost++
	default:
		r.drawn++
	}
}

// doubleForfeit is a game both players forfeited (both withdrew, or
// neither moved by its deadline): a forfeit where White scores nothing by a
// margin of 0. Neither scores; both
// lose. (A forfeit lost by White alone has a nonzero margin.)
func doubleForfeit(o PairingResult) bool {
	return o.Forfeit && o.Black != Bye && o.Score == 0 && o.Margin == 0
}

func validOutcome(n int, o PairingResult) bool {
	return o.White >= 0 && o.White < n && (o.Black == Bye || o.Black >= 0 && o.Black < n && o.Black != o.White)
}

func isWithdrawn(withdrawn []bool, i int) bool { return i < len(withdrawn) && withdrawn[i] }

// meetKey names an unordered pair of players.
func meetKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// swissSearchBudget bounds the nodes the backtracking search of one round
// may visit before it gives up on optimality and pairs greedily (allowing
// rematches); it is only reached by large fields deep into a tournament.
const swissSearchBudget = 200_000

// SwissPairings pairs round `round` (1-based) of a Swiss tournament from the
// outcomes of earlier rounds: players who have withdrawn are not paired;
// the rest are ordered by standing (points, then sum of margins, then
// entrant index) and paired top-down within score groups where possible,
// never repeating an earlier pairing (backtracking when needed; if no
// rematch-free pairing exists, allow the fewest rematches and say so in a
// comment); with an odd number of active players, the lowest-ranked player
// who has not had a bye gets the bye. Colours: the player who has had
// White fewer times (then the one who had Black last round) gets White.
// Round 1 pairs by entrant index (top half against bottom half). Error if
// fewer than 2 active players.
//
// In detail, the highest-ranked unpaired player is paired first, his
// candidates tried in this order: no earlier meeting; the nearest score
// (his own score group, then the next one down); no colour clash (both due
// the same colour, i.e. both have had more Whites than Blacks or both
// more Blacks than Whites); the Dutch order of his score group (the top
// half meets the bottom half: in a group of g unpaired players he prefers
// the one g/2 places below him, then those further down, then those
// nearer); then rank. The first complete pairing in that order with no
// rematch wins, trying the bye candidates (those with the fewest byes,
// lowest-ranked first) in turn. If there is none, one rematch is allowed,
// then two, and so on: the fewest rematches, placed as low as possible.
// Should the search exceed its budget, the rest is paired greedily in the
// same order. Round 1 needs no special case: all scores are equal, so the
// order is by entrant index and the Dutch order is top half against bottom
// half. Earlier meetings include forfeits won by one side, not double
// forfeits (nobody played); colours count only games played
// over the board ("fewer times White" is read as the lower Whites minus
// Blacks, then fewer Whites, so that a bye does not upset the balance;
// "Black last round" as Black in his latest game over the board). Still
// equal, the higher-ranked player of the board has White on odd boards and
// Black on even ones. Pairings are listed by board, the bye last. Outcomes
// of round `round` or later are ignored.
func SwissPairings(n, round int, outcomes []PairingResult, withdrawn []bool) ([]Pairing, error) {
	if round < 1 {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "rounds count from 1, not %d", round)
	}
	for _, o := range outcomes {
		if o.Round < round && !validOutcome(n, o) {
			return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "an outcome of round %d names players %d and %d of %d", o.Round, o.White, o.Black, n)
		}
	}
	recs := records(n, outcomes, round)
	met := map[[2]int]bool{}
	for _, o := range outcomes {
		// A double forfeit is no meeting: neither played (both withdrew, and
		// are paired no more, or neither moved), so the two may meet again.
		if o.Round < round && o.Black != Bye && !doubleForfeit(o) {
			met[meetKey(o.White, o.Black)] = true
		}
	}
	var ranked []int
	for i := range n {
		if !isWithdrawn(withdrawn, i) {
			ranked = append(ranked, i)
		}
	}
	if len(ranked) < 2 {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a round needs at least 2 active players, there are %d", len(ranked))
	}
	slices.SortStableFunc(ranked, func(a, b int) int {
		return cmp.Or(cmp.Compare(recs[b].half, recs[a].half), cmp.Compare(recs[b].margins, recs[a].margins), cmp.Compare(a, b))
	})

	byes := []int{Bye} // no bye
	if len(ranked)%2 == 1 {
		fewest := math.MaxInt
		for _, p := range ranked {
			fewest = min(fewest, recs[p].byes)
		}
		byes = byes[:0]
		for _, p := range slices.Backward(ranked) {
			if recs[p].byes == fewest {
				byes = append(byes, p)
			}
		}
	}
	s := &swissSearch{recs: recs, met: met}
	without := func(bye int) []int {
		return slices.DeleteFunc(slices.Clone(ranked), func(p int) bool { return p == bye })
	}
	var pairs [][2]int
	bye := byes[0]
	// The fewest rematches: none if possible, else one, and so on.
search:
	for allowed := 0; allowed <= len(ranked)/2; allowed++ {
		for _, b := range byes {
			var ok bool
			if pairs, ok = s.pair(without(b), allowed); ok {
				bye = b
				break search
			}
			if s.nodes > swissSearchBudget {
				break search
			}
		}
	}
	if pairs == nil { // over budget: greedily, rematches allowed
		s.unlimited = true
		pairs, _ = s.pair(without(bye), len(ranked)/2)
	}

	result := make([]Pairing, 0, len(pairs)+1)
	for board, pr := range pairs {
		a, b := pr[0], pr[1]
		if !whiteFor(&recs[a], &recs[b], board) {
			a, b = b, a
		}
		result = append(result, Pairing{White: a, Black: b})
	}
	if bye != Bye {
		result = append(result, Pairing{White: bye, Black: Bye})
	}
	return result, nil
}

// whiteFor says whether a, the higher-ranked player of board `board`
// (0-based), has White against b.
func whiteFor(a, b *record, board int) bool {
	switch {
	case a.colourDiff() != b.colourDiff():
		return a.colourDiff() < b.colourDiff()
	case a.whites != b.whites:
		return a.whites < b.whites
	case a.lastColour == -1 && b.lastColour != -1:
		return true
	case b.lastColour == -1 && a.lastColour != -1:
		return false
	}
	return board%2 == 0
}

// swissSearch is the backtracking search for one round's pairings.
type swissSearch struct {
	recs      []record
	met       map[[2]int]bool
	nodes     int
	unlimited bool // no budget

	players []int    // the ones to pair, by rank
	metPos  [][]bool // whether players[i] and players[j] have met
	paired  []bool
	pairs   [][2]int
}

// pair pairs players (an even number, by rank) with at most `allowed`
// rematches; each pair is (higher-ranked, lower-ranked), by board.
func (s *swissSearch) pair(players []int, allowed int) ([][2]int, bool) {
	s.players, s.paired, s.pairs = players, make([]bool, len(players)), nil
	s.metPos = make([][]bool, len(players))
	for i, p := range players {
		s.metPos[i] = make([]bool, len(players))
		for j, q := range players {
			s.metPos[i][j] = s.met[meetKey(p, q)]
		}
	}
	if !s.dfs(allowed) {
		return nil, false
	}
	return s.pairs, true
}

type swissCandidate struct {
	pos      int
	rematch  bool
	scoreGap int
	clash    bool
	dutch    int
}

func (s *swissSearch) dfs(allowed int) bool {
	top := slices.Index(s.paired, false)
	if top < 0 {
		return true
	}
	s.nodes++
	if s.nodes > swissSearchBudget && !s.unlimited {
		return false
	}
	if allowed == 0 && !s.everyoneHasAFreshOpponent() {
		return false
	}
	p := &s.recs[s.players[top]]
	// The unpaired of his score group, him first, for the Dutch order.
	var group []int
	for i := top; i < len(s.players); i++ {
		if !s.paired[i] && s.recs[s.players[i]].half == p.half {
			group = append(group, i)
		}
	}
	half := len(group) / 2
	var cands []swissCandidate
	for i := top + 1; i < len(s.players); i++ {
		if s.paired[i] {
			continue
		}
		q := &s.recs[s.players[i]]
		c := swissCandidate{
			pos:      i,
			rematch:  s.metPos[top][i],
			scoreGap: p.half - q.half,
			clash:    p.colourDiff()*q.colourDiff() > 0,
		}
		if c.scoreGap == 0 {
			k := slices.Index(group, i)
			if k >= half {
				c.dutch = k - half
			} else {
				c.dutch = len(group) - half + (half - 1 - k)
			}
		}
		if c.rematch && allowed == 0 {
			continue
		}
		cands = append(cands, c)
	}
	slices.SortStableFunc(cands, func(a, b swissCandidate) int {
		return cmp.Or(compareBool(a.rematch, b.rematch), cmp.Compare(a.scoreGap, b.scoreGap),
			compareBool(a.clash, b.clash), cmp.Compare(a.dutch, b.dutch), cmp.Compare(a.pos, b.pos))
	})
	for _, c := range cands {
		left := allowed
		if c.rematch {
			left--
		}
		s.paired[top], s.paired[c.pos] = true, true
		s.pairs = append(s.pairs, [2]int{s.players[top], s.players[c.pos]})
		if s.dfs(left) {
			return true
		}
		s.pairs = s.pairs[:len(s.pairs)-1]
		s.paired[top], s.paired[c.pos] = false, false
	}
	return false
}

// everyoneHasAFreshOpponent is a quick dead-end check when no rematch is
// allowed: each unpaired player must have someone unpaired he has not met.
func (s *swissSearch) everyoneHasAFreshOpponent() bool {
	for i := range s.players {
		if s.paired[i] {
			continue
		}
		ok := false
		for j := range s.players {
			if j != i && !s.paired[j] && !s.metPos[i][j] {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Standing is one player's line in the standings.
type Standing struct {
	Player                   int
	Rank                     int     // 1-based; equal lines share a rank
	Points                   float64 // win 1, draw ½, loss 0, bye 1
	Margins                  int     // sum of his margins (won minus lost)
	Tiebreak                 float64 // Sonneborn-Berger (round robins) or Buchholz (Swiss)
	Played, Won, Drawn, Lost int     // games (a bye counts as a win, not played)
	Byes                     int
	Withdrawn                bool
}

// Standings ranks n players by points, then the sum of margins, then the
// tie-break of the format: Sonneborn-Berger for round robins (the points
// of the opponents he beat plus half those of the ones he drew), Buchholz
// for Swiss (the sum of his opponents' points; a bye adds nothing). Ties
// on all three share a rank; order within a tie is by entrant index.
//
// Forfeits count like games played: in points, margins, Played/Won/Lost
// and the tie-breaks; a forfeit that White scores 0 by a margin of 0 is a
// double forfeit (both withdrew, or neither moved), in which Black scores 0
// too: a game lost by both. A bye
// scores its Score (1, or 0 when forfeited by a withdrawn player) and
// counts as won (or lost), never as played, so Won+Drawn+Lost is
// Played+Byes. Both tie-breaks go game by game (in a double round robin an opponent
// beaten twice counts twice) and use the opponents' final points, byes
// included. Any other format has no tie-break (0). Outcomes naming players
// out of range are ignored.
func Standings(n int, format Format, outcomes []PairingResult, withdrawn []bool) []Standing {
	if n <= 0 {
		return nil
	}
	recs := records(n, outcomes, 0)
	tiebreak := make([]float64, n)
	add := func(p, opp int, score float64) {
		switch format {
		case RoundRobin, DoubleRoundRobin:
			tiebreak[p] += score * recs[opp].points
		case Swiss:
			tiebreak[p] += recs[opp].points
		}
	}
	for _, o := range outcomes {
		if !validOutcome(n, o) || o.Black == Bye {
			continue
		}
		add(o.White, o.Black, o.Score)
		if doubleForfeit(o) {
			add(o.Black, o.White, 0)
		} else {
			add(o.Black, o.White, 1-o.Score)
		}
	}
	lines := make([]Standing, n)
	for i, r := range recs {
		lines[i] = Standing{
			Player: i, Points: r.points, Margins: r.margins, Tiebreak: tiebreak[i],
			Played: r.played, Won: r.won, Drawn: r.drawn, Lost: r.lost, Byes: r.byes,
			Withdrawn: isWithdrawn(withdrawn, i),
		}
	}
	order := func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Margins, a.Margins), cmp.Compare(b.Tiebreak, a.Tiebreak))
	}
	slices.SortStableFunc(lines, func(a, b Standing) int { return cmp.Or(order(a, b), cmp.Compare(a.Player, b.Player)) })
	for i := range lines {
		if i > 0 && order(lines[i-1], lines[i]) == 0 {
			lines[i].Rank = lines[i-1].Rank
		} else {
			lines[i].Rank = i + 1
		}
	}
	return lines
}
