package sqlite

import (
	"crypto/sha256"
	"testing"

	"github.com/lesspost/lesspost/domain/accounts"
)

// The refresh token table holds a token's hash, never the token: a copy of
// the database cannot keep anyone signed in.
func TestRefreshTokenStoredHashed(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	if err := db.accountsAt(t0).RequestLogin(ctx, "ann@example.org", ""); err != nil {
		t.Fatal(err)
	}
	g, err := db.accountsAt(t0).ExchangeLogin(ctx, lastLoginMail(t, db, "ann@example.org", t0).Secret, accounts.SessionTTL)
	if err != nil {
		t.Fatal(err)
	}
	var plain, hashed int
	h := sha256.Sum256([]byte(g.RefreshToken))
	for _, c := range []struct {
		key any
		n   *int
	}{{g.RefreshToken, &plain}, {[]byte(g.RefreshToken), &plain}, {h[:], &hashed}} {
		var n int
		if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM refresh_tokens WHERE hash = ?`, c.key).Scan(&n); err != nil {
			t.Fatal(err)
		}
		*c.n += n
	}
	if plain != 0 || hashed != 1 {
		t.Errorf("refresh_tokens rows: %d with the token, %d with its hash; want 0 and 1", plain, hashed)
	}
}

// So does the personal token table.
func TestPersonalTokenStoredHashed(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	if err := db.accountsAt(t0).RequestLogin(ctx, "ann@example.org", ""); err != nil {
		t.Fatal(err)
	}
	svc := db.accountsAt(t0)
	g, err := svc.ExchangeLogin(ctx, lastLoginMail(t, db, "ann@example.org", t0).Secret, accounts.SessionTTL)
	if err != nil {
		t.Fatal(err)
	}
	_, secret, err := svc.CreatePersonalToken(ctx, g.Session.User, "bot", []string{accounts.ScopeGamesRead}, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte(secret))
	var plain, hashed int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM personal_tokens WHERE hash IN (?, ?) OR name = ? OR scopes LIKE ?`,
		secret, []byte(secret), secret, "%"+secret[len(accounts.PersonalTokenPrefix):]+"%").Scan(&plain); err != nil {
		t.Fatal(err)
	}
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM personal_tokens WHERE hash = ?`, h[:]).Scan(&hashed); err != nil {
		t.Fatal(err)
	}
	if plain != 0 || hashed != 1 {
		t.Errorf("personal_tokens rows: %d with the secret, %d with its hash; want 0 and 1", plain, hashed)
	}
}
