// Package egress guards the requests lesspost makes to addresses its users
// name (webhook endpoints, later Web Push services) against server-side
// request forgery: it refuses URLs whose host is, or resolves to, a
// private, loopback, link-local or otherwise non-public address, both when
// a URL is registered and again when a connection is made, so that a DNS
// answer that changes after registration (DNS rebinding) reaches nothing
// inside. Its HTTP client follows no redirects and ignores proxy settings.
package egress

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrRefused is what every refusal wraps.
var ErrRefused = errors.New("refused")

// refused are the ranges no request may reach, beyond what netip's
// predicates name (loopback, private, link-local, multicast, unspecified).
var refused = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT (RFC 6598)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // TEST-NET-1
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // TEST-NET-2
	netip.MustParsePrefix("203.0.113.0/24"),  // TEST-NET-3
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001::/23"),       // IETF protocol assignments (Teredo, ORCHID, …)
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("3fff::/20"),       // documentation (RFC 9637)
	netip.MustParsePrefix("2002::/16"),       // 6to4: embeds any IPv4 address
	netip.MustParsePrefix("fc00::/7"),        // unique local (ULA)
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

// Embedded IPv4: the IPv6 forms that carry an IPv4 address in their last
// 32 bits, judged as that address. IPv4-mapped ::ffff:0:0/96 is what
// Unmap undoes.
var embedsIPv4 = []netip.Prefix{
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64 (RFC 6052)
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated), also :: and ::1
	netip.MustParsePrefix("::ffff:0:0:0/96"), // SIIT IPv4-translated (RFC 7915)
}

// globalUnicast is the only IPv6 space allocated for global unicast: the
// rest (3fff::/20 aside, refused above) is reserved or special, such as
// 5f00::/16 (SRv6 SIDs) and 100::/64, and new special ranges keep being
// carved out of it.
var globalUnicast = netip.MustParsePrefix("2000::/3")

// Check refuses an address lesspost must not connect to: anything but a
// public unicast address. IPv6 addresses that embed an IPv4 address
// (IPv4-mapped, IPv4-compatible, SIIT, NAT64) are judged as the IPv4
// address they carry; other IPv6 addresses must be global unicast
// (2000::/3) outside the special ranges. The refusal names the address,
// which the caller gave: callers that resolved it must not pass it on.
func Check(a netip.Addr) error {
	a = a.WithZone("").Unmap()
	for _, p := range embedsIPv4 {
		if a.Is6() && p.Contains(a) {
			b := a.As16()
			a = netip.AddrFrom4([4]byte(b[12:]))
			break
		}
	}
	switch {
	case !a.IsValid():
		return fmt.Errorf("%w: not an IP address", ErrRefused)
	case a.Is6() && !globalUnicast.Contains(a),
		a.IsLoopback(), a.IsPrivate(), a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast(),
		a.IsMulticast(), a.IsUnspecified():
		return fmt.Errorf("%w: %s is not a public address", ErrRefused, a)
	}
	for _, p := range refused {
		if p.Contains(a) {
			return fmt.Errorf("%w: %s is not a public address", ErrRefused, a)
		}
	}
	return nil
}

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Guard decides where lesspost may send requests.
type Guard struct {
	// AllowPrivate allows every address and plain http: for tests and
	// private deployments whose receivers sit on the same network.
	AllowPrivate bool
	// Resolver resolves hosts, at registration and at connect time; nil
	// is net.DefaultResolver.
	Resolver Resolver
	// Log gets the details of refusals of resolved names (the name and
	// its addresses), which the refusal itself does not carry; nil is
	// slog.Default().
	Log *slog.Logger
}

// errHostRefused is the refusal of a name by what it resolves to. It is the
// same whether the name does not resolve or resolves inside, and names
// neither the host nor its addresses: the refusal reaches the account
// (in the 422 answer, in the delivery log), which must not learn what the
// server's DNS knows about names inside its network, not even which exist.
var errHostRefused = fmt.Errorf("%w: the URL's host does not resolve, or resolves to a non-public address", ErrRefused)

func (g *Guard) log() *slog.Logger {
	if g.Log == nil {
		return slog.Default()
	}
	return g.Log
}

func (g *Guard) resolver() Resolver {
	if g.Resolver == nil {
		return net.DefaultResolver
	}
	return g.Resolver
}

// CheckURL refuses a URL lesspost must not call: not absolute https (http
// too with AllowPrivate), with credentials, or a host any of whose
// addresses Check refuses. It resolves the host: a name that does not
// resolve is refused too.
func (g *Guard) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%w: not a URL", ErrRefused)
	}
	switch {
	case u.Scheme != "https" && !(g.AllowPrivate && u.Scheme == "http"):
		return fmt.Errorf("%w: the URL must start with https://", ErrRefused)
	case u.Host == "" || u.Opaque != "":
		return fmt.Errorf("%w: the URL has no host", ErrRefused)
	case u.User != nil:
		return fmt.Errorf("%w: the URL must not carry a user or password", ErrRefused)
	case u.Fragment != "":
		return fmt.Errorf("%w: the URL must not have a #fragment", ErrRefused)
	}
	if g.AllowPrivate {
		return nil
	}
	_, err = g.resolve(ctx, u.Hostname())
	return err
}

// resolve gives a host's addresses, refusing the host if any is refused:
// a name with one private address among public ones could be made to
// reach it. A refused name is refused with errHostRefused, and the details
// go to the server's log only.
func (g *Guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, Check(a) // the caller's own literal: naming it tells nothing
	}
	if strings.HasSuffix(strings.ToLower(strings.TrimSuffix(host, ".")), ".localhost") ||
		strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return nil, fmt.Errorf("%w: the URL's host is this machine", ErrRefused)
	}
	addrs, err := g.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil {
		g.log().InfoContext(ctx, "egress refused: the host does not resolve", "host", host, "error", err)
		return nil, errHostRefused
	}
	if len(addrs) == 0 {
		g.log().InfoContext(ctx, "egress refused: the host has no address", "host", host)
		return nil, errHostRefused
	}
	for _, a := range addrs {
		if err := Check(a); err != nil {
			g.log().WarnContext(ctx, "egress refused: the host resolves to a non-public address",
				"host", host, "addresses", addrs, "refused", a.String())
			return nil, errHostRefused
		}
	}
	return addrs, nil
}

// DialContext connects to addr (host:port) if the guard allows it: the
// host is resolved now, every address checked, and the connection made to
// a checked address; the socket's own Control checks the address it
// connects to once more, so nothing reaches an address Check refuses.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if g.AllowPrivate {
		return d.DialContext(ctx, network, addr)
	}
	d.Control = func(network, address string, _ syscall.RawConn) error { return g.control(network, address) }
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var first error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// control refuses a socket about to connect to a refused address. The
// address was resolved (and checked) by DialContext, so the refusal is
// errHostRefused, and the address goes to the server's log only.
func (g *Guard) control(network, address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err == nil {
		err = Check(ap.Addr())
	}
	if err != nil {
		g.log().Warn("egress refused a connection", "network", network, "address", address, "error", err)
		return errHostRefused
	}
	return nil
}

// Client is an HTTP client for requests to user-named URLs: it connects
// only where the guard allows, follows no redirect (the response is the
// redirect itself), ignores HTTP_PROXY and the like, and gives up after
// timeout.
func (g *Guard) Client(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           g.DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          100,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: timeout,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
