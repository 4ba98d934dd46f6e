package accounts

import (
	"context"
	"github.com/lesspost/lesspost/domain"
	"time"
)

// Signing in: login links and codes, sessions and their refresh tokens,
// and an account's own settings.

// LoginTTL is how long a login link is valid; it is valid only once.
const LoginTTL = 15 * time.Minute

// A session is a family of refresh tokens: each refresh spends one and
// issues the next. A family lasts SessionTTL from the login at most, and
// ends earlier when RefreshIdleTTL passes without a refresh.
const (
	SessionTTL     = 365 * 24 * time.Hour
	RefreshIdleTTL = 30 * 24 * time.Hour
)

// MaxLoginsPerHour bounds the login emails one mailbox receives (its
// +tagged addresses together, see Mailbox), so the server cannot be used to
// flood anyone's inbox.
const MaxLoginsPerHour = 5

// AccountSettings are what an account's owner chooses.
type AccountSettings struct {
	Name               string
	Locale             string
	TimeZone           string
	ReplyConfirmations bool
}

// Session is a signed-in user's session.
type Session struct {
	ID        string
	User      domain.User
	ExpiresAt time.Time
}

// Grant is what signing in or refreshing gives: the session the access
// tokens name, and the refresh token that gets the next grant. The store
// keeps only the refresh token's hash.
type Grant struct {
	Session          Session
	RefreshToken     string
	RefreshExpiresAt time.Time
}

// RefreshState is what spending a refresh token found.
type RefreshState int

const (
	// RefreshUnknown: no such token, or it expired unspent.
	RefreshUnknown RefreshState = iota
	// RefreshSpent: the token was live and is now spent.
	RefreshSpent
	// RefreshReused: the token had been spent before.
	RefreshReused
)

// LoginToken is a single-use login token for an address, and the language
// of the email that carries it.
type LoginToken struct {
	Email string
	Token string
	// CodeHash is the code to type instead of following the link (the
	// token's LoginCode), as LoginCodeHash keeps it.
	CodeHash  []byte
	Locale    string
	ExpiresAt time.Time
}

// SessionReader reads sessions and accounts.
type SessionReader interface {
	// ActiveSession returns the session if it exists and is neither
	// revoked nor expired at now; else an unauthorized *Error.
	ActiveSession(ctx context.Context, id string, now time.Time) (Session, error)
	// UserByID reads an account; a missing one is a not-found *Error.
	UserByID(ctx context.Context, id int64) (domain.User, error)
}

// SessionTx is what a unit of work may do to accounts and their sessions.
type SessionTx interface {
	// LoginTokensExpiringAfter counts the login tokens of a mailbox's
	// addresses (see Mailbox) that expire after t.
	LoginTokensExpiringAfter(ctx context.Context, mailbox string, t time.Time) (int, error)
	// AddLoginToken stores a login token (its hash only) and queues mail,
	// the email that carries it (the token is its secret).
	AddLoginToken(ctx context.Context, t LoginToken, mail domain.Mail, now time.Time) error
	// SpendLoginToken marks a token used, if it exists, is unused and has
	// not expired at now, and says whose it was.
	SpendLoginToken(ctx context.Context, token string, now time.Time) (email string, ok bool, err error)
	// SpendLoginCode marks the token of an address's code (its
	// LoginCodeHash) used, if it is unused, has not expired at now and has
	// had fewer than maxMisses wrong codes. Otherwise the code was a miss:
	// it counts one against each live token of the address, and ok is
	// false.
	SpendLoginCode(ctx context.Context, email string, codeHash []byte, maxMisses int, now time.Time) (ok bool, err error)
	AddSession(ctx context.Context, s Session, now time.Time) error
	// ActiveSession is SessionReader.ActiveSession inside the unit of work.
	ActiveSession(ctx context.Context, id string, now time.Time) (Session, error)
	// AddRefreshToken stores a refresh token (its hash only) of a session,
	// live until expires.
	AddRefreshToken(ctx context.Context, sessionID, token string, expires time.Time) error
	// SpendRefreshToken spends a refresh token that is live at now and says
	// what it found, and whose session the token is (unless unknown). Of
	// two units of work spending the same token, one sees it spent, the
	// other reused. Spending forgets the session's tokens that expired by
	// now, so a session keeps RefreshIdleTTL of them at most: one of those
	// presented again is unknown, no longer reused.
	SpendRefreshToken(ctx context.Context, token string, now time.Time) (sessionID string, state RefreshState, err error)
	// RevokeSession ends a session; an ended one stays ended.
	RevokeSession(ctx context.Context, id string, now time.Time) error
	// UpdateUser changes an account's settings, and returns it.
	UpdateUser(ctx context.Context, id int64, s AccountSettings) (domain.User, error)
	// NextCalendarVersion bumps an account's calendar link version and
	// returns the account; ok is false if there is no such account.
	NextCalendarVersion(ctx context.Context, id int64) (u domain.User, ok bool, err error)
}

