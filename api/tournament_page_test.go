package api_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/les"
	"github.com/lesspost/lesspost/domain/less"
	"github.com/lesspost/lesspost/notify"
)

// liveRound is a tournament in its first round: one game over (Black
// resigned), one game under way (White has played a turn, Black to move),
// and for an odd number of players a bye.
type liveRound struct {
	tour              tournamentJSON
	organiser         string
	finished, playing string // game ids
	playingBlack      string // the name of the player to move in the game under way
}

// startLiveRound creates a tournament of the players (see entrants) named
// name, starts its first round and plays it as liveRound says.
func startLiveRound(t *testing.T, h *harness, name, format string, players []map[string]any) liveRound {
	t.Helper()
	lr := liveRound{organiser: h.login("org@example.org")}
	body := map[string]any{"name": name, "format": format, "players": players,
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 72}}
	if format == "swiss" {
		body["rounds"] = 3
	}
	h.do("POST", "/v1/tournaments", lr.organiser, body).want(t, http.StatusCreated).decode(t, &lr.tour)
	h.clock.Advance(time.Hour)
	h.tickAll()
	mail := h.deliver()
	h.do("GET", "/v1/tournaments/"+lr.tour.ID, "", nil).want(t, http.StatusOK).decode(t, &lr.tour)
	var games []string
	for _, g := range lr.tour.Rounds[0].Games {
		if g.GameID != nil {
			games = append(games, *g.GameID)
		}
	}
	if len(games) < 2 {
		t.Fatalf("round 1 has %d games, want 2 or more", len(games))
	}
	lr.finished, lr.playing = games[0], games[1]
	links := seatLinks(t, mail)
	h.do("POST", "/v1/games/"+lr.finished+"/resign", links[lr.finished]["black"], nil).want(t, http.StatusOK)

	board, err := less.GenerateBoard(6, mustUint(t, lr.tour.Rounds[0].BoardSeed))
	if err != nil {
		t.Fatal(err)
	}
	engine, _, err := less.NewGame(less.StartPosition(board, false), less.Options{MaxTurns: less.DefaultMaxTurns(2)})
	if err != nil {
		t.Fatal(err)
	}
	turn := closerTurn(engine.Position())
	h.do("POST", "/v1/games/"+lr.playing+"/turns", links[lr.playing]["white"], map[string]any{"turn": turn.String(), "ply": 0}).
		want(t, http.StatusCreated)
	for _, g := range lr.tour.Rounds[0].Games {
		if g.GameID != nil && *g.GameID == lr.playing {
			lr.playingBlack = lr.tour.Players[*g.Black].Name
		}
	}
	h.deliver()
	return lr
}

// seatLinks reads the move links of a round's invitations: game id → colour → token.
func seatLinks(t *testing.T, mail []notify.Message) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, m := range mail {
		color := "white"
		switch {
		case strings.Contains(m.Text, "You play Black"):
			color = "black"
		case !strings.Contains(m.Text, "You play White"):
			continue // a bye
		}
		id, token := moveLink(t, m)
		if out[id] == nil {
			out[id] = map[string]string{}
		}
		out[id][color] = token
	}
	return out
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	var n uint64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("seed %q: %v", s, err)
	}
	return n
}

// splitRecords cuts a records file into its records: each starts at a tag
// line that follows a blank line (or the file's start).
func splitRecords(text string) []string {
	var out []string
	var cur strings.Builder
	prevBlank := true
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "[") && prevBlank && cur.Len() > 0 {
			out = append(out, strings.TrimRight(cur.String(), "\n")+"\n")
			cur.Reset()
		}
		cur.WriteString(line)
		prevBlank = strings.TrimSpace(line) == ""
	}
	if cur.Len() > 0 {
		out = append(out, strings.TrimRight(cur.String(), "\n")+"\n")
	}
	return out
}

var tagRE = regexp.MustCompile(`(?m)^\[(\w+) "((?:[^"\\]|\\.)*)"\]$`)

func recordTags(rec string) map[string]string {
	tags := map[string]string{}
	for _, m := range tagRE.FindAllStringSubmatch(rec, -1) {
		tags[m[1]] = m[2]
	}
	return tags
}

