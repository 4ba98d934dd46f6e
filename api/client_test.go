package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/lesspost/lesspost/api/apiclient"
	"github.com/lesspost/lesspost/internal/vectors"
)

// An app built on the generated client can play a whole game: the contract
// says everything the client needs, with the types it needs.
func TestGeneratedClientPlaysAGame(t *testing.T) {
	h := newHarness(t)
	vector := vectors.Load(t).GameCases[1]
	client, err := apiclient.NewClientWithResponses(h.url, apiclient.WithHTTPClient(h.client))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	bearer := func(token string) apiclient.RequestEditorFn {
		return func(_ context.Context, req *http.Request) error {
			req.Header.Set("Authorization", "Bearer "+token)
			return nil
		}
	}

	if res, err := client.RequestLoginWithResponse(ctx, apiclient.RequestLoginJSONRequestBody{Email: "org@example.org"}); err != nil || res.JSON202 == nil {
		t.Fatalf("request login: %v %v", err, res.Status())
	}
	code := loginTokenRE.FindStringSubmatch(only(t, h.deliver(), "org@example.org").Text)[1]
	tok, err := client.ExchangeLoginTokenWithResponse(ctx, apiclient.ExchangeLoginTokenJSONRequestBody{Token: &code})
	if err != nil || tok.JSON200 == nil {
		t.Fatalf("exchange login token: %v %s", err, tok.Body)
	}
	organiser := bearer(tok.JSON200.AccessToken)

	walls := vector.Walls
	key := "first-game"
	created, err := client.CreateGameWithResponse(ctx, &apiclient.CreateGameParams{IdempotencyKey: &key}, apiclient.CreateGameJSONRequestBody{
		Players: []apiclient.PlayerRequest{{Name: ptr("Ann"), Email: ptr("ann@example.org")}, {Name: ptr("Bob"), Email: ptr("bob@example.org")}},
		Board:   &apiclient.BoardRequest{Walls: &walls},
	}, organiser)
	if err != nil || created.JSON201 == nil {
		t.Fatalf("create game: %v %s", err, created.Body)
	}
	game := asLess(t, *created.JSON201)
	mail := h.deliver()
	links := map[apiclient.Color]apiclient.RequestEditorFn{}
	_, white := moveLink(t, only(t, mail, "ann@example.org"))
	_, black := moveLink(t, only(t, mail, "bob@example.org"))
	links[apiclient.ColorWhite], links[apiclient.ColorBlack] = bearer(white), bearer(black)

	for i, turn := range vector.Turns {
		key := apiclient.IdempotencyKey("client-" + turn)
		res, err := client.SubmitTurnWithResponse(ctx, game.Id, &apiclient.SubmitTurnParams{IdempotencyKey: &key},
			apiclient.SubmitTurnJSONRequestBody{Turn: turn, Ply: game.Ply}, links[apiclient.Color(*game.ToMove)])
		if err != nil || res.JSON201 == nil {
			t.Fatalf("turn %d %q: %v %s", i+1, turn, err, res.Body)
		}
		game = asLess(t, res.JSON201.Game)
		h.deliver()
	}
	if game.Status != apiclient.LessGameStatusFinished || game.Result == nil {
		t.Fatalf("game not over: %+v", game)
	}
	r := game.Result
	want := vector.Result
	if r.Margin != want.Margin || (r.Winner == nil) != (want.Winner == nil) || r.Winner != nil && string(*r.Winner) != *want.Winner {
		t.Errorf("result %+v, want %+v", *r, want)
	}

	turns, err := client.ListTurnsWithResponse(ctx, game.Id, organiser)
	if err != nil || turns.JSON200 == nil || len(turns.JSON200.Turns) != len(vector.Turns) {
		t.Fatalf("list turns: %v %s", err, turns.Body)
	}
	page, err := client.ListMyGamesWithResponse(ctx, &apiclient.ListMyGamesParams{}, organiser)
	if err != nil || page.JSON200 == nil || len(page.JSON200.Games) != 1 || asLess(t, page.JSON200.Games[0]).Id != game.Id {
		t.Fatalf("my games: %v %s", err, page.Body)
	}
}

// asLess tells a Game of Less apart by its discriminator, the way an app
// built on the generated client does, and returns it.
func asLess(t *testing.T, g apiclient.Game) apiclient.LessGame {
	t.Helper()
	if kind, err := g.Discriminator(); err != nil || kind != "less" {
		t.Fatalf("game is %q (%v), want less", kind, err)
	}
	v, err := g.ValueByDiscriminator()
	if err != nil {
		t.Fatal(err)
	}
	lg, ok := v.(apiclient.LessGame)
	if !ok {
		t.Fatalf("game is a %T", v)
	}
	return lg
}

// ptr is a pointer to v, for the generated client's optional members.
func ptr[T any](v T) *T { return &v }
