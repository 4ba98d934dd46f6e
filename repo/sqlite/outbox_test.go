package sqlite

import (
	"database/sql"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
)

// outboxFixture fills a store with mail queued at known times:
// t0+1m a login for ann, t0+2m a game's two invitations, t0+3m a
// login for bob. The organiser's own login mail (at t0) is already sent.
type outboxFixture struct {
	db   *DB
	game games.Game
}

func newOutboxFixture(t *testing.T) outboxFixture {
	t.Helper()
	ctx := t.Context()
	db := newStore(t)
	org := signUp(t, db, "org@example.org", t0)
	if err := db.accountsAt(t0.Add(time.Minute)).RequestLogin(ctx, "ann@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	g := mustCreate(t, db, twoPlayerSpec("white@example.org", "black@example.org"), org.ID, t0.Add(2*time.Minute))
	if err := db.accountsAt(t0.Add(3*time.Minute)).RequestLogin(ctx, "bob@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	return outboxFixture{db: db, game: g}
}

// due lists the due mail as "kind email" strings.
func dueList(t *testing.T, db *DB, now time.Time, limit int) ([]string, []domain.OutboxMail) {
	t.Helper()
	due, err := db.DueMail(t.Context(), now, limit)
	if err != nil {
		t.Fatalf("DueMail: %v", err)
	}
	var out []string
	for _, m := range due {
		out = append(out, string(m.Notice.Kind)+" "+m.Email)
	}
	return out, due
}

func TestDueMail(t *testing.T) {
	f := newOutboxFixture(t)
	all := []string{
		"login ann@example.org",
		"invitation white@example.org",
		"invitation black@example.org",
		"login bob@example.org",
	}
	tests := []struct {
		name  string
		now   time.Time
		limit int
		want  []string
	}{
		{"before anything", t0.Add(time.Minute - time.Millisecond), 100, nil},
		{"the first is due", t0.Add(time.Minute), 100, all[:1]},
		{"the game's mail is due", t0.Add(2 * time.Minute), 100, all[:3]},
		{"everything", t0.Add(time.Hour), 100, all},
		{"limited", t0.Add(time.Hour), 2, all[:2]},
	}
	for _, tt := range tests {
		got, _ := dueList(t, f.db, tt.now, tt.limit)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: due = %q, want %q", tt.name, got, tt.want)
		}
	}

	_, due := dueList(t, f.db, t0.Add(time.Hour), 100)
	login, white, black := due[0], due[1], due[2]
	if login.Notice != (domain.Notice{Kind: domain.NoticeLogin, Email: "ann@example.org"}) || login.Secret == "" ||
		!sameTime(login.CreatedAt, t0.Add(time.Minute)) || login.Attempts != 0 {
		t.Errorf("login mail = %+v", login)
	}
	for _, tt := range []struct {
		m     domain.OutboxMail
		color less.Color
		email string
	}{{white, less.White, "white@example.org"}, {black, less.Black, "black@example.org"}} {
		want := domain.Notice{Kind: domain.NoticeInvitation, GameID: f.game.ID, Color: tt.color.String(), Ply: 0, Email: tt.email}
		if tt.m.Notice != want || tt.m.Email != tt.email || tt.m.Secret != "" || tt.m.Attempts != 0 ||
			!sameTime(tt.m.CreatedAt, t0.Add(2*time.Minute)) || tt.m.ID == 0 || tt.m.MessageID == "" {
			t.Errorf("invitation = %+v, want notice %+v", tt.m, want)
		}
	}
	if !(login.ID < white.ID && white.ID < black.ID) {
		t.Errorf("ids %d %d %d are not in creation order", login.ID, white.ID, black.ID)
	}
}

func TestMarkSent(t *testing.T) {
	ctx := t.Context()
	f := newOutboxFixture(t)
	now := t0.Add(time.Hour)
	_, due := dueList(t, f.db, now, 100)
	login, white := due[0], due[1]
	for _, id := range []int64{login.ID, white.ID} {
		if err := f.db.MarkSent(ctx, id, now); err != nil {
			t.Fatalf("MarkSent: %v", err)
		}
	}
	got, _ := dueList(t, f.db, now.Add(24*time.Hour), 100)
	want := []string{"invitation black@example.org", "login bob@example.org"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("due after MarkSent = %q, want %q", got, want)
	}
	if s := secretOf(t, f.db, login.ID); s.Valid {
		t.Errorf("the login token is still stored after sending: %q", s.String)
	}
	// Sending again, or failing after sending, changes nothing.
	if err := f.db.MarkSent(ctx, white.ID, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := f.db.MarkAttemptFailed(ctx, testClaimant, white.ID, domain.MailFailure{Code: "rejected", Message: "late"}, time.Time{}, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	mail := gameMail(t, f.db, f.game.ID)
	wantMail := []domain.NoticeDelivery{
		{Kind: domain.NoticeInvitation, Color: "white", Attempts: 1, Status: "sent", CreatedAt: msUTC(t0.Add(2 * time.Minute))},
		{Kind: domain.NoticeInvitation, Color: "black", Attempts: 0, Status: "pending", CreatedAt: msUTC(t0.Add(2 * time.Minute))},
	}
	if !equalMail(mail, wantMail) {
		t.Errorf("GameMail = %+v\nwant %+v", mail, wantMail)
	}
}

// MarkSentBatch records each mail with its own time, in one go; a mail
// already sent keeps its first record.
func TestMarkSentBatch(t *testing.T) {
	ctx := t.Context()
	f := newOutboxFixture(t)
	now := t0.Add(time.Hour)
	_, due := dueList(t, f.db, now, 100)
	login, white, black := due[0], due[1], due[2]
	if err := f.db.MarkSent(ctx, black.ID, now); err != nil {
		t.Fatal(err)
	}
	claimAll(t, f.db, now)
	if err := f.db.MarkSentBatch(ctx, testClaimant, nil); err != nil {
		t.Fatalf("empty batch: %v", err)
	}
	batch := []domain.SentMail{{ID: login.ID, At: now.Add(time.Second)}, {ID: white.ID, At: now.Add(2 * time.Second)},
		{ID: black.ID, At: now.Add(3 * time.Second)}}
	if err := f.db.MarkSentBatch(ctx, testClaimant, batch); err != nil {
		t.Fatalf("MarkSentBatch: %v", err)
	}
	got, _ := dueList(t, f.db, now.Add(24*time.Hour), 100)
	if want := []string{"login bob@example.org"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("due after MarkSentBatch = %q, want %q", got, want)
	}
	tests := []struct {
		id       int64
		sentAt   time.Time
		attempts int
	}{
		{login.ID, now.Add(time.Second), 1},
		{white.ID, now.Add(2 * time.Second), 1},
		{black.ID, now, 1}, // sent before: unchanged
	}
	for _, tt := range tests {
		var sentAt int64
		var attempts int
		err := f.db.read.QueryRowContext(ctx, `SELECT sent_at, attempts FROM outbox WHERE id = ?`, tt.id).Scan(&sentAt, &attempts)
		if err != nil {
			t.Fatal(err)
		}
		if sentAt != tt.sentAt.UnixMilli() || attempts != tt.attempts {
			t.Errorf("mail %d: sent_at %d, attempts %d; want %d, %d", tt.id, sentAt, attempts, tt.sentAt.UnixMilli(), tt.attempts)
		}
	}
	if s := secretOf(t, f.db, login.ID); s.Valid {
		t.Errorf("the login token is still stored after sending: %q", s.String)
	}
}

func TestMarkAttemptFailed(t *testing.T) {
	ctx := t.Context()
	f := newOutboxFixture(t)
	now := t0.Add(time.Hour)
	_, due := dueList(t, f.db, now, 100)
	login, white := due[0], due[1]
	claimAll(t, f.db, now)

	// A retry later: not due before it, due from then on, behind older mail.
	retry := now.Add(10 * time.Minute)
	if err := f.db.MarkAttemptFailed(ctx, testClaimant, white.ID, domain.MailFailure{Code: "temporary_failure", Message: "421 try again"}, retry, now); err != nil {
		t.Fatal(err)
	}
	if err := f.db.MarkAttemptFailed(ctx, testClaimant, login.ID, domain.MailFailure{Code: "unreachable", Message: "timeout"}, retry.Add(time.Minute), now); err != nil {
		t.Fatal(err)
	}
	got, _ := dueList(t, f.db, retry.Add(-time.Millisecond), 100)
	want := []string{"invitation black@example.org", "login bob@example.org"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("due before the retry = %q, want %q", got, want)
	}
	got, due = dueList(t, f.db, retry.Add(time.Minute), 100)
	want = []string{"invitation black@example.org", "login bob@example.org", "invitation white@example.org", "login ann@example.org"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("due at the retry = %q, want %q", got, want)
	}
	if due[2].Attempts != 1 || due[3].Attempts != 1 || due[3].Secret != login.Secret || due[2].MessageID != white.MessageID {
		t.Errorf("retried mail = %+v and %+v", due[2], due[3])
	}
	mail := gameMail(t, f.db, f.game.ID)
	if mail[0].Status != "pending" || mail[0].Attempts != 1 || mail[0].LastError != "421 try again" || mail[0].ErrorCode != "temporary_failure" {
		t.Errorf("GameMail after a retry = %+v", mail[0])
	}

	// Zero next: given up, never due again, and the token is forgotten.
	claimAll(t, f.db, retry.Add(time.Minute))
	for _, id := range []int64{white.ID, login.ID} {
		if err := f.db.MarkAttemptFailed(ctx, testClaimant, id, domain.MailFailure{Code: "rejected", Message: "550 no such user"}, time.Time{}, retry.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = dueList(t, f.db, retry.Add(24*365*time.Hour), 100)
	want = []string{"invitation black@example.org", "login bob@example.org"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("due after giving up = %q, want %q", got, want)
	}
	if s := secretOf(t, f.db, login.ID); s.Valid {
		t.Errorf("the login token is still stored after giving up: %q", s.String)
	}
	mail = gameMail(t, f.db, f.game.ID)
	wantMail := []domain.NoticeDelivery{
		{Kind: domain.NoticeInvitation, Color: "white", Attempts: 2, Status: "failed", ErrorCode: "rejected", LastError: "550 no such user", CreatedAt: msUTC(t0.Add(2 * time.Minute))},
		{Kind: domain.NoticeInvitation, Color: "black", Attempts: 0, Status: "pending", CreatedAt: msUTC(t0.Add(2 * time.Minute))},
	}
	if !equalMail(mail, wantMail) {
		t.Errorf("GameMail = %+v\nwant %+v", mail, wantMail)
	}
	// Another attempt recorded on a mail given up does not make it due again.
	if err := f.db.MarkAttemptFailed(ctx, testClaimant, white.ID, domain.MailFailure{Code: "rejected", Message: "again"}, retry, retry); err != nil {
		t.Fatal(err)
	}
	got, _ = dueList(t, f.db, retry.Add(24*time.Hour), 100)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("a failed mail is due again after another attempt: %q", got)
	}
}

// The stored error is cut to 500 bytes, but never inside a character: it is
// shown through the API as a JSON string.
func TestMarkAttemptFailedCutsLongErrors(t *testing.T) {
	ctx := t.Context()
	f := newOutboxFixture(t)
	_, due := dueList(t, f.db, t0.Add(time.Hour), 100)
	white := due[1]
	claimAll(t, f.db, t0.Add(time.Hour))
	cause := domain.MailFailure{Code: "rejected", Message: strings.Repeat("x", 499) + strings.Repeat("é", 100)}
	if err := f.db.MarkAttemptFailed(ctx, testClaimant, white.ID, cause, time.Time{}, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got := gameMail(t, f.db, f.game.ID)[0].LastError
	if len(got) > 500 || !strings.HasPrefix(got, strings.Repeat("x", 499)) {
		t.Errorf("stored error has %d bytes: %q", len(got), got)
	}
	if !utf8.ValidString(got) {
		t.Errorf("stored error is not valid UTF-8: ends in %q", got[len(got)-3:])
	}
}

func TestMessageIDsAreUnique(t *testing.T) {
	f := newOutboxFixture(t)
	ctx := t.Context()
	// Some more mail: a turn and a resignation.
	if err := submitTurn(ctx, f.db, f.game.ID, seatOf(less.White), 0, firstTurn, t0.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := resignGame(ctx, f.db, f.game.ID, seatOf(less.Black), t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	rows, err := f.db.read.QueryContext(ctx, `SELECT message_id FROM outbox`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	n := 0
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		if id == "" || seen[id] {
			t.Errorf("message id %q is empty or repeated", id)
		}
		seen[id] = true
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// org's login, ann's, 2 invitations, bob's, your_turn, 2 game_over
	if n != 8 {
		t.Errorf("%d outbox rows, want 8", n)
	}
	mail := gameMail(t, f.db, f.game.ID)
	var kinds []string
	for _, m := range mail {
		kinds = append(kinds, string(m.Kind)+":"+m.Color)
	}
	want := "invitation:white invitation:black your_turn:black game_over:white game_over:black"
	if strings.Join(kinds, " ") != want {
		t.Errorf("GameMail kinds = %v, want %s", kinds, want)
	}
}

func TestGameMailOfUnknownGame(t *testing.T) {
	f := newOutboxFixture(t)
	if mail := gameMail(t, f.db, "g_missing"); len(mail) != 0 {
		t.Errorf("GameMail of a missing game = %+v", mail)
	}
}

func secretOf(t *testing.T, db *DB, id int64) sql.NullString {
	t.Helper()
	var s sql.NullString
	if err := db.read.QueryRowContext(t.Context(), `SELECT secret FROM outbox WHERE id = ?`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func gameMail(t *testing.T, db *DB, id string) []domain.NoticeDelivery {
	t.Helper()
	mail, err := db.GameMail(t.Context(), id)
	if err != nil {
		t.Fatalf("GameMail: %v", err)
	}
	return mail
}

func equalMail(got, want []domain.NoticeDelivery) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if !g.CreatedAt.Equal(w.CreatedAt) {
			return false
		}
		g.CreatedAt, w.CreatedAt = time.Time{}, time.Time{}
		if g != w {
			return false
		}
	}
	return true
}
