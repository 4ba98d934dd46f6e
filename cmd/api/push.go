package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/notify/webpush"
)

// pushKey is the VAPID key pair push notifications are signed with, or
// none when no --vapid-subject turns them on. The pair lives in the
// database, made by the first server that needs it: browsers subscribe
// with its public key, so it must outlive restarts and secret rotations,
// and every instance on a database must use the same one.
func pushKey(ctx context.Context, cfg Config, keys domain.PushKeys, log *slog.Logger) (*domain.PushKey, error) {
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
