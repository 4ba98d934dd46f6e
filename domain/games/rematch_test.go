package games_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// The rematch of a finished game: the players swap colours on the same
// board under the same clock, each is invited, and a game has one rematch
// whoever asks and however often.
func TestServiceRematch(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.Rematch(ctx, f.game.ID, seat(f.game, white)); domain.CodeOf(err) != domain.CodeGameNotOver {
		t.Fatalf("rematch of a running game: %v, want %s", err, domain.CodeGameNotOver)
	}
	if _, _, err := f.svc.Resign(ctx, games.GameRequest{GameID: f.game.ID, By: seat(f.game, black)}, present); err != nil {
		t.Fatal(err)
	}
	spectator := games.Credentials{GameID: f.game.ID, Spectator: true, LinkVersion: f.game.WatchVersion}
	stranger := games.Credentials{UserID: 99, UserEmail: "eve@example.org"}
	for _, by := range []games.Credentials{spectator, stranger} {
		if _, err := f.svc.Rematch(ctx, f.game.ID, by); domain.CodeOf(err) != domain.CodeForbidden {
			t.Errorf("rematch by %+v: %v, want forbidden", by, err)
		}
	}
	queued := len(f.store.Queued())
	done, err := f.svc.Rematch(ctx, f.game.ID, seat(f.game, black))
	if err != nil {
		t.Fatal(err)
	}
	r := done.Game
	if !done.Created || r.ID == f.game.ID || r.Seats[0].Name != "Bob" || r.Seats[1].Name != "Ann" || r.Over() || r.Ply() != 0 || done.Seat != "white" {
		t.Fatalf("rematch: created %v, %s, seats %+v, ply %d", done.Created, r.ID, r.Seats, r.Ply())
	}
	// Locales go with the players; the board and the creator stay.
	if r.Seats[0].Locale != "fr" || r.Seats[1].Locale != "de" || r.CreatorID != creatorID {
		t.Errorf("seats %+v, creator %d", r.Seats, r.CreatorID)
	}
	before, after := lessOf(t, f.game), lessOf(t, r)
	bw, _ := before.Board("")
	aw, _ := after.Board("")
	if !reflect.DeepEqual(bw.Walls, aw.Walls) || before.Preset != after.Preset {
		t.Errorf("the rematch is not on the same board: walls %v, %v", bw.Walls, aw.Walls)
	}
	var invited []string
	for _, q := range f.store.Queued()[queued:] {
		invited = append(invited, fmt.Sprintf("%s %s budgeted %v", q.Kind, q.Email, q.Budgeted))
	}
	// Bob asked: his own invitation counts against nobody's budget, Ann's
	// against hers.
	if want := "invitation bob@example.org budgeted false,invitation ann@example.org budgeted true"; strings.Join(invited, ",") != want {
		t.Errorf("queued %q, want %q", invited, want)
	}
	// Ann and the creator asking later get the same game, and nothing more is sent.
	for _, by := range []games.Credentials{seat(f.game, white), creator} {
		again, err := f.svc.Rematch(ctx, f.game.ID, by)
		if wantSeat := map[bool]string{true: "black", false: ""}[by.Seat != nil]; err != nil || again.Created || again.Game.ID != r.ID || again.Seat != wantSeat {
			t.Errorf("rematch asked again by %+v: %+v, %v, want %s", by, again.Game.ID, err, r.ID)
		}
	}
	if n := len(f.store.Queued()); n != queued+2 {
		t.Errorf("%d notices after asking again, want %d", n, queued+2)
	}
}

// In the four-player game each team takes the other team's seats: partners
// stay partners, and everyone changes side.
func TestRematchPlayersOfFour(t *testing.T) {
	g := games.Game{Seats: []games.Seat{{Color: "yellow", Player: games.Player{Name: "Yan"}}, {Color: "black", Player: games.Player{Name: "Bea"}},
		{Color: "white", Player: games.Player{Name: "Wim"}}, {Color: "red", Player: games.Player{Name: "Rae"}}}}
	var names []string
	for _, p := range games.RematchPlayers(&g) {
		names = append(names, p.Name)
	}
	// Yan and Wim were the yellow-white team; now they are black and red.
	if strings.Join(names, ",") != "Bea,Wim,Rae,Yan" {
		t.Errorf("seats in turn order %v, want Bea, Wim, Rae, Yan", names)
	}
}
