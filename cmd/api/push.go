package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/egress"
	"github.com/lesspost/lesspost/notify/webhook"
	"github.com/lesspost/lesspost/notify/webpush"
	"github.com/lesspost/lesspost/repo"
)

// pushKey is the VAPID key pair push notifications are signed with, or
// none when no --vapid-subject turns them on. The pair lives in the
// database, made by the first server that needs it: browsers subscribe
// with its public key, so it must outlive restarts and secret rotations,
// and every instance on a database must use the same one.
func pushKey(ctx context.Context, cfg Config, keys hooks.PushKeys, log *slog.Logger) (*hooks.PushKey, error) {
	if cfg.VAPIDSubject == "" {
		log.Info("push notifications off: no --vapid-subject")
		return nil, nil
	}
	candidate, err := webpush.GenerateKey()
	if err != nil {
		return nil, err
	}
	k, err := keys.PushKey(ctx, candidate, time.Now())
	if err != nil {
		return nil, fmt.Errorf("push notifications: %w", err)
	}
	log.Info("push notifications on", "vapid_subject", cfg.VAPIDSubject, "vapid_public_key", webpush.ApplicationServerKey(k))
	return &k, nil
}

// pushWorker sends the push messages queued with events. Its requests go
// through guard, as webhooks' do: a subscription's endpoint is a URL a
// browser gave us, that is anyone.
func pushWorker(cfg Config, key hooks.PushKey, db repo.Store, push *hooks.Push, links webpush.MoveLinks,
	guard *egress.Guard, log *slog.Logger) (*webpush.Worker, error) {
	sender, err := webpush.NewSender(webpush.Config{Key: key, Subject: cfg.VAPIDSubject, Client: guard.Client(webhook.Timeout)})
	if err != nil {
		return nil, fmt.Errorf("push notifications: %w", err)
	}
	w := webpush.NewWorker(db, sender, log, time.Now)
	w.Games, w.Links, w.BaseURL, w.Forget = db, links, strings.TrimRight(cfg.BaseURL, "/"), push.ForgetPushEndpoint
	return w, nil
}
