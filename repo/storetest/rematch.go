package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/lesspost/lesspost/domain"
)

// A game has one rematch: linking a second is ErrStale and changes nothing,
// inside a unit of work and after it.
func testRematches(t *testing.T, s Store) {
	ctx := t.Context()
	insertGame(t, s, "g_first")
	insertGame(t, s, "g_again")
	insertGame(t, s, "g_third")
	if got, err := s.RematchOf(ctx, "g_first"); err != nil || got != "" {
		t.Fatalf("RematchOf before any = %q, %v", got, err)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if err := tx.LinkRematch(ctx, "g_first", "g_again", T0); err != nil {
			return err
		}
		got, err := tx.RematchOf(ctx, "g_first")
		if err == nil && got != "g_again" {
			t.Errorf("RematchOf in the unit of work = %q", got)
		}
		return err
	})
	err := s.Transact(ctx, func(st domain.StoreTx) error {
		tx := newUnit(st)

		return tx.LinkRematch(ctx, "g_first", "g_third", T0)
	})
	if !errors.Is(err, domain.ErrStale) {
		t.Errorf("a second rematch = %v, want ErrStale", err)
	}
	if got, err := s.RematchOf(ctx, "g_first"); err != nil || got != "g_again" {
		t.Errorf("RematchOf = %q, %v, want g_again", got, err)
	}
	if got, err := s.RematchOf(ctx, "g_again"); err != nil || got != "" {
		t.Errorf("RematchOf of the rematch = %q, %v, want none", got, err)
	}
}
