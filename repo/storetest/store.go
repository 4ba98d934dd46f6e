package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/repo/port"
)

// RunStore runs the contract of a whole port.Store — Run's, and the
// outbox, the inbox, mail to strangers, the backlog and housekeeping — against stores
// made by newStore, each empty.
func RunStore(t *testing.T, newStore func(t *testing.T) port.Store) {
	t.Run("Store", func(t *testing.T) {
		Run(t, func(t *testing.T) Store { return newStore(t) })
	})
	tests := []struct {
		name string
		run  func(t *testing.T, s port.Store)
	}{
		{"ClaimTwoClaimants", testClaimTwoClaimants},
		{"ClaimKeepsThreadOrder", testClaimKeepsThreadOrder},
		{"ClaimOutcomeOfLostLease", testClaimOutcomeOfLostLease},
		{"ClaimAfterCrashAndRelease", testClaimAfterCrashAndRelease},
		{"MailOutcomes", testMailOutcomes},
		{"SuppressedAddresses", testSuppressedAddresses},
		{"RecipientBudget", testRecipientBudget},
		{"Backlog", testBacklog},
		{"PruneMail", testPruneMail},
		{"PruneSessions", testPruneSessions},
		{"PruneLoginTokens", testPruneLoginTokens},
		{"ExpireLoginMail", testExpireLoginMail},
		{"ExpireIdempotencyKeys", testExpireIdempotencyKeys},
		{"Inbox", testInbox},
		{"PruneInbound", testPruneInbound},
		{"TimeZoneOf", testTimeZoneOf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newStore(t)) })
	}
}

// lease is the claims' lease in the contract.
const lease = 5 * time.Minute

// serviceAt is the use cases on s with the clock stopped at now.
func serviceAt(s Store, now time.Time) *games.Service {
	return games.NewService(games.Config{Store: s, Now: func() time.Time { return now }})
}

// accountsAt is the use cases of accounts with the clock stopped at now.
func accountsAt(s Store, now time.Time) *accounts.Service {
	return accounts.NewService(accounts.Config{Store: s, Now: func() time.Time { return now }})
}

// tournamentsAt is the use cases of tournaments on s with the clock
// stopped at now.
func tournamentsAt(s Store, now time.Time) *tournaments.Service {
	return tournaments.NewService(tournaments.Config{Store: s, Now: func() time.Time { return now }})
}

// outbox is a store with mail queued at known times: T0+1m a login for
// ann, T0+2m a game's two invitations (white@, black@), T0+3m a login for
// bob and, with a turn, T0+4m black@'s "your turn": a thread of two.
type outbox struct {
	s    port.Store
	game games.Game // as it is after the turn
}

