package main

import (
	"bytes"
	"errors"
	"flag"
	"log/slog"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
	"github.com/lesspost/lesspost/notify"
)

func TestLoadConfig(t *testing.T) {
	defaults := Config{
		Addr:    ":8080",
		DB:      "lesspost.db",
		BaseURL: "http://localhost:8080",
		SMTP:    SMTPConfig{Port: 587, TLS: "starttls", RetryDelay: 30 * time.Second, Attempts: 8, Lease: notify.DefaultLease},

		SchedulerInterval: 30 * time.Second,
		TournamentLog:     tournaments.DefaultLog,
		MailRetention:     30 * 24 * time.Hour,
		LogLevel:          slog.LevelInfo,
		RateLimits: api.RateLimits{Login: api.DefaultRateLimits.Login, Token: api.DefaultRateLimits.Token,
			CreateGameIP: api.DefaultRateLimits.CreateGameIP, CreateGameAccount: api.DefaultRateLimits.CreateGameAccount,
			SeatLinkIP: api.DefaultRateLimits.SeatLinkIP, SeatLinkAccount: api.DefaultRateLimits.SeatLinkAccount,
			TournamentIP: api.DefaultRateLimits.TournamentIP, TournamentAccount: api.DefaultRateLimits.TournamentAccount,
			WebhookPingAccount:      api.DefaultRateLimits.WebhookPingAccount,
			WebhookRedeliverAccount: api.DefaultRateLimits.WebhookRedeliverAccount},
		MailLimits:   domain.DefaultMailLimits,
		StreamLimits: api.DefaultStreamLimits,
		Inbound: InboundConfig{LimitIP: api.RateLimit{Requests: 60, Per: time.Hour}, IMAPInterval: time.Minute,
			MaxConns: 100, MaxConnsIP: 10, IdleTimeout: time.Minute,
			LimitRepliesSeat: api.RateLimit{Requests: 60, Per: time.Hour}, LimitRepliesOthers: api.RateLimit{Requests: 10, Per: 24 * time.Hour}},
		SQLiteWALLimit:         4,
		PostgresConnectTimeout: 5 * time.Second, PostgresStatementTimeout: 5 * time.Second, RequestTimeout: 15 * time.Second,
	}
	secret := strings.Repeat("s", 32)
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    func(*Config) // applied to defaults; nil if an error is wanted
		wantErr error         // checked with errors.Is when not nil
	}{
		{name: "defaults", want: func(*Config) {}},
		{
			name: "mail retry policy",
			env:  map[string]string{"LESSPOST_MAIL_RETRY_DELAY": "2s", "LESSPOST_MAIL_ATTEMPTS": "3", "LESSPOST_MAIL_LEASE": "1m"},
			want: func(c *Config) { c.SMTP.RetryDelay, c.SMTP.Attempts, c.SMTP.Lease = 2*time.Second, 3, time.Minute },
		},
		{
			name: "environment",
			env: map[string]string{
				"LESSPOST_ADDR": "127.0.0.1:9000", "LESSPOST_DB": "/var/lib/less.db", "LESSPOST_BASE_URL": "https://less.example.org/",
				"LESSPOST_SECRET": secret, "LESSPOST_SMTP_HOST": "mail.example.org", "LESSPOST_SMTP_PORT": "465",
				"LESSPOST_SMTP_TLS": "tls", "LESSPOST_SMTP_USER": "u", "LESSPOST_SMTP_PASSWORD": "p",
				"LESSPOST_SMTP_FROM": "Less <games@example.org>", "LESSPOST_LOG_LEVEL": "debug",
			},
			want: func(c *Config) {
				c.Addr, c.DB, c.BaseURL, c.Secret = "127.0.0.1:9000", "/var/lib/less.db", "https://less.example.org", secret
				c.SMTP = SMTPConfig{Host: "mail.example.org", Port: 465, TLS: "tls", User: "u", Password: "p", From: "Less <games@example.org>", RetryDelay: 30 * time.Second, Attempts: 8, Lease: notify.DefaultLease}
				c.LogLevel = slog.LevelDebug
			},
		},
		{
			name: "flags win over environment",
			args: []string{"--addr", ":9100", "-smtp-port=2525", "--log-level", "warn"},
			env:  map[string]string{"LESSPOST_ADDR": ":9000", "LESSPOST_SMTP_PORT": "465", "LESSPOST_DB": "env.db"},
			want: func(c *Config) { c.Addr, c.SMTP.Port, c.DB, c.LogLevel = ":9100", 2525, "env.db", slog.LevelWarn },
		},
		{
			name: "trusted proxies",
			env:  map[string]string{"LESSPOST_TRUSTED_PROXIES": "1"},
			want: func(c *Config) { c.TrustedProxies = 1 },
		},
		{
			name: "webhooks to private addresses, by environment",
			env:  map[string]string{"LESSPOST_WEBHOOK_ALLOW_PRIVATE": "true"},
			want: func(c *Config) { c.WebhookAllowPrivate = true },
		},
		{
			name: "webhooks to private addresses, by flag",
			args: []string{"--webhook-allow-private"},
			want: func(c *Config) { c.WebhookAllowPrivate = true },
		},
		{
			name: "webhooks and push to private addresses, by flag",
			args: []string{"--egress-allow-private"},
			want: func(c *Config) { c.WebhookAllowPrivate = true },
		},
		{
			name: "webhooks and push to private addresses, by environment",
			env:  map[string]string{"LESSPOST_EGRESS_ALLOW_PRIVATE": "true"},
			want: func(c *Config) { c.WebhookAllowPrivate = true },
		},
		{
			name: "rate limits",
			args: []string{"--limit-games-account", "100/1h", "--limit-token=5/1m", "--limit-webhook-redeliveries-account=200/1h"},
			env: map[string]string{"LESSPOST_LIMIT_LOGIN": "3/90s", "LESSPOST_LIMIT_TOKEN": "7/1h",
				"LESSPOST_LIMIT_TOURNAMENTS_ACCOUNT": "2/48h", "LESSPOST_LIMIT_LINKS_IP": "4/1m",
				"LESSPOST_LIMIT_WEBHOOK_PINGS_ACCOUNT": "6/1h"},
			want: func(c *Config) {
				c.RateLimits.Login = api.RateLimit{Requests: 3, Per: 90 * time.Second}
				c.RateLimits.Token = api.RateLimit{Requests: 5, Per: time.Minute}
				c.RateLimits.CreateGameAccount = api.RateLimit{Requests: 100, Per: time.Hour}
				c.RateLimits.TournamentAccount = api.RateLimit{Requests: 2, Per: 48 * time.Hour}
				c.RateLimits.SeatLinkIP = api.RateLimit{Requests: 4, Per: time.Minute}
				c.RateLimits.WebhookPingAccount = api.RateLimit{Requests: 6, Per: time.Hour}
				c.RateLimits.WebhookRedeliverAccount = api.RateLimit{Requests: 200, Per: time.Hour}
			},
		},
		{
			name: "mail limits",
			args: []string{"--mail-budget", "80", "--limit-mail-requests-ip=90"},
			env:  map[string]string{"LESSPOST_LIMIT_MAIL_PER_STRANGER": "4", "LESSPOST_LIMIT_MAIL_REQUESTS_ACCOUNT": "12"},
			want: func(c *Config) {
				c.MailLimits = domain.MailLimits{RecipientPerDay: 80, PairPerDay: 4, CallerPerHour: 12, ClientPerHour: 90}
			},
		},
		{
			name: "cors origins",
			env:  map[string]string{"LESSPOST_CORS_ORIGINS": "https://app.example.org, http://localhost:5173"},
			want: func(c *Config) { c.CORSOrigins = "https://app.example.org, http://localhost:5173" },
		},
		{name: "cors for any origin", args: []string{"--cors-origins", "*"}, want: func(c *Config) { c.CORSOrigins = "*" }},
		{
			name: "mail retention",
			env:  map[string]string{"LESSPOST_MAIL_RETENTION": "2160h"},
			want: func(c *Config) { c.MailRetention = 90 * 24 * time.Hour },
		},
		{name: "mail retention too short", args: []string{"--mail-retention", "1m"}},
		{name: "help", args: []string{"--help"}, wantErr: flag.ErrHelp},
		{name: "unknown flag", args: []string{"--port", "1"}},
		{name: "positional argument", args: []string{"serve"}},
		{name: "bad number in environment", env: map[string]string{"LESSPOST_SMTP_PORT": "many"}},
		{name: "port out of range", args: []string{"--smtp-port", "0"}},
		{name: "no mail lease", args: []string{"--mail-lease", "0s"}},
		{name: "bad tls mode", args: []string{"--smtp-tls", "ssl"}},
		{name: "bad log level", args: []string{"--log-level", "loud"}},
		{name: "address without port", args: []string{"--addr", "8080"}},
		{name: "empty database path", args: []string{"--db", ""}},
		{name: "base URL without scheme", args: []string{"--base-url", "less.example.org"}},
		{name: "base URL with query", args: []string{"--base-url", "https://less.example.org/?a=b"}},
		{name: "short secret", env: map[string]string{"LESSPOST_SECRET": "hunter2"}},
		{name: "short previous secret", env: map[string]string{"LESSPOST_SECRET": secret + " hunter2"}},
		{
			name: "secret file",
			env:  map[string]string{"LESSPOST_SECRET_FILE": "/run/secrets/lesspost"},
			want: func(c *Config) { c.SecretFile = "/run/secrets/lesspost" },
		},
		{
			name: "secret rotation in the environment",
			env:  map[string]string{"LESSPOST_SECRET": secret + " " + strings.Repeat("o", 32)},
			want: func(c *Config) { c.Secret = secret + " " + strings.Repeat("o", 32) },
		},
		{name: "secret and secret file", args: []string{"--secret-file", "keys"}, env: map[string]string{"LESSPOST_SECRET": secret}},
		{name: "secret on the command line", args: []string{"--secret", "hunter2hunter2hunter2hunter2hunter2"}},
		{name: "secret on the command line, with =", args: []string{"-secret=hunter2hunter2hunter2hunter2hunter2"}},
		{name: "smtp host without sender", args: []string{"--smtp-host", "mail.example.org"}},
		{name: "bad sender", args: []string{"--smtp-from", "not an address"}},
		{name: "user without password", args: []string{"--smtp-user", "u"}},
		{name: "negative trusted proxies", args: []string{"--trusted-proxies", "-1"}},
		{
			name: "stream limits",
			args: []string{"--limit-streams-credential", "3"}, env: map[string]string{"LESSPOST_LIMIT_STREAMS_IP": "100"},
			want: func(c *Config) { c.StreamLimits = api.StreamLimits{Credential: 3, IP: 100} },
		},
		{name: "no streams", args: []string{"--limit-streams-ip", "0"}},
		{
			name: "tournament log", env: map[string]string{"LESSPOST_TOURNAMENT_LOG_ENTRIES": "500"},
			want: func(c *Config) { c.TournamentLog = 500 },
		},
		{name: "tiny tournament log", args: []string{"--tournament-log-entries", "5"}},
		{
			name: "sqlite wal limit", env: map[string]string{"LESSPOST_SQLITE_WAL_LIMIT": "16"},
			want: func(c *Config) { c.SQLiteWALLimit = 16 },
		},
		{name: "no sqlite wal limit", args: []string{"--sqlite-wal-limit", "0"}},
		{
			name: "timeouts",
			args: []string{"--postgres-connect-timeout", "2s", "--request-timeout", "1m"},
			env:  map[string]string{"LESSPOST_POSTGRES_STATEMENT_TIMEOUT": "3s"},
			want: func(c *Config) {
				c.PostgresConnectTimeout, c.PostgresStatementTimeout, c.RequestTimeout = 2*time.Second, 3*time.Second, time.Minute
			},
		},
		{name: "no statement timeout", args: []string{"--postgres-statement-timeout", "0s"}},
		{name: "request timeout too short", args: []string{"--request-timeout", "10ms"}},
		{name: "profiler on a public address", args: []string{"--pprof-addr", ":6060"}},
		{name: "profiler on a LAN address", args: []string{"--pprof-addr", "192.168.1.2:6060"}},
		{
			name: "metrics on any address",
			env:  map[string]string{"LESSPOST_METRICS_ADDR": ":9090"},
			want: func(c *Config) { c.MetricsAddr = ":9090" },
		},
		{name: "metrics without a port", args: []string{"--metrics-addr", "9090"}},
		{name: "metrics on the API's address", args: []string{"--metrics-addr", ":8080"}},
		{name: "rate limit of no requests", args: []string{"--limit-login", "0/1h"}},
		{name: "cors origin with a path", args: []string{"--cors-origins", "https://app.example.org/"}},
		{name: "cors origin without scheme", args: []string{"--cors-origins", "app.example.org"}},
		{name: "cors origin of another scheme", args: []string{"--cors-origins", "ftp://app.example.org"}},
		{name: "cors origin pattern", args: []string{"--cors-origins", "https://*.example.org"}},
		{name: "cors origin in capitals", env: map[string]string{"LESSPOST_CORS_ORIGINS": "https://App.example.org"}},
		{name: "one bad cors origin of two", args: []string{"--cors-origins", "https://a.example.org,null"}},
		{name: "rate limit without duration", env: map[string]string{"LESSPOST_LIMIT_GAMES_IP": "60"}},
		{name: "vapid subject mailto", args: []string{"--vapid-subject", "mailto:ops@example.org"},
			want: func(c *Config) { c.VAPIDSubject = "mailto:ops@example.org" }},
		{name: "vapid subject https", env: map[string]string{"LESSPOST_VAPID_SUBJECT": "https://less.example.org"},
			want: func(c *Config) { c.VAPIDSubject = "https://less.example.org" }},
		{name: "vapid subject without scheme", args: []string{"--vapid-subject", "ops@example.org"}},
		{name: "vapid subject over http", args: []string{"--vapid-subject", "http://less.example.org"}},
		{
			name: "replies by SMTP",
			args: []string{"--reply-address", "play@less.example.org", "--smtp-listen-addr", ":25", "--limit-smtp-ip", "10/1m",
				"--smtp-listen-tls-cert", "cert.pem", "--smtp-listen-tls-key", "key.pem", "--mail-authserv-id", "mx.less.example.org",
				"--smtp-listen-max-conns", "20", "--smtp-listen-idle-timeout", "30s"},
			env: map[string]string{"LESSPOST_SMTP_LISTEN_MAX_CONNS_IP": "4", "LESSPOST_SMTP_LISTEN_TRUSTED_RELAYS": "192.0.2.10, 2001:db8::/64"},
			want: func(c *Config) {
				c.ReplyAddress = "play@less.example.org"
				c.Inbound.ListenAddr, c.Inbound.TLSCert, c.Inbound.TLSKey = ":25", "cert.pem", "key.pem"
				c.Inbound.LimitIP, c.Inbound.AuthServID = api.RateLimit{Requests: 10, Per: time.Minute}, "mx.less.example.org"
				c.Inbound.MaxConns, c.Inbound.MaxConnsIP, c.Inbound.IdleTimeout = 20, 4, 30*time.Second
				c.Inbound.TrustedRelays = "192.0.2.10, 2001:db8::/64"
			},
		},
		{name: "smtp listener trusting a host name", args: []string{"--reply-address", "play@x.org", "--smtp-listen-trusted-relays", "relay.example.org"}},
		{name: "smtp listener without connections", args: []string{"--reply-address", "play@x.org", "--smtp-listen-max-conns-ip", "0"}},
		{name: "smtp listener idle timeout too short", args: []string{"--reply-address", "play@x.org", "--smtp-listen-idle-timeout", "10ms"}},
		{
			name: "replies by IMAP",
			args: []string{"--reply-address", "play@less.example.org", "--imap-processed-mailbox", "Done", "--limit-replies-seat", "100/2h"},
			env: map[string]string{"LESSPOST_IMAP_URL": "imaps://play@imap.example.org/INBOX", "LESSPOST_IMAP_PASSWORD": "pw",
				"LESSPOST_IMAP_POLL_INTERVAL": "30s", "LESSPOST_LIMIT_REPLIES_OTHERS": "3/1h"},
			want: func(c *Config) {
				c.ReplyAddress = "play@less.example.org"
				c.Inbound.IMAPURL, c.Inbound.IMAPPassword, c.Inbound.IMAPProcessed = "imaps://play@imap.example.org/INBOX", "pw", "Done"
				c.Inbound.IMAPInterval = 30 * time.Second
				c.Inbound.LimitRepliesSeat = api.RateLimit{Requests: 100, Per: 2 * time.Hour}
				c.Inbound.LimitRepliesOthers = api.RateLimit{Requests: 3, Per: time.Hour}
			},
		},
		{name: "smtp listener without reply addresses", args: []string{"--smtp-listen-addr", ":25"}},
		{name: "smtp listener without port", args: []string{"--reply-address", "play@x.org", "--smtp-listen-addr", "25"}},
		{name: "smtp listener certificate without key", args: []string{"--reply-address", "play@x.org", "--smtp-listen-tls-cert", "c.pem"}},
		{name: "imap without password", args: []string{"--reply-address", "play@x.org", "--imap-url", "imaps://u@h/INBOX"}},
		{name: "imap password in the URL", args: []string{"--reply-address", "play@x.org", "--imap-url", "imaps://u:pw@h/INBOX"},
			env: map[string]string{"LESSPOST_IMAP_PASSWORD": "pw"}},
		{name: "imap of another scheme", args: []string{"--reply-address", "play@x.org", "--imap-url", "pop3://u@h/"},
			env: map[string]string{"LESSPOST_IMAP_PASSWORD": "pw"}},
		{name: "imap in the clear to another host", args: []string{"--reply-address", "play@x.org", "--imap-url", "imap+insecure://u@h/"},
			env: map[string]string{"LESSPOST_IMAP_PASSWORD": "pw"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := loadConfig(tt.args, func(k string) string { return tt.env[k] })
			if tt.want == nil {
				if err == nil {
					t.Fatalf("loadConfig succeeded with %+v, want error", got)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("error = %v, want %v", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("error quotes the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("loadConfig: %v", err)
			}
			want := defaults
			tt.want(&want)
			if got != want {
				t.Errorf("config\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestHelpNamesEveryFlagAndVariable(t *testing.T) {
	var out bytes.Buffer
	printUsage(&out)
	help := out.String()
	newFlagSet(&Config{}).VisitAll(func(f *flag.Flag) {
		for _, s := range []string{"-" + f.Name, envName(f.Name)} {
			if !strings.Contains(help, s) {
				t.Errorf("--help does not mention %s", s)
			}
		}
	})
	if !strings.Contains(help, `(default ":8080")`) {
		t.Errorf("--help does not show defaults:\n%s", help)
	}
}

func TestConfigLogValueHidesSecrets(t *testing.T) {
	var out bytes.Buffer
	cfg := Config{Secret: "the-signing-secret", SMTP: SMTPConfig{Host: "h", Password: "the-smtp-password"},
		Inbound: InboundConfig{IMAPURL: "imaps://u@h/INBOX", IMAPPassword: "the-imap-password"}}
	slog.New(slog.NewJSONHandler(&out, nil)).Info("starting", "config", cfg)
	for _, secret := range []string{cfg.Secret, cfg.SMTP.Password, cfg.Inbound.IMAPPassword} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("log leaks %q: %s", secret, out.String())
		}
	}
}

// Message-IDs are in the domain emails come from, not the web host's.
func TestMessageIDDomain(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"the sender's domain", Config{BaseURL: "https://www.less.example:8443", SMTP: SMTPConfig{From: "Less <Games@Mail.Less.Example>"}}, "mail.less.example"},
		{"a bare sender", Config{BaseURL: "https://www.less.example", SMTP: SMTPConfig{From: "games@less.example"}}, "less.example"},
		{"the reply address without a sender", Config{BaseURL: "https://www.less.example", ReplyAddress: "play@reply.less.example"}, "reply.less.example"},
		{"the sender before the reply address", Config{BaseURL: "https://www.less.example", ReplyAddress: "play@reply.less.example",
			SMTP: SMTPConfig{From: "games@less.example"}}, "less.example"},
		{"the web host without mail", Config{BaseURL: "http://localhost:8080"}, "localhost"},
		{"nothing usable", Config{BaseURL: "not a url"}, "lesspost.invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := messageIDDomain(c.cfg); got != c.want {
				t.Errorf("messageIDDomain = %q, want %q", got, c.want)
			}
		})
	}
}

func TestTrustedRelays(t *testing.T) {
	got, err := InboundConfig{TrustedRelays: " 192.0.2.10, 198.51.100.7/24,2001:db8::1/64,::ffff:192.0.2.11 ,"}.trustedRelays()
	want := []netip.Prefix{netip.MustParsePrefix("192.0.2.10/32"), netip.MustParsePrefix("198.51.100.0/24"),
		netip.MustParsePrefix("2001:db8::/64"), netip.MustParsePrefix("192.0.2.11/32")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("trustedRelays = %v, %v; want %v", got, err, want)
	}
}
