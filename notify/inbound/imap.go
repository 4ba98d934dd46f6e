package inbound

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"

	"github.com/lesspost/lesspost/domain"
)

// IMAPAccount is where a Poller fetches mail: imaps://user@host:993/INBOX
// (TLS), imap://user@host:143/INBOX (STARTTLS), or, on a loopback address
// only, imap+insecure://… (no TLS, for tests and a local relay).
type IMAPAccount struct {
	Addr     string // host:port
	TLS      string // "tls", "starttls" or "none"
	User     string
	Mailbox  string
	Password string // never log it
}

// ParseIMAPURL reads an IMAPAccount from its URL (without the password,
// which does not belong on a command line).
func ParseIMAPURL(raw string) (IMAPAccount, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return IMAPAccount{}, fmt.Errorf("imap URL: %w", err)
	}
	a := IMAPAccount{Mailbox: strings.TrimPrefix(u.Path, "/")}
	if a.Mailbox == "" {
		a.Mailbox = "INBOX"
	}
	port := ""
	switch u.Scheme {
	case "imaps":
		a.TLS, port = "tls", "993"
	case "imap":
		a.TLS, port = "starttls", "143"
	case "imap+insecure":
		a.TLS, port = "none", "143"
	default:
		return IMAPAccount{}, fmt.Errorf("imap URL %q: want imaps://user@host:993/INBOX", u.Redacted())
	}
	if u.User == nil || u.User.Username() == "" || u.Hostname() == "" {
		return IMAPAccount{}, fmt.Errorf("imap URL %q: want a user and a host, imaps://user@host:993/INBOX", u.Redacted())
	}
	if _, ok := u.User.Password(); ok {
		return IMAPAccount{}, errors.New("imap URL: give the password in the environment, not in the URL")
	}
	a.User = u.User.Username()
	a.Addr = u.Host
	if u.Port() == "" {
		a.Addr = net.JoinHostPort(u.Hostname(), port)
	}
	if ip := net.ParseIP(u.Hostname()); a.TLS == "none" && u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return IMAPAccount{}, fmt.Errorf("imap URL %q: imap+insecure only on a loopback address", u.Redacted())
	}
	return a, nil
}

// ProcessedKeyword flags the messages a Poller kept, when it does not move
// them.
const ProcessedKeyword imap.Flag = "$LesspostKept"

// Poller fetches mail from a hosted mailbox (IMAP) into the Inbox, for an
// operator who cannot run an MX: it keeps every message it finds, then
// moves it to ProcessedMailbox, or, without one, flags it \Seen and
// ProcessedKeyword and passes over flagged messages from then on. A
// message kept but not yet moved when the poller stops is fetched again
// after a restart and not kept twice (its DedupeKey). It waits for new mail
// with IDLE where the server has it, else it polls every Interval.
type Poller struct {
	Account IMAPAccount
	// TLSConfig, if set, is the TLS configuration (tests trust their own
	// certificate with it).
	TLSConfig *tls.Config
	// ProcessedMailbox, if set, is where kept messages go (created if
	// missing).
	ProcessedMailbox string
	Interval         time.Duration
	// NoIdle polls even where the server has IDLE.
	NoIdle bool
	Inbox  domain.Inbox
	// Accept says whether an address is a reply address (see Listener).
	Accept func(addr string) bool
	// MaxBytes bounds a message (DefaultMaxBytes if 0): of a larger one only
	// the first MaxBytes+1 bytes are fetched and kept, which the processor
	// (reading at most MaxBytes) finds too large: it reads the header, and
	// the seat is told.
	MaxBytes int64
	Log      *slog.Logger
	Now      func() time.Time
	// Stored, if set, is called after messages were kept.
	Stored func()
}

// firstRetry is how long the poller waits to reconnect after a session
// that worked; the wait doubles with each failed attempt in a row, up to
// the poll interval or a minute, whichever is longer.
const firstRetry = time.Second

