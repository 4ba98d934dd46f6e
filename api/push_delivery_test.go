package api_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/internal/vectors"
	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/notify/webpush/pushtest"
)

// pushWorker is a push worker on the harness's store, clock and links,
// sending to service as the server's would through its egress client.
func pushWorker(t *testing.T, h *harness, service *pushtest.Service, claimant string) *webpush.Worker {
	t.Helper()
	sender, err := webpush.NewSender(webpush.Config{Key: h.pushKey, Subject: "mailto:ops@lesspost.test", Client: service.Client()})
	if err != nil {
		t.Fatal(err)
	}
	w := webpush.NewWorker(h.db, sender, slog.New(slog.DiscardHandler), h.clock.Now)
	w.Games, w.Links, w.BaseURL, w.Claimant = h.db, h.links, "http://lesspost.test", claimant
	w.Forget = h.push(h.clock.Now()).ForgetPushEndpoint
	return w
}

// pushed decodes the messages the push service took since the first
// skip ones.
func pushed(t *testing.T, service *pushtest.Service, skip int) []webpush.Message {
	t.Helper()
	var out []webpush.Message
	for _, m := range service.Received()[skip:] {
		var msg webpush.Message
		if err := json.Unmarshal(m.Payload, &msg); err != nil {
			t.Fatalf("payload %q: %v", m.Payload, err)
		}
		out = append(out, msg)
	}
	return out
}

// The path: Bob ticks "notify me" with his move link; when Ann has
// played, his browser gets a VAPID-signed message, in his language, whose
// link opens his seat; after he turns it off nothing more comes; a
// subscription the push service says is gone is deleted.
func TestPushMessagesForEvents(t *testing.T) {
	h := newHarness(t, allowPrivate)
	vector := vectors.Load(t).GameCases[0]
	req := twoPlayers(vector.Walls)
	req["players"].([]map[string]any)[1]["locale"] = "de"
	id, ann, bob := newGame(t, h, req)
	service := pushtest.New(t, nil)
	worker := pushWorker(t, h, service, "w1")
	var sub pushSubscriptionJSON
	h.do("POST", "/v1/me/push-subscriptions", bob, subscriptionJSON(service.Subscribe(h.pushKey.Public))).
		want(t, http.StatusCreated).decode(t, &sub)

	h.do("POST", "/v1/games/"+id+"/turns", ann, map[string]any{"turn": vector.Turns[0], "ply": 0}).want(t, http.StatusCreated)
	drain(t, worker.SendDue)
	msgs := pushed(t, service, 0)
	if len(msgs) != 1 {
		t.Fatalf("received %+v (refused: %q), want Bob's your_turn", msgs, service.Refused())
	}
	m := msgs[0]
	if m.Kind != domain.EventYourTurn || m.GameID != id || m.Title != "Du bist am Zug" || !strings.Contains(m.Body, id[2:8]) ||
		m.Tag != "lesspost-"+id || !strings.HasPrefix(m.URL, "http://lesspost.test/play/"+id+"#t=") {
		t.Errorf("message %+v", m)
	}
	if got := service.Received()[0]; got.Subject != "mailto:ops@lesspost.test" || got.TTL != int(webpush.TTL.Seconds()) {
		t.Errorf("sent with subject %q and TTL %d", got.Subject, got.TTL)
	}
	// The link is Bob's seat: he plays with it.
	link := m.URL[strings.Index(m.URL, "#t=")+3:]
	h.do("POST", "/v1/games/"+id+"/turns", link, map[string]any{"turn": vector.Turns[1], "ply": 1}).want(t, http.StatusCreated)
	if log, err := h.db.PushDeliveries(t.Context(), "bob@example.org", 10); err != nil || len(log) != 1 ||
		log[0].Status != hooks.DeliveryDelivered || log[0].Attempts != 1 || log[0].LastStatus != http.StatusCreated {
		t.Errorf("Bob's push log %+v, %v", log, err)
	}

	// Turned off: Ann's next turn sends nothing.
	h.do("DELETE", fmt.Sprintf("/v1/me/push-subscriptions/%d", sub.ID), bob, nil).want(t, http.StatusNoContent)
	h.do("POST", "/v1/games/"+id+"/turns", ann, map[string]any{"turn": vector.Turns[2], "ply": 2}).want(t, http.StatusCreated)
	drain(t, worker.SendDue)
	if got := pushed(t, service, 1); len(got) != 0 {
		t.Errorf("after unsubscribing Bob received %+v", got)
	}

	// A browser that unsubscribed behind our back: the push service's 410
	// deletes the subscription, and the message is not tried again.
	gone := service.Subscribe(h.pushKey.Public)
	h.do("POST", "/v1/me/push-subscriptions", bob, subscriptionJSON(gone)).want(t, http.StatusCreated)
	service.Unsubscribe(gone)
	h.do("POST", "/v1/games/"+id+"/turns", link, map[string]any{"turn": vector.Turns[3], "ply": 3}).want(t, http.StatusCreated)
	h.do("POST", "/v1/games/"+id+"/resign", ann, map[string]any{}).want(t, http.StatusOK)
	if n, err := worker.SendDue(t.Context()); err != nil || n != 1 {
		t.Fatalf("sent %d (%v), want Bob's game_over once", n, err)
	}
	if got := h.pushSubscriptions(bob); len(got) != 0 {
		t.Errorf("after the push service's 410 Bob has %+v", got)
	}
	if n, err := h.db.PushBacklog(t.Context(), h.clock.Now().Add(24*3600e9)); err != nil || n != 0 {
		t.Errorf("backlog %d, %v after gone", n, err)
	}
	if got := pushed(t, service, 1); len(got) != 0 {
		t.Errorf("received %+v", got)
	}
}

