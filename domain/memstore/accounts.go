package memstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
)

// ActiveSession returns a session that is neither revoked nor expired.
func (s *Store) ActiveSession(ctx context.Context, id string, now time.Time) (accounts.Session, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.activeSession(id, now)
}

func (d *data) activeSession(id string, now time.Time) (accounts.Session, error) {
	sess, ok := d.sessions[id]
	if !ok || sess.revoked || !sess.ExpiresAt.After(now) {
		return accounts.Session{}, domain.Errorf(domain.KindUnauthorized, domain.CodeUnauthorized, "the session has ended: sign in again")
	}
	sess.User = d.users[sess.User.ID]
	return sess.Session, nil
}

// UserByID reads an account.
func (s *Store) UserByID(ctx context.Context, id int64) (domain.User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.data.users[id]
	if !ok {
		return domain.User{}, domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such account")
	}
	return u, nil
}

// UserVacations lists all of an account's vacations, by start.
func (s *Store) UserVacations(ctx context.Context, userID int64) ([]games.Vacation, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []games.Vacation
	for _, v := range s.data.vacations {
		if v.userID == userID {
			out = append(out, v.Vacation)
		}
	}
	slices.SortFunc(out, func(a, b games.Vacation) int { return a.Start.Compare(b.Start) })
	return out, nil
}

// MyGames lists an address's games, most urgent first. The cursor is the
// position after which the page starts.
func (s *Store) MyGames(ctx context.Context, email, cursor string, limit int) (games.GamePage, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	limit = max(limit, 1)
	var mine []games.Game
	for _, g := range s.data.games {
		if slices.ContainsFunc(g.Seats, func(st games.Seat) bool { return st.Email == email }) ||
			s.data.users[g.CreatorID].Email == email {
			g, _ := s.data.game(g.ID)
			mine = append(mine, g)
		}
	}
	slices.SortFunc(mine, func(a, b games.Game) int { return cmp.Compare(sortKey(&a, email), sortKey(&b, email)) })
	start := 0
	if cursor != "" {
		i := slices.IndexFunc(mine, func(g games.Game) bool { return sortKey(&g, email) == cursor })
		if i < 0 {
			return games.GamePage{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidCursor, "the cursor is not one this server gave out")
		}
		start = i + 1
	}
	page := games.GamePage{Games: mine[start:min(start+limit, len(mine))]}
	if start+limit < len(mine) {
		page.Next = sortKey(&page.Games[len(page.Games)-1], email)
	}
	return page, nil
}

// sortKey orders an address's games by urgency: its turn (nearest deadline
// first, then the longest waiting), other running games (the most recently
// changed first), finished games (the most recent first); then by id.
func sortKey(g *games.Game, email string) string {
	const far = 1 << 50
	urgency, k := 1, far-g.UpdatedAt.UnixMilli()
	if g.Over() {
		urgency = 2
	} else if seat, ok := g.Seat(g.ToMove()); ok && seat.Email == email {
		urgency, k = 0, far+g.UpdatedAt.UnixMilli()
		if !g.Clock.Deadline.IsZero() {
			k = g.Clock.Deadline.UnixMilli()
		}
	}
	return fmt.Sprintf("%d:%016d:%s", urgency, k, g.ID)
}

// ReplyConfirmations is the account's choice, or true without an account.
func (s *Store) ReplyConfirmations(ctx context.Context, email string) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, u := range s.data.users {
		if u.Email == email {
			return u.ReplyConfirmations, nil
		}
	}
	return true, nil
}

// GamesToMove lists the running games with a deadline in which the address
// holds the seat to move, nearest deadline first.
func (s *Store) GamesToMove(ctx context.Context, email string) ([]games.Game, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.gamesToMove(email), nil
}

func (d *data) gamesToMove(email string) []games.Game {
	var out []games.Game
	for id, g := range d.games {
		if seat, ok := g.Seat(g.ToMove()); ok && !g.Over() && seat.Email == email && !g.Clock.Deadline.IsZero() {
			g, _ := d.game(id)
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b games.Game) int {
		return cmp.Or(a.Clock.Deadline.Compare(b.Clock.Deadline), strings.Compare(a.ID, b.ID))
	})
	return out
}

func (t *tx) LoginTokensExpiringAfter(ctx context.Context, mailbox string, after time.Time) (int, error) {
	n := 0
	for _, l := range t.data.logins {
		if domain.Mailbox(l.Email) == mailbox && l.ExpiresAt.After(after) {
			n++
		}
	}
	return n, nil
}

func (t *tx) AddLoginToken(ctx context.Context, l accounts.LoginToken, mail domain.Mail, now time.Time) error {
	t.data.logins[l.Token] = login{LoginToken: l}
	t.queue([]domain.Mail{mail}, l.Token, now)
	return nil
}

func (t *tx) SpendLoginToken(ctx context.Context, token string, now time.Time) (string, bool, error) {
	l, ok := t.data.logins[token]
	if !ok || l.used || !l.ExpiresAt.After(now) {
		return "", false, nil
	}
	l.used = true
	t.data.logins[token] = l
	return l.Email, true, nil
}

