package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
)

// testRefreshTokens: a refresh token is spent once; spent again it is
// reused and names its session; expired or unknown it is unknown; and the
// session is readable in the unit of work that spends it.
func testRefreshTokens(t *testing.T, s domain.Store) {
	u := ensureUser(t, s, "ann@example.org")
	sess := domain.Session{ID: "s1", User: u, ExpiresAt: T0.Add(24 * time.Hour)}
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error {
		if err := tx.AddSession(ctx, sess, T0); err != nil {
			return err
		}
		if err := tx.AddRefreshToken(ctx, "s1", "r1", T0.Add(time.Hour)); err != nil {
			return err
		}
		return tx.AddRefreshToken(ctx, "s1", "r2", T0.Add(time.Hour))
	})
	type spend struct {
		token string
		at    time.Time
		id    string
		state domain.RefreshState
	}
	for _, c := range []spend{
		{"r2", T0.Add(time.Hour), "", domain.RefreshUnknown}, // expired, never spent
		{"nope", T0, "", domain.RefreshUnknown},
		{"r1", T0, "s1", domain.RefreshSpent},
		{"r1", T0, "s1", domain.RefreshReused},
		{"r1", T0.Add(2 * time.Hour), "s1", domain.RefreshReused}, // reuse stays reuse after expiry
	} {
		transact(t, s, func(ctx context.Context, tx domain.StoreTx) error {
			id, state, err := tx.SpendRefreshToken(ctx, c.token, c.at)
			if err != nil || id != c.id || state != c.state {
				t.Errorf("SpendRefreshToken(%s at %v) = %q, %v, %v; want %q, %v", c.token, c.at, id, state, err, c.id, c.state)
			}
			return nil
		})
	}
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error {
		got, err := tx.ActiveSession(ctx, "s1", T0)
		if err != nil || got.User.ID != u.ID || got.User.Email != u.Email || !got.ExpiresAt.Equal(sess.ExpiresAt) {
			t.Errorf("ActiveSession in a unit of work = %+v, %v", got, err)
		}
		if err := tx.RevokeSession(ctx, "s1", T0); err != nil {
			return err
		}
		if _, err := tx.ActiveSession(ctx, "s1", T0); code(err) != domain.CodeUnauthorized {
			t.Errorf("a revoked session in the unit of work that revoked it: %v", err)
		}
		return nil
	})
}

// testRefreshTokensRollBack: a unit of work that fails spends nothing.
func testRefreshTokensRollBack(t *testing.T, s domain.Store) {
	u := ensureUser(t, s, "ann@example.org")
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error {
		if err := tx.AddSession(ctx, domain.Session{ID: "s1", User: u, ExpiresAt: T0.Add(time.Hour)}, T0); err != nil {
			return err
		}
		return tx.AddRefreshToken(ctx, "s1", "r1", T0.Add(time.Hour))
	})
	failed := s.Transact(t.Context(), func(tx domain.StoreTx) error {
		if _, _, err := tx.SpendRefreshToken(t.Context(), "r1", T0); err != nil {
			return err
		}
		return domain.ErrStale
	})
	if failed != domain.ErrStale {
		t.Fatalf("Transact = %v", failed)
	}
	transact(t, s, func(ctx context.Context, tx domain.StoreTx) error {
		if _, state, err := tx.SpendRefreshToken(ctx, "r1", T0); err != nil || state != domain.RefreshSpent {
			t.Errorf("after a failed unit of work: %v, %v; want spent now", state, err)
		}
		return nil
	})
}