// Workers of several instances on one store send every message once.
func TestPushWorkersSendOnce(t *testing.T) {
	h := newHarness(t, allowPrivate, relaxedMail) // Bob, who never answers, is mailed 12 times
	service := pushtest.New(t, nil)
	bob := h.login("bob@example.org")
	h.do("POST", "/v1/me/push-subscriptions", bob, subscriptionJSON(service.Subscribe(h.pushKey.Public))).want(t, http.StatusCreated)
	ann := h.login("ann@example.org")
	const games = 6
	for range games {
		var g gameJSON
		h.do("POST", "/v1/games", ann, twoPlayers(openBoard)).want(t, http.StatusCreated).decode(t, &g)
		h.do("POST", "/v1/games/"+g.ID+"/turns", ann, map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}).want(t, http.StatusCreated)
	}
	var wg sync.WaitGroup
	for i := range 3 {
		w := pushWorker(t, h, service, fmt.Sprintf("instance-%d", i))
		w.Parallel = 2
		wg.Go(func() { drain(t, w.SendDue) })
	}
	wg.Wait()
	seen := map[string]int{}
	for _, m := range pushed(t, service, 0) {
		seen[string(m.Kind)+" "+m.GameID]++
	}
	if len(seen) != 2*games {
		t.Errorf("received %v, want an invitation and a your_turn of each of %d games", seen, games)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s received %d times", k, n)
		}
	}
}

// A move link manages and gets only its own game's push, and only while
// it is the seat's link: a leaked link cannot see or delete the account's
// subscriptions, its browser gets no other game's events, and renewing the
// link ends its subscription, with what was queued for it.
func TestPushMoveLinkScope(t *testing.T) {
	h := newHarness(t, allowPrivate)
	vector := vectors.Load(t).GameCases[0]
	id1, ann1, bob1 := newGame(t, h, twoPlayers(vector.Walls))
	id2, ann2, _ := newGame(t, h, twoPlayers(vector.Walls))
	account := h.login("bob@example.org")
	service := pushtest.New(t, nil)
	worker := pushWorker(t, h, service, "w1")
	phone, leaked := service.Subscribe(h.pushKey.Public), service.Subscribe(h.pushKey.Public)
	var wide, scoped pushSubscriptionJSON
	h.do("POST", "/v1/me/push-subscriptions", account, subscriptionJSON(phone)).want(t, http.StatusCreated).decode(t, &wide)
	h.do("POST", "/v1/me/push-subscriptions", bob1, subscriptionJSON(leaked)).want(t, http.StatusCreated).decode(t, &scoped)
	// The same browser may also be on for the game alone: another row.
	var both pushSubscriptionJSON
	h.do("POST", "/v1/me/push-subscriptions", bob1, subscriptionJSON(phone)).want(t, http.StatusCreated).decode(t, &both)
	h.do("DELETE", fmt.Sprintf("/v1/me/push-subscriptions/%d", both.ID), bob1, nil).want(t, http.StatusNoContent)

	if wide.GameID != "" || scoped.GameID != id1 {
		t.Errorf("game_id %q and %q; want none and %s", wide.GameID, scoped.GameID, id1)
	}
	if got := h.pushSubscriptions(bob1); len(got) != 1 || got[0] != scoped {
		t.Errorf("the move link lists %+v; want only its own %+v", got, scoped)
	}
	h.do("DELETE", fmt.Sprintf("/v1/me/push-subscriptions/%d", wide.ID), bob1, nil).want(t, http.StatusNotFound, "not_found")
	if got := h.pushSubscriptions(account); len(got) != 2 || got[0] != wide || got[1] != scoped {
		t.Errorf("the account lists %+v; want %+v and %+v", got, wide, scoped)
	}

	// Game 2's your_turn reaches the account's browser only.
	h.do("POST", "/v1/games/"+id2+"/turns", ann2, map[string]any{"turn": vector.Turns[0], "ply": 0}).want(t, http.StatusCreated)
	drain(t, worker.SendDue)
	if got := service.Received(); len(got) != 1 || got[0].Browser != phone.ID {
		t.Fatalf("received %+v; want game 2's your_turn on the account's browser alone", got)
	}
	// Game 1's reaches both.
	h.do("POST", "/v1/games/"+id1+"/turns", ann1, map[string]any{"turn": vector.Turns[0], "ply": 0}).want(t, http.StatusCreated)
	drain(t, worker.SendDue)
	if got := service.Received()[1:]; len(got) != 2 {
		t.Fatalf("received %+v; want game 1's your_turn on both browsers", got)
	}

	// Bob renews the leaked link while a message is queued for it: the
	// subscription is gone, and the queued message with it.
	h.do("POST", "/v1/games/"+id1+"/resign", ann1, map[string]any{}).want(t, http.StatusOK)
	h.do("POST", "/v1/games/"+id1+"/seats/black/link", account, nil).want(t, http.StatusAccepted)
	drain(t, worker.SendDue)
	if got := service.Received()[3:]; len(got) != 1 || got[0].Browser != phone.ID {
		t.Errorf("after the renewal received %+v; want game 1's end on the account's browser alone", got)
	}
	if got := h.pushSubscriptions(account); len(got) != 1 || got[0] != wide {
		t.Errorf("after the renewal the account lists %+v; want %+v alone", got, wide)
	}
	h.do("GET", "/v1/me/push-subscriptions", bob1, nil).want(t, http.StatusUnauthorized, "link_replaced")
}
