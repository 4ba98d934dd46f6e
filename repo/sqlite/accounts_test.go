package sqlite

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
)

func TestRequestLoginQueuesTheToken(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	if err := db.accountsAt(t0).RequestLogin(ctx, "ann@example.org", "fr"); err != nil {
		t.Fatal(err)
	}
	due, err := db.DueMail(ctx, t0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 {
		t.Fatalf("due mail = %+v, want one login mail", due)
	}
	m := due[0]
	wantNotice := domain.Notice{Kind: domain.NoticeLogin, Email: "ann@example.org"}
	if m.Notice != wantNotice || m.Email != "ann@example.org" || m.Attempts != 0 || !sameTime(m.CreatedAt, t0) || m.MessageID == "" {
		t.Errorf("mail = %+v", m)
	}
	if len(m.Secret) < 32 {
		t.Fatalf("secret %q is too short to be a login token", m.Secret)
	}
	// The token table holds its hash, never the token.
	var plain, hashed int
	h := sha256.Sum256([]byte(m.Secret))
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM login_tokens WHERE hash = ?`, []byte(m.Secret)).Scan(&plain); err != nil {
		t.Fatal(err)
	}
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM login_tokens WHERE hash = ?`, h[:]).Scan(&hashed); err != nil {
		t.Fatal(err)
	}
	if plain != 0 || hashed != 1 {
		t.Errorf("login_tokens rows: %d with the token, %d with its hash; want 0 and 1", plain, hashed)
	}
	// Each request has its own token.
	if err := db.accountsAt(t0).RequestLogin(ctx, "ann@example.org", "fr"); err != nil {
		t.Fatal(err)
	}
	if again := lastLoginMail(t, db, "ann@example.org", t0); again.Secret == m.Secret || again.MessageID == m.MessageID {
		t.Errorf("second login mail reuses the token or message id: %+v", again)
	}
}

func TestExchangeLogin(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	const ttl = 30 * 24 * time.Hour
	token := requestToken(t, db, "ann@example.org", t0)
	at := t0.Add(time.Minute)
	grant, err := db.accountsAt(at).ExchangeLogin(ctx, token, ttl)
	if err != nil {
		t.Fatalf("ExchangeLogin: %v", err)
	}
	s := grant.Session
	if s.ID == "" || s.User.ID == 0 || s.User.Email != "ann@example.org" || s.User.Name != "" || s.User.Locale != "en" ||
		!sameTime(s.User.CreatedAt, at) || !s.ExpiresAt.Equal(at.Add(ttl)) {
		t.Errorf("session = %+v", s)
	}

	// The token is spent.
	_, err = db.accountsAt(at).ExchangeLogin(ctx, token, ttl)
	wantDomainError(t, err, domain.KindUnauthorized, domain.CodeLoginInvalid)

	// A second login finds the same account and opens another session.
	token2 := requestToken(t, db, "ann@example.org", t0.Add(time.Hour))
	grant2, err := db.accountsAt(t0.Add(time.Hour)).ExchangeLogin(ctx, token2, ttl)
	if err != nil {
		t.Fatal(err)
	}
	s2 := grant2.Session
	if s2.User != s.User || s2.ID == s.ID {
		t.Errorf("second session = %+v, want user %+v and a new id", s2, s.User)
	}
	// Another address is another account.
	other := signUp(t, db, "bob@example.org", t0)
	if other.ID == s.User.ID || other.Email != "bob@example.org" {
		t.Errorf("other user = %+v", other)
	}
	for _, bad := range []string{"", "nonsense", token + "x", string(sha256.New().Sum(nil))} {
		_, err := db.accountsAt(at).ExchangeLogin(ctx, bad, ttl)
		wantDomainError(t, err, domain.KindUnauthorized, domain.CodeLoginInvalid)
	}
}