// Run polls until ctx ends, reconnecting after a failure.
func (p *Poller) Run(ctx context.Context) error {
	wait := firstRetry
	for {
		worked, err := p.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if worked {
			// The server was there a moment ago (a restart, a dropped
			// connection): it is likely back soon.
			wait = firstRetry
		}
		p.Log.ErrorContext(ctx, "imap: session failed; reconnecting", "addr", p.Account.Addr, "in", wait, "error", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, max(p.Interval, time.Minute))
	}
}

// errClosed is a session the server ended.
var errClosed = errors.New("the server closed the connection")

// session is one connection: log in, select, then fetch, wait, fetch …
// worked says it got as far as fetching.
func (p *Poller) session(ctx context.Context) (worked bool, err error) {
	news := make(chan struct{}, 1)
	c, err := p.dial(&imapclient.Options{TLSConfig: p.TLSConfig, UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case news <- struct{}{}:
				default:
				}
			}
		}}})
	if err != nil {
		return false, fmt.Errorf("connect: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	if err := c.Login(p.Account.User, p.Account.Password).Wait(); err != nil {
		return false, fmt.Errorf("log in as %s: %w", p.Account.User, err)
	}
	if p.ProcessedMailbox != "" {
		// It may exist; a MOVE to a mailbox that does not would fail below.
		_ = c.Create(p.ProcessedMailbox, nil).Wait()
	}
	if _, err := c.Select(p.Account.Mailbox, nil).Wait(); err != nil {
		return false, fmt.Errorf("select %s: %w", p.Account.Mailbox, err)
	}
	idle := !p.NoIdle && c.Caps().Has(imap.CapIdle)
	p.Log.InfoContext(ctx, "imap: watching", "addr", p.Account.Addr, "mailbox", p.Account.Mailbox, "idle", idle)
	for {
		n, err := p.fetch(ctx, c)
		if err != nil {
			return worked, err
		}
		worked = true
		if n > 0 && p.Stored != nil {
			p.Stored()
		}
		if err := p.wait(ctx, c, idle, news); err != nil || ctx.Err() != nil {
			return worked, err
		}
	}
}

// dial connects as the account says.
func (p *Poller) dial(opts *imapclient.Options) (*imapclient.Client, error) {
	switch p.Account.TLS {
	case "tls":
		return imapclient.DialTLS(p.Account.Addr, opts)
	case "starttls":
		return imapclient.DialStartTLS(p.Account.Addr, opts)
	default:
		return imapclient.DialInsecure(p.Account.Addr, opts)
	}
}

// wait returns when new mail may have come: the server said so during
// IDLE, or Interval passed; or, with errClosed, as soon as the server
// closes the connection.
func (p *Poller) wait(ctx context.Context, c *imapclient.Client, idle bool, news <-chan struct{}) error {
	t := time.NewTimer(p.Interval)
	defer t.Stop()
	if !idle {
		select {
		case <-ctx.Done():
		case <-c.Closed():
			return errClosed
		case <-t.C:
		}
		return nil
	}
	cmd, err := c.Idle()
	if err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	select {
	case <-ctx.Done():
	case <-c.Closed():
		return fmt.Errorf("idle: %w", errClosed)
	case <-news:
	case <-t.C: // a look now and then, in case a notification was lost
	}
	if err := cmd.Close(); err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	if err := cmd.Wait(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("idle: %w", err)
	}
	return nil
}

