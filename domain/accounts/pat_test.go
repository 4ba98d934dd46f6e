package accounts_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

var ann = domain.User{ID: annID, Email: "ann@example.org"}

func TestCreatePersonalToken(t *testing.T) {
	tests := []struct {
		name   string
		token  string
		scopes []string
		days   int
		code   string   // of the refusal
		want   []string // the scopes kept
	}{
		{"scopes kept in order, once", "bot", []string{"account:read", "games:read", "account:read"}, 0, "", []string{"games:read", "account:read"}},
		{"no scope", "bot", nil, 0, domain.CodeInvalidInput, nil},
		{"unknown scope", "bot", []string{"games:read", "admin"}, 0, domain.CodeInvalidInput, nil},
		{"blank name", " ", []string{"games:read"}, 0, domain.CodeInvalidInput, nil},
		{"negative lifetime", "bot", []string{"games:read"}, -1, domain.CodeInvalidInput, nil},
		{"too long a lifetime", "bot", []string{"games:read"}, accounts.MaxPersonalTokenDays + 1, domain.CodeInvalidInput, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tok, secret, err := f.svc.CreatePersonalToken(t.Context(), ann, tt.token, tt.scopes, tt.days)
			if tt.code != "" {
				if domain.CodeOf(err) != tt.code {
					t.Errorf("err %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil || !slices.Equal(tok.Scopes, tt.want) || !strings.HasPrefix(secret, accounts.PersonalTokenPrefix) ||
				len(secret) < len(accounts.PersonalTokenPrefix)+32 || !tok.ExpiresAt.IsZero() {
				t.Errorf("CreatePersonalToken = %+v, %q, %v", tok, secret, err)
			}
		})
	}
}

func TestPersonalTokenLimit(t *testing.T) {
	f := newFixture(t)
	for range accounts.MaxPersonalTokens {
		if _, _, err := f.svc.CreatePersonalToken(t.Context(), ann, "bot", []string{"games:read"}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := f.svc.CreatePersonalToken(t.Context(), ann, "bot", []string{"games:read"}, 0); domain.CodeOf(err) != domain.CodeTooManyTokens {
		t.Errorf("one token too many: %v, want %s", err, domain.CodeTooManyTokens)
	}
	// Expired tokens do not count.
	g := newFixture(t)
	for range accounts.MaxPersonalTokens {
		if _, _, err := g.svc.CreatePersonalToken(t.Context(), ann, "bot", []string{"games:read"}, 1); err != nil {
			t.Fatal(err)
		}
	}
	g.now = g.now.Add(24 * time.Hour)
	if _, _, err := g.svc.CreatePersonalToken(t.Context(), ann, "bot", []string{"games:read"}, 0); err != nil {
		t.Errorf("with only expired tokens: %v", err)
	}
}

// A token's use is kept to the hour, so using it writes once an hour at
// most; it stops at its expiry, and at once when revoked.
func TestPersonalTokenUse(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.now = time.Date(2026, 3, 1, 10, 10, 0, 0, time.UTC)
	tok, secret, err := f.svc.CreatePersonalToken(ctx, ann, "bot", []string{"games:read"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at, want time.Time
	}{
		{f.now, f.now.Truncate(time.Hour)},
		{f.now.Add(40 * time.Minute), f.now.Truncate(time.Hour)},
		{f.now.Add(55 * time.Minute), f.now.Truncate(time.Hour).Add(time.Hour)},
	} {
		f.now = c.at
		got, owner, err := f.svc.PersonalTokenUser(ctx, secret)
		if err != nil || got.ID != tok.ID || owner.Email != ann.Email || !got.LastUsedAt.Equal(c.want) {
			t.Errorf("at %v: %+v of %s, %v; want last used %v", c.at, got, owner.Email, err, c.want)
		}
		if list, _ := f.svc.PersonalTokens(ctx, ann); len(list) != 1 || !list[0].LastUsedAt.Equal(c.want) {
			t.Errorf("at %v the list says %+v", c.at, list)
		}
	}
	f.now = tok.CreatedAt.Add(48 * time.Hour)
	if _, _, err := f.svc.PersonalTokenUser(ctx, secret); domain.CodeOf(err) != domain.CodeUnauthorized {
		t.Errorf("an expired token: %v", err)
	}
	f.now = tok.CreatedAt
	if err := f.svc.RevokePersonalToken(ctx, domain.User{ID: creatorID}, tok.ID); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("another account revoking it: %v", err)
	}
	if err := f.svc.RevokePersonalToken(ctx, ann, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.PersonalTokenUser(ctx, secret); domain.CodeOf(err) != domain.CodeUnauthorized {
		t.Errorf("a revoked token: %v", err)
	}
}
