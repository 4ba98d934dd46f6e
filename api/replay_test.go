package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/internal/vectors"
)

// The board after any earlier ply (GET /view?ply=n) is the board the game
// showed at that ply, in Less and in Les, for a player and a spectator; a
// ply past the game is refused.
func TestViewOfAnEarlierPly(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	les := vectors.LoadLes(t).GameCases[0]
	games := []struct {
		name   string
		create map[string]any
		seats  []string
		plies  []string
	}{
		{"less", twoPlayers(openBoard), []string{"white", "black"},
			[]string{"e5e4:e4d4:d4c4", "a2a3:a3a4:a4a5", "f5e5:e5d5:d5c5", "b2b3:b3b4:b4b5"}},
		{"les", map[string]any{"game": "les", "players": []map[string]any{{"name": "Sue", "email": "sue@example.org"}, {"name": "Cho", "email": "cho@example.org"}},
			"board": map[string]any{"side": les.Size}}, []string{"setter", "chooser"}, append([]string{les.Setup, les.Choice}, les.Turns[:4]...)},
	}
	for _, tt := range games {
		t.Run(tt.name, func(t *testing.T) {
			var g struct {
				ID           string  `json:"id"`
				ToMove       *string `json:"to_move"`
				SpectatorURL string  `json:"spectator_url"`
			}
			h.do("POST", "/v1/games", organiser, tt.create).want(t, http.StatusCreated).decode(t, &g)
			h.deliver()
			links := map[string]string{}
			for _, seat := range tt.seats {
				links[seat] = h.seatToken(g.ID, seat)
			}
			token := links[tt.seats[1]] // the player not to move first
			views := [][]byte{h.do("GET", "/v1/games/"+g.ID+"/view", token, nil).want(t, http.StatusOK).body}
			for ply, text := range tt.plies {
				var played struct {
					Game struct {
						ToMove *string `json:"to_move"`
					} `json:"game"`
				}
				h.do("POST", "/v1/games/"+g.ID+"/turns", links[*g.ToMove], map[string]any{"turn": text, "ply": ply}).
					want(t, http.StatusCreated).decode(t, &played)
				g.ToMove = played.Game.ToMove
				views = append(views, h.do("GET", "/v1/games/"+g.ID+"/view", token, nil).want(t, http.StatusOK).body)
			}
			if bytes.Equal(views[0], views[len(views)-1]) {
				t.Fatal("the board did not change: the test proves nothing")
			}
			var spectator struct {
				SpectatorURL string `json:"spectator_url"`
			}
			h.do("GET", "/v1/games/"+g.ID, token, nil).want(t, http.StatusOK).decode(t, &spectator)
			_, watch, _ := strings.Cut(spectator.SpectatorURL, "#t=")
			for _, who := range []string{token, watch} {
				for n, want := range views {
					got := h.do("GET", fmt.Sprintf("/v1/games/%s/view?ply=%d", g.ID, n), who, nil).want(t, http.StatusOK).body
					if !bytes.Equal(got, want) {
						t.Errorf("view after ply %d:\n%s\nwant the board of that ply:\n%s", n, got, want)
					}
				}
			}
			h.refused(t, http.StatusUnprocessableEntity, "invalid_input", "GET", fmt.Sprintf("/v1/games/%s/view?ply=%d", g.ID, len(views)), token, nil)
			h.refused(t, http.StatusBadRequest, "invalid_request", "GET", "/v1/games/"+g.ID+"/view?ply=-1", token, nil)
			h.refused(t, http.StatusBadRequest, "invalid_request", "GET", "/v1/games/"+g.ID+"/view?ply=two", token, nil)
		})
	}
}