func TestExchangeLoginExpiry(t *testing.T) {
	tests := []struct {
		name  string
		after time.Duration
		ok    bool
	}{
		{"at once", 0, true},
		{"just before the end", LoginTTL - time.Millisecond, true},
		{"at the end", LoginTTL, false},
		{"a day later", 24 * time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newStore(t)
			token := requestToken(t, db, "ann@example.org", t0)
			_, err := db.accountsAt(t0.Add(tt.after)).ExchangeLogin(t.Context(), token, time.Hour)
			if tt.ok {
				if err != nil {
					t.Fatalf("ExchangeLogin: %v", err)
				}
				return
			}
			wantDomainError(t, err, domain.KindUnauthorized, domain.CodeLoginInvalid)
		})
	}
}

func TestRequestLoginRateLimit(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	const email = "ann@example.org"
	request := func(at time.Time) error { return db.accountsAt(at).RequestLogin(ctx, email, "en") }
	for i := range 5 {
		if err := request(t0.Add(time.Duration(i) * time.Minute)); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	steps := []struct {
		name    string
		at      time.Time
		limited bool
	}{
		{"the sixth within the hour", t0.Add(30 * time.Minute), true},
		{"just before an hour after the first", t0.Add(time.Hour - time.Millisecond), true},
		{"an hour after the first", t0.Add(time.Hour), false},
		{"at once again: five in the last hour", t0.Add(time.Hour), true},
		{"an hour after the second", t0.Add(time.Hour + time.Minute), false},
	}
	for _, st := range steps {
		err := request(st.at)
		if !st.limited {
			if err != nil {
				t.Errorf("%s: %v", st.name, err)
			}
			continue
		}
		var de *domain.Error
		if err == nil || !asDomain(err, &de) || de.Kind != domain.KindRateLimited {
			t.Errorf("%s: error = %v, want rate limited", st.name, err)
		}
	}
	// A refused request queues no mail and stores no token.
	var tokens, mails int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM login_tokens WHERE email = ?`, email).Scan(&tokens); err != nil {
		t.Fatal(err)
	}
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE email = ?`, email).Scan(&mails); err != nil {
		t.Fatal(err)
	}
	if tokens != 7 || mails != 7 {
		t.Errorf("%d tokens and %d mails, want 7 of each", tokens, mails)
	}
	// The limit is per address.
	if err := db.accountsAt(t0.Add(30*time.Minute)).RequestLogin(ctx, "bob@example.org", "en"); err != nil {
		t.Errorf("another address: %v", err)
	}
	// Tokens sent before the limit still work.
	token := lastLoginMail(t, db, email, t0.Add(2*time.Hour)).Secret
	if _, err := db.accountsAt(t0.Add(time.Hour+2*time.Minute)).ExchangeLogin(ctx, token, time.Hour); err != nil {
		t.Errorf("exchange after the limit: %v", err)
	}
}

func asDomain(err error, de **domain.Error) bool {
	var ok bool
	*de, ok = domain.ErrorOf(err)
	return ok
}

