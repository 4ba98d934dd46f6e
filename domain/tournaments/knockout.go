package tournaments

import (
	"cmp"
	"math/bits"
	"slices"
	"time"
)

// A knockout event: the entrants, seeded by their order (see Seeding: as
// the organiser lists them, strongest first, and players who sign up as
// they come; drawn at random; or as the organiser sets them before the
// start), fill a bracket of the next power of two, placed so that seed 1
// meets seed 2 in the final at the earliest and the seeds missing from the
// bracket are byes for the top seeds. Each round halves the field: a match
// is one game (the higher seed has White) or, in a simultaneous event, two
// games with colours reversed on one board. The match's winner has more
// points in it; level on points (1–1, or a drawn game), the greater sum of
// margins. Still level, KnockoutTiebreak decides: TiebreakGame (the
// default) adds a deciding game the moment the match's games end, in the
// same round on the same board, the lower seed White (he had White in no
// game of a single-game match), adjudicated a round's length (or
// TiebreakLength) later; the later rounds move back by as much as it would
// overrun the next start, as a postponement does. Its winner goes through;
// a drawn (or annulled) deciding game, and every level match under
// TiebreakSeed, sends the higher seed: a rule everyone knows before the
// start. A match found level in a round already closed (a result the
// organiser changed afterwards) goes to the higher seed too: the round is
// over and cannot take another game; so does a match in which nobody moved
// (its games double forfeits, see Tournament.ScoreUnplayed), without a
// deciding game that would hold up the bracket: the organiser may set its
// result before the next round is paired. A withdrawn player's games are
// forfeited, so he goes through only from a match he won before
// withdrawing, and his next opponent then wins by forfeit; a match of two
// withdrawn players sends nobody, and the next opponent has a bye.

// KnockoutTiebreak is how a knockout match level on points and margins is
// decided.
type KnockoutTiebreak string

const (
	TiebreakGame KnockoutTiebreak = "game" // a deciding game, then the higher seed
	TiebreakSeed KnockoutTiebreak = "seed" // the higher seed
)

