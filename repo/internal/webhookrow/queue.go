package webhookrow

// Queue names an outbox of deliveries with a lease per claim and a log of
// attempts, for the code both stores share among them: webhook_deliveries
// and push_deliveries have the same columns for it (id, next_attempt_at,
// attempts, delivered_at, failed_at, last_*, claimed_by, claimed_until,
// event_at).
type Queue struct {
	Table  string // the deliveries' table
	Parent string // its column naming where a delivery goes
	// Source is the FROM clause of the deliveries that may be sent, as d
	// (joined to what rules some out).
	Source string
	What   string // in errors: "webhooks"
}

// The queues.
var (
	WebhookQueue = Queue{Table: "webhook_deliveries", Parent: "endpoint_id", What: "webhooks",
		Source: `webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled`}
	PushQueue = Queue{Table: "push_deliveries", Parent: "subscription_id", What: "push messages",
		Source: `push_deliveries d`}
)
