package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// client talks to lesspost with one account token: to one server, or, like
// a load balancer, to each of several servers on one database in turn.
type client struct {
	base  string // e.g. http://127.0.0.1:8080, without a trailing slash
	token string
	http  *http.Client
	// bases, if set, are all the servers, base among them: each request
	// goes to the next.
	bases []string
	next  atomic.Uint64
}

// newClient is a client of the servers urls lists, comma-separated.
func newClient(urls string, h *http.Client) *client {
	var bases []string
	for u := range strings.SplitSeq(urls, ",") {
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u != "" {
			bases = append(bases, u)
		}
	}
	c := &client{http: h}
	if len(bases) > 0 {
		c.base = bases[0]
	}
	if len(bases) > 1 {
		c.bases = bases
	}
	return c
}

// server is the base URL of the next request.
func (c *client) server() string {
	if len(c.bases) == 0 {
		return c.base
	}
	return c.bases[(c.next.Add(1)-1)%uint64(len(c.bases))]
}

// newHTTPClient is tuned for many concurrent requests to one host: every
// client goroutine keeps its own connection alive instead of opening new
// ones (the default keeps only 2 idle connections per host).
func newHTTPClient(conns int, timeout time.Duration) *http.Client {
	tr := &http.Transport{
		Proxy:               nil, // never through a proxy: the server is local
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        2*conns + 16,
		MaxIdleConnsPerHost: 2*conns + 16,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
		// The server answers small JSON documents; larger buffers save syscalls.
		WriteBufferSize: 8 << 10,
		ReadBufferSize:  16 << 10,
	}
	return &http.Client{Transport: tr, Timeout: timeout}
}

// apiError is a non-2xx answer: its status and the problem's code.
type apiError struct {
	Status int
	Code   string
	Detail string
}

func (e *apiError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Detail)
}

// kind is the error's class for the summary: "HTTP 409 stale_ply".
func (e *apiError) kind() string {
	if e.Code == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d %s", e.Status, e.Code)
}

// errorKind names an error for counting: the HTTP status and problem code,
// or the class of transport failure.
func errorKind(err error) string {
	var ae *apiError
	var ne net.Error
	switch {
	case errors.As(err, &ae):
		return ae.kind()
	case errors.Is(err, syscall.ECONNREFUSED):
		return "transport: connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "transport: connection reset"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "transport: unexpected EOF"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "transport: timeout"
	case errors.Is(err, errMismatch):
		return "client: state mismatch"
	default:
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return "client: bad JSON"
		}
		return "other: " + firstLine(err.Error(), 80)
	}
}

func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		s = s[:n]
	}
	return s
}

// errMismatch: the server's answer disagrees with what the client expected.
var errMismatch = errors.New("state mismatch")

// do sends one request and returns the status and body. Non-2xx answers
// are returned as *apiError (with the body still returned).
func (c *client) do(ctx context.Context, method, path string, body []byte, header map[string]string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.server()+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, nil, err
	}
	if res.StatusCode >= 300 {
		var p struct {
			Code   string `json:"code"`
			Detail string `json:"detail"`
		}
		_ = json.Unmarshal(data, &p)
		return res.StatusCode, data, &apiError{Status: res.StatusCode, Code: p.Code, Detail: p.Detail}
	}
	return res.StatusCode, data, nil
}