func TestSessions(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	const ttl = 24 * time.Hour
	login := func(at time.Time) Session {
		t.Helper()
		g, err := db.accountsAt(at).ExchangeLogin(ctx, requestToken(t, db, "ann@example.org", at), ttl)
		if err != nil {
			t.Fatal(err)
		}
		return g.Session
	}
	s1 := login(t0)
	s2 := login(t0.Add(time.Minute))

	got, err := db.ActiveSession(ctx, s1.ID, t0.Add(time.Hour))
	if err != nil {
		t.Fatalf("ActiveSession: %v", err)
	}
	if got.ID != s1.ID || got.User != s1.User || !sameTime(got.ExpiresAt, s1.ExpiresAt) {
		t.Errorf("ActiveSession = %+v, want %+v", got, s1)
	}

	checks := []struct {
		name string
		id   string
		at   time.Time
		ok   bool
	}{
		{"just before expiry", s1.ID, s1.ExpiresAt.Add(-time.Millisecond), true},
		{"at expiry", s1.ID, s1.ExpiresAt, false},
		{"after expiry", s1.ID, s1.ExpiresAt.Add(time.Hour), false},
		{"unknown", "nope", t0, false},
		{"empty", "", t0, false},
	}
	for _, c := range checks {
		_, err := db.ActiveSession(ctx, c.id, c.at)
		if c.ok {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var de *domain.Error
		if !asDomain(err, &de) || de.Kind != domain.KindUnauthorized || de.Code != domain.CodeUnauthorized {
			t.Errorf("%s: error = %v, want unauthorized", c.name, err)
		}
	}

	// Revoking one session ends it and only it; revoking twice is harmless.
	for range 2 {
		if err := db.accountsAt(t0.Add(2*time.Hour)).Logout(ctx, s1.ID); err != nil {
			t.Fatalf("RevokeSession: %v", err)
		}
	}
	_, err = db.ActiveSession(ctx, s1.ID, t0.Add(3*time.Hour))
	wantDomainError(t, err, domain.KindUnauthorized, domain.CodeUnauthorized)
	if _, err := db.ActiveSession(ctx, s2.ID, t0.Add(3*time.Hour)); err != nil {
		t.Errorf("the other session: %v", err)
	}
	if err := db.accountsAt(t0).Logout(ctx, "nope"); err != nil {
		t.Errorf("revoking an unknown session: %v", err)
	}
}

func TestUpdateUser(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	u := signUp(t, db, "ann@example.org", t0)
	other := signUp(t, db, "bob@example.org", t0)
	if !u.ReplyConfirmations {
		t.Error("a new account has reply confirmations off, want on")
	}
	tests := []struct {
		name, locale string
		confirm      bool
	}{
		{"Ann Lee", "fr", true},
		{"Zoë 🎲", "de", false},
		{"", "en", true},
	}
	for _, tt := range tests {
		got, err := db.accountsAt(t0).UpdateUser(ctx, u.ID, accounts.AccountSettings{Name: tt.name, Locale: tt.locale, ReplyConfirmations: tt.confirm})
		if err != nil {
			t.Fatalf("UpdateUser: %v", err)
		}
		want := User{ID: u.ID, Email: u.Email, Name: tt.name, Locale: tt.locale, VacationDays: 14, ReplyConfirmations: tt.confirm,
			CreatedAt: u.CreatedAt}
		if got != want {
			t.Errorf("UpdateUser = %+v, want %+v", got, want)
		}
	}
	// The change is seen by sessions, and by nobody else.
	_, _ = db.accountsAt(t0).UpdateUser(ctx, u.ID, accounts.AccountSettings{Name: "Ann", Locale: "it"})
	grant, err := db.accountsAt(t0.Add(time.Hour)).ExchangeLogin(ctx, requestToken(t, db, "ann@example.org", t0.Add(time.Hour)), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := grant.Session
	if s.User.Name != "Ann" || s.User.Locale != "it" || s.User.ReplyConfirmations {
		t.Errorf("session user = %+v", s.User)
	}
	active, err := db.ActiveSession(ctx, s.ID, t0.Add(time.Hour))
	if err != nil || active.User != s.User {
		t.Errorf("ActiveSession user = %+v, %v", active.User, err)
	}
	grant2, err := db.accountsAt(t0.Add(time.Hour)).ExchangeLogin(ctx, requestToken(t, db, "bob@example.org", t0.Add(time.Hour)), time.Hour)
	if err != nil || grant2.Session.User != other {
		t.Errorf("other user = %+v, %v; want %+v", grant2.Session.User, err, other)
	}
	if _, err := db.accountsAt(t0).UpdateUser(ctx, 999999, accounts.AccountSettings{Name: "Ghost", Locale: "en"}); err == nil {
		t.Error("UpdateUser of a missing user succeeded")
	}
}

// Login tokens are random and distinct.
func TestLoginTokensAreDistinct(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	seen := map[string]bool{}
	for i := range 5 {
		email := fmt.Sprintf("u%d@example.org", i)
		if err := db.accountsAt(t0).RequestLogin(ctx, email, "en"); err != nil {
			t.Fatal(err)
		}
		tok := lastLoginMail(t, db, email, t0).Secret
		if seen[tok] || bytes.ContainsAny([]byte(tok), "=+/ ") {
			t.Errorf("token %q repeated or not URL-safe", tok)
		}
		seen[tok] = true
	}
}
