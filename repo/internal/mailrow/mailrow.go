// Package mailrow owns what an outbox row holds, dialect-neutrally: the
// columns of a notice queued for delivery, the domain's view of a row read
// back, and how a game's mail list reads its status. Both SQL stores write
// and read the outbox through it.
package mailrow

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/lesspost/lesspost/domain"
)

// Row is an outbox row to insert, beside its times (created and first due
// at the moment it is queued) and the columns a store fills itself.
type Row struct {
	Kind       string
	Email      string
	Mailbox    string // domain.Mailbox of Email, which the budget counts by
	GameID     sql.NullString
	Color      sql.NullString
	Ply        sql.NullInt64
	Secret     sql.NullString
	Locale     string
	MessageID  string
	Tournament sql.NullString
	Budgeted   bool
	Quiet      bool // the mail leaves out the words of whoever caused it
	// Detail is what the answer to a reply says (domain.ReplyDetail as
	// JSON), or what a disabled webhook's notice says (domain.WebhookNotice);
	// NULL for other mail.
	Detail sql.NullString
}

// New is the row of mail m, as the mail policy admitted it. Its locale
// matters only for mail that belongs to no seat (a seat's mail speaks the
// seat's locale); secret is a login token, kept until the mail is sent.
func New(m domain.Mail, secret string) (Row, error) {
	n := m.Notice()
	r := Row{Kind: string(n.Kind), Email: m.To(), Mailbox: m.Mailbox(), Locale: m.Locale(), MessageID: domain.RandomToken(16),
		Budgeted: m.Budgeted(), Quiet: m.Quiet()}
	if r.Locale == "" {
		r.Locale = domain.DefaultLocale
	}
	if n.Kind == domain.NoticeInvitation && n.Email == "" {
		// The invitation opens the seat's thread; later mail answers it. A
		// seat's new player (n.Email: see games.Reseat) gets an invitation
		// of his own, which cannot take the first one's Message-ID.
		r.MessageID = n.GameID + "." + n.Color
	}
	if n.GameID != "" {
		r.GameID = sql.NullString{String: n.GameID, Valid: true}
		r.Color = sql.NullString{String: n.Color, Valid: true}
		r.Ply = sql.NullInt64{Int64: int64(n.Ply), Valid: true}
	}
	if n.Tournament != "" {
		r.Tournament = sql.NullString{String: n.Tournament, Valid: true}
		r.Ply = sql.NullInt64{Int64: int64(n.Ply), Valid: true}
	}
	if secret != "" {
		r.Secret = sql.NullString{String: secret, Valid: true}
	}
	var detail any
	switch {
	case n.Reply != nil:
		detail = n.Reply
	case n.Webhook != nil:
		detail = n.Webhook
	}
	if detail != nil {
		b, err := json.Marshal(detail)
		if err != nil {
			return Row{}, fmt.Errorf("%s email: %w", n.Kind, err)
		}
		r.Detail = sql.NullString{String: string(b), Valid: true}
	}
	return r, nil
}

// Read is a row read back for delivery.
type Read struct {
	ID int64
	Row
	Attempts  int
	CreatedAt time.Time
}

// Mail is the domain's view of a row read back; a detail that does not
// decode is damage.
func (r *Read) Mail() (domain.OutboxMail, error) {
	m := domain.OutboxMail{
		ID: r.ID, Email: r.Email, Secret: r.Secret.String, Locale: r.Locale, MessageID: r.MessageID,
		Attempts: r.Attempts, CreatedAt: r.CreatedAt.UTC(), Quiet: r.Quiet,
		Notice: domain.Notice{Kind: domain.NoticeKind(r.Kind), GameID: r.GameID.String, Color: r.Color.String,
			Ply: int(r.Ply.Int64), Email: r.Email, Tournament: r.Tournament.String},
	}
	if r.Detail.Valid {
		var detail any
		if m.Notice.Kind == domain.NoticeWebhookDisabled {
			m.Notice.Webhook = new(domain.WebhookNotice)
			detail = m.Notice.Webhook
		} else {
			m.Notice.Reply = new(domain.ReplyDetail)
			detail = m.Notice.Reply
		}
		if err := json.Unmarshal([]byte(r.Detail.String), detail); err != nil {
			return domain.OutboxMail{}, fmt.Errorf("mail %d: its detail: %w", r.ID, err)
		}
	}
	return m, nil
}

// Status is what a game's mail list says of a mail.
func Status(sent, failed bool) string {
	switch {
	case sent:
		return "sent"
	case failed:
		return "failed"
	}
	return "pending"
}

// MaxErrorLen bounds the failure message a store keeps, in bytes.
const MaxErrorLen = 500

// ErrorMessage is the part of a failure's message a store keeps: at most
// MaxErrorLen bytes, never half a character.
func ErrorMessage(f domain.MailFailure) string {
	msg := f.Message
	if len(msg) > MaxErrorLen {
		cut := MaxErrorLen
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut]
	}
	return msg
}
