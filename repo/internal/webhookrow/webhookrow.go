// Package webhookrow owns what both SQL stores keep of webhooks (and of
// push deliveries, which share the delivery columns),
// dialect-neutrally: how an endpoint's event types are written (the fan-out
// trigger of each store's migration matches them), how a delivery's status
// is read, and the errors and notices of the webhook store.
package webhookrow

import (
	"encoding/json"
	"strings"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/repo/internal/gamerow"
	"github.com/lesspost/lesspost/repo/internal/mailrow"
)

// Types writes event types as the column keeps them: space-separated with
// a space at either end, so that " kind " finds a kind.
func Types(ts []string) string { return " " + strings.Join(ts, " ") + " " }

// ParseTypes reads the event types column.
func ParseTypes(s string) []string { return strings.Fields(s) }

// EndpointNotFound is the error of an endpoint the account does not have.
func EndpointNotFound() error {
	return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such webhook endpoint")
}

// DeliveryNotFound is the error of a delivery the endpoint does not have.
func DeliveryNotFound() error {
	return domain.Errorf(domain.KindNotFound, domain.CodeNotFound, "no such delivery of this webhook endpoint")
}

// TooMany refuses an endpoint beyond max.
func TooMany(max int) error {
	return domain.Errorf(domain.KindConflict, hooks.CodeTooManyWebhooks,
		"an account has at most %d webhook endpoints: delete one first", max)
}

// Finish completes a delivery read back: its payload (data as the events
// table keeps it) and its status.
func Finish(d *hooks.WebhookDelivery, data string, delivered, failed bool) error {
	var err error
	d.Status, err = finish(&d.Data, data, delivered, failed)
	return err
}

// FinishPush completes a push delivery read back, as Finish a webhook's.
func FinishPush(d *hooks.PushDelivery, data string, delivered, failed bool) error {
	var err error
	d.Status, err = finish(&d.Event.Data, data, delivered, failed)
	return err
}

// finish reads a delivery's payload into into, and says its status.
func finish(into *domain.EventData, data string, delivered, failed bool) (string, error) {
	if data != "" {
		if err := json.Unmarshal([]byte(data), into); err != nil {
			return "", gamerow.Damaged("read delivery", err)
		}
	}
	switch {
	case delivered:
		return hooks.DeliveryDelivered, nil
	case failed:
		return hooks.DeliveryFailed, nil
	}
	return hooks.DeliveryPending, nil
}

// Data is the payload column of a delivery.
func Data(d domain.EventData) (string, error) {
	b, err := json.Marshal(d)
	return string(b), err
}

// ErrorMessage is the part of an attempt's error a store keeps.
func ErrorMessage(msg string) string {
	return mailrow.ErrorMessage(domain.MailFailure{Message: msg})
}

// DisabledNotice is the email to the owner of an endpoint lesspost
// disabled.
func DisabledNotice(email string, id int64, url, reason string) domain.Notice {
	return domain.Notice{Kind: domain.NoticeWebhookDisabled, Email: email,
		Webhook: &domain.WebhookNotice{EndpointID: id, URL: url, Reason: reason}}
}