// RequestLogin creates a single-use login token for the address and queues
// the email that carries it. locale "" means the account's language, or the
// default. An address gets at most MaxLoginsPerHour links an hour.
func (s *Service) RequestLogin(ctx context.Context, email, locale string) error {
	now := s.now()
	token := domain.RandomToken(20)
	codeHash := LoginCodeHash(email, LoginCode(token)) // slow on purpose: outside the transaction
	return s.transact(ctx, func(tx *Tx) error {
		// A token issued in the last hour expires after now - 1h + LoginTTL.
		recent, err := tx.LoginTokensExpiringAfter(ctx, domain.Mailbox(email), now.Add(-time.Hour+LoginTTL))
		if err != nil {
			return err
		}
		if recent >= MaxLoginsPerHour {
			return domain.Errorf(domain.KindRateLimited, domain.CodeTooManyLogins,
				"too many login links for this address in the last hour; use one already sent or try later")
		}
		if locale == "" {
			if locale, err = tx.AccountLocale(ctx, email); err != nil {
				return err
			}
		}
		return tx.AddLoginToken(ctx, LoginToken{Email: email, Token: token, CodeHash: codeHash, Locale: locale,
			ExpiresAt: now.Add(LoginTTL)}, now)
	})
}

// ExchangeLogin spends a login token: it must exist, be unused and not
// expired. The account is created on first login. It returns a new session
// that lasts ttl at most (SessionTTL in the API), and its first refresh
// token.
func (s *Service) ExchangeLogin(ctx context.Context, token string, ttl time.Duration) (Grant, error) {
	now := s.now()
	var g Grant
	err := s.transact(ctx, func(tx *Tx) error {
		email, ok, err := tx.SpendLoginToken(ctx, token, now)
		if err != nil {
			return err
		}
		if !ok {
			return domain.Errorf(domain.KindUnauthorized, domain.CodeLoginInvalid, "this login link is unknown, used or expired: ask for a new one")
		}
		g, err = signIn(ctx, tx, email, ttl, now)
		return err
	})
	return g, err
}

// ExchangeLoginCode spends the code of a login email sent to an address,
// as ExchangeLogin spends its link's token. A wrong code counts against
// the address's codes (see MaxLoginCodeMisses).
func (s *Service) ExchangeLoginCode(ctx context.Context, email, typed string, ttl time.Duration) (Grant, error) {
	email, err := domain.NormalizeEmail(email)
	if err != nil {
		return Grant{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "email: %v", err)
	}
	code, ok := NormalizeLoginCode(typed)
	if !ok {
		return Grant{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidInput, "code: the code from the login email has %d letters and digits, e.g. %s",
			LoginCodeLen, FormatLoginCode("ABCD2345"))
	}
	codeHash := LoginCodeHash(email, code) // slow on purpose: outside the transaction
	now := s.now()
	var g Grant
	spent := false
	err = s.transact(ctx, func(tx *Tx) error {
		ok, err := tx.SpendLoginCode(ctx, email, codeHash, MaxLoginCodeMisses, now)
		if err != nil || !ok {
			return err // a miss is answered after the commit that counts it
		}
		spent = true
		g, err = signIn(ctx, tx, email, ttl, now)
		return err
	})
	if err == nil && !spent {
		return Grant{}, domain.Errorf(domain.KindUnauthorized, domain.CodeLoginInvalid,
			"this code is wrong, used or expired for this address (after %d wrong codes, a login email's code stops "+
				"working): use the link in the email, or ask for a new one", MaxLoginCodeMisses)
	}
	return g, err
}