// The records download: every game of the tournament or of a round, in the
// engine's format with event, round and board tags, each record importable
// on its own; a game under way has the result *.
func TestTournamentRecords(t *testing.T) {
	h := newHarness(t)
	lr := startLiveRound(t, h, "Winter Cup", "round_robin", entrants(5))
	id := lr.tour.ID

	all := h.do("GET", "/v1/tournaments/"+id+"/records", "", nil).want(t, http.StatusOK)
	if ct := all.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := all.header.Get("Content-Disposition"); cd != `attachment; filename="`+id+`.less"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	one := h.do("GET", "/v1/tournaments/"+id+"/records?round=1", "", nil).want(t, http.StatusOK)
	if cd := one.header.Get("Content-Disposition"); cd != `attachment; filename="`+id+`-round-1.less"` {
		t.Errorf("Content-Disposition of round 1 %q", cd)
	}
	if string(one.body) != string(all.body) {
		t.Errorf("only round 1 has games, but its records differ from all records:\n%s\n---\n%s", one.body, all.body)
	}
	records := splitRecords(string(all.body))
	if len(records) != 2 { // 5 players: two games and a bye
		t.Fatalf("%d records, want 2:\n%s", len(records), all.body)
	}
	byGame := map[string]string{}
	for i, rec := range records {
		tags := recordTags(rec)
		if tags["Event"] != "Winter Cup" || tags["EventId"] != id || tags["Round"] != "1" || tags["Board"] != fmt.Sprint(i+1) ||
			tags["Site"] != "lesspost" || tags["Date"] != "2026.11.21" {
			t.Errorf("record %d tags %v", i, tags)
		}
		byGame[tags["GameId"]] = rec
		// Each record imports on its own, and is the game's own record
		// with the tournament's tags added.
		parsed, err := less.ParseRecord(rec)
		if err != nil {
			t.Errorf("record %d does not import: %v\n%s", i, err, rec)
			continue
		}
		single := h.do("GET", "/v1/games/"+tags["GameId"]+"/record", lr.organiser, nil).want(t, http.StatusOK)
		if got, want := turnLines(rec), turnLines(string(single.body)); got != want {
			t.Errorf("record %d turns\n%s\nwant the game's\n%s", i, got, want)
		}
		if len(parsed.History) != strings.Count(turnLines(rec), "\n") {
			t.Errorf("record %d: %d turns imported from\n%s", i, len(parsed.History), rec)
		}
	}
	if r := recordTags(byGame[lr.finished])["Result"]; !strings.HasPrefix(r, "white+") {
		t.Errorf("the resigned game's result %q, want White's win", r)
	}
	if r := recordTags(byGame[lr.playing])["Result"]; r != "*" {
		t.Errorf("the game under way has result %q, want *", r)
	}
	if n := strings.Count(turnLines(byGame[lr.playing]), "\n"); n != 1 {
		t.Errorf("the game under way has %d turns, want 1", n)
	}

	// A round not yet paired has no records; a round the tournament does
	// not have, or no round number, is refused.
	pending := h.do("GET", "/v1/tournaments/"+id+"/records?round=2", "", nil).want(t, http.StatusOK)
	if len(pending.body) != 0 {
		t.Errorf("round 2 (not started) has records:\n%s", pending.body)
	}
	h.do("GET", "/v1/tournaments/"+id+"/records?round=6", "", nil).want(t, http.StatusNotFound, "not_found")
	h.do("GET", "/v1/tournaments/"+id+"/records?round=0", "", nil).want(t, http.StatusBadRequest, "invalid_request")
	h.do("GET", "/v1/tournaments/"+id+"/records?round=last", "", nil).want(t, http.StatusBadRequest, "invalid_request")
	h.do("GET", "/v1/tournaments/t_nosuch/records", "", nil).want(t, http.StatusNotFound, "not_found")
}

// turnLines is a record without its header: the turns.
func turnLines(rec string) string {
	_, turns, _ := strings.Cut(rec, "\n\n")
	if turns = strings.TrimRight(turns, "\n"); turns == "" {
		return ""
	}
	return turns + "\n"
}

// A Les tournament's records are Les records, and import as such.
func TestTournamentRecordsLes(t *testing.T) {
	h := newHarness(t)
	organiser := h.login("org@example.org")
	var tour tournamentJSON
	h.do("POST", "/v1/tournaments", organiser, map[string]any{"name": "Les Open", "game": "les", "side": 7,
		"format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"first_start": h.clock.Now().Add(time.Hour), "interval_hours": 48}}).
		want(t, http.StatusCreated).decode(t, &tour)
	h.clock.Advance(time.Hour)
	h.tickAll()
	h.deliver()
	res := h.do("GET", "/v1/tournaments/"+tour.ID+"/records", "", nil).want(t, http.StatusOK)
	if cd := res.header.Get("Content-Disposition"); cd != `attachment; filename="`+tour.ID+`.les"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	records := splitRecords(string(res.body))
	if len(records) != 1 {
		t.Fatalf("%d records, want 1:\n%s", len(records), res.body)
	}
	rec, err := les.ParseRecord(records[0])
	if err != nil {
		t.Fatalf("the record does not import: %v\n%s", err, records[0])
	}
	tags := recordTags(records[0])
	if tags["Game"] != "Les" || tags["Size"] != "7" || tags["Event"] != "Les Open" || tags["Round"] != "1" || tags["Result"] != "*" {
		t.Errorf("tags %v", tags)
	}
	if rec.Players[les.Setter] != "P0" || rec.Players[les.Chooser] != "P1" {
		t.Errorf("players %v", rec.Players)
	}
}