func newOutbox(t *testing.T, s port.Store) outbox {
	t.Helper()
	ctx := t.Context()
	org := ensureUser(t, s, "org@example.org")
	if err := accountsAt(s, T0.Add(time.Minute)).RequestLogin(ctx, "ann@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	g := createGame(t, s, "g_mail", org, "white@example.org", "black@example.org", T0.Add(2*time.Minute))
	if err := accountsAt(s, T0.Add(3*time.Minute)).RequestLogin(ctx, "bob@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	return outbox{s: s, game: play(t, s, g, T0.Add(4*time.Minute))}
}

// claim claims up to limit mails and lists them as "kind email" strings.
func claim(t *testing.T, s port.Store, claimant string, now time.Time, limit int) (string, []domain.OutboxMail) {
	t.Helper()
	mail, err := s.ClaimMail(t.Context(), claimant, now, lease, limit)
	if err != nil {
		t.Fatalf("ClaimMail %s: %v", claimant, err)
	}
	out := make([]string, len(mail))
	for i, m := range mail {
		out[i] = string(m.Notice.Kind) + " " + m.Email
	}
	return strings.Join(out, "|"), mail
}

const allMail = "login ann@example.org|invitation white@example.org|invitation black@example.org|" +
	"login bob@example.org|your_turn black@example.org"

// Two claimants never hold one mail: each claim takes the oldest mail
// nobody holds, and mail stays claimed until its lease ends.
func testClaimTwoClaimants(t *testing.T, s port.Store) {
	newOutbox(t, s)
	now := T0.Add(time.Hour)
	steps := []struct {
		claimant string
		at       time.Time
		limit    int
		want     string
	}{
		{"a", now, 2, "login ann@example.org|invitation white@example.org"},
		{"b", now, 2, "invitation black@example.org|login bob@example.org"},
		// black@'s "your turn" waits for its invitation, which b holds.
		{"a", now, 100, ""},
		{"b", now.Add(lease - time.Millisecond), 100, ""},
		// The leases have ended: all of it can be claimed again, in order.
		{"b", now.Add(lease), 100, allMail},
	}
	for i, st := range steps {
		if got, _ := claim(t, s, st.claimant, st.at, st.limit); got != st.want {
			t.Errorf("step %d: %s claimed %q, want %q", i, st.claimant, got, st.want)
		}
	}
}

// A mail is not claimed while an earlier mail of its thread (address and
// game) is claimed or waiting for a retry; once that one is delivered or
// due again, the two are claimed in order.
func testClaimKeepsThreadOrder(t *testing.T, s port.Store) {
	ctx := t.Context()
	f := newOutbox(t, s)
	now := T0.Add(time.Hour)
	_, a := claim(t, s, "a", now, 3) // ann's login and both invitations
	black := a[2]
	if black.Notice.Kind != domain.NoticeInvitation || black.Email != "black@example.org" {
		t.Fatalf("third claimed mail = %+v", black)
	}
	if got, _ := claim(t, s, "b", now, 100); got != "login bob@example.org" {
		t.Errorf("b claimed %q while a holds black@'s invitation", got)
	}
	// The invitation fails; until its retry, black@'s "your turn" waits.
	retry := now.Add(lease / 2)
	if err := s.MarkAttemptFailed(ctx, "a", black.ID, domain.MailFailure{Code: "temporary_failure", Message: "try later"}, retry, now); err != nil {
		t.Fatal(err)
	}
	if got, _ := claim(t, s, "b", retry.Add(-time.Millisecond), 100); got != "" {
		t.Errorf("b claimed %q while black@'s invitation waits for its retry", got)
	}
	// Retried, it goes first, with the "your turn" behind it in one claim.
	got, mail := claim(t, s, "b", retry, 100)
	if got != "invitation black@example.org|your_turn black@example.org" {
		t.Fatalf("b claimed %q at the retry", got)
	}
	if mail[0].ID != black.ID || mail[0].Attempts != 1 {
		t.Errorf("retried invitation = %+v", mail[0])
	}
	// Delivered, the thread's next mail is free: here a new one.
	if err := s.MarkSentBatch(ctx, "b", []domain.SentMail{{ID: mail[0].ID, At: retry}}); err != nil {
		t.Fatal(err)
	}
	resign(t, s, f.game, "black", retry)
	// white@'s game over waits for white@'s invitation (held by a), black@'s
	// for black@'s "your turn" (held by b).
	if got, _ := claim(t, s, "c", retry, 100); got != "" {
		t.Errorf("c claimed %q", got)
	}
	if err := s.MarkSentBatch(ctx, "b", []domain.SentMail{{ID: mail[1].ID, At: retry}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := claim(t, s, "c", retry, 100); got != "game_over black@example.org" {
		t.Errorf("c claimed %q, want black@'s game over", got)
	}
}

// An outcome counts only from the mail's claimant: once another claimant
// took the mail over after the lease ended, what the first one records,
// sent, failed or released, is ignored.
func testClaimOutcomeOfLostLease(t *testing.T, s port.Store) {
	now := T0.Add(time.Hour)
	later := now.Add(lease)
	ctx := t.Context()
	records := []struct {
		name   string
		record func(id int64) error
	}{
		{"sent", func(id int64) error { return s.MarkSentBatch(ctx, "a", []domain.SentMail{{ID: id, At: later}}) }},
		{"retry", func(id int64) error {
			return s.MarkAttemptFailed(ctx, "a", id, domain.MailFailure{Code: "temporary_failure", Message: "x"}, later.Add(time.Hour), later)
		}},
		{"given up", func(id int64) error {
			return s.MarkAttemptFailed(ctx, "a", id, domain.MailFailure{Code: "rejected", Message: "x"}, time.Time{}, later)
		}},
		{"released", func(id int64) error { return s.ReleaseMail(ctx, "a", []int64{id}) }},
	}
	newOutbox(t, s)
	pending := func() int {
		t.Helper()
		b, err := s.Backlog(ctx, now)
		if err != nil {
			t.Fatal(err)
		}
		return b.MailPending
	}
	for i, r := range records {
		// Each round takes over the next mail: ann's login, white@'s and
		// black@'s invitations, bob's login.
		_, a := claim(t, s, "a", now.Add(time.Duration(i)*2*lease), 1)
		if len(a) != 1 {
			t.Fatalf("%s: a claimed %d mails", r.name, len(a))
		}
		taken := later.Add(time.Duration(i) * 2 * lease)
		if _, b := claim(t, s, "b", taken, 1); len(b) != 1 || b[0].ID != a[0].ID {
			t.Fatalf("%s: b claimed %+v after a's lease ended, want %d", r.name, b, a[0].ID)
		}
		before := pending()
		if err := r.record(a[0].ID); err != nil {
			t.Fatal(err)
		}
		// b still holds it, unchanged (a retry or a release by a would have
		// ended b's claim), and b's own outcome counts.
		if n := pending(); n != before {
			t.Errorf("%s: a's outcome was recorded: %d mails pending, want %d", r.name, n, before)
		}
		if err := s.MarkSentBatch(ctx, "b", []domain.SentMail{{ID: a[0].ID, At: taken}}); err != nil {
			t.Fatal(err)
		}
		if n := pending(); n != before-1 {
			t.Errorf("%s: b's delivery was not recorded: %d mails pending, want %d", r.name, n, before-1)
		}
	}
	if got, _ := claim(t, s, "c", T0.Add(time.Hour+8*lease), 100); got != "your_turn black@example.org" {
		t.Errorf("at the end c claimed %q, want only the your-turn", got)
	}
}

// A claim whose claimant never records an outcome (it crashed) keeps the
// mail from others until the lease ends, then the mail is claimed again,
// with the rest of its thread behind it; a released claim is free at once.
func testClaimAfterCrashAndRelease(t *testing.T, s port.Store) {
	newOutbox(t, s)
	now := T0.Add(time.Hour)
	if got, _ := claim(t, s, "crashed", now, 100); got != allMail {
		t.Fatalf("claimed %q", got)
	}
	if got, _ := claim(t, s, "b", now.Add(lease-time.Millisecond), 100); got != "" {
		t.Errorf("claimed %q within the crashed claimant's lease", got)
	}
	got, mail := claim(t, s, "b", now.Add(lease), 100)
	if got != allMail {
		t.Errorf("after the lease: claimed %q", got)
	}
	var ids []int64
	for _, m := range mail {
		ids = append(ids, m.ID)
	}
	if err := s.ReleaseMail(t.Context(), "b", ids[2:]); err != nil {
		t.Fatal(err)
	}
	if got, _ := claim(t, s, "c", now.Add(lease), 100); got != "invitation black@example.org|login bob@example.org|your_turn black@example.org" {
		t.Errorf("after a release: claimed %q", got)
	}
}

// What becomes of each mail shows in its game's list: delivered, retried
// (still pending, with the attempt and why), given up; a failure's message
// is kept to 500 bytes of whole characters; a login mail carries its code
// until it is delivered.
func testMailOutcomes(t *testing.T, s port.Store) {
	ctx := t.Context()
	f := newOutbox(t, s)
	now := T0.Add(time.Hour)
	_, mail := claim(t, s, "w", now, 100)
	if mail[0].Secret == "" || mail[0].Locale != "en" || mail[0].Notice.Kind != domain.NoticeLogin ||
		!mail[0].CreatedAt.Equal(T0.Add(time.Minute)) || mail[0].MessageID == "" {
		t.Errorf("ann's login mail = %+v", mail[0])
	}
	if inv := mail[1]; inv.Notice.GameID != f.game.ID || inv.Notice.Color != "white" || inv.Secret != "" ||
		inv.MessageID != f.game.ID+".white" {
		t.Errorf("white@'s invitation = %+v", inv)
	}
	long := strings.Repeat("é", 300) // 600 bytes
	if err := s.MarkSentBatch(ctx, "w", []domain.SentMail{{ID: mail[0].ID, At: now}, {ID: mail[1].ID, At: now}}); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkAttemptFailed(ctx, "w", mail[2].ID, domain.MailFailure{Code: "temporary_failure", Message: long},
		now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkAttemptFailed(ctx, "w", mail[4].ID, domain.MailFailure{Code: "rejected", Message: "no such user"},
		time.Time{}, now); err != nil {
		t.Fatal(err)
	}
	list, err := s.GameMail(ctx, f.game.ID)
	if err != nil || len(list) != 3 {
		t.Fatalf("GameMail = %+v, %v", list, err)
	}
	want := []domain.NoticeDelivery{
		{Kind: domain.NoticeInvitation, Color: "white", Attempts: 1, Status: "sent"},
		{Kind: domain.NoticeInvitation, Color: "black", Attempts: 1, Status: "pending", ErrorCode: "temporary_failure",
			LastError: strings.Repeat("é", 250)},
		{Kind: domain.NoticeYourTurn, Color: "black", Ply: 1, Attempts: 1, Status: "failed", ErrorCode: "rejected",
			LastError: "no such user"},
	}
	for i, m := range list {
		w := want[i]
		w.CreatedAt = m.CreatedAt
		if m != w {
			t.Errorf("mail %d = %+v\nwant %+v", i, m, w)
		}
	}
	if !list[0].CreatedAt.Equal(T0.Add(2*time.Minute)) || !list[2].CreatedAt.Equal(T0.Add(4*time.Minute)) {
		t.Errorf("created at %v and %v", list[0].CreatedAt, list[2].CreatedAt)
	}
	// Recorded once: a second delivery or failure of the same mail changes nothing.
	if err := s.MarkAttemptFailed(ctx, "w", mail[4].ID, domain.MailFailure{Code: "rejected", Message: "again"}, time.Time{}, now); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkSentBatch(ctx, "w", []domain.SentMail{{ID: mail[1].ID, At: now.Add(time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.GameMail(ctx, f.game.ID); again[0].Attempts != 1 || again[2].Attempts != 1 || again[2].LastError != "no such user" {
		t.Errorf("after recording again: %+v", again)
	}
}

// An address that asked for no mail refuses invitations and tournaments
// that would mail it, or any other address of its mailbox (+tags), unless
// the change is scheduled, where its mail is left out; its login mail
// still goes.
func testSuppressedAddresses(t *testing.T, s port.Store) {
	ctx := t.Context()
	org := ensureUser(t, s, "org@example.org")
	if err := s.Suppress(ctx, "bob@example.org", T0); err != nil {
		t.Fatal(err)
	}
	c := newGameOf(t, "g_refused", org, "ann@example.org", "bob@example.org", games.TimeControl{}, T0)
	err := s.Transact(ctx, func(st domain.StoreTx) error {
		tx := newUnit(st)
		return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email}, T0)
	})
	if domain.CodeOf(err) != domain.CodeAddressSuppressed {
		t.Errorf("inviting a suppressed address: %v, want %s", err, domain.CodeAddressSuppressed)
	}
	if _, err := s.Game(ctx, c.Game.ID); domain.CodeOf(err) != domain.CodeNotFound {
		t.Errorf("the refused game was stored: %v", err)
	}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email, Scheduled: true}, T0)
	})
	if list, err := s.GameMail(ctx, c.Game.ID); err != nil || len(list) != 1 || list[0].Color != "white" {
		t.Errorf("the scheduled game's mail = %+v, %v; want ann's invitation only", list, err)
	}
	_, err = tournamentsAt(s, T0).CreateTournament(ctx, tournaments.NewTournamentSpec{Name: "Cup", Format: tournaments.RoundRobin,
		Players:    []games.Player{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob+cup@example.org"}},
		FirstStart: T0.Add(time.Hour), Interval: 24 * time.Hour}, org.ID)
	if domain.CodeOf(err) != domain.CodeAddressSuppressed {
		t.Errorf("a tournament with another +tag of a suppressed mailbox: %v, want %s", err, domain.CodeAddressSuppressed)
	}
	tagged := newGameOf(t, "g_tagged", org, "ann@example.org", "bob+games@example.org", games.TimeControl{}, T0)
	err = s.Transact(ctx, func(st domain.StoreTx) error {
		return newUnit(st).InsertGame(ctx, &tagged, domain.Cause{By: org.Email}, T0)
	})
	if domain.CodeOf(err) != domain.CodeAddressSuppressed {
		t.Errorf("inviting another +tag of a suppressed mailbox: %v, want %s", err, domain.CodeAddressSuppressed)
	}
	if err := accountsAt(s, T0).RequestLogin(ctx, "bob@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	if got, _ := claim(t, s, "w", T0, 100); got != "invitation ann@example.org|login bob@example.org" {
		t.Errorf("claimed %q, want ann's invitation and bob's login", got)
	}
}

// A mailbox receives at most its budget of emails that others caused in any
// 24 hours (domain.MailPolicy, deciding from the counts each store keeps):
// past it, an invitation is refused until the oldest leaves the window; a
// scheduled change goes ahead without its mail.
func testRecipientBudget(t *testing.T, s port.Store) {
	ctx := t.Context()
	org := ensureUser(t, s, "org@example.org")
	for i := range domain.DefaultMailLimits.RecipientPerDay {
		// The creator's own seat counts against nobody's budget.
		createGame(t, s, "g_"+string(rune('A'+i/26))+string(rune('a'+i%26)), org, "org@example.org", "vic@example.org",
			T0.Add(time.Duration(i)*time.Minute))
	}
	now := T0.Add(2 * time.Hour)
	c := newGameOf(t, "g_over", org, "org@example.org", "vic@example.org", games.TimeControl{}, now)
	err := s.Transact(ctx, func(st domain.StoreTx) error {
		tx := newUnit(st)
		return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email}, now)
	})
	de, ok := domain.ErrorOf(err)
	if !ok || de.Code != domain.CodeRecipientBudgetSpent || de.RetryAfter != 22*time.Hour {
		t.Fatalf("an invitation over the budget: %v (%+v), want %s retrying after 22h", err, de, domain.CodeRecipientBudgetSpent)
	}
	// Another address still gets its invitations; org's own never counted.
	createGame(t, s, "g_other", org, "org@example.org", "wes@example.org", now)
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email, Scheduled: true}, now)
	})
	if list, _ := s.GameMail(ctx, c.Game.ID); len(list) != 1 || list[0].Color != "white" {
		t.Errorf("the scheduled game's mail = %+v, want org's invitation only", list)
	}
	// A tournament's mail counts, and is left out, unless its recipient
	// signed up himself (Agreed); the budget is the mailbox's, whatever
	// +tag the address has.
	transact(t, s, func(ctx context.Context, tx *unit) error {
		for _, k := range []domain.NoticeKind{domain.NoticeRoundResults, domain.NoticeRoundDeadline, domain.NoticeFinalStandings, domain.NoticeTournamentUpdate} {
			for _, agreed := range []bool{false, true} {
				n := domain.Notice{Kind: k, Email: "vic+event@example.org", Tournament: "t_budget", Ply: 1, Agreed: agreed}
				if err := tx.AddNotice(ctx, n, "en", domain.Cause{By: org.Email, Scheduled: true}, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	_, mail := claim(t, s, "w", now, 1000)
	var got []string
	for _, m := range mail {
		if m.Notice.Tournament == "t_budget" {
			got = append(got, string(m.Notice.Kind))
		}
	}
	if want := "round_results round_deadline final_standings tournament_update"; strings.Join(got, " ") != want {
		t.Errorf("a tournament's mail over the budget: %q, want the agreed %q", got, want)
	}
	c2 := newGameOf(t, "g_tagged", org, "org@example.org", "vic+2@example.org", games.TimeControl{}, now)
	err = s.Transact(ctx, func(st domain.StoreTx) error {
		return newUnit(st).InsertGame(ctx, &c2, domain.Cause{By: org.Email}, now)
	})
	if domain.CodeOf(err) != domain.CodeRecipientBudgetSpent {
		t.Errorf("an invitation to another +tag of the mailbox over its budget: %v, want %s", err, domain.CodeRecipientBudgetSpent)
	}
	// A day after the first, there is room again.
	later := T0.Add(24*time.Hour + time.Millisecond)
	createGame(t, s, "g_later", org, "org@example.org", "vic@example.org", later)
}

// The backlog counts the mail waiting and given up, and the games and
// tournaments due, with the oldest of each.
func testBacklog(t *testing.T, s port.Store) {
	ctx := t.Context()
	if b, err := s.Backlog(ctx, T0); err != nil || b != (domain.Backlog{}) {
		t.Errorf("Backlog of an empty store = %+v, %v", b, err)
	}
	newOutbox(t, s)
	newTournament(t, s, "t_cup") // due an hour after T0
	org := ensureUser(t, s, "org@example.org")
	c := newGameOf(t, "g_clock", org, "ann@example.org", "bob@example.org",
		games.TimeControl{Kind: games.TimePerTurn, PerTurn: 3 * 24 * time.Hour}, T0)
	transact(t, s, func(ctx context.Context, tx *unit) error {
		return tx.InsertGame(ctx, &c, domain.Cause{By: org.Email}, T0)
	})
	now := T0.Add(3 * 24 * time.Hour)
	_, mail := claim(t, s, "w", now, 1)
	if err := s.MarkAttemptFailed(ctx, "w", mail[0].ID, domain.MailFailure{Code: "rejected", Message: "x"}, time.Time{}, now); err != nil {
		t.Fatal(err)
	}
	b, err := s.Backlog(ctx, now)
	want := domain.Backlog{MailPending: 6, OldestPending: T0, MailFailed: 1, // g_clock's invitations
		GamesDue: 1, TournamentsDue: 1, OldestDue: T0.Add(time.Hour)}
	if err != nil || b != want {
		t.Errorf("Backlog = %+v, %v\nwant %+v", b, err, want)
	}
	if b, err := s.Backlog(ctx, T0.Add(time.Hour-time.Millisecond)); err != nil || b.GamesDue != 0 || b.TournamentsDue != 0 ||
		!b.OldestDue.IsZero() {
		t.Errorf("Backlog before anything is due = %+v, %v", b, err)
	}
}

// drain calls prune until it changes fewer than limit rows, as the
// scheduler does, and returns the total.
func drain(t *testing.T, prune func(ctx context.Context, limit int) (int, error), limit int) int {
	t.Helper()
	total := 0
	for {
		n, err := prune(t.Context(), limit)
		if err != nil {
			t.Fatal(err)
		}
		if n > limit {
			t.Fatalf("a batch changed %d rows, more than its limit %d", n, limit)
		}
		total += n
		if n < limit {
			return total
		}
	}
}

// Delivered and given-up mail goes after the retention period, in
// batches; mail still being tried stays, however old.
func testPruneMail(t *testing.T, s port.Store) {
	ctx := t.Context()
	f := newOutbox(t, s)
	now := T0.Add(time.Hour)
	_, mail := claim(t, s, "w", now, 100)
	if err := s.MarkSentBatch(ctx, "w", []domain.SentMail{{ID: mail[0].ID, At: now}}); err != nil { // ann's login
		t.Fatal(err)
	}
	if err := s.MarkAttemptFailed(ctx, "w", mail[1].ID, domain.MailFailure{Code: "rejected", Message: "x"}, time.Time{}, now); err != nil {
		t.Fatal(err)
	}
	// black@'s "your turn", delivered, but created after the cut-off.
	if err := s.MarkSentBatch(ctx, "w", []domain.SentMail{{ID: mail[4].ID, At: now}}); err != nil {
		t.Fatal(err)
	}
	before := T0.Add(4 * time.Minute)
	if n := drain(t, func(ctx context.Context, limit int) (int, error) { return s.PruneMail(ctx, before, limit) }, 1); n != 2 {
		t.Errorf("pruned %d mails, want 2 (ann's login, white@'s failed invitation)", n)
	}
	list, err := s.GameMail(ctx, f.game.ID)
	if err != nil || len(list) != 2 || list[0].Color != "black" || list[1].Kind != domain.NoticeYourTurn {
		t.Errorf("the game's mail after pruning = %+v, %v", list, err)
	}
	if b, _ := s.Backlog(ctx, now); b.MailPending != 2 || b.MailFailed != 0 {
		t.Errorf("after pruning: %d pending, %d failed; want 2 (black@'s invitation, bob's login) and 0", b.MailPending, b.MailFailed)
	}
}

// Sessions go once they have ended, by expiry or by logout; live ones stay.
func testPruneSessions(t *testing.T, s port.Store) {
	ctx := t.Context()
	u := ensureUser(t, s, "ann@example.org")
	transact(t, s, func(ctx context.Context, tx *unit) error {
		for i, id := range []string{"s1", "s2", "s3", "s4"} {
			if err := tx.AddSession(ctx, accounts.Session{ID: id, User: u, ExpiresAt: T0.Add(time.Duration(i+1) * time.Minute)}, T0); err != nil {
				return err
			}
		}
		for _, id := range []string{"revoked", "live"} {
			if err := tx.AddSession(ctx, accounts.Session{ID: id, User: u, ExpiresAt: T0.Add(30 * 24 * time.Hour)}, T0); err != nil {
				return err
			}
		}
		return tx.RevokeSession(ctx, "revoked", T0.Add(time.Minute))
	})
	now := T0.Add(time.Hour)
	if n := drain(t, func(ctx context.Context, limit int) (int, error) { return s.PruneSessions(ctx, now, limit) }, 3); n != 5 {
		t.Errorf("pruned %d sessions, want 5", n)
	}
	if _, err := s.ActiveSession(ctx, "live", now); err != nil {
		t.Errorf("the live session was pruned: %v", err)
	}
	if n, err := s.PruneSessions(ctx, now, 10); err != nil || n != 0 {
		t.Errorf("pruning again: %d, %v", n, err)
	}
}

// Login tokens go an hour after they expire, which keeps them for the cap
// on login mail per hour.
func testPruneLoginTokens(t *testing.T, s port.Store) {
	ctx := t.Context()
	for i := range accounts.MaxLoginsPerHour {
		if err := accountsAt(s, T0.Add(time.Duration(i)*time.Minute)).RequestLogin(ctx, "ann@example.org", "en"); err != nil {
			t.Fatal(err)
		}
	}
	if err := accountsAt(s, T0.Add(-3*time.Hour)).RequestLogin(ctx, "bob@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	now := T0.Add(50 * time.Minute) // ann's tokens expired, but within the hour of the cap
	if n := drain(t, func(ctx context.Context, limit int) (int, error) { return s.PruneLoginTokens(ctx, now, limit) }, 10); n != 1 {
		t.Errorf("pruned %d login tokens, want 1 (bob's)", n)
	}
	err := accountsAt(s, now).RequestLogin(ctx, "ann@example.org", "en")
	if de, ok := domain.ErrorOf(err); !ok || de.Kind != domain.KindRateLimited {
		t.Errorf("after pruning, one more login mail within the hour: %v, want rate limited", err)
	}
}

// A login mail not delivered before its code expires is given up, and
// loses its code.
func testExpireLoginMail(t *testing.T, s port.Store) {
	newOutbox(t, s) // ann's login at T0+1m, bob's at T0+3m
	now := T0.Add(time.Minute + accounts.LoginTTL)
	if n := drain(t, func(ctx context.Context, limit int) (int, error) { return s.ExpireLoginMail(t.Context(), now, limit) }, 1); n != 1 {
		t.Errorf("expired %d login mails, want 1 (ann's)", n)
	}
	got, mail := claim(t, s, "w", now, 100)
	if got != "invitation white@example.org|invitation black@example.org|login bob@example.org|your_turn black@example.org" {
		t.Errorf("claimed after the expiry: %q", got)
	}
	if mail[2].Secret == "" {
		t.Error("bob's login mail lost its code before it expired")
	}
	if b, _ := s.Backlog(t.Context(), now); b.MailFailed != 1 {
		t.Errorf("%d mails given up, want 1 (ann's login)", b.MailFailed)
	}
}

// Stored responses go once older than their lifetime, in batches.
func testExpireIdempotencyKeys(t *testing.T, s port.Store) {
	ctx := t.Context()
	keys := []string{"old1", "old2", "old3", "new"}
	transact(t, s, func(ctx context.Context, tx *unit) error {
		for i, k := range keys {
			at := T0.Add(time.Duration(i) * time.Minute)
			if k == "new" {
				at = T0.Add(time.Hour)
			}
			if err := tx.StoreResponse(ctx, domain.Idempotency{Scope: "s", Key: k, Fingerprint: []byte{1}},
				domain.Response{Status: 200, Body: []byte("{}")}, at); err != nil {
				return err
			}
		}
		return nil
	})
	before := T0.Add(30 * time.Minute)
	if n := drain(t, func(ctx context.Context, limit int) (int, error) { return s.ExpireIdempotencyKeys(ctx, before, limit) }, 2); n != 3 {
		t.Errorf("expired %d keys, want 3", n)
	}
	for _, k := range keys {
		_, found, err := s.StoredResponse(ctx, domain.Idempotency{Scope: "s", Key: k, Fingerprint: []byte{1}})
		if err != nil || found != (k == "new") {
			t.Errorf("key %s: found %v, %v", k, found, err)
		}
	}
}

// An account's time zone is kept through other changes, and read by address
// for its emails; an address without an account has none.
func testTimeZoneOf(t *testing.T, s port.Store) {
	ctx := t.Context()
	u := ensureUser(t, s, "ann@example.org")
	transact(t, s, func(ctx context.Context, tx *unit) error {
		_, err := tx.UpdateUser(ctx, u.ID, accounts.AccountSettings{Name: "Ann", Locale: "de", TimeZone: "Europe/Berlin"})
		return err
	})
	if z, err := s.TimeZoneOf(ctx, "ann@example.org"); err != nil || z != "Europe/Berlin" {
		t.Errorf("TimeZoneOf = %q, %v, want Europe/Berlin", z, err)
	}
	if z, err := s.TimeZoneOf(ctx, "nobody@example.org"); err != nil || z != "" {
		t.Errorf("TimeZoneOf of no account = %q, %v, want none", z, err)
	}
	if got, err := s.UserByID(ctx, u.ID); err != nil || got.TimeZone != "Europe/Berlin" {
		t.Errorf("UserByID = %+v, %v", got, err)
	}
}
