package players_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/memstore"
	"github.com/lesspost/lesspost/domain/players"
)

const (
	annID = 1
	bobID = 2
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type fixture struct {
	store *memstore.Store
	svc   *players.Service
	games *games.Service
	now   time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{store: memstore.New(
		domain.User{ID: annID, Email: "ann@example.org", Name: "Ann", Locale: "de", CreatedAt: t0},
		domain.User{ID: bobID, Email: "bob@example.org", Name: "Bob", CreatedAt: t0}), now: t0}
	clock := func() time.Time { return f.now }
	f.svc = players.NewService(players.Config{Store: f.store, Now: clock})
	f.games = games.NewService(games.Config{Store: f.store, Now: clock})
	return f
}

func TestCheckHandle(t *testing.T) {
	for _, tt := range []struct {
		handle, code string
	}{
		{"ann", ""}, {"Ann_B-2", ""}, {"abcdefghijklmnopqrst", ""},
		{"ab", players.CodeHandleInvalid}, {"abcdefghijklmnopqrstu", players.CodeHandleInvalid},
		{"ann b", players.CodeHandleInvalid}, {"anné", players.CodeHandleInvalid}, {"ann.b", players.CodeHandleInvalid},
		{"", players.CodeHandleInvalid}, {"a/b", players.CodeHandleInvalid},
		{"Admin", players.CodeHandleReserved}, {"lobby", players.CodeHandleReserved}, {"players", players.CodeHandleReserved},
		{"API", players.CodeHandleReserved}, {"less-bot-3", players.CodeHandleReserved}, {"Les-Bot", players.CodeHandleReserved},
		{"---", players.CodeHandleReserved}, {"123", players.CodeHandleReserved},
	} {
		if got := domain.CodeOf(players.CheckHandle(tt.handle)); got != tt.code {
			t.Errorf("CheckHandle(%q) = %q; want %q", tt.handle, got, tt.code)
		}
	}
}

func TestSetHandle(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if p, err := f.svc.SetHandle(ctx, annID, "Ann"); err != nil || p.Handle != "Ann" {
		t.Fatalf("SetHandle = %+v, %v", p, err)
	}
	for _, tt := range []struct{ handle, code string }{
		{"ANN", players.CodeHandleTaken}, {"admin", players.CodeHandleReserved}, {"a b", players.CodeHandleInvalid},
	} {
		if _, err := f.svc.SetHandle(ctx, bobID, tt.handle); domain.CodeOf(err) != tt.code {
			t.Errorf("Bob's SetHandle(%q) = %v; want %s", tt.handle, err, tt.code)
		}
	}
	// Renamed, the old handle still finds Ann, and is nobody else's.
	if _, err := f.svc.SetHandle(ctx, annID, "annie"); err != nil {
		t.Fatal(err)
	}
	c, err := f.svc.Card(ctx, "ann")
	if err != nil || c.UserID != annID || c.Profile.Handle != "annie" {
		t.Errorf("Card(ann) after the rename = %+v, %v; want Ann's, handle annie", c.Player, err)
	}
	if _, err := f.svc.SetHandle(ctx, bobID, "ann"); domain.CodeOf(err) != players.CodeHandleTaken {
		t.Errorf("Bob took Ann's old handle: %v", err)
	}
	f.now = f.now.Add(players.Retired)
	if _, err := f.svc.Card(ctx, "ann"); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("Card(ann) after its retirement = %v; want not_found", err)
	}
	if _, err := f.svc.SetHandle(ctx, bobID, "ann"); err != nil {
		t.Errorf("Bob could not take the handle after its retirement: %v", err)
	}
}

// Changing handle again and again holds at most MaxRetiredHandles old
// ones; taking one back, or a change of letter case, is always possible.
func TestHandleChangesAreBounded(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	for i := range players.MaxRetiredHandles + 1 {
		if _, err := f.svc.SetHandle(ctx, annID, fmt.Sprintf("ann%d", i)); err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(time.Hour)
	}
	_, err := f.svc.SetHandle(ctx, annID, "annie")
	var de *domain.Error
	if !errors.As(err, &de) || de.Kind != domain.KindRateLimited || de.RetryAfter != players.Retired-time.Duration(players.MaxRetiredHandles)*time.Hour {
		t.Fatalf("one change too many: %v (%+v)", err, de)
	}
	if p, _ := f.svc.Profile(ctx, annID); p.Handle != fmt.Sprintf("ann%d", players.MaxRetiredHandles) {
		t.Errorf("the refused change changed the handle to %q", p.Handle)
	}
	for _, h := range []string{"ANN3", "ann0"} {
		if _, err := f.svc.SetHandle(ctx, annID, h); err != nil {
			t.Errorf("SetHandle(%s): %v", h, err)
		}
	}
	f.now = f.now.Add(players.Retired)
	if _, err := f.svc.SetHandle(ctx, annID, "annie"); err != nil {
		t.Errorf("a change once the old handles are free: %v", err)
	}
}

