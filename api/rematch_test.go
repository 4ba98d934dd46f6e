package api_test

import (
	"net/http"
	"strings"
	"testing"
)

type rematchJSON struct {
	Game struct {
		gameJSON
		Seats []struct {
			Color string `json:"color"`
			Name  string `json:"name"`
		} `json:"seats"`
	} `json:"game"`
	Created bool    `json:"created"`
	PlayURL *string `json:"play_url"`
}

// "Play again" as the players meet it: after the game, either player (or
// the creator) asks once and gets the rematch — same board, colours
// swapped, invitations to both — and whoever asks later gets the same game;
// a move link's holder gets his own link to it.
func TestRematch(t *testing.T) {
	h := newHarness(t)
	org := h.login("org@example.org")
	id, ann, bob := newGame(t, h, twoPlayers(wallBoard))
	h.refused(t, http.StatusConflict, "game_not_over", "POST", "/v1/games/"+id+"/rematch", bob, nil)
	h.do("POST", "/v1/games/"+id+"/resign", bob, nil).want(t, http.StatusOK)
	h.deliver()
	var old struct {
		gameJSON
		SpectatorURL string `json:"spectator_url"`
	}
	h.do("GET", "/v1/games/"+id, org, nil).want(t, http.StatusOK).decode(t, &old)
	_, watch, _ := strings.Cut(old.SpectatorURL, "#t=")
	h.refused(t, http.StatusForbidden, "forbidden", "POST", "/v1/games/"+id+"/rematch", watch, nil)
	h.refused(t, http.StatusForbidden, "forbidden", "POST", "/v1/games/"+id+"/rematch", h.login("eve@example.org"), nil)

	var r rematchJSON
	res := h.do("POST", "/v1/games/"+id+"/rematch", bob, nil).want(t, http.StatusCreated)
	res.decode(t, &r)
	if !r.Created || r.Game.ID == id || res.header.Get("Location") != "/v1/games/"+r.Game.ID || r.PlayURL == nil {
		t.Fatalf("rematch: %+v, location %q", r, res.header.Get("Location"))
	}
	if len(r.Game.Seats) != 2 || r.Game.Seats[0].Name != "Bob" || r.Game.Seats[1].Name != "Ann" || r.Game.Board.Walls != old.Board.Walls || r.Game.Ply != 0 {
		t.Errorf("rematch seats %+v, walls %q (was %q), ply %d", r.Game.Seats, r.Game.Board.Walls, old.Board.Walls, r.Game.Ply)
	}
	// Bob's link from the answer is his, White's, in the new game.
	_, bobNew, _ := strings.Cut(*r.PlayURL, "#t=")
	if g := h.game(r.Game.ID, bobNew); len(g.YourColors) != 1 || g.YourColors[0] != "white" {
		t.Errorf("Bob's new link holds %v, want white", g.YourColors)
	}
	mail := h.deliver()
	if len(mail) != 2 {
		t.Fatalf("%d emails, want the 2 invitations: %v", len(mail), subjects(mail))
	}
	gameID, _ := moveLink(t, only(t, mail, "ann@example.org"))
	if gameID != r.Game.ID {
		t.Errorf("Ann is invited to %s, want %s", gameID, r.Game.ID)
	}

	// Ann, and the creator, asking after: the same game, nothing sent.
	var again rematchJSON
	h.do("POST", "/v1/games/"+id+"/rematch", ann, map[string]any{}).want(t, http.StatusOK).decode(t, &again)
	if again.Created || again.Game.ID != r.Game.ID || again.PlayURL == nil {
		t.Errorf("Ann's rematch: %+v", again)
	} else if _, tok, _ := strings.Cut(*again.PlayURL, "#t="); h.game(r.Game.ID, tok).YourColors[0] != "black" || tok == "" {
		t.Errorf("Ann's link does not hold black")
	}
	h.do("POST", "/v1/games/"+id+"/rematch", org, nil).want(t, http.StatusOK).decode(t, &again)
	if again.Created || again.Game.ID != r.Game.ID || again.PlayURL != nil {
		t.Errorf("the creator's rematch: %+v", again)
	}
	if mail := h.deliver(); len(mail) != 0 {
		t.Errorf("asking again sent %v", subjects(mail))
	}
}
