package tournaments

import (
	"math/rand/v2"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// Seeds: an entrant's number is his seed, 0 the first. A knockout's
// bracket is drawn from the seeds and a Swiss event pairs its first round
// by them (the top half against the bottom half), so their order is the
// organiser's to choose before the start: as listed and as players sign up
// (SeedingEntry), drawn at random when the first round starts
// (SeedingRandom: from the tournament's seed, so the draw is fixed and can
// be checked), or set by him (SetSeeds).

// Seeding is how the entrants' order is set.
type Seeding string

const (
	SeedingEntry  Seeding = "entry"  // as entered: the organiser's list, then who signs up, as they come
	SeedingRandom Seeding = "random" // drawn when the first round starts
)

// CodeTournamentStarted: what may be done only before the first round (set
// the seeds) is asked of a tournament that has started.
const CodeTournamentStarted = "tournament_started"

// setSeedingRules checks and keeps a new tournament's seeding and, for a
// knockout, how its level matches are decided.
func (t *Tournament) setSeedingRules(spec NewTournamentSpec) error {
	bad := func(format string, args ...any) error {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, format, args...)
	}
	switch spec.Seeding {
	case "", SeedingEntry:
	case SeedingRandom:
		t.Seeding = SeedingRandom
	default:
		return bad("seeding %q: want entry or random", spec.Seeding)
	}
	if spec.Format != Knockout {
		if spec.KnockoutTiebreak != "" || spec.TiebreakLength != 0 {
			return bad("a tie-break game is for knockouts")
		}
		return nil
	}
	switch spec.KnockoutTiebreak {
	case "", TiebreakGame:
		t.KnockoutTiebreak = TiebreakGame
	case TiebreakSeed:
		t.KnockoutTiebreak = TiebreakSeed
		if spec.TiebreakLength != 0 {
			return bad("a tie-break length is for deciding games (knockout_tiebreak game)")
		}
	default:
		return bad("knockout tie-break %q: want game or seed", spec.KnockoutTiebreak)
	}
	if spec.TiebreakLength != 0 && (spec.TiebreakLength < minRoundLength || spec.TiebreakLength > games.MaxBank) {
		return bad("a deciding game lasts 1 hour to 365 days")
	}
	t.TiebreakLength = spec.TiebreakLength
	return nil
}

// SetSeeds puts the entrants in the organiser's order before the start:
// order lists every entrant's number once, strongest first. The order
// given stands: a random draw asked for at creation is not made.
func (t *Tournament) SetSeeds(order []int, reason string, now time.Time) error {
	if err := t.checkChangeable(); err != nil {
		return err
	}
	if t.Status != TournamentScheduled {
		return domain.Errorf(domain.KindConflict, CodeTournamentStarted, "the tournament has started: its seeds are fixed")
	}
	reason, err := checkReason(reason, false)
	if err != nil {
		return err
	}
	if len(order) != len(t.Entrants) {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "the seeds list %d players; the tournament has %d", len(order), len(t.Entrants))
	}
	seen := make([]bool, len(t.Entrants))
	for _, e := range order {
		if e < 0 || e >= len(t.Entrants) || seen[e] {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "the seeds list every player's number once: 0 to %d", len(t.Entrants)-1)
		}
		seen[e] = true
	}
	t.reorder(order)
	t.Seeding = SeedingEntry
	t.logf(ByOrganiser, now, ActionSeedsSet, reason, LogArgs{Players: t.entrantNames()})
	return nil
}

// drawSeeds draws the seeds of a SeedingRandom tournament as its first
// round starts, from the round's board seed, and logs the draw.
func (t *Tournament) drawSeeds(seed uint64, now time.Time) {
	if t.Seeding != SeedingRandom || len(t.Rounds) == 0 || t.Rounds[0].Status != RoundPending {
		return
	}
	order := rand.New(rand.NewPCG(seed, uint64(len(t.Entrants)))).Perm(len(t.Entrants))
	t.reorder(order)
	t.logf(ByScheduler, now, ActionSeedsSet, "", LogArgs{Kind: LogRandom, Players: t.entrantNames()})
}

// reorder puts the entrants in order (entrant numbers): nothing refers to
// them by number before the first round.
func (t *Tournament) reorder(order []int) {
	out := make([]Entrant, len(order))
	for i, e := range order {
		out[i] = t.Entrants[e]
	}
	t.Entrants = out
}

func (t *Tournament) entrantNames() []string {
	out := make([]string, len(t.Entrants))
	for i, e := range t.Entrants {
		out[i] = e.Name
	}
	return out
}
