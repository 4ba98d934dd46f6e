package api

import (
	"net/url"
	"slices"
	"strings"

	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// A knockout's bracket on the public page: every round from the first to
// the final, as far as it is known. A paired match shows its players with
// their seeds, the score of the match, each game (a deciding game marked)
// and who went through; a slot not yet known says whose winner fills it.

type pageBracketRound struct {
	Number  int
	Title   string
	Matches []pageMatch
}

type pageMatch struct {
	Number int // counted across the rounds, from 1
	Slots  [2]pageSlot
	Games  []pageGame
	Note   string // how a level match was decided, or a bye
}

type pageSlot struct {
	Name        string // "" when the slot is not known yet, or empty
	Seed        int    // 1-based; 0 when not known
	Placeholder string // what fills the slot when Name is ""
	Points      string // his points in the match, once it has a game
	Won         bool
}

// Slots not filled by an entrant.
const (
	slotUnknown = -2 // the winner of a match not decided yet
)

// roundName names round number of a knockout of rounds: the final, the
// semi-finals and the quarter-finals by name.
func roundName(tr *pagePhrases, number, rounds int) string {
	switch rounds - number {
	case 0:
		return tr.Final
	case 1:
		return tr.SemiFinals
	case 2:
		return tr.QuarterFinals
	}
	return fill(tr.Round, "n", number)
}

// knockoutRounds is the number of rounds a knockout has, or will have
// with the players entered so far.
func knockoutRounds(t *tournaments.Tournament) int {
	if t.Status == tournaments.TournamentScheduled {
		return tournaments.KnockoutRoundCount(len(t.Entrants))
	}
	return len(t.Rounds)
}

// buildBracket lays out a knockout's bracket; nil for other formats, or
// before two players have entered.
func buildBracket(t *tournaments.Tournament, playing map[string]games.Game, tr *pagePhrases) []pageBracketRound {
	rounds := knockoutRounds(t)
	if t.Format != tournaments.Knockout || rounds == 0 {
		return nil
	}
	base := "/tournaments/" + url.PathEscape(t.ID)
	var out []pageBracketRound
	first := 1        // the number of the round's first match
	var prev []int    // the slots of the round before
	var prevFirst int // the number of its first match
	var prevRound int // its number
	for r := 1; r <= rounds; r++ {
		var slots []int
		paired := r <= len(t.Bracket)
		switch {
		case paired:
			slots = t.Bracket[r-1]
		case r == 1:
			slots = tournaments.SeededBracket(len(t.Entrants))
		default:
			for k := 0; k+1 < len(prev); k += 2 {
				w, decided := slotUnknown, false
				if prevRound <= len(t.Bracket) && prev[k] != slotUnknown && prev[k+1] != slotUnknown {
					w, decided = t.MatchWinner(prevRound, prev[k], prev[k+1])
				}
				if !decided {
					w = slotUnknown
				}
				slots = append(slots, w)
			}
		}
		br := pageBracketRound{Number: r, Title: roundName(tr, r, rounds)}
		for k := 0; k+1 < len(slots); k += 2 {
			m := pageMatch{Number: first + k/2}
			for i, e := range slots[k : k+2] {
				m.Slots[i] = bracketSlot(t, e, r == 1 && !paired, prevFirst+k+i, tr)
			}
			if paired {
				fillMatch(t, r, slots[k], slots[k+1], &m, playing, base, tr)
			}
			br.Matches = append(br.Matches, m)
		}
		out = append(out, br)
		prev, prevFirst, prevRound = slots, first, r
		first += len(br.Matches)
	}
	return out
}

// bracketSlot shows slot e: an entrant with his seed, a bye, or the winner
// of a match still to be decided (feeder, the match's number). Before the
// start a random draw has not been made: the slots are seeds, no names.
func bracketSlot(t *tournaments.Tournament, e int, preview bool, feeder int, tr *pagePhrases) pageSlot {
	switch {
	case e == tournaments.Bye:
		return pageSlot{Placeholder: tr.Bye}
	case e == slotUnknown:
		return pageSlot{Placeholder: fill(tr.WinnerOf, "match", feeder)}
	case preview && t.Seeding == tournaments.SeedingRandom:
		return pageSlot{Seed: e + 1, Placeholder: fill(tr.SeedN, "seed", e+1)}
	}
	return pageSlot{Name: t.Entrants[e].Name, Seed: e + 1}
}

// fillMatch adds a paired match's score, games and winner.
func fillMatch(t *tournaments.Tournament, round, a, b int, m *pageMatch, playing map[string]games.Game, base string, tr *pagePhrases) {
	if a == tournaments.Bye || b == tournaments.Bye {
		m.Note = tr.ByeThrough
		m.Slots[0].Won, m.Slots[1].Won = a != tournaments.Bye, b != tournaments.Bye
		return
	}
	r := &t.Rounds[round-1]
	for _, g := range r.Games {
		if g.Black == tournaments.Bye || !(g.White == a && g.Black == b || g.White == b && g.Black == a) {
			continue
		}
		pg := buildPageGame(t, round, g, playing, tr)
		if g.GameID != "" {
			pg.WatchURL = base + "/games/" + url.PathEscape(g.GameID) + "/watch"
		}
		if g.Decider {
			pg.Detail = strings.TrimSuffix(tr.DecidingGame+" · "+pg.Detail, " · ")
		}
		m.Games = append(m.Games, pg)
	}
	points, margins, decider, over := t.MatchScore(round, a, b)
	if slices.ContainsFunc(m.Games, func(g pageGame) bool { return g.Score != "" }) {
		m.Slots[0].Points, m.Slots[1].Points = scoreText(points[0]), scoreText(points[1])
	}
	w, decided := t.MatchWinner(round, a, b)
	if !decided || w == tournaments.Bye {
		return
	}
	m.Slots[0].Won, m.Slots[1].Won = w == a, w == b
	level := over && points[0] == points[1] && margins[0] == margins[1]
	if level && (decider == nil || decider.Outcome == nil || decider.Outcome.Score == 0.5 || decider.Annulled) && !t.Entrants[a].Withdrawn && !t.Entrants[b].Withdrawn {
		m.Note = tr.HigherSeedThrough
	}
}

// knockoutPlace says how far an entrant went: the winner, out in a round,
// or still in.
func knockoutPlace(t *tournaments.Tournament, p tournaments.KnockoutPlace, tr *pagePhrases) string {
	switch {
	case p.Champion:
		return tr.Champion
	case p.Reached == 0:
		return "–"
	case p.Out:
		return roundName(tr, p.Reached, len(t.Rounds))
	}
	return tr.StillIn
}
