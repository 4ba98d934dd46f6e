package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

type pat struct {
	accounts.PersonalToken
	secret string
}

// PersonalTokens lists an account's tokens, newest first.
func (s *Store) PersonalTokens(ctx context.Context, userID int64) ([]accounts.PersonalToken, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []accounts.PersonalToken
	for _, p := range slices.Backward(s.data.pats) {
		if p.UserID == userID {
			out = append(out, p.PersonalToken)
		}
	}
	return out, nil
}

// PersonalTokenBySecret finds a live token and its owner.
func (s *Store) PersonalTokenBySecret(ctx context.Context, secret string, now time.Time) (accounts.PersonalToken, domain.User, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, p := range s.data.pats {
		if p.secret == secret && (p.ExpiresAt.IsZero() || p.ExpiresAt.After(now)) {
			return p.PersonalToken, s.data.users[p.UserID], true, nil
		}
	}
	return accounts.PersonalToken{}, domain.User{}, false, nil
}

func (t *tx) CountPersonalTokens(ctx context.Context, userID int64, now time.Time) (int, error) {
	n := 0
	for _, p := range t.data.pats {
		if p.UserID == userID && (p.ExpiresAt.IsZero() || p.ExpiresAt.After(now)) {
			n++
		}
	}
	return n, nil
}

func (t *tx) AddPersonalToken(ctx context.Context, p accounts.PersonalToken, secret string) (int64, error) {
	p.ID = 1
	if len(t.data.pats) > 0 {
		p.ID = t.data.pats[len(t.data.pats)-1].ID + 1
	}
	t.data.pats = append(t.data.pats, pat{PersonalToken: p, secret: secret})
	return p.ID, nil
}

func (t *tx) DeletePersonalToken(ctx context.Context, userID, id int64) (bool, error) {
	n := len(t.data.pats)
	t.data.pats = slices.DeleteFunc(t.data.pats, func(p pat) bool { return p.ID == id && p.UserID == userID })
	return len(t.data.pats) < n, nil
}

func (t *tx) TouchPersonalToken(ctx context.Context, id int64, at time.Time) error {
	for i := range t.data.pats {
		if t.data.pats[i].ID == id {
			t.data.pats[i].LastUsedAt = at
		}
	}
	return nil
}