func (t *tx) SpendLoginCode(ctx context.Context, email string, codeHash []byte, maxMisses int, now time.Time) (bool, error) {
	live := func(l login) bool { return l.Email == email && !l.used && l.ExpiresAt.After(now) }
	for token, l := range t.data.logins {
		if live(l) && bytes.Equal(l.CodeHash, codeHash) && l.misses < maxMisses {
			l.used = true
			t.data.logins[token] = l
			return true, nil
		}
	}
	for token, l := range t.data.logins {
		if live(l) {
			l.misses++
			t.data.logins[token] = l
		}
	}
	return false, nil
}

func (t *tx) EnsureUser(ctx context.Context, email string, now time.Time) (domain.User, error) {
	var last int64
	for id, u := range t.data.users {
		if u.Email == email {
			return u, nil
		}
		last = max(last, id)
	}
	u := domain.User{ID: last + 1, Email: email, Locale: domain.DefaultLocale, ReplyConfirmations: true,
		VacationDays: games.DefaultVacationDays, CreatedAt: now}
	t.data.users[u.ID] = u
	return u, nil
}

func (t *tx) AddSession(ctx context.Context, s accounts.Session, now time.Time) error {
	t.data.sessions[s.ID] = session{Session: s}
	return nil
}

func (t *tx) ActiveSession(ctx context.Context, id string, now time.Time) (accounts.Session, error) {
	return t.data.activeSession(id, now)
}

func (t *tx) AddRefreshToken(ctx context.Context, sessionID, token string, expires time.Time) error {
	t.data.refreshes[token] = refresh{sessionID: sessionID, expires: expires}
	return nil
}

func (t *tx) SpendRefreshToken(ctx context.Context, token string, now time.Time) (string, accounts.RefreshState, error) {
	r, ok := t.data.refreshes[token]
	switch {
	case ok && r.spent:
		return r.sessionID, accounts.RefreshReused, nil
	case !ok || !r.expires.After(now):
		return "", accounts.RefreshUnknown, nil
	}
	r.spent = true
	t.data.refreshes[token] = r
	for tok, o := range t.data.refreshes {
		if o.sessionID == r.sessionID && !o.expires.After(now) {
			delete(t.data.refreshes, tok)
		}
	}
	return r.sessionID, accounts.RefreshSpent, nil
}

func (t *tx) RevokeSession(ctx context.Context, id string, now time.Time) error {
	if s, ok := t.data.sessions[id]; ok {
		s.revoked = true
		t.data.sessions[id] = s
	}
	return nil
}

func (t *tx) UpdateUser(ctx context.Context, id int64, s accounts.AccountSettings) (domain.User, error) {
	u, ok := t.data.users[id]
	if !ok {
		return domain.User{}, fmt.Errorf("update user: no user %d", id)
	}
	u.Name, u.Locale, u.TimeZone, u.ReplyConfirmations = s.Name, s.Locale, s.TimeZone, s.ReplyConfirmations
	t.data.users[id] = u
	return u, nil
}

func (t *tx) NextCalendarVersion(ctx context.Context, id int64) (domain.User, bool, error) {
	u, ok := t.data.users[id]
	if !ok {
		return domain.User{}, false, nil
	}
	u.CalendarVersion++
	t.data.users[id] = u
	return u, true, nil
}

func (t *tx) Vacations(ctx context.Context, email string, since time.Time) ([]games.Period, error) {
	var out []games.Period
	for _, v := range t.data.vacations {
		if t.data.users[v.userID].Email == email && v.End.After(since) {
			out = append(out, v.Period)
		}
	}
	slices.SortFunc(out, func(a, b games.Period) int { return a.Start.Compare(b.Start) })
	return out, nil
}

func (t *tx) SeatsAway(ctx context.Context, seats []games.Seat, since time.Time) (games.Away, error) {
	away := games.Away{}
	for i, s := range seats {
		periods, err := t.Vacations(ctx, s.Email, since)
		if err != nil {
			return nil, err
		}
		if len(periods) > 0 {
			away[i] = periods
		}
	}
	return away, nil
}

func (t *tx) AddVacation(ctx context.Context, userID int64, p games.Period, now time.Time) (int64, error) {
	var id int64
	for _, v := range t.data.vacations {
		id = max(id, v.ID)
	}
	id++
	t.data.vacations = append(t.data.vacations, vacation{userID: userID, Vacation: games.Vacation{ID: id, Period: p}})
	return id, nil
}

func (t *tx) EndVacation(ctx context.Context, userID, id int64, now time.Time) (bool, error) {
	for i, v := range t.data.vacations {
		if v.userID != userID || v.ID != id {
			continue
		}
		switch {
		case v.Start.After(now):
			t.data.vacations = slices.Delete(t.data.vacations, i, i+1)
			return true, nil
		case v.End.After(now):
			t.data.vacations[i].End = now
			return true, nil
		}
	}
	return false, nil
}

func (t *tx) GamesPlaying(ctx context.Context, email string) ([]games.Game, error) {
	var out []games.Game
	for _, id := range slices.Sorted(maps.Keys(t.data.games)) {
		g, _ := t.data.game(id)
		if !g.Over() && slices.ContainsFunc(g.Seats, func(s games.Seat) bool { return s.Email == email }) {
			out = append(out, g)
		}
	}
	return out, nil
}

// TimeZoneOf implements games.GameRecords.
func (s *Store) TimeZoneOf(ctx context.Context, email string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, u := range s.data.users {
		if u.Email == email {
			return u.TimeZone, nil
		}
	}
	return "", nil
}
