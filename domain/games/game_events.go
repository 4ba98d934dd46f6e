package games

import (
	"slices"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/ruleset"
)

// The events of a game's changes, which the stores write with them.

// ChangeEvents are the events of a change to g: its turns played (the first
// after ply firstPly) and its notices.
func ChangeEvents(g *Game, firstPly int, played []ruleset.Played, notices []domain.Notice) []domain.Event {
	var out []domain.Event
	for i, p := range played {
		e := domain.Event{Kind: domain.EventTurnPlayed, GameID: g.ID, Color: p.Color, Ply: firstPly + i + 1, Data: domain.EventData{Turn: p.Ply}}
		out = append(out, e)
		for _, email := range g.addresses() {
			e.Email = email
			out = append(out, e)
		}
	}
	over := false
	for _, n := range notices {
		e, ok := noticeEvent(g, n)
		if !ok {
			continue
		}
		if e.Kind == domain.EventGameOver && !over {
			over = true
			public := e
			public.Email, public.Color = "", ""
			out = append(out, public)
		}
		out = append(out, e)
	}
	return out
}

// NoticeEvent is the event of a notice of no game (a bye), if it has one.
func NoticeEvent(n domain.Notice) (domain.Event, bool) {
	return noticeEvent(&Game{}, n)
}

// noticeEvent is the event concerning the recipient of a notice about g.
func noticeEvent(g *Game, n domain.Notice) (domain.Event, bool) {
	e := domain.Event{GameID: n.GameID, Email: g.Recipient(n), Color: n.Color, Ply: n.Ply}
	switch n.Kind {
	case domain.NoticeYourTurn:
		e.Kind = domain.EventYourTurn
	case domain.NoticeReminder:
		e.Kind = domain.EventDeadlineNear
	case domain.NoticeInvitation:
		e.Kind = domain.EventInvitation
		if g.Tournament != nil {
			e.Kind, e.Data.Tournament = domain.EventRoundStart, g.Tournament.ID
		}
	case domain.NoticeBye:
		e.Kind, e.Data.Tournament = domain.EventRoundStart, n.Tournament
	case domain.NoticeGameOver:
		e.Kind = domain.EventGameOver
		if r, over := g.Result(); over {
			e.Data.Result, e.Data.Line = r.Text, r.Line
		}
	default:
		return domain.Event{}, false
	}
	return e, e.Email != ""
}

// Recipient is the address a notice about g goes to: its seat's, unless
// the notice names one.
func (g *Game) Recipient(n domain.Notice) string {
	if seat, ok := g.Seat(n.Color); ok && n.Email == "" {
		return seat.Email
	}
	return n.Email
}

// addresses are the seats' addresses, each once.
func (g *Game) addresses() []string {
	var out []string
	for _, s := range g.Seats {
		if !slices.Contains(out, s.Email) {
			out = append(out, s.Email)
		}
	}
	return out
}