// signIn starts a session of the account of an address, created on its
// first login, that lasts ttl at most, with its first refresh token.
func signIn(ctx context.Context, tx *Tx, email string, ttl time.Duration, now time.Time) (Grant, error) {
	u, err := tx.EnsureUser(ctx, email, now)
	if err != nil {
		return Grant{}, err
	}
	sess := Session{ID: domain.RandomToken(16), User: u, ExpiresAt: now.Add(ttl)}
	if err := tx.AddSession(ctx, sess, now); err != nil {
		return Grant{}, err
	}
	return addRefreshToken(ctx, tx, sess, now)
}

// Refresh spends a refresh token for the next grant of its session. A token
// spent before is presented again only by a thief or by a client that lost
// the answer to its refresh; the server cannot tell which, so (as OAuth's
// security BCP, RFC 9700 4.14.2, asks) it ends the whole session: every
// access and refresh token of it stops working. Two refreshes racing with
// one token thus sign the client out; a client refreshes one at a time.
func (s *Service) Refresh(ctx context.Context, token string) (Grant, error) {
	now := s.now()
	var g Grant
	reused := false
	err := s.transact(ctx, func(tx *Tx) error {
		id, state, err := tx.SpendRefreshToken(ctx, token, now)
		if err != nil {
			return err
		}
		switch state {
		case RefreshReused:
			reused = true // the revocation must commit, so no error here
			return tx.RevokeSession(ctx, id, now)
		case RefreshSpent:
			sess, err := tx.ActiveSession(ctx, id, now)
			if de, ok := domain.ErrorOf(err); ok && de.Kind == domain.KindUnauthorized {
				return errRefreshInvalid // logged out, or past its year
			}
			if err != nil {
				return err
			}
			g, err = addRefreshToken(ctx, tx, sess, now)
			return err
		default:
			return errRefreshInvalid
		}
	})
	if err == nil && reused {
		err = errRefreshInvalid
	}
	return g, err
}

var errRefreshInvalid = domain.Errorf(domain.KindUnauthorized, domain.CodeRefreshInvalid, "this refresh token is unknown, spent or expired: sign in again")

// addRefreshToken issues a session's next refresh token: it lives
// RefreshIdleTTL, and no longer than the session.
func addRefreshToken(ctx context.Context, tx *Tx, sess Session, now time.Time) (Grant, error) {
	g := Grant{Session: sess, RefreshToken: domain.RandomToken(32), RefreshExpiresAt: now.Add(RefreshIdleTTL)}
	if sess.ExpiresAt.Before(g.RefreshExpiresAt) {
		g.RefreshExpiresAt = sess.ExpiresAt
	}
	return g, tx.AddRefreshToken(ctx, sess.ID, g.RefreshToken, g.RefreshExpiresAt)
}

// ActiveSession returns a session that is neither revoked nor expired.
func (s *Service) ActiveSession(ctx context.Context, id string) (Session, error) {
	return s.store.ActiveSession(ctx, id, s.now())
}

// Logout ends a session: its access and refresh tokens stop working at once.
func (s *Service) Logout(ctx context.Context, sessionID string) error {
	now := s.now()
	return s.transact(ctx, func(tx *Tx) error { return tx.RevokeSession(ctx, sessionID, now) })
}

// UserByID reads an account.
func (s *Service) UserByID(ctx context.Context, id int64) (domain.User, error) {
	return s.store.UserByID(ctx, id)
}

// UpdateUser changes an account's settings (name and locale checked by
// the caller).
func (s *Service) UpdateUser(ctx context.Context, id int64, settings AccountSettings) (domain.User, error) {
	var u domain.User
	err := s.transact(ctx, func(tx *Tx) error {
		var err error
		u, err = tx.UpdateUser(ctx, id, settings)
		return err
	})
	return u, err
}

// RotateCalendarLink replaces an account's calendar link: links of the
// previous versions stop working. It returns the account.
func (s *Service) RotateCalendarLink(ctx context.Context, id int64) (domain.User, error) {
	var u domain.User
	err := s.transact(ctx, func(tx *Tx) error {
		var ok bool
		var err error
		if u, ok, err = tx.NextCalendarVersion(ctx, id); err != nil {
			return err
		}
		if !ok {
			return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such account")
		}
		return nil
	})
	return u, err
}

// AddLoginToken stores a login token and queues the email that carries it
// (see LoginMail).
func (t *Tx) AddLoginToken(ctx context.Context, lt LoginToken, now time.Time) error {
	return t.SessionTx.AddLoginToken(ctx, lt, domain.LoginMail(lt.Email, lt.Locale), now)
}
