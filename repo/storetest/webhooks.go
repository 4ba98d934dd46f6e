package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/port"
)

// RunWebhooks runs the contract of hooks.WebhookStore against stores made
// by newStore, each empty.
func RunWebhooks(t *testing.T, newStore func(t *testing.T) port.Store) {
	tests := []struct {
		name string
		run  func(t *testing.T, s port.Store)
	}{
		{"Endpoints", testWebhookEndpoints},
		{"FanOutWithTheEvent", testWebhookFanOut},
		{"ClaimTwoClaimants", testWebhookClaims},
		{"ClaimConcurrently", testWebhookClaimConcurrently},
		{"Outcomes", testWebhookOutcomes},
		{"DisableOnceAndEmail", testWebhookDisable},
		{"RedeliverPingPageRotate", testWebhookLog},
		{"Prune", testWebhookPrune},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, newStore(t)) })
	}
}

// addEndpoint registers an endpoint of email's account wanting types.
func addEndpoint(t *testing.T, s port.Store, email string, enabled bool, types ...string) hooks.WebhookEndpoint {
	t.Helper()
	u := ensureUser(t, s, email)
	e := hooks.WebhookEndpoint{UserID: u.ID, URL: "https://hooks.example.org/" + email, EventTypes: types, Enabled: enabled,
		CreatedAt: T0, UpdatedAt: T0}
	id, err := s.AddWebhook(t.Context(), e, "whsec_c2VjcmV0IG9mIA=="+fmt.Sprint(u.ID), hooks.MaxWebhooks)
	if err != nil {
		t.Fatal(err)
	}
	e, err = s.Webhook(t.Context(), u.ID, id)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// deliveries lists an endpoint's whole delivery log, newest first, as
// "type color ply status".
func deliveries(t *testing.T, s port.Store, e hooks.WebhookEndpoint) ([]string, []hooks.WebhookDelivery) {
	t.Helper()
	ds, err := s.WebhookDeliveries(t.Context(), e.UserID, e.ID, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %d %s", d.Type, d.Color, d.Ply, d.Status))
	}
	return out, ds
}

func claimWebhooks(t *testing.T, s port.Store, claimant string, at time.Time, limit int) []hooks.WebhookJob {
	t.Helper()
	jobs, err := s.ClaimWebhooks(t.Context(), claimant, at, lease, limit)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func jobIDs(jobs []hooks.WebhookJob) []int64 {
	var out []int64
	for _, j := range jobs {
		out = append(out, j.ID)
	}
	return out
}

func testWebhookEndpoints(t *testing.T, s port.Store) {
	ctx := t.Context()
	ann := addEndpoint(t, s, "ann@example.org", true, "turn_played", "game_over")
	bob := ensureUser(t, s, "bob@example.org")
	if ann.URL != "https://hooks.example.org/ann@example.org" || !slices.Equal(ann.EventTypes, []string{"turn_played", "game_over"}) ||
		!ann.Enabled || !ann.CreatedAt.Equal(T0) || !ann.PreviousSecretUntil.IsZero() {
		t.Errorf("stored endpoint = %+v", ann)
	}
	var nf *domain.Error
	if _, err := s.Webhook(ctx, bob.ID, ann.ID); !errors.As(err, &nf) || nf.Kind != domain.KindNotFound {
		t.Errorf("another account's endpoint: %v, want not found", err)
	}
	if list, err := s.Webhooks(ctx, bob.ID); err != nil || len(list) != 0 {
		t.Errorf("bob's endpoints = %v, %v; want none", list, err)
	}
	ann.URL, ann.Description, ann.EventTypes, ann.Enabled = "https://other.example.org/", "mine", []string{"your_turn"}, false
	ann.UpdatedAt = T0.Add(time.Minute)
	if err := s.UpdateWebhook(ctx, ann); err != nil {
		t.Fatal(err)
	}
	got, err := s.Webhook(ctx, ann.UserID, ann.ID)
	if err != nil || got.URL != ann.URL || got.Description != "mine" || !slices.Equal(got.EventTypes, []string{"your_turn"}) ||
		got.Enabled || !got.UpdatedAt.Equal(ann.UpdatedAt) {
		t.Errorf("updated endpoint = %+v, %v", got, err)
	}
	// The limit counts the account's endpoints.
	for range 2 {
		if _, err := s.AddWebhook(ctx, hooks.WebhookEndpoint{UserID: bob.ID, URL: "https://b.example/", EventTypes: []string{"invitation"},
			Enabled: true, CreatedAt: T0, UpdatedAt: T0}, "whsec_eA==", 2); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.AddWebhook(ctx, hooks.WebhookEndpoint{UserID: bob.ID, URL: "https://b.example/", EventTypes: []string{"invitation"},
		Enabled: true, CreatedAt: T0, UpdatedAt: T0}, "whsec_eA==", 2)
	if !errors.As(err, &nf) || nf.Code != hooks.CodeTooManyWebhooks {
		t.Errorf("a third endpoint with a limit of 2: %v, want %s", err, hooks.CodeTooManyWebhooks)
	}
	if err := s.DeleteWebhook(ctx, ann.UserID, ann.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Webhook(ctx, ann.UserID, ann.ID); !errors.As(err, &nf) || nf.Kind != domain.KindNotFound {
		t.Errorf("a deleted endpoint: %v, want not found", err)
	}
}

// Each event of an address is queued, in the event's unit of work, for the
// enabled endpoints of that address's account that want its kind.
func testWebhookFanOut(t *testing.T, s port.Store) {
	ann := addEndpoint(t, s, "ann@example.org", true, "turn_played", "your_turn")
	bob := addEndpoint(t, s, "bob@example.org", true, "invitation", "your_turn")
	off := addEndpoint(t, s, "bob@example.org", false, hooks.WebhookEventTypes...)
	g := insertGame(t, s, "g1")
	g = play(t, s, g, T0.Add(time.Minute))
	// A change that fails queues nothing.
	abandonResign(t, s, g)
	tests := []struct {
		e    hooks.WebhookEndpoint
		want []string
	}{
		{ann, []string{"turn_played white 1 pending"}},
		{bob, []string{"your_turn black 1 pending", "invitation black 0 pending"}},
		{off, nil},
	}
	ids := map[string]bool{}
	for _, tt := range tests {
		got, ds := deliveries(t, s, tt.e)
		if !slices.Equal(got, tt.want) {
			t.Errorf("deliveries of %s = %q, want %q", tt.e.URL, got, tt.want)
		}
		for _, d := range ds {
			if !strings.HasPrefix(d.MsgID, "msg_") || len(d.MsgID) < 20 || ids[d.MsgID] {
				t.Errorf("webhook-id %q: want a new msg_ id", d.MsgID)
			}
			ids[d.MsgID] = true
			if d.GameID != "g1" || d.Attempts != 0 || d.NextAttemptAt.IsZero() {
				t.Errorf("delivery = %+v", d)
			}
		}
	}
	_, ds := deliveries(t, s, ann)
	if d := ds[0]; d.Data.Turn != opening || !d.EventAt.Equal(T0.Add(time.Minute)) {
		t.Errorf("the turn's delivery = %+v, want the turn %s at %v", d, opening, T0.Add(time.Minute))
	}
}

// Two claimants never hold one delivery while its lease lasts; deliveries
// of disabled endpoints are not claimed.
func testWebhookClaims(t *testing.T, s port.Store) {
	bob := addEndpoint(t, s, "bob@example.org", true, "invitation", "your_turn", "turn_played")
	addEndpoint(t, s, "ann@example.org", false, hooks.WebhookEventTypes...)
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	now := T0.Add(time.Hour)
	if n, err := s.WebhookBacklog(t.Context(), now); err != nil || n != 3 {
		t.Errorf("backlog = %d, %v; want 3", n, err)
	}
	a := claimWebhooks(t, s, "a", now, 2)
	b := claimWebhooks(t, s, "b", now, 100)
	if len(a) != 2 || len(b) != 1 || slices.Contains(jobIDs(a), b[0].ID) {
		t.Fatalf("a claimed %v, b %v: want 2 and the other 1", jobIDs(a), jobIDs(b))
	}
	if j := b[0]; j.URL != "https://hooks.example.org/bob@example.org" || j.Secrets.Current == "" || j.Secrets.Previous != "" {
		t.Errorf("claimed job = %+v", j)
	}
	if again := claimWebhooks(t, s, "c", now.Add(lease-time.Millisecond), 100); len(again) != 0 {
		t.Errorf("c claimed %v while the leases last", jobIDs(again))
	}
	// a releases one untried: it is due again at once.
	if err := s.ReleaseWebhooks(t.Context(), "a", jobIDs(a[:1])); err != nil {
		t.Fatal(err)
	}
	if c := claimWebhooks(t, s, "c", now, 100); !slices.Equal(jobIDs(c), jobIDs(a[:1])) {
		t.Errorf("after the release c claimed %v, want %v", jobIDs(c), jobIDs(a[:1]))
	}
	// b's lease ends; d takes it over, and b's late outcome is ignored.
	d := claimWebhooks(t, s, "d", now.Add(lease), 100)
	if !slices.Contains(jobIDs(d), b[0].ID) {
		t.Fatalf("d claimed %v after the leases ended, want b's %d among them", jobIDs(d), b[0].ID)
	}
	if err := s.RecordWebhookAttempt(t.Context(), "b", b[0].ID, hooks.WebhookOutcome{At: now, Delivered: true, Status: 200}); err != nil {
		t.Fatal(err)
	}
	got, err := s.WebhookDelivery(t.Context(), bob.UserID, bob.ID, b[0].ID)
	if err != nil || got.Status != hooks.DeliveryPending || got.Attempts != 0 {
		t.Errorf("b's outcome after losing the lease was recorded: %+v", got)
	}
}

// Claimants running at once (workers of several instances) each get
// different deliveries, and together all of them.
func testWebhookClaimConcurrently(t *testing.T, s port.Store) {
	addEndpoint(t, s, "ann@example.org", true, hooks.WebhookEventTypes...)
	addEndpoint(t, s, "bob@example.org", true, hooks.WebhookEventTypes...)
	for i := range 5 {
		play(t, s, insertGame(t, s, fmt.Sprintf("g%d", i)), T0.Add(time.Minute))
	}
	total, err := s.WebhookBacklog(t.Context(), T0.Add(time.Hour))
	if err != nil || total != 5*5 { // per game: 2 invitations, 2 turn_played, 1 your_turn
		t.Fatalf("backlog = %d, %v; want 25", total, err)
	}
	if n := claimConcurrently(t, func(claimant string) ([]int64, error) {
		jobs, err := s.ClaimWebhooks(t.Context(), claimant, T0.Add(time.Hour), lease, 3)
		return jobIDs(jobs), err
	}); n != total {
		t.Errorf("%d deliveries claimed in all, want %d", n, total)
	}
}

// A failed attempt waits for its retry; a delivered one is done; an
// endpoint's failing streak ends with a delivery.
func testWebhookOutcomes(t *testing.T, s port.Store) {
	ctx := t.Context()
	e := addEndpoint(t, s, "bob@example.org", true, "invitation", "your_turn")
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	now := T0.Add(time.Hour)
	jobs := claimWebhooks(t, s, "a", now, 100)
	if len(jobs) != 2 || !jobs[0].FailingSince.IsZero() {
		t.Fatalf("claimed %+v", jobs)
	}
	// The delivery first, then the failure: the endpoint is failing since.
	if err := s.RecordWebhookAttempt(ctx, "a", jobs[1].ID, hooks.WebhookOutcome{At: now, Status: 204, Delivered: true}); err != nil {
		t.Fatal(err)
	}
	retry := now.Add(5 * time.Second)
	if err := s.RecordWebhookAttempt(ctx, "a", jobs[0].ID, hooks.WebhookOutcome{At: now, Status: 503,
		Error: "the endpoint answered 503", Next: retry}); err != nil {
		t.Fatal(err)
	}
	d, err := s.WebhookDelivery(ctx, e.UserID, e.ID, jobs[0].ID)
	if err != nil || d.Status != hooks.DeliveryPending || d.Attempts != 1 || d.LastStatus != 503 ||
		d.LastError != "the endpoint answered 503" || !d.NextAttemptAt.Equal(retry) || !d.LastAttemptAt.Equal(now) {
		t.Errorf("the failed delivery = %+v, %v", d, err)
	}
	d, err = s.WebhookDelivery(ctx, e.UserID, e.ID, jobs[1].ID)
	if err != nil || d.Status != hooks.DeliveryDelivered || d.Attempts != 1 || d.LastStatus != 204 || !d.DeliveredAt.Equal(now) ||
		!d.NextAttemptAt.IsZero() {
		t.Errorf("the delivered delivery = %+v, %v", d, err)
	}
	if got := claimWebhooks(t, s, "b", retry.Add(-time.Millisecond), 100); len(got) != 0 {
		t.Errorf("claimed %v before the retry is due", jobIDs(got))
	}
	again := claimWebhooks(t, s, "b", retry, 100)
	if len(again) != 1 || again[0].ID != jobs[0].ID || again[0].Attempts != 1 || !again[0].FailingSince.Equal(now) {
		t.Fatalf("at the retry claimed %+v, want the failed one, failing since %v", again, now)
	}
	// Given up (no Next): failed, never claimed again.
	if err := s.RecordWebhookAttempt(ctx, "b", again[0].ID, hooks.WebhookOutcome{At: retry, Error: "could not connect"}); err != nil {
		t.Fatal(err)
	}
	d, _ = s.WebhookDelivery(ctx, e.UserID, e.ID, jobs[0].ID)
	if d.Status != hooks.DeliveryFailed || d.Attempts != 2 || d.LastStatus != 0 || d.LastError != "could not connect" {
		t.Errorf("the given-up delivery = %+v", d)
	}
	if got := claimWebhooks(t, s, "c", retry.Add(48*time.Hour), 100); len(got) != 0 {
		t.Errorf("claimed %v after it was given up", jobIDs(got))
	}
}

// A disabling outcome disables the endpoint and emails its owner once,
// however many deliveries fail; its deliveries wait until it is enabled.
func testWebhookDisable(t *testing.T, s port.Store) {
	ctx := t.Context()
	e := addEndpoint(t, s, "bob@example.org", true, "invitation", "your_turn", "turn_played")
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	now := T0.Add(time.Hour)
	jobs := claimWebhooks(t, s, "a", now, 2)
	for _, j := range jobs {
		if err := s.RecordWebhookAttempt(ctx, "a", j.ID, hooks.WebhookOutcome{At: now, Status: 410, Error: "the endpoint answered 410",
			Disable: "the endpoint answered 410 Gone"}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Webhook(ctx, e.UserID, e.ID)
	if err != nil || got.Enabled || got.DisabledReason != "the endpoint answered 410 Gone" {
		t.Errorf("endpoint after 410 = %+v, %v", got, err)
	}
	mail, err := s.ClaimMail(ctx, "m", now, lease, 100)
	if err != nil {
		t.Fatal(err)
	}
	var notices []domain.Notice
	for _, m := range mail {
		if m.Notice.Kind == domain.NoticeWebhookDisabled {
			notices = append(notices, m.Notice)
			if m.Email != "bob@example.org" {
				t.Errorf("the notice went to %s", m.Email)
			}
		}
	}
	if len(notices) != 1 || notices[0].Webhook == nil || notices[0].Webhook.URL != e.URL || notices[0].Webhook.EndpointID != e.ID ||
		notices[0].Webhook.Reason != "the endpoint answered 410 Gone" {
		t.Fatalf("webhook notices = %+v, want one about %s", notices, e.URL)
	}
	if n, _ := s.WebhookBacklog(ctx, now.Add(time.Hour)); n != 0 {
		t.Errorf("backlog of a disabled endpoint = %d, want 0", n)
	}
	if got := claimWebhooks(t, s, "b", now.Add(time.Hour), 100); len(got) != 0 {
		t.Errorf("claimed %v of a disabled endpoint", jobIDs(got))
	}
	// Events while disabled are not queued; enabling resumes what waits.
	resign(t, s, play(t, s, insertGame(t, s, "g2"), now), "black", now)
	e.Enabled, e.UpdatedAt = true, now
	if err := s.UpdateWebhook(ctx, e); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Webhook(ctx, e.UserID, e.ID); !got.Enabled || got.DisabledReason != "" {
		t.Errorf("enabled endpoint = %+v", got)
	}
	if got := claimWebhooks(t, s, "b", now.Add(time.Hour), 100); len(got) != 1 || got[0].GameID != "g1" || !got[0].FailingSince.IsZero() {
		t.Errorf("after enabling claimed %+v, want g1's third delivery, not failing", got)
	}
}

// The log pages newest first; a redelivery keeps the webhook-id; a ping is
// queued for one endpoint; a rotated secret signs beside the new one.
func testWebhookLog(t *testing.T, s port.Store) {
	ctx := t.Context()
	e := addEndpoint(t, s, "bob@example.org", true, hooks.WebhookEventTypes...)
	resign(t, s, play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute)), "black", T0.Add(2*time.Minute))
	want, all := deliveries(t, s, e)
	var paged []string
	before := int64(0)
	for {
		page, err := s.WebhookDeliveries(ctx, e.UserID, e.ID, before, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, d := range page {
			paged = append(paged, fmt.Sprintf("%s %s %d %s", d.Type, d.Color, d.Ply, d.Status))
		}
		before = page[len(page)-1].ID
	}
	if !slices.Equal(paged, want) || len(want) != 4 {
		t.Errorf("paged log = %q, want %q (4: invitation, turn_played, your_turn, game_over)", paged, want)
	}
	now := T0.Add(time.Hour)
	jobs := claimWebhooks(t, s, "a", now, 100)
	for _, j := range jobs {
		if err := s.RecordWebhookAttempt(ctx, "a", j.ID, hooks.WebhookOutcome{At: now, Delivered: true, Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	first := all[len(all)-1]
	if err := s.Redeliver(ctx, e.UserID, e.ID, first.ID, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	var nf *domain.Error
	if err := s.Redeliver(ctx, e.UserID+1000, e.ID, first.ID, now); !errors.As(err, &nf) || nf.Kind != domain.KindNotFound {
		t.Errorf("redelivering another's delivery: %v, want not found", err)
	}
	pingID, err := s.QueueWebhook(ctx, hooks.WebhookDelivery{EndpointID: e.ID, MsgID: hooks.NewWebhookMsgID(), Type: hooks.WebhookPing,
		EventAt: now.Add(time.Minute)}, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RotateWebhookSecret(ctx, e.UserID, e.ID, "whsec_bmV3", now.Add(24*time.Hour), now); err != nil {
		t.Fatal(err)
	}
	again := claimWebhooks(t, s, "b", now.Add(time.Minute), 100)
	if len(again) != 2 {
		t.Fatalf("claimed %+v, want the redelivery and the ping", again)
	}
	for _, j := range again {
		if j.Secrets.Current != "whsec_bmV3" || j.Secrets.Previous == "" || !j.Secrets.PreviousUntil.Equal(now.Add(24*time.Hour)) {
			t.Errorf("secrets after the rotation = %+v", j.Secrets)
		}
		switch j.ID {
		case first.ID:
			if j.MsgID != first.MsgID || j.Attempts != 1 {
				t.Errorf("redelivery = %+v, want webhook-id %s and 1 attempt so far", j, first.MsgID)
			}
		case pingID:
			if j.Type != hooks.WebhookPing {
				t.Errorf("ping = %+v", j)
			}
		default:
			t.Errorf("claimed %+v", j)
		}
	}
	if ep, _ := s.Webhook(ctx, e.UserID, e.ID); !ep.PreviousSecretUntil.Equal(now.Add(24 * time.Hour)) {
		t.Errorf("endpoint after the rotation = %+v", ep)
	}
}

// Pruning deletes old deliveries that are done, never pending ones.
func testWebhookPrune(t *testing.T, s port.Store) {
	ctx := t.Context()
	e := addEndpoint(t, s, "bob@example.org", true, "invitation", "your_turn")
	play(t, s, insertGame(t, s, "g1"), T0.Add(time.Minute))
	now := T0.Add(time.Hour)
	jobs := claimWebhooks(t, s, "a", now, 1)
	if err := s.RecordWebhookAttempt(ctx, "a", jobs[0].ID, hooks.WebhookOutcome{At: now, Delivered: true, Status: 200}); err != nil {
		t.Fatal(err)
	}
	n, err := s.PruneWebhookDeliveries(ctx, T0.Add(time.Hour), 100)
	if err != nil || n != 1 {
		t.Errorf("pruned %d, %v; want the delivered one", n, err)
	}
	if got, _ := deliveries(t, s, e); len(got) != 1 || !strings.HasSuffix(got[0], "pending") {
		t.Errorf("left %q, want the pending one", got)
	}
}

// claimConcurrently has 4 claimants claim with claim until none gets any,
// fails the test if two got one delivery, and says how many were claimed.
func claimConcurrently(t *testing.T, claim func(claimant string) ([]int64, error)) int {
	t.Helper()
	var mu sync.Mutex
	seen := map[int64]string{}
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Go(func() {
			claimant := fmt.Sprintf("w%d", c)
			for {
				ids, err := claim(claimant)
				if err != nil {
					t.Error(err)
					return
				}
				if len(ids) == 0 {
					return
				}
				mu.Lock()
				for _, id := range ids {
					if other, ok := seen[id]; ok {
						t.Errorf("delivery %d claimed by %s and %s", id, other, claimant)
					}
					seen[id] = claimant
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return len(seen)
}