// call sends v as JSON (if not nil) and decodes a 2xx answer into out.
func (c *client) call(ctx context.Context, method, path string, v, out any) error {
	var body []byte
	if v != nil {
		var err error
		if body, err = json.Marshal(v); err != nil {
			return err
		}
	}
	_, data, err := c.do(ctx, method, path, body, nil)
	if err != nil {
		return err
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// tokenResponse is the answer of POST /v1/auth/token.
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	User        struct {
		Email string `json:"email"`
	} `json:"user"`
}

// loginFromLog signs in as email through the API: it asks for a login
// email, waits until the server's log file shows it (a server without SMTP
// prints every email to its log), exchanges the code for an account token,
// and with that makes a personal access token for a day: an account token
// lives 15 minutes, a load run longer. If the server refuses another login
// email (5 per address and hour), the newest code already in the log is
// tried.
func loginFromLog(ctx context.Context, c *client, logFile, email string, wait time.Duration) (string, error) {
	before, err := fileSize(logFile)
	if err != nil {
		return "", fmt.Errorf("--login-from-log: %w", err)
	}
	err = c.call(ctx, "POST", "/v1/auth/login", map[string]string{"email": email, "locale": "en"}, nil)
	var ae *apiError
	from := before
	limited := errors.As(err, &ae) && (ae.Code == "too_many_logins" || ae.Status == 429)
	if limited {
		from = 0 // no new email: the newest one in the log is the best bet
	} else if err != nil {
		return "", fmt.Errorf("request a login email: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		code, err := newestLoginCode(logFile, from, email)
		if err != nil {
			return "", err
		}
		if code != "" {
			var tok tokenResponse
			if err := c.call(ctx, "POST", "/v1/auth/token", map[string]string{"token": code}, &tok); err != nil {
				return "", fmt.Errorf("exchange the login code from %s: %w", logFile, err)
			}
			return personalToken(ctx, c, tok.AccessToken)
		}
		if limited {
			return "", fmt.Errorf("the server refuses more login emails for %s (%s) and %s has none: sign in once with \"loadtest login\" and pass --token", email, ae.Code, logFile)
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no login email to %s in %s after %v: is the server logging there, without --smtp-host, and is its outbox not backlogged?", email, logFile, wait)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// personalToken makes a personal access token for a day, with every scope
// a load run uses, and returns its secret.
func personalToken(ctx context.Context, c *client, accessToken string) (string, error) {
	signedIn := &client{base: c.base, token: accessToken, http: c.http}
	var pat struct {
		Token string `json:"token"`
	}
	err := signedIn.call(ctx, "POST", "/v1/me/tokens", map[string]any{"name": "loadtest", "expires_in_days": 1,
		"scopes": []string{"games:read", "games:play", "games:create", "tournaments:write", "account:read"}}, &pat)
	if err != nil {
		return "", fmt.Errorf("make a personal access token: %w", err)
	}
	return pat.Token, nil
}

func fileSize(name string) (int64, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

var (
	// The LogSender prints "----- email to ADDRESS" ... "----- end of email".
	emailStartRE = regexp.MustCompile(`^----- email to (\S+)\s*$`)
	// The sign-in link carries the token after #t=. The code the text also
	// gives signs in only with its address, a person's way; a script takes
	// the link's token.
	loginLinkRE = regexp.MustCompile(`/login#t=([A-Za-z0-9_-]+)`)
)

// newestLoginCode scans the log file from offset and returns the code of
// the last login email printed to email, or "".
func newestLoginCode(logFile string, offset int64, email string) (string, error) {
	f, err := os.Open(logFile)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return "", err
	}
	return scanLoginCode(f, email)
}

func scanLoginCode(r io.Reader, email string) (string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20) // JSON log lines can be long
	var newest string
	in := false
	for sc.Scan() {
		line := sc.Text()
		if m := emailStartRE.FindStringSubmatch(line); m != nil {
			in = strings.EqualFold(m[1], email)
			continue
		}
		if strings.HasPrefix(line, "----- end of email") {
			in = false
			continue
		}
		if !in {
			continue
		}
		if m := loginLinkRE.FindStringSubmatch(line); m != nil {
			newest = m[1]
		}
	}
	return newest, sc.Err()
}

// signIn returns the account token from --token or --login-from-log.
func signIn(ctx context.Context, c *client, token, logFile, email string) (string, error) {
	if token == "" {
		token = os.Getenv("LOADTEST_TOKEN") // not the flag's default: --help would print it
	}
	switch {
	case token != "":
		return token, nil
	case logFile != "":
		return loginFromLog(ctx, c, logFile, email, 30*time.Second)
	default:
		return "", errors.New("need --token (a personal access token, or LOADTEST_TOKEN) or --login-from-log FILE (the server's log file)")
	}
}

func runLogin(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("login", `Signs in as --email the way play and read do with --login-from-log, and prints
a personal access token of the account (valid a day) on stdout, to pass as --token or LOADTEST_TOKEN
to later runs: the server sends at most 5 login emails per address and hour.`, stderr)
	url := fs.String("url", "http://127.0.0.1:8080", "the server's base `URL`")
	logFile := fs.String("login-from-log", "", "the server's log `file` (required)")
	email := fs.String("email", "loadtest@example.org", "the account's email `address`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *logFile == "" {
		return errors.New("--login-from-log is required")
	}
	c := &client{base: strings.TrimRight(*url, "/"), http: newHTTPClient(1, 10*time.Second)}
	token, err := loginFromLog(ctx, c, *logFile, *email, 30*time.Second)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, token)
	return nil
}
