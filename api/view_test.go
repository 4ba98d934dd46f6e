package api_test

import (
	"net/http"
	"reflect"
	"testing"
)

type boardViewJSON struct {
	Layout string `json:"layout"`
	Rows   int    `json:"rows"`
	Cells  []struct {
		Name     string `json:"name"`
		Row, Col int
	} `json:"cells"`
	Walls []struct {
		Between [2]string `json:"between"`
		Count   int       `json:"count"`
	} `json:"walls"`
	Pieces []struct {
		Cell  string `json:"cell"`
		Color string `json:"color"`
	} `json:"pieces"`
	Highlights []struct {
		Kind  string   `json:"kind"`
		Color string   `json:"color"`
		Cells []string `json:"cells"`
	} `json:"highlights"`
	Path []struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"path"`
}

type costJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
	Cost int    `json:"cost"`
	Jump bool   `json:"jump"`
}

// The play page draws GET /view and shows the costs the server gives: the
// board of seed 42 (a wall below d5, none around d6) before and after
// White's first turn, and a typed turn's costs from preview.
func TestBoardViewAndPreviewCosts(t *testing.T) {
	h := newHarness(t)
	org := h.login("org@example.org")
	body := twoPlayers("")
	body["board"] = map[string]any{"seed": "42"}
	var g gameJSON
	h.do("POST", "/v1/games", org, body).want(t, http.StatusCreated).decode(t, &g)
	_, white := moveLink(t, only(t, h.deliver(), "ann@example.org"))
	game := "/v1/games/" + g.ID

	var v boardViewJSON
	h.do("GET", game+"/view", white, nil).want(t, http.StatusOK).decode(t, &v)
	if v.Layout != "squares" || v.Rows != 6 || len(v.Cells) != 36 || len(v.Walls) != 14 || len(v.Pieces) != 8 || len(v.Path) != 0 {
		t.Errorf("view before the first turn: %q, %d rows, %d cells, %d walls, %d pieces, path %v",
			v.Layout, v.Rows, len(v.Cells), len(v.Walls), len(v.Pieces), v.Path)
	}
	if w := v.Walls[0]; w.Between != [2]string{"a1", "a2"} || w.Count != 1 {
		t.Errorf("first wall %+v, want a single wall between a1 and a2", w)
	}
	if len(v.Highlights) != 2 || v.Highlights[1].Color != "black" || !reflect.DeepEqual(v.Highlights[1].Cells, []string{"e5", "e6", "f5", "f6"}) {
		t.Errorf("highlights %+v", v.Highlights)
	}

	var preview struct {
		Moves []costJSON `json:"moves"`
		Used  int        `json:"used"`
	}
	h.do("POST", game+"/preview", white, map[string]any{"turn": "e5d5:e6d6"}).want(t, http.StatusOK).decode(t, &preview)
	want := []costJSON{{From: "e5", To: "d5", Cost: 2}, {From: "e6", To: "d6", Cost: 1}}
	if !reflect.DeepEqual(preview.Moves, want) || preview.Used != 3 {
		t.Errorf("preview moves %+v, used %d; want %+v, used 3", preview.Moves, preview.Used, want)
	}

	h.do("POST", game+"/turns", white, map[string]any{"turn": "e6d6:d6c6:f5f4", "ply": 0}, "Idempotency-Key", "k1").want(t, http.StatusCreated)
	h.do("GET", game+"/view", white, nil).want(t, http.StatusOK).decode(t, &v)
	var path, whites []string
	for _, s := range v.Path {
		path = append(path, s.From+s.To)
	}
	for _, p := range v.Pieces {
		if p.Color == "white" {
			whites = append(whites, p.Cell)
		}
	}
	if !reflect.DeepEqual(path, []string{"e6d6", "d6c6", "f5f4"}) || !reflect.DeepEqual(whites, []string{"c6", "e5", "f4", "f6"}) {
		t.Errorf("after the turn: path %v, white pieces %v", path, whites)
	}
}