// pageWords are words each language's page must show for a round robin
// in its first round (see startLiveRound).
var pageWords = map[string][]string{
	"en": {"Standings", "Crosstable", "Round robin", "In progress", "Round 1", "being played", "White", "Black", "Watch", "Sonneborn-Berger", "a bye: 1 point", "Downloads", "Every game record", "Played"},
	"de": {"Tabelle", "Kreuztabelle", "Rundenturnier", "Läuft", "Runde 1", "wird gespielt", "Weiß", "Schwarz", "Zuschauen", "Sonneborn-Berger", "spielfrei: 1 Punkt", "Downloads", "Alle Partieaufzeichnungen", "Gesp."},
	"fr": {"Classement", "Grille américaine", "Toutes rondes", "En cours", "Ronde 1", "en cours", "Blanc", "Noir", "Regarder", "Sonneborn-Berger", "exempt\u00a0: 1 point", "Téléchargements", "Toutes les parties", "Joués"},
	"it": {"Classifica", "Tabellone", "Girone all’italiana", "In corso", "Turno 1", "in corso", "Bianco", "Nero", "Guarda", "Sonneborn-Berger", "turno di riposo: 1 punto", "Download", "Tutte le partite", "Giocate"},
	"es": {"Clasificación", "Tabla cruzada", "Liga a una vuelta", "En curso", "Ronda 1", "en juego", "Blanco", "Negro", "Ver", "Sonneborn-Berger", "descanso: 1 punto", "Descargas", "Todas las partidas", "Jugadas"},
}

