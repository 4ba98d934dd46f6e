package tournaments

import (
	"slices"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// Team events: each entrant is a team of two who play one side of a
// four-player game together (Less on 8x8: Yellow and White against Black
// and Red). Pairings, scores and standings stay by entrant, that is by
// team; only the games, the mail and the pages see the members.

// CodeTeamsUnsupported: the event's game has no game for two teams of two
// (Les is for two players).
const CodeTeamsUnsupported = "teams_unsupported"

// teamSize is the number of players of a team, and so of a team event's
// side of a game.
const teamSize = 2

// Members are the players of the entrant: the player, and in a team event
// his partner.
func (e *Entrant) Members() []games.Player {
	if e.Partner == nil {
		return []games.Player{e.Player}
	}
	return []games.Player{e.Player, *e.Partner}
}

// Member finds the member of the entrant with an address.
func (e *Entrant) Member(email string) (games.Player, bool) {
	for _, p := range e.Members() {
		if p.Email == email {
			return p, true
		}
	}
	return games.Player{}, false
}

// Title is what the entrant is called in pairings and standings: the
// player's name, or the team's, by default its members' ("Ann & Bob").
func (e *Entrant) Title() string {
	switch {
	case e.Team != "":
		return e.Team
	case e.Partner != nil:
		return e.Name + " & " + e.Partner.Name
	}
	return e.Name
}

// Emails are the addresses of the entrant's members.
func (e *Entrant) Emails() []string {
	var out []string
	for _, p := range e.Members() {
		out = append(out, p.Email)
	}
	return out
}

// checkEntry checks a new entrant against the event: in a team event a
// team of two different players (its name optional), else one player; no
// address may play twice in an event (except when it is entrant except's
// own: a correction).
func (t *Tournament) checkEntry(e Entrant, except int) (Entrant, error) {
	e, err := t.checkShape(e)
	if err != nil {
		return Entrant{}, err
	}
	if email, in := t.playsIn(&e, except); in {
		return Entrant{}, domain.Errorf(domain.KindConflict, CodeAlreadyEntered, "%s plays in %s already", email, t.Name)
	}
	return e, nil
}

// checkShape checks an entrant's players and, in a team event, that they
// are a team of two different players (its name optional).
func (t *Tournament) checkShape(e Entrant) (Entrant, error) {
	p, err := games.CheckPlayer(e.Player)
	if err != nil {
		return Entrant{}, err
	}
	e.Player = p
	switch {
	case t.Teams && e.Partner == nil:
		return Entrant{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "a team event takes teams: %s needs a partner", p.Name)
	case !t.Teams && (e.Partner != nil || e.Team != ""):
		return Entrant{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "%s is not a team event: enter players without partners", t.Name)
	}
	if e.Partner != nil {
		partner, err := games.CheckPlayer(*e.Partner)
		if err != nil {
			return Entrant{}, err
		}
		if domain.Mailbox(partner.Email) == domain.Mailbox(p.Email) {
			return Entrant{}, domain.Errorf(domain.KindInvalid, domain.CodeDuplicateAddress, "a team is two players: %s is named twice", p.Email)
		}
		e.Partner = &partner
	}
	if e.Team != "" {
		if e.Team, err = domain.CheckName(e.Team); err != nil {
			return Entrant{}, err
		}
	}
	return e, nil
}

// playsIn finds an address of e whose mailbox (see Mailbox) plays in the
// event already, for an entrant other than except: one mailbox holds one
// place, or it would get every round's mail once per place.
func (t *Tournament) playsIn(e *Entrant, except int) (string, bool) {
	for _, email := range e.Emails() {
		for i := range t.Entrants {
			if i == except {
				continue
			}
			for _, other := range t.Entrants[i].Emails() {
				if domain.Mailbox(other) == domain.Mailbox(email) {
					return email, true
				}
			}
		}
	}
	return "", false
}

// gameSeats is the number of players of an event's game: a team event's
// games are team against team.
func gameSeats(teams bool) int {
	if teams {
		return 2 * teamSize
	}
	return 2
}

// checkTournamentGame checks that the rules start the event's games with
// its options: two-player games, or in a team event games of two teams of
// two (a rules without those, such as Les, is refused as such).
func checkTournamentGame(rs ruleset.Ruleset, teams bool, seed uint64, params map[string]string) error {
	players := gameSeats(teams)
	if teams {
		if _, _, err := rs.Start(ruleset.Options{Players: players, Seed: seed}); err != nil {
			return domain.Errorf(domain.KindInvalid, CodeTeamsUnsupported, "%s has no game for two teams of two: a team event plays Less", rs.Name())
		}
	}
	if _, _, err := rs.Start(ruleset.Options{Players: players, Seed: seed, Params: params}); err != nil {
		return domain.Classify(err)
	}
	return nil
}

// memberEmails are the addresses of every member of the entrants listed
// (Bye skipped).
func (t *Tournament) memberEmails(entrants ...int) []string {
	var out []string
	for _, e := range entrants {
		if e >= 0 && e < len(t.Entrants) {
			out = append(out, t.Entrants[e].Emails()...)
		}
	}
	return slices.Compact(out)
}