// fetch keeps the messages not kept yet and puts them aside; it says how
// many it kept.
func (p *Poller) fetch(ctx context.Context, c *imapclient.Client) (int, error) {
	criteria := &imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagDeleted}}
	if p.ProcessedMailbox == "" {
		criteria.NotFlag = append(criteria.NotFlag, ProcessedKeyword)
	}
	found, err := c.UIDSearch(criteria, nil).Wait()
	if err != nil {
		return 0, fmt.Errorf("search: %w", err)
	}
	uids := found.AllUIDs()
	if len(uids) == 0 {
		return 0, nil
	}
	sizes, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return 0, fmt.Errorf("fetch sizes: %w", err)
	}
	maxBytes := p.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	kept := 0
	for _, s := range sizes {
		if ctx.Err() != nil {
			return kept, nil
		}
		limit := int64(0)
		if s.RFC822Size > maxBytes {
			p.Log.WarnContext(ctx, "imap: message too large; keeping its start only", "uid", s.UID, "bytes", s.RFC822Size)
			limit = maxBytes + 1
		}
		stored, err := p.keep(ctx, c, s.UID, limit)
		if err != nil {
			return kept, err
		}
		if stored {
			kept++
		}
		if err := p.putAside(c, s.UID); err != nil {
			return kept, err
		}
	}
	return kept, nil
}

// keep fetches one message, or its first limit bytes if limit > 0, and
// keeps it in the Inbox; false when it was kept before, or is for no reply
// address.
func (p *Poller) keep(ctx context.Context, c *imapclient.Client, uid imap.UID, limit int64) (bool, error) {
	body := &imap.FetchItemBodySection{Peek: true}
	if limit > 0 {
		body.Partial = &imap.SectionPartial{Size: limit}
	}
	msgs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return false, fmt.Errorf("fetch message %d: %w", uid, err)
	}
	if len(msgs) != 1 {
		return false, nil // expunged meanwhile
	}
	raw := msgs[0].FindBodySection(body)
	rcpt, from := p.envelope(raw)
	if rcpt == "" {
		p.Log.InfoContext(ctx, "imap: message for no reply address; put aside", "uid", uid)
		return false, nil
	}
	stored, err := p.Inbox.StoreInbound(context.WithoutCancel(ctx), domain.InboundMail{DedupeKey: DedupeKey(raw, rcpt),
		Source: SourceIMAP, Recipient: rcpt, EnvelopeFrom: from, Raw: raw, ReceivedAt: p.Now()})
	if err != nil {
		return false, fmt.Errorf("keep message %d: %w", uid, err)
	}
	p.Log.InfoContext(ctx, "imap: message received", "uid", uid, "rcpt", rcpt, "bytes", len(raw), "duplicate", !stored)
	return stored, nil
}

// putAside moves a message to ProcessedMailbox, or flags it.
func (p *Poller) putAside(c *imapclient.Client, uid imap.UID) error {
	if p.ProcessedMailbox != "" {
		if _, err := c.Move(imap.UIDSetNum(uid), p.ProcessedMailbox).Wait(); err != nil {
			return fmt.Errorf("move message %d to %s: %w", uid, p.ProcessedMailbox, err)
		}
		return nil
	}
	err := c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true,
		Flags: []imap.Flag{imap.FlagSeen, ProcessedKeyword}}, nil).Close()
	if err != nil {
		return fmt.Errorf("flag message %d: %w", uid, err)
	}
	return nil
}

// envelope reads what the mailbox's server kept of the SMTP envelope: the
// recipient, the first reply address among Delivered-To, X-Original-To,
// To and Cc ("" if none), and the sender, from Return-Path ("" for the
// null sender <>), or, without one, From.
func (p *Poller) envelope(raw []byte) (rcpt, from string) {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw[:min(len(raw), headerLimit)])))
	if err != nil {
		return "", ""
	}
	for _, key := range []string{"Delivered-To", "X-Original-To", "To", "Cc"} {
		for _, v := range h.Values(key) {
			list, _ := mail.ParseAddressList(v)
			for _, a := range list {
				if rcpt == "" && p.Accept(a.Address) {
					rcpt = a.Address
				}
			}
		}
	}
	if h.Has("Return-Path") {
		return rcpt, strings.ToLower(strings.Trim(strings.TrimSpace(h.Get("Return-Path")), "<>"))
	}
	if list, err := mail.ParseAddressList(h.Get("From")); err == nil && len(list) > 0 {
		return rcpt, strings.ToLower(list[0].Address)
	}
	return rcpt, "unknown"
}
