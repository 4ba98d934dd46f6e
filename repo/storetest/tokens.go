package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

// testRefreshTokens: a refresh token is spent once; spent again it is
// reused and names its session; expired or unknown it is unknown; and the
// session is readable in the unit of work that spends it.
func testRefreshTokens(t *testing.T, s Store) {
	u := ensureUser(t, s, "ann@example.org")
	sess := accounts.Session{ID: "s1", User: u, ExpiresAt: T0.Add(24 * time.Hour)}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if err := tx.AddSession(ctx, sess, T0); err != nil {
			return err
		}
		for _, r := range []string{"r1", "r2"} {
			if err := tx.AddRefreshToken(ctx, "s1", r, T0.Add(time.Hour)); err != nil {
				return err
			}
		}
		return tx.AddRefreshToken(ctx, "s1", "r3", T0.Add(3*time.Hour))
	})
	type spend struct {
		token string
		at    time.Time
		id    string
		state accounts.RefreshState
	}
	for _, c := range []spend{
		{"r2", T0.Add(time.Hour), "", accounts.RefreshUnknown}, // expired, never spent
		{"nope", T0, "", accounts.RefreshUnknown},
		{"r1", T0, "s1", accounts.RefreshSpent},
		{"r1", T0, "s1", accounts.RefreshReused},
		{"r1", T0.Add(2 * time.Hour), "s1", accounts.RefreshReused}, // reuse stays reuse after expiry
		{"r3", T0.Add(2 * time.Hour), "s1", accounts.RefreshSpent},  // which forgets the expired r1 and r2
		{"r1", T0.Add(2 * time.Hour), "", accounts.RefreshUnknown},
	} {
		transact(t, s, func(ctx context.Context, tx *unit) error {
			id, state, err := tx.SpendRefreshToken(ctx, c.token, c.at)
			if err != nil || id != c.id || state != c.state {
				t.Errorf("SpendRefreshToken(%s at %v) = %q, %v, %v; want %q, %v", c.token, c.at, id, state, err, c.id, c.state)
			}
			return nil
		})
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		got, err := tx.ActiveSession(ctx, "s1", T0)
		if err != nil || got.User.ID != u.ID || got.User.Email != u.Email || !got.ExpiresAt.Equal(sess.ExpiresAt) {
			t.Errorf("ActiveSession in a unit of work = %+v, %v", got, err)
		}
		if err := tx.RevokeSession(ctx, "s1", T0); err != nil {
			return err
		}
		if _, err := tx.ActiveSession(ctx, "s1", T0); domain.CodeOf(err) != domain.CodeUnauthorized {
			t.Errorf("a revoked session in the unit of work that revoked it: %v", err)
		}
		return nil
	})
}

// testRefreshTokensRollBack: a unit of work that fails spends nothing.
func testRefreshTokensRollBack(t *testing.T, s Store) {
	u := ensureUser(t, s, "ann@example.org")
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if err := tx.AddSession(ctx, accounts.Session{ID: "s1", User: u, ExpiresAt: T0.Add(time.Hour)}, T0); err != nil {
			return err
		}
		return tx.AddRefreshToken(ctx, "s1", "r1", T0.Add(time.Hour))
	})
	failed := s.Transact(t.Context(), func(st domain.StoreTx) error {
		tx := newUnit(st)

		if _, _, err := tx.SpendRefreshToken(t.Context(), "r1", T0); err != nil {
			return err
		}
		return domain.ErrStale
	})
	if failed != domain.ErrStale {
		t.Fatalf("Transact = %v", failed)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if _, state, err := tx.SpendRefreshToken(ctx, "r1", T0); err != nil || state != accounts.RefreshSpent {
			t.Errorf("after a failed unit of work: %v, %v; want spent now", state, err)
		}
		return nil
	})
}

