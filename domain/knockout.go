package domain

import (
	"cmp"
	"math/bits"
	"slices"
)

// A knockout event: the entrants, seeded by their order (the organiser
// lists the strongest first; players who sign up are seeded as they
// come), fill a bracket of the next power of two, placed so that seed 1
// meets seed 2 in the final at the earliest and the seeds missing from the
// bracket are byes for the top seeds. Each round halves the field: a match
// is one game (the higher seed has White) or, in a simultaneous event, two
// games with colours reversed on one board. The match's winner has more
// points in it; level on points (1–1, or a drawn game), the greater sum of
// margins; still level, the higher seed goes through: a rule everyone
// knows before the start, and one that needs no extra game in a round
// whose deadline is fixed. A withdrawn player's games are forfeited, so
// he goes through only from a match he won before withdrawing, and his
// next opponent then wins by forfeit; a match of two withdrawn players
// sends nobody, and the next opponent has a bye.

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

// MatchWinner is who goes through from the knockout match of a and b
// (entrants, Bye for an empty slot) in round number: decided reports
// whether the match is over (every game of it has its outcome). See the
// rules at the top of this file.
func (t *Tournament) MatchWinner(number, a, b int) (winner int, decided bool) {
	out := func(e int) bool { return e == Bye || t.Entrants[e].Withdrawn }
	var points [2]float64
	var margins [2]int
	for _, g := range t.Rounds[number-1].Games {
		if g.Black == Bye || !(g.White == a && g.Black == b || g.White == b && g.Black == a) {
			continue
		}
		if g.Outcome == nil {
			return Bye, false
		}
		if !t.counts(&g) {
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
	switch {
	case out(a) && out(b):
		return Bye, true
	case a == Bye:
		return b, true
	case b == Bye:
		return a, true
	}
	first := cmp.Or(cmp.Compare(points[0], points[1]), cmp.Compare(margins[0], margins[1]), cmp.Compare(b, a))
	if first > 0 {
		return a, true
	}
	return b, true
}

// knockoutStandings ranks a knockout by how far each entrant went: the
// champion, the finalist, then the losers of each round before, sharing
// their rank (3= for both semi-final losers). Within a rank the lines stay
// in seed order; points and margins are shown as for any format.
func (t *Tournament) knockoutStandings(lines []Standing) []Standing {
	reached := make([]int, len(t.Entrants)) // rounds entered, +1 for the champion
	for r, slots := range t.Bracket {
		for _, e := range slots {
			if e != Bye {
				reached[e] = r + 1
			}
		}
	}
	if t.Status == TournamentFinished && len(t.Bracket) == len(t.Rounds) {
		final := t.Bracket[len(t.Bracket)-1]
		if w, ok := t.MatchWinner(len(t.Rounds), final[0], final[1]); ok && w != Bye {
			reached[w]++
		}
	}
	slices.SortStableFunc(lines, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(reached[b.Player], reached[a.Player]), cmp.Compare(a.Player, b.Player))
	})
	for i := range lines {
		lines[i].Tiebreak = 0
		if i > 0 && reached[lines[i-1].Player] == reached[lines[i].Player] {
			lines[i].Rank = lines[i-1].Rank
		} else {
			lines[i].Rank = i + 1
		}
	}
	return lines
}
