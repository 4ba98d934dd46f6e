package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/notify/inbound"
	"github.com/lesspost/lesspost/notify/mailin"
	"github.com/lesspost/lesspost/repo"
)

// InboundConfig says how replies to game emails reach the server: an SMTP
// listener, an IMAP mailbox, or neither (another instance receives them;
// every instance with --reply-address processes what any received).
type InboundConfig struct {
	// ListenAddr, if set, serves SMTP there (the MX of the reply
	// addresses' domain, or a relay's next hop).
	ListenAddr string
	// TLSCert and TLSKey, if set, offer STARTTLS on it.
	TLSCert, TLSKey string
	// LimitIP bounds the messages one client address may send.
	LimitIP api.RateLimit
	// MaxConns and MaxConnsIP bound the listener's connections, in all and
	// per client address; IdleTimeout closes one silent that long.
	MaxConns, MaxConnsIP int
	IdleTimeout          time.Duration
	// TrustedRelays lists, comma-separated, the addresses or prefixes of
	// the domain's own relays, whose mail is counted per envelope sender
	// (see trustedRelays).
	TrustedRelays string
	// IMAPURL, if set, is the mailbox to fetch replies from; its password
	// is IMAPPassword, from the environment only. Never log it.
	IMAPURL      string
	IMAPPassword string
	// IMAPProcessed, if set, is the mailbox kept messages move to.
	IMAPProcessed string
	// IMAPInterval is how often the mailbox is looked at without IDLE.
	IMAPInterval time.Duration
	// AuthServID is the authserv-id of the receiving server's
	// Authentication-Results headers (see mailin.Limits).
	AuthServID string
	// LimitRepliesSeat and LimitRepliesOthers bound the replies played (see
	// games.ReplyLimits): per seat from its own address, and per address
	// from any other.
	LimitRepliesSeat, LimitRepliesOthers api.RateLimit
}

// replyLimits are the limits of replies the use case applies.
func (c InboundConfig) replyLimits() games.ReplyLimits {
	return games.ReplyLimits{
		Seat:   games.ReplyRate{N: c.LimitRepliesSeat.Requests, Per: c.LimitRepliesSeat.Per},
		Others: games.ReplyRate{N: c.LimitRepliesOthers.Requests, Per: c.LimitRepliesOthers.Per},
	}
}

