// Package webhook delivers the webhook outbox (hooks.WebhookStore): each
// due delivery is POSTed as a Standard Webhooks message — a JSON envelope
// {"type", "timestamp", "data"} with the headers webhook-id,
// webhook-timestamp and webhook-signature — through an egress guard, and
// retried on a schedule; an endpoint that keeps failing is disabled and its
// owner emailed (through the mail outbox, by the store). Its claim,
// attempt and record cycle (Loop) and its retry schedule also send the Web
// Push outbox (notify/webpush.Worker).
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
)

// Sign is the webhook-signature header of a message: for each secret,
// "v1," and the base64 HMAC-SHA256 of "id.timestamp.body" under the
// secret's key, space-separated (Standard Webhooks). Receivers accept the
// message if any signature matches, which lets a rotated secret sign beside
// its successor.
func Sign(secrets []string, msgID string, ts time.Time, body []byte) (string, error) {
	sigs := make([]string, 0, len(secrets))
	for _, s := range secrets {
		key, err := secretKey(s)
		if err != nil {
			return "", err
		}
		h := hmac.New(sha256.New, key)
		h.Write([]byte(msgID + "." + strconv.FormatInt(ts.Unix(), 10) + "."))
		h.Write(body)
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(h.Sum(nil)))
	}
	return strings.Join(sigs, " "), nil
}

// secretKey is the key of a whsec_ secret: its base64 part, decoded.
func secretKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, hooks.WebhookSecretPrefix))
	if err != nil || len(key) == 0 {
		return nil, fmt.Errorf("a webhook secret is %s and base64", hooks.WebhookSecretPrefix)
	}
	return key, nil
}