// testPersonalTokens: a token is found by its secret while it lives, with
// its owner; listed newest first; touched; deleted only by its owner.
func testPersonalTokens(t *testing.T, s Store) {
	ctx := t.Context()
	ann, bob := ensureUser(t, s, "ann@example.org"), ensureUser(t, s, "bob@example.org")
	forever := accounts.PersonalToken{UserID: ann.ID, Name: "bot", Scopes: []string{accounts.ScopeGamesRead, accounts.ScopeGamesPlay}, CreatedAt: T0}
	brief := accounts.PersonalToken{UserID: ann.ID, Name: "script", Scopes: []string{accounts.ScopeAccountRead}, CreatedAt: T0, ExpiresAt: T0.Add(time.Hour)}
	transact(t, s, func(ctx context.Context, tx *unit) (err error) {
		if forever.ID, err = tx.AddPersonalToken(ctx, forever, "lp_pat_one"); err != nil {
			return err
		}
		brief.ID, err = tx.AddPersonalToken(ctx, brief, "lp_pat_two")
		return err
	})
	for _, c := range []struct {
		secret string
		at     time.Time
		want   *accounts.PersonalToken
	}{
		{"lp_pat_one", T0.Add(100 * 365 * 24 * time.Hour), &forever},
		{"lp_pat_two", T0.Add(time.Hour - time.Millisecond), &brief},
		{"lp_pat_two", T0.Add(time.Hour), nil},
		{"lp_pat_three", T0, nil},
	} {
		got, owner, ok, err := s.PersonalTokenBySecret(ctx, c.secret, c.at)
		switch {
		case err != nil:
			t.Errorf("%s at %v: %v", c.secret, c.at, err)
		case c.want == nil && ok:
			t.Errorf("%s at %v: found %+v, want none", c.secret, c.at, got)
		case c.want != nil && (!ok || !samePersonalToken(got, *c.want) || owner.ID != ann.ID || owner.Email != ann.Email):
			t.Errorf("%s at %v: %+v of %+v (%v), want %+v of ann", c.secret, c.at, got, owner, ok, *c.want)
		}
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if n, err := tx.CountPersonalTokens(ctx, ann.ID, T0); err != nil || n != 2 {
			t.Errorf("CountPersonalTokens = %d, %v; want 2", n, err)
		}
		if n, err := tx.CountPersonalTokens(ctx, ann.ID, T0.Add(time.Hour)); err != nil || n != 1 {
			t.Errorf("CountPersonalTokens after one expired = %d, %v; want 1", n, err)
		}
		return tx.TouchPersonalToken(ctx, forever.ID, T0.Add(time.Hour))
	})
	forever.LastUsedAt = T0.Add(time.Hour)
	list, err := s.PersonalTokens(ctx, ann.ID)
	if err != nil || len(list) != 2 || !samePersonalToken(list[0], brief) || !samePersonalToken(list[1], forever) {
		t.Errorf("PersonalTokens = %+v, %v; want the script, then the touched bot", list, err)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		if ok, err := tx.DeletePersonalToken(ctx, bob.ID, forever.ID); err != nil || ok {
			t.Errorf("bob deleting ann's token: %v, %v", ok, err)
		}
		if ok, err := tx.DeletePersonalToken(ctx, ann.ID, forever.ID); err != nil || !ok {
			t.Errorf("ann deleting her token: %v, %v", ok, err)
		}
		return nil
	})
	if _, _, ok, err := s.PersonalTokenBySecret(ctx, "lp_pat_one", T0); err != nil || ok {
		t.Errorf("a deleted token: found %v, %v", ok, err)
	}
	if list, err := s.PersonalTokens(ctx, bob.ID); err != nil || len(list) != 0 {
		t.Errorf("bob's tokens: %+v, %v", list, err)
	}
}

func samePersonalToken(a, b accounts.PersonalToken) bool {
	return a.ID == b.ID && a.UserID == b.UserID && a.Name == b.Name && slices.Equal(a.Scopes, b.Scopes) &&
		a.CreatedAt.Equal(b.CreatedAt) && a.LastUsedAt.Equal(b.LastUsedAt) && a.ExpiresAt.Equal(b.ExpiresAt)
}
