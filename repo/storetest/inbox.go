package storetest

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/repo/port"
)

// receive stores a message with dedupe key key, received at at, and says
// whether it was stored.
func receive(t *testing.T, s port.Store, key string, at time.Time) bool {
	t.Helper()
	stored, err := s.StoreInbound(t.Context(), domain.InboundMail{DedupeKey: key, Source: "smtp",
		Recipient: "play+x@less.example", EnvelopeFrom: "ann@example.org", Raw: []byte("Subject: " + key + "\r\n\r\nhi\r\n"), ReceivedAt: at})
	if err != nil {
		t.Fatalf("StoreInbound %s: %v", key, err)
	}
	return stored
}

// claimInbound claims up to limit mails and lists their keys and attempts.
func claimInbound(t *testing.T, s port.Store, claimant string, now time.Time, limit int) []string {
	t.Helper()
	mail, err := s.ClaimInbound(t.Context(), claimant, now, lease, limit)
	if err != nil {
		t.Fatalf("ClaimInbound %s: %v", claimant, err)
	}
	out := make([]string, len(mail))
	for i, m := range mail {
		out[i] = fmt.Sprintf("%s#%d", m.DedupeKey, m.Attempts)
	}
	return out
}

// A message is kept once whatever its deliveries, read back as stored, and
// claimed oldest first by one claimant at a time; an outcome is recorded by
// its claimant only, and ends it; a claim whose lease ran out is taken over.
func testInbox(t *testing.T, s port.Store) {
	ctx := t.Context()
	if !receive(t, s, "a", T0) || receive(t, s, "a", T0.Add(time.Second)) {
		t.Fatal("the first delivery must be stored, the second not")
	}
	receive(t, s, "b", T0.Add(time.Minute))
	receive(t, s, "c", T0.Add(2*time.Minute))

	mail, err := s.ClaimInbound(ctx, "p1", T0, lease, 1)
	if err != nil || len(mail) != 1 {
		t.Fatalf("ClaimInbound = %+v, %v", mail, err)
	}
	m := mail[0]
	if m.DedupeKey != "a" || m.Source != "smtp" || m.Recipient != "play+x@less.example" || m.EnvelopeFrom != "ann@example.org" ||
		!bytes.Equal(m.Raw, []byte("Subject: a\r\n\r\nhi\r\n")) || !m.ReceivedAt.Equal(T0) || m.Attempts != 1 {
		t.Errorf("claimed %+v, want a as stored", m)
	}
	if got := fmt.Sprint(claimInbound(t, s, "p2", T0, 10)); got != "[b#1 c#1]" {
		t.Errorf("a second claimant got %s, want the two others", got)
	}
	if got := claimInbound(t, s, "p3", T0.Add(time.Minute), 10); len(got) != 0 {
		t.Errorf("a third claimant got %v while the leases last", got)
	}

	// p2's outcome of a is ignored: p1 holds it.
	if err := s.MarkInbound(ctx, "p2", m.ID, "wrong", T0); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkInbound(ctx, "p1", m.ID, "played", T0); err != nil {
		t.Fatal(err)
	}
	// After the leases: a was processed; b and c, whose claimant
	// crashed, are claimed again.
	if got := fmt.Sprint(claimInbound(t, s, "p3", T0.Add(lease), 10)); got != "[b#2 c#2]" {
		t.Errorf("after the lease: %s, want b and c again", got)
	}
	if receive(t, s, "a", T0.Add(lease)) {
		t.Error("a processed message was stored again")
	}
}

// PruneInbound deletes processed mail older than its bound, a batch at a
// time, and keeps mail not yet processed however old.
func testPruneInbound(t *testing.T, s port.Store) {
	ctx := t.Context()
	for _, k := range []string{"old1", "old2", "new", "waiting"} {
		receive(t, s, k, T0)
	}
	mail, err := s.ClaimInbound(ctx, "p", T0, lease, 10)
	if err != nil || len(mail) != 4 {
		t.Fatalf("ClaimInbound = %d mails, %v", len(mail), err)
	}
	for i, at := range []time.Time{T0, T0.Add(time.Minute), T0.Add(time.Hour)} {
		if err := s.MarkInbound(ctx, "p", mail[i].ID, "ignored", at); err != nil {
			t.Fatal(err)
		}
	}
	before := T0.Add(30 * time.Minute)
	for _, want := range []int{1, 1, 0} {
		if n, err := s.PruneInbound(ctx, before, 1); err != nil || n != want {
			t.Fatalf("PruneInbound = %d, %v; want %d", n, err, want)
		}
	}
	if receive(t, s, "new", T0) || receive(t, s, "waiting", T0) || !receive(t, s, "old1", T0) {
		t.Error("pruned the wrong messages: want old1 and old2 gone, new and waiting kept")
	}
}
