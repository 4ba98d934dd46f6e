package domain

// TEMPORARY, until branch reply is merged: the types of its use case
// PlayByReply (domain/reply.go there), copied so that notify/inbound builds
// against them. Deleted by the merge.

// Reply is a player's answer by email to a game's email.
type Reply struct {
	GameID    string
	Color     string
	Ply       int
	From      string
	MessageID string
	Lines     []string
}

// ReplyStatus is what became of a reply.
type ReplyStatus string

const (
	ReplyPlayed  ReplyStatus = "played"
	ReplyRefused ReplyStatus = "refused"
	ReplyIgnored ReplyStatus = "ignored"
)

// ReplyOutcome is what PlayByReply did.
type ReplyOutcome struct {
	Status   ReplyStatus `json:"status"`
	Reason   string      `json:"reason,omitempty"`
	Turn     string      `json:"turn,omitempty"`
	Replayed bool        `json:"-"`
}