// The page speaks five languages: ?lang= first, then Accept-Language, then
// English. Every language shows the same page: human words, never the
// API's names (round_robin, sonneborn_berger), never an address.
func TestTournamentPageLanguages(t *testing.T) {
	h := newHarness(t)
	lr := startLiveRound(t, h, "Winter Cup", "round_robin", entrants(5))
	path := "/tournaments/" + lr.tour.ID
	cases := []struct {
		query, accept, want string
	}{
		{"", "", "en"},
		{"", "de-AT,de;q=0.9,en;q=0.5", "de"},
		{"", "fr-CH, fr;q=0.9, en;q=0.8", "fr"},
		{"", "es-419", "es"},
		{"", "it", "it"},
		{"", "pt-BR,pt;q=0.9", "en"},
		{"", "xx;;;garbage", "en"},
		{"?lang=it", "de", "it"},
		{"?lang=de", "", "de"},
	}
	for _, c := range cases {
		t.Run(c.query+"|"+c.accept, func(t *testing.T) {
			var headers []string
			if c.accept != "" {
				headers = []string{"Accept-Language", c.accept}
			}
			res := h.do("GET", path+c.query, "", nil, headers...).want(t, http.StatusOK)
			body := string(res.body)
			if got := res.header.Get("Content-Language"); got != c.want {
				t.Errorf("Content-Language %q, want %q", got, c.want)
			}
			if !strings.Contains(res.header.Get("Vary"), "Accept-Language") {
				t.Errorf("Vary %q", res.header.Get("Vary"))
			}
			if !strings.Contains(body, `<html lang="`+c.want+`">`) {
				t.Errorf("page not in %s:\n%.300s", c.want, body)
			}
			for _, w := range pageWords[c.want] {
				if !strings.Contains(body, htmlEscape(w)) {
					t.Errorf("%s page lacks %q", c.want, w)
				}
			}
			for _, bad := range []string{"round_robin", "sonneborn_berger", "@example.org", "{{", "%!"} {
				if strings.Contains(body, bad) {
					t.Errorf("%s page shows %q", c.want, bad)
				}
			}
		})
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;").Replace(s)
}

// The page shows each game of the round: colours, the result and margin of
// the game over, whose turn it is in the game under way, the bye, a watch
// link per game; the standings with a played column; the downloads.
func TestTournamentPageShowsTheRound(t *testing.T) {
	h := newHarness(t)
	lr := startLiveRound(t, h, "Winter Cup", "round_robin", entrants(5))
	body := string(h.do("GET", "/tournaments/"+lr.tour.ID, "", nil).want(t, http.StatusOK).body)
	games := regexp.MustCompile(`(?s)<li class="game[^"]*">.*?</li>`).FindAllString(body, -1)
	if len(games) != 3 {
		t.Fatalf("%d games shown in round 1, want 3 (two games and a bye):\n%s", len(games), body)
	}
	var finished, playing, bye string
	for _, g := range games {
		switch {
		case strings.Contains(g, "/games/"+lr.finished+"/watch"):
			finished = g
		case strings.Contains(g, "/games/"+lr.playing+"/watch"):
			playing = g
		case strings.Contains(g, "a bye: 1 point"):
			bye = g
		}
	}
	if !regexp.MustCompile(`class="entrant white won">.*<span class="score">1–0</span>`).MatchString(finished) ||
		!regexp.MustCompile(`P\d wins by \d+`).MatchString(finished) {
		t.Errorf("the game Black resigned:\n%s", finished)
	}
	if !strings.Contains(playing, lr.playingBlack+" to move") || !strings.Contains(playing, `class="game playing"`) {
		t.Errorf("the game under way (%s to move):\n%s", lr.playingBlack, playing)
	}
	if bye == "" || strings.Contains(bye, "watch") {
		t.Errorf("the bye:\n%s", bye)
	}
	for _, want := range []string{
		`href="/v1/tournaments/` + lr.tour.ID + `/standings?format=csv"`,
		`href="/v1/tournaments/` + lr.tour.ID + `"`,
		`href="/v1/tournaments/` + lr.tour.ID + `/records"`,
		`href="/v1/tournaments/` + lr.tour.ID + `/records?round=1"`,
		`<abbr title="Sonneborn-Berger: `,
		`<abbr title="Games played`,
		`class="crosstable"`,
		"Paired when the round starts.", // round 2
	} {
		if !strings.Contains(body, htmlEscape(want)) && !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(body, "#t=") {
		t.Error("the page holds a token: watch links go through the server")
	}
	// A Swiss tournament has no crosstable, and Buchholz.
	h2 := newHarness(t)
	sw := startLiveRound(t, h2, "Winter Cup", "swiss", entrants(6))
	swiss := string(h2.do("GET", "/tournaments/"+sw.tour.ID, "", nil).want(t, http.StatusOK).body)
	if strings.Contains(swiss, `class="crosstable"`) || !strings.Contains(swiss, "Buchholz: ") || !strings.Contains(swiss, "Swiss system · 3 rounds") {
		t.Errorf("Swiss page:\n%s", swiss)
	}
}

// The crosstable of a finished round robin: every pair's result, both ways.
func TestTournamentPageCrosstable(t *testing.T) {
	h := newHarness(t)
	first := h.clock.Now().Add(time.Hour)
	tour, _ := runTournament(t, h, map[string]any{"name": "Winter Cup", "format": "round_robin", "players": entrants(4),
		"schedule": map[string]any{"first_start": first, "interval_hours": 72}}, 4)
	body := string(h.do("GET", "/tournaments/"+tour.ID+"?lang=en", "", nil).want(t, http.StatusOK).body)
	table := regexp.MustCompile(`(?s)<table class="crosstable">.*?</table>`).FindString(body)
	rows := regexp.MustCompile(`(?s)<tr><td>\d+</td>.*?</tr>`).FindAllString(table, -1)
	if len(rows) != 4 {
		t.Fatalf("crosstable has %d rows, want 4:\n%s", len(rows), table)
	}
	cell := regexp.MustCompile(`<td(?: title="[^"]*")?>([^<]*)</td>|<td class="self"></td>`)
	sum := 0.0
	for i, row := range rows {
		cells := cell.FindAllStringSubmatch(row, -1)
		// the number, then 4 results (one the player's own)
		if len(cells) != 5 {
			t.Fatalf("row %d has %d cells: %s", i, len(cells), row)
		}
		for j, c := range cells[1:5] {
			switch {
			case j == i && c[0] != `<td class="self"></td>`:
				t.Errorf("row %d: the player against himself is %q", i, c[0])
			case j != i && c[1] != "1" && c[1] != "0":
				t.Errorf("row %d column %d: %q, want 1 or 0 (every game was won)", i, j, c[1])
			case j != i && c[1] == "1":
				sum++
			}
		}
	}
	if sum != 6 {
		t.Errorf("the crosstable has %v wins, want 6 (4 players, 6 games)", sum)
	}
}

// A game's watch link leads to its spectator view with a read-only token;
// a game of another tournament is not found through this one.
func TestTournamentWatchLink(t *testing.T) {
	h := newHarness(t)
	lr := startLiveRound(t, h, "Winter Cup", "round_robin", entrants(5))
	noRedirect := &http.Client{Transport: h.client.Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), "GET", h.url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	res := get("/tournaments/" + lr.tour.ID + "/games/" + lr.playing + "/watch")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("watch: %d %v", res.StatusCode, res.Header)
	}
	loc := res.Header.Get("Location")
	prefix := "/play/" + lr.playing + "#t="
	if !strings.HasPrefix(loc, prefix) {
		t.Fatalf("Location %q", loc)
	}
	token := strings.TrimPrefix(loc, prefix)
	var g struct {
		YourColors []string `json:"your_colors"`
		ToMove     *string  `json:"to_move"`
	}
	h.do("GET", "/v1/games/"+lr.playing, token, nil).want(t, http.StatusOK).decode(t, &g)
	if len(g.YourColors) != 0 || g.ToMove == nil || *g.ToMove != "black" {
		t.Errorf("the watch token sees %+v, want a spectator's view with Black to move", g)
	}
	h.do("POST", "/v1/games/"+lr.playing+"/resign", token, nil).want(t, http.StatusForbidden)

	other := h.do("POST", "/v1/games", h.login("x@example.org"), twoPlayers(openBoard)).want(t, http.StatusCreated)
	var og struct {
		ID string `json:"id"`
	}
	other.decode(t, &og)
	if res := get("/tournaments/" + lr.tour.ID + "/games/" + og.ID + "/watch"); res.StatusCode != http.StatusNotFound {
		t.Errorf("a game of no tournament through the tournament's watch link: %d", res.StatusCode)
	}
	if res := get("/tournaments/t_nosuch/games/" + lr.playing + "/watch"); res.StatusCode != http.StatusNotFound {
		t.Errorf("watch through no tournament: %d", res.StatusCode)
	}
}