// KnockoutRoundCount is the rounds of a knockout of n entrants: log2 of
// the bracket, n rounded up to a power of two.
func KnockoutRoundCount(n int) int {
	if n < 2 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// SeededBracket places n entrants (0-based seeds) in a bracket of the next
// power of two, slot by slot; -1 is a bye. Slots 2k and 2k+1 meet in round
// 1. The standard order (1–8, 4–5, 2–7, 3–6 for eight) keeps the top seeds
// apart until the late rounds, and the byes fall to the top seeds.
func SeededBracket(n int) []int {
	if n < 2 {
		return nil
	}
	order := []int{0}
	for len(order) < 1<<KnockoutRoundCount(n) {
		size := 2 * len(order)
		next := make([]int, 0, size)
		for _, s := range order {
			next = append(next, s, size-1-s)
		}
		order = next
	}
	for i, s := range order {
		if s >= n {
			order[i] = Bye
		}
	}
	return order
}

// knockoutPairings pairs a knockout round from its slots: the higher seed
// (lower entrant number) has White; a slot against an empty one has a bye;
// two empty slots play nothing.
func knockoutPairings(slots []int) []Pairing {
	var out []Pairing
	for k := 0; k+1 < len(slots); k += 2 {
		a, b := slots[k], slots[k+1]
		switch {
		case a == Bye && b == Bye:
		case a == Bye || b == Bye:
			out = append(out, Pairing{White: max(a, b), Black: Bye})
		default:
			out = append(out, Pairing{White: min(a, b), Black: max(a, b)})
		}
	}
	return out
}

// knockoutSlots are the slots of round number (1-based): the seeded
// bracket for the first, then the winners of the round before, by match.
func (t *Tournament) knockoutSlots(number int) []int {
	if number == 1 {
		return SeededBracket(len(t.Entrants))
	}
	prev := t.Bracket[number-2]
	slots := make([]int, 0, len(prev)/2)
	for k := 0; k+1 < len(prev); k += 2 {
		winner, _ := t.MatchWinner(number-1, prev[k], prev[k+1])
		slots = append(slots, winner)
	}
	return slots
}

// MatchScore sums the knockout match of a and b in round number: each
// side's points and margins from its games that count, the deciding game
// apart (its outcome is the match's last word, not a part of its score).
// over reports whether every game of the match has its outcome.
func (t *Tournament) MatchScore(number, a, b int) (points [2]float64, margins [2]int, decider *TournamentGame, over bool) {
	r := &t.Rounds[number-1]
	for i := range r.Games {
		g := &r.Games[i]
		if g.Black == Bye || !(g.White == a && g.Black == b || g.White == b && g.Black == a) {
			continue
		}
		if g.Outcome == nil {
			return points, margins, nil, false
		}
		if g.Decider {
			decider = g
			continue
		}
		if !t.counts(g) {
			continue
		}
		w, blk := 0, 1
		if g.White == b {
			w, blk = 1, 0
		}
		points[w] += g.Outcome.Score
		margins[w] += g.Outcome.Margin
		margins[blk] -= g.Outcome.Margin
		if !doubleForfeit(*g.Outcome) {
			points[blk] += 1 - g.Outcome.Score
		}
	}
	return points, margins, decider, true
}

// MatchWinner is who goes through from the knockout match of a and b
// (entrants, Bye for an empty slot) in round number: decided reports
// whether the match is over (every game of it has its outcome, and a
// deciding game it needs has been played). See the rules at the top of
// this file.
func (t *Tournament) MatchWinner(number, a, b int) (winner int, decided bool) {
	out := func(e int) bool { return e == Bye || t.Entrants[e].Withdrawn }
	points, margins, decider, over := t.MatchScore(number, a, b)
	if !over {
		return Bye, false
	}
	switch {
	case out(a) && out(b):
		return Bye, true
	case a == Bye:
		return b, true
	case b == Bye:
		return a, true
	}
	first := cmp.Or(cmp.Compare(points[0], points[1]), cmp.Compare(margins[0], margins[1]))
	if first == 0 {
		switch {
		case decider != nil && t.counts(decider) && decider.Outcome.Score != 0.5 && !doubleForfeit(*decider.Outcome):
			if decider.Outcome.Score == 1 {
				return decider.White, true
			}
			return decider.Black, true
		case decider == nil && t.needsDecider(number) && !t.matchUnplayed(number, a, b):
			return Bye, false
		}
	}
	if cmp.Or(first, cmp.Compare(b, a)) > 0 {
		return a, true
	}
	return b, true
}

// matchUnplayed reports whether nobody moved in any game of the match of
// a and b in round number (each a double forfeit, see ScoreUnplayed): the
// higher seed goes through without a deciding game, which would hold up
// the whole bracket for two players who did not play.
func (t *Tournament) matchUnplayed(number, a, b int) bool {
	games := 0
	for _, g := range t.Rounds[number-1].Games {
		if g.Decider || !(g.White == a && g.Black == b || g.White == b && g.Black == a) {
			continue
		}
		if !g.Unplayed {
			return false
		}
		games++
	}
	return games > 0
}

// needsDecider reports whether a level match of round number is decided
// by a deciding game: under TiebreakGame, while the round runs.
func (t *Tournament) needsDecider(number int) bool {
	return t.Format == Knockout && t.KnockoutTiebreak == TiebreakGame && t.Rounds[number-1].Status == RoundRunning
}

// addDeciders adds a deciding game to each match of the running knockout
// round r whose games have ended level (see the top of this file), and
// logs it. It returns the indexes in r.Games of the games to create; a
// deciding game with a withdrawn player is decided at once, forfeited.
func (t *Tournament) addDeciders(r *Round, now time.Time) []int {
	if !t.needsDecider(r.Number) || len(t.Bracket) < r.Number {
		return nil
	}
	slots := t.Bracket[r.Number-1]
	var toPlay []int
	for k := 0; k+1 < len(slots); k += 2 {
		a, b := slots[k], slots[k+1]
		if a == Bye || b == Bye {
			continue
		}
		_, _, decider, over := t.MatchScore(r.Number, a, b)
		if _, decided := t.MatchWinner(r.Number, a, b); decided || !over || decider != nil {
			continue
		}
		// The lower seed has White: in a single game the higher seed had it.
		p := Pairing{White: max(a, b), Black: min(a, b)}
		g := TournamentGame{Pairing: p, Decider: true}
		length := t.TiebreakLength
		if length == 0 {
			length = r.Deadline.Sub(r.Start)
		}
		due := now.Add(length)
		g.Extra = due.Sub(r.Deadline)
		whiteOut, blackOut := t.Entrants[p.White].Withdrawn, t.Entrants[p.Black].Withdrawn
		if whiteOut || blackOut {
			g.Outcome = forfeit(r.Number, p, whiteOut, blackOut, t.forfeitMargin())
		} else {
			toPlay = append(toPlay, len(r.Games))
		}
		r.Games = append(r.Games, g)
		logged := LogArgs{Players: []string{t.Entrants[p.White].Name, t.Entrants[p.Black].Name}, Round: r.Number, At: due}
		if logged.For = t.moveLaterRounds(r.Number, due); logged.For > 0 {
			logged.Kind = LogMoved
		}
		t.logf(ByScheduler, now, ActionDecider, "", logged)
	}
	return toPlay
}

// moveLaterRounds moves the rounds after number back so that the next
// starts no earlier than at, as a postponement does, and reports by how
// much.
func (t *Tournament) moveLaterRounds(number int, at time.Time) time.Duration {
	if number >= len(t.Rounds) {
		return 0
	}
	by := at.Sub(t.Rounds[number].Start)
	if by <= 0 {
		return 0
	}
	for i := number; i < len(t.Rounds); i++ {
		t.Rounds[i].Start = t.Rounds[i].Start.Add(by)
		t.Rounds[i].Deadline = t.Rounds[i].Deadline.Add(by)
	}
	return by
}

// KnockoutPlace is how far an entrant went in a knockout: the last round
// he was paired in (0: none yet), whether he went out in it (lost his
// match, or withdrew), and whether he won the final.
type KnockoutPlace struct {
	Reached  int
	Out      bool
	Champion bool
}

// rank orders places: the champion, then by the round reached, those
// still in before those out in it.
func (p KnockoutPlace) rank() int {
	n := 2 * p.Reached
	if p.Champion {
		n += 2
	}
	if !p.Out {
		n++
	}
	return n
}

// KnockoutPlaces is how far each entrant went, by entrant.
func (t *Tournament) KnockoutPlaces() []KnockoutPlace {
	out := make([]KnockoutPlace, len(t.Entrants))
	for r, slots := range t.Bracket {
		for k := 0; k+1 < len(slots); k += 2 {
			w, decided := t.MatchWinner(r+1, slots[k], slots[k+1])
			for _, e := range slots[k : k+2] {
				if e == Bye {
					continue
				}
				out[e] = KnockoutPlace{Reached: r + 1, Out: decided && w != e || t.Entrants[e].Withdrawn}
				out[e].Champion = r+1 == len(t.Rounds) && decided && w == e
			}
		}
	}
	return out
}

// knockoutStandings ranks a knockout by how far each entrant went: the
// champion, the finalist, then the losers of each round before, sharing
// their rank (3= for both semi-final losers); while it runs, those still
// in rank above those out in the same round. Within a rank the lines stay
// in seed order; points and margins are shown as for any format.
func (t *Tournament) knockoutStandings(lines []Standing) []Standing {
	places := t.KnockoutPlaces()
	slices.SortStableFunc(lines, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(places[b.Player].rank(), places[a.Player].rank()), cmp.Compare(a.Player, b.Player))
	})
	for i := range lines {
		lines[i].Tiebreak = 0
		if i > 0 && places[lines[i-1].Player].rank() == places[lines[i].Player].rank() {
			lines[i].Rank = lines[i-1].Rank
		} else {
			lines[i].Rank = i + 1
		}
	}
	return lines
}