func TestUpdateProfile(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	str := func(s string) *string { return &s }
	yes := true
	p, err := f.svc.UpdateProfile(ctx, annID, players.ProfileChange{Country: str("de"), Languages: &[]string{"DE", "en", "de"},
		Bio: str("  I play <Less> & Les.  "), HideFinished: &yes})
	if err != nil || p.Country != "DE" || len(p.Languages) != 2 || p.Bio != "I play <Less> & Les." || !p.HideFinished || p.Unlisted {
		t.Fatalf("UpdateProfile = %+v, %v", p, err)
	}
	long := make([]rune, players.MaxBio+1)
	for i := range long {
		long[i] = 'é'
	}
	for name, c := range map[string]players.ProfileChange{
		"country":  {Country: str("Germany")},
		"language": {Languages: &[]string{"english"}},
		"bio":      {Bio: str(string(long))},
		"control":  {Bio: str("a\x00b")},
	} {
		if _, err := f.svc.UpdateProfile(ctx, annID, c); domain.CodeOf(err) != domain.CodeInvalidInput {
			t.Errorf("%s: UpdateProfile = %v; want invalid_input", name, err)
		}
	}
	got, err := f.svc.Profile(ctx, annID)
	if err != nil || got.Country != "DE" || !got.HideFinished {
		t.Errorf("profile after refused changes = %+v, %v; want it unchanged", got, err)
	}
	// A bio of exactly MaxBio characters is fine.
	if _, err := f.svc.UpdateProfile(ctx, annID, players.ProfileChange{Bio: str(string(long[1:]))}); err != nil {
		t.Errorf("a bio of %d characters: %v", players.MaxBio, err)
	}
}

func TestInvitee(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.Invitee(ctx, "ann"); domain.CodeOf(err) != players.CodeUnknownHandle {
		t.Errorf("Invitee of an unclaimed handle = %v; want unknown_handle", err)
	}
	if _, err := f.svc.SetHandle(ctx, annID, "Ann"); err != nil {
		t.Fatal(err)
	}
	p, err := f.svc.Invitee(ctx, "aNn")
	if err != nil || p.Name != "Ann" || p.Email != "ann@example.org" || p.Locale != "de" {
		t.Errorf("Invitee = %+v, %v", p, err)
	}
}

// A card lists the games in progress and the finished ones (unless they
// are hidden), and tallies the finished ones by game.
func TestCard(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.SetHandle(ctx, annID, "ann"); err != nil {
		t.Fatal(err)
	}
	spec := games.NewGameSpec{Players: []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Creator: "bob@example.org"}
	running, err := f.games.CreateGame(ctx, spec, bobID)
	if err != nil {
		t.Fatal(err)
	}
	finished, err := f.games.CreateGame(ctx, spec, bobID)
	if err != nil {
		t.Fatal(err)
	}
	by := games.Credentials{UserID: bobID, UserEmail: "bob@example.org"}
	if _, _, err := f.games.Resign(ctx, games.GameRequest{GameID: finished.ID, By: by},
		func(games.Actor, *games.Game, *games.Submitted, time.Time) (domain.Response, error) {
			return domain.Response{}, nil
		}); err != nil {
		t.Fatal(err)
	}
	c, err := f.svc.Card(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Playing) != 1 || c.Playing[0].ID != running.ID || len(c.Finished) != 1 || c.Finished[0].ID != finished.ID {
		t.Errorf("card's games: playing %d, finished %d; want the running one and the finished one", len(c.Playing), len(c.Finished))
	}
	if len(c.Tallies) != 1 || c.Tallies[0].Ruleset != "less" || c.Tallies[0].Played != 1 || c.Tallies[0].Won != 1 || c.Tallies[0].Lost != 0 {
		t.Errorf("tallies = %+v; want one Less game won", c.Tallies)
	}
	yes := true
	if _, err := f.svc.UpdateProfile(ctx, annID, players.ProfileChange{HideFinished: &yes}); err != nil {
		t.Fatal(err)
	}
	if c, err := f.svc.Card(ctx, "ann"); err != nil || len(c.Finished) != 0 || len(c.Playing) != 1 || c.Tallies[0].Won != 1 {
		t.Errorf("hidden finished games: finished %d, playing %d, %v", len(c.Finished), len(c.Playing), err)
	}
}