// trustedRelays reads TrustedRelays: addresses (a prefix of one address)
// and prefixes.
func (c InboundConfig) trustedRelays() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for v := range strings.SplitSeq(c.TrustedRelays, ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				return nil, fmt.Errorf("--smtp-listen-trusted-relays %q: want addresses or prefixes, such as 192.0.2.10 or 2001:db8::/64", v)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// imapPasswordEnv holds the IMAP password: a flag would show it to other
// users of the machine.
const imapPasswordEnv = "LESSPOST_IMAP_PASSWORD"

// inboundFlags defines the flags of InboundConfig.
func inboundFlags(fs *flag.FlagSet, c *InboundConfig) {
	fs.StringVar(&c.ListenAddr, "smtp-listen-addr", "", "`address` to receive replies by SMTP on, e.g. :25, as the MX of --reply-address's domain\n(or behind a relay); it takes mail for reply addresses only, at most 1 MiB. Empty turns it off")
	fs.StringVar(&c.TLSCert, "smtp-listen-tls-cert", "", "certificate `file` (PEM) to offer STARTTLS with on --smtp-listen-addr; with --smtp-listen-tls-key")
	fs.StringVar(&c.TLSKey, "smtp-listen-tls-key", "", "private key `file` (PEM) of --smtp-listen-tls-cert")
	fs.TextVar(&c.LimitIP, "limit-smtp-ip", api.RateLimit{Requests: 60, Per: time.Hour}, "messages one client address may send to --smtp-listen-addr, as `N/duration`")
	fs.IntVar(&c.MaxConns, "smtp-listen-max-conns", inbound.DefaultMaxConns, "connections --smtp-listen-addr holds open at once; more are answered 421")
	fs.IntVar(&c.MaxConnsIP, "smtp-listen-max-conns-ip", inbound.DefaultMaxConnsPerClient, "connections --smtp-listen-addr holds open at once from one client address; more are answered 421")
	fs.StringVar(&c.TrustedRelays, "smtp-listen-trusted-relays", "", "comma-separated `addresses` or prefixes (192.0.2.10, 2001:db8::/64) of your own relays in front of\n--smtp-listen-addr: their mail counts against --limit-smtp-ip per envelope sender, and\n--smtp-listen-max-conns-ip does not bound them. Empty: every client counts by its address")
	fs.DurationVar(&c.IdleTimeout, "smtp-listen-idle-timeout", inbound.DefaultIdleTimeout, "how long a connection to --smtp-listen-addr may stay silent before it is closed")
	fs.StringVar(&c.IMAPURL, "imap-url", "", "mailbox to fetch replies from, as `URL` imaps://user@host:993/INBOX (imap:// for STARTTLS), for\nwhen mail for --reply-address lands in a hosted mailbox; the password is "+imapPasswordEnv+". Empty turns it off")
	fs.StringVar(&c.IMAPProcessed, "imap-processed-mailbox", "", "`mailbox` to move fetched replies to (created if missing); empty: flag them \\Seen and "+string(inbound.ProcessedKeyword))
	fs.DurationVar(&c.IMAPInterval, "imap-poll-interval", time.Minute, "how often the mailbox is looked at when the server has no IDLE (and now and then when it has)")
	seat, others := games.DefaultReplyLimits.Seat, games.DefaultReplyLimits.Others
	fs.TextVar(&c.LimitRepliesSeat, "limit-replies-seat", api.RateLimit{Requests: seat.N, Per: seat.Per}, "replies a seat's own address may send, as `N/duration`; over it the seat is told once when to send again")
	fs.TextVar(&c.LimitRepliesOthers, "limit-replies-others", api.RateLimit{Requests: others.N, Per: others.Per}, "replies from other addresses (or forged, or unreadable) whose seat's owner is told, per owner, as `N/duration`;\nover it they are dropped")
	fs.StringVar(&c.AuthServID, "mail-authserv-id", "", "`authserv-id` of the Authentication-Results headers the receiving mail server adds: replies it\nsays failed DKIM, SPF or DMARC are refused. The topmost header with it counts; empty: the topmost header")
}

// validate checks the inbound flags; replies need reply addresses.
func (c *InboundConfig) validate(replyAddress string) []error {
	var errs []error
	if (c.ListenAddr != "" || c.IMAPURL != "") && replyAddress == "" {
		errs = append(errs, errors.New("--smtp-listen-addr and --imap-url receive replies: they need --reply-address"))
	}
	if c.ListenAddr != "" {
		if _, _, err := net.SplitHostPort(c.ListenAddr); err != nil {
			errs = append(errs, fmt.Errorf("--smtp-listen-addr %q: want host:port, such as :25", c.ListenAddr))
		}
	}
	if c.MaxConns < 1 || c.MaxConnsIP < 1 {
		errs = append(errs, fmt.Errorf("--smtp-listen-max-conns %d, --smtp-listen-max-conns-ip %d: want at least 1", c.MaxConns, c.MaxConnsIP))
	}
	if _, err := c.trustedRelays(); err != nil {
		errs = append(errs, err)
	}
	if c.IdleTimeout < time.Second {
		errs = append(errs, fmt.Errorf("--smtp-listen-idle-timeout %v: want at least 1s", c.IdleTimeout))
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		errs = append(errs, errors.New("--smtp-listen-tls-cert and --smtp-listen-tls-key: give both or neither"))
	}
	if c.IMAPURL != "" {
		if _, err := inbound.ParseIMAPURL(c.IMAPURL); err != nil {
			errs = append(errs, fmt.Errorf("--imap-url: %w", err))
		}
		if c.IMAPPassword == "" {
			errs = append(errs, fmt.Errorf("--imap-url: give the password in %s", imapPasswordEnv))
		}
	}
	if c.IMAPInterval < time.Second {
		errs = append(errs, fmt.Errorf("--imap-poll-interval %v: want at least 1s", c.IMAPInterval))
	}
	return errs
}

// logAttrs are what the log shows of the inbound configuration.
func (c InboundConfig) logAttrs() []slog.Attr {
	return []slog.Attr{
		slog.String("smtp_listen_addr", c.ListenAddr),
		slog.Bool("smtp_listen_tls", c.TLSCert != ""),
		slog.String("limit_smtp_ip", c.LimitIP.String()),
		slog.Int("smtp_listen_max_conns", c.MaxConns),
		slog.Int("smtp_listen_max_conns_ip", c.MaxConnsIP),
		slog.Duration("smtp_listen_idle_timeout", c.IdleTimeout),
		slog.String("smtp_listen_trusted_relays", c.TrustedRelays),
		slog.String("imap_url", c.IMAPURL),
		slog.String("imap_processed_mailbox", c.IMAPProcessed),
		slog.String("mail_authserv_id", c.AuthServID),
		slog.String("limit_replies_seat", c.LimitRepliesSeat.String()),
		slog.String("limit_replies_others", c.LimitRepliesOthers.String()),
	}
}

// inboundWorkers are the receivers the configuration asks for and the
// processor of what they (or other instances) receive; none without reply
// addresses. queued wakes the outbox.
func inboundWorkers(cfg Config, db repo.Store, app *games.Service, links *api.Links, claimant string,
	log *slog.Logger, queued func()) ([]func(context.Context) error, error) {
	if cfg.ReplyAddress == "" {
		return nil, nil
	}
	seat := func(addr string) (games.Reply, error) {
		t, err := links.ParseReplyAddress(addr)
		return games.Reply{GameID: t.GameID, Color: t.Color, Ply: t.Ply}, err
	}
	accept := func(addr string) bool {
		_, err := links.ParseReplyAddress(addr)
		return err == nil
	}
	c := cfg.Inbound
	proc := inbound.NewProcessor(db, app, seat, claimant+"/inbound", log, time.Now)
	proc.Limits = mailin.Limits{MaxBytes: inbound.DefaultMaxBytes, AuthServID: c.AuthServID}
	proc.Queued = queued
	workers := []func(context.Context) error{proc.Run}
	if c.ListenAddr != "" {
		relays, err := c.trustedRelays()
		if err != nil {
			return nil, err
		}
		l := &inbound.Listener{Inbox: db, Accept: accept, Limiter: db, Rate: inbound.Rate{N: c.LimitIP.Requests, Per: c.LimitIP.Per},
			Domain: mailHost(cfg.BaseURL), Log: log, Now: time.Now, Stored: proc.Wake,
			MaxConns: c.MaxConns, MaxConnsPerClient: c.MaxConnsIP, Timeout: c.IdleTimeout, TrustedRelays: relays}
		if c.TLSCert != "" {
			cert, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
			if err != nil {
				return nil, fmt.Errorf("--smtp-listen-tls-cert: %w", err)
			}
			l.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		}
		ln, err := net.Listen("tcp", c.ListenAddr)
		if err != nil {
			return nil, fmt.Errorf("smtp listen: %w", err)
		}
		workers = append(workers, func(ctx context.Context) error { return l.Serve(ctx, ln) })
	}
	if c.IMAPURL != "" {
		account, err := inbound.ParseIMAPURL(c.IMAPURL)
		if err != nil {
			return nil, err
		}
		account.Password = c.IMAPPassword
		p := &inbound.Poller{Account: account, ProcessedMailbox: c.IMAPProcessed, Interval: c.IMAPInterval,
			Inbox: db, Accept: accept, Log: log, Now: time.Now, Stored: proc.Wake}
		workers = append(workers, p.Run)
	}
	return workers, nil
}
